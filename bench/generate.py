"""Writes the benchmark inputs into bench/build/:

- markets-250.json: the largest recorded /coins/markets body (../shared/fixtures/coingecko/
  coins-markets/cryptotracker-top250-sparkline-2024-12.json) when present, else the committed
  fixture repeated to 250 coins;
- markets-15k.json: 15,000 coins made from it (ids and ranks renumbered), for queries at scale;
- holdings-1k.txt: 1,000 coin ids of the 15,000, one a line;
- chart-fixtures/: the committed loopback-server fixtures, with market_charts.json holding a
  one-year hourly bitcoin chart (8,760 points) made by repeating the recorded 30-day hourly chart
  (../shared/fixtures/coingecko/market-chart/ruby-vcr-btc-30d-hourly.json); without that
  recording the benchmark fails, loudly.
"""
from __future__ import annotations

import copy
import json
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO.parent / "shared" / "fixtures" / "coingecko" / "coins-markets" / "cryptotracker-top250-sparkline-2024-12.json"
COMMITTED = REPO / "Tests" / "fixtures" / "coingecko" / "markets.json"
RECORDED_CHART = REPO.parent / "shared" / "fixtures" / "coingecko" / "market-chart" / "ruby-vcr-btc-30d-hourly.json"
HOURS_A_YEAR = 8_760


def chart_fixtures(out: Path) -> None:
    """The server fixtures for the chart benchmark (see the module docstring)."""
    if not RECORDED_CHART.exists():
        sys.exit(f"generate.py: the chart benchmark needs the recorded chart {RECORDED_CHART}; it is missing")
    recorded = json.loads(RECORDED_CHART.read_text())["prices"]
    start = recorded[0][0]
    points = []
    for hour in range(HOURS_A_YEAR):
        value = recorded[hour % len(recorded)][1] * (1 + (hour // len(recorded)) * 0.01)
        points.append([start + hour * 3_600_000, value])
    folder = out / "chart-fixtures"
    folder.mkdir(exist_ok=True)
    for fixture in COMMITTED.parent.glob("*.json"):
        shutil.copy(fixture, folder / fixture.name)
    (folder / "market_charts.json").write_text(json.dumps({"bitcoin": {"prices": points, "market_caps": points, "total_volumes": points}}))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "bench" / "build")
    out.mkdir(parents=True, exist_ok=True)
    if RECORDED.exists():
        body = RECORDED.read_bytes()
        source = f"recorded: {RECORDED.name}"
    else:
        coins = json.loads(COMMITTED.read_text())
        body = json.dumps([dict(c, id=f"{c['id']}-{i}") for i in range(250 // len(coins) + 1) for c in coins][:250]).encode()
        source = "generated from Tests/fixtures/coingecko/markets.json (recorded corpus absent)"
    (out / "markets-250.json").write_bytes(body)
    base = json.loads(body.decode("utf-8-sig"))
    coins = []
    for n in range(15_000):
        coin = copy.copy(base[n % len(base)])
        coin["id"] = f"{coin['id']}-{n}"
        coin["market_cap_rank"] = n + 1 if n % 50 else None
        coins.append(coin)
    (out / "markets-15k.json").write_text(json.dumps(coins))
    (out / "holdings-1k.txt").write_text("".join(f"{coins[i * 15]['id']}\n" for i in range(1000)))
    (out / "source.txt").write_text(source + "\n")
    chart_fixtures(out)


if __name__ == "__main__":
    main()
