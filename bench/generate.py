"""Writes the benchmark inputs into bench/build/ from the recorded 250-coin body
(../shared/fixtures/coingecko/coins-markets/cryptotracker-top250-sparkline-2024-12.json, 1.3 MB).
Without it the benchmarks cannot mean anything, so this fails loudly instead of inventing a body.

- markets-250.json: the recorded body itself;
- markets-1k.json, markets-15k.json: 1,000 and 15,000 coins made from it (ids and ranks
  renumbered, every 50th unranked), sparklines kept;
- markets-100k.json: 100,000 coins the same way without sparklines (what an app listing that many
  asks for; with them the body would be 0.5 GB);
- holdings-<coins>-<n>.txt: n coin ids of that set, spread evenly, one a line (holdings-1k.txt:
  the 1,000 of the 15,000);
- ledger-100k.csv: 100,000 ledger rows over 1,000 coins (buys, sells, transfers in) in the CSV
  format of SPEC §12, and ledger-markets.json pricing those 1,000 coins.
- import-binance-statement-100k.csv and import-coinbase-v4-100k.csv: 100,000 rows each in the
  exchanges' formats (SPEC §18) for the import benchmark (import_bench.c): deposits, trades split
  over Buy/Sell/Fee rows, interest, staking rewards and withdrawals with their fees; buys, sells,
  converts, staking income and sends;
- chart-fixtures/: the committed loopback-server fixtures, with market_charts.json holding a
  one-year hourly bitcoin chart (8,760 points) made by repeating the recorded 30-day hourly chart
  (../shared/fixtures/coingecko/market-chart/ruby-vcr-btc-30d-hourly.json); without that
  recording the benchmark fails, loudly. For the refresh benchmarks its markets.json is the
  1,000-coin set (a refresh of 4 pages) and its simple_price.json prices the 1,000 held coins of
  holdings-15k-1k.txt (simple-price-1k.json, the same answer, is the anchor's input).
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


def scaled(base: list, count: int, sparkline: bool) -> list:
    coins = []
    for n in range(count):
        coin = copy.copy(base[n % len(base)])
        coin["id"] = f"{coin['id']}-{n}"
        coin["market_cap_rank"] = n + 1 if n % 50 else None
        if not sparkline:
            coin["sparkline_in_7d"] = None
        coins.append(coin)
    return coins


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "bench" / "build")
    if not RECORDED.exists():
        sys.exit(
            f"bench: the recorded input {RECORDED} is missing.\n"
            "The benchmarks measure that real 1.3 MB CoinGecko body; put the shared fixtures beside the\n"
            "checkout (../shared/fixtures/coingecko) and run `make bench` again."
        )
    out.mkdir(parents=True, exist_ok=True)
    body = RECORDED.read_bytes()
    (out / "markets-250.json").write_bytes(body)
    base = json.loads(body.decode("utf-8-sig"))
    sets = {"1k": scaled(base, 1_000, True), "15k": scaled(base, 15_000, True), "100k": scaled(base, 100_000, False)}
    for label, coins in sets.items():
        (out / f"markets-{label}.json").write_text(json.dumps(coins, separators=(",", ":")))
    for label, count in (("15k", 10), ("15k", 1_000), ("15k", 10_000), ("1k", 1_000), ("100k", 1_000)):
        coins = sets[label]
        step = len(coins) // count
        (out / f"holdings-{label}-{count if count < 1000 else str(count // 1000) + 'k'}.txt").write_text(
            "".join(f"{coins[i * step]['id']}\n" for i in range(count))
        )
    # The name earlier benchmarks read (1,000 of the 15,000).
    (out / "holdings-1k.txt").write_text((out / "holdings-15k-1k.txt").read_text())
    (out / "source.txt").write_text(f"recorded: {RECORDED.name}\n")
    chart_fixtures(out)
    refresh_fixtures(out, sets)
    write_ledger(out)
    write_ledger_history(out)
    write_realized(out)
    write_imports(out)


def refresh_fixtures(out: Path, sets: dict) -> None:
    """The loopback server's universe for the refresh benchmarks (see the module docstring)."""
    folder = out / "chart-fixtures"
    (folder / "markets.json").write_text(json.dumps(sets["1k"], separators=(",", ":")))
    by_id = {coin["id"]: coin for coin in sets["15k"]}
    prices = {}
    for n, coin_id in enumerate((out / "holdings-15k-1k.txt").read_text().split()):
        price = by_id[coin_id].get("current_price") or 1.0
        prices[coin_id] = {"usd": price * 1.01, "usd_24h_change": 1.5 + n / 1000, "last_updated_at": 1_734_602_400 + n}
    (folder / "simple_price.json").write_text(json.dumps(prices))
    (out / "simple-price-1k.json").write_text(json.dumps(prices))


def write_ledger(out: Path) -> None:
    """100,000 rows: coin i % 1000, round i // 1000; every fourth round sells 0.5, every tenth
    (offset 5) is a transfer in of 0.25, the rest buy 1 at 100 + round."""
    lines = ["timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"]
    for i in range(100_000):
        coin, rnd = i % 1000, i // 1000
        seconds = 1_704_067_200 + i
        stamp = f"{time_text(seconds)}"
        if rnd % 4 == 3:
            row = f"{stamp},main,coin-{coin},sell,0.5,{150 + rnd}.25,0.1,,row-{i}"
        elif rnd % 10 == 5:
            row = f"{stamp},main,coin-{coin},transfer_in,0.25,,,,row-{i}"
        else:
            row = f"{stamp},main,coin-{coin},buy,1,{100 + rnd}.5,0.05,,row-{i}"
        lines.append(row)
    (out / "ledger-100k.csv").write_text("\n".join(lines) + "\n")
    markets = [{"id": f"coin-{c}", "symbol": f"c{c}", "name": f"Coin {c}", "current_price": 120 + c / 7} for c in range(1000)]
    (out / "ledger-markets.json").write_text(json.dumps(markets))


def write_ledger_history(out: Path) -> None:
    """SPEC §16's ledger for the pnl benchmark, in the long CSV header: 100,000 transactions once
    imported over 1,000 coins in "main" and "cold" (which must exist). Row i is coin i % 1000 at
    round i // 1000 (one second apart): about one in 35 a move of the coin after round 0 (2 rows
    of one group; main → cold 0.2, and the coin's next move cold → main 0.1), about one in 9 a buy paying 0.001
    binancecoin as its fee (the import adds its fee row), every fourth round a sell of 0.5, the
    rest buys of 1. A first row buys the binancecoin the fees spend."""
    lines = ["timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id",
             f"{time_text(1_704_067_199)},main,binancecoin,buy,100,250,0,,,,,,"]
    rows, i = 1, 0
    moves: dict = {}
    while rows < 100_000:
        coin, rnd = i % 1000, i // 1000
        stamp = time_text(1_704_067_200 + i)
        if i % 35 == 17 and rnd > 0 and rows + 2 <= 100_000:
            # Out to cold first, then back, alternately: cold always holds what it sends back.
            outbound = moves.get(coin, 0) % 2 == 0
            moves[coin] = moves.get(coin, 0) + 1
            source, target, amount = ("main", "cold", "0.2") if outbound else ("cold", "main", "0.1")
            kept = "0.2" if outbound else "0.1"
            lines.append(f"{stamp},{source},coin-{coin},transfer_out,{amount},,0,,,,,,m{i}")
            lines.append(f"{stamp},{target},coin-{coin},transfer_in,{kept},,0,,,,,,m{i}")
            rows += 2
        elif i % 9 == 4 and rows + 2 <= 100_000:
            lines.append(f"{stamp},main,coin-{coin},buy,1,{100 + rnd}.5,0.001,,,binancecoin,300,,")
            rows += 2
        elif rnd % 4 == 3:
            lines.append(f"{stamp},main,coin-{coin},sell,0.5,{150 + rnd}.25,0.1,,,,,,")
            rows += 1
        else:
            lines.append(f"{stamp},main,coin-{coin},buy,1,{100 + rnd}.5,0.05,,,,,,")
            rows += 1
        i += 1
    (out / "ledger-history.csv").write_text("\n".join(lines) + "\n")


def write_realized(out: Path) -> None:
    """SPEC §19's realized benchmark: 200,000 transactions over 100 coins, ten minutes apart from
    2020-01-01: row i is coin i % 100 at round i // 100; even rounds buy 1 at 100.5 + round % 50
    (fee 0.05), odd rounds sell 0.75 at 150.25 (fee 0.1) — 100,000 disposals, a quarter of them
    taking two lots."""
    lines = ["timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"]
    for i in range(200_000):
        coin, rnd = i % 100, i // 100
        stamp = time_text(1_577_836_800 + 600 * i)
        if rnd % 2 == 0:
            lines.append(f"{stamp},main,coin-{coin},buy,1,{100 + rnd % 50}.5,0.05,,")
        else:
            lines.append(f"{stamp},main,coin-{coin},sell,0.75,150.25,0.1,,")
    (out / "realized-200k.csv").write_text("\n".join(lines) + "\n")


#: Tickers of the built-in symbol table the import benchmarks trade (Sources/Coinfolio/Import/SymbolTable.swift).
IMPORT_COINS = ["BTC", "ETH", "SOL", "XRP", "ADA", "DOT", "LINK", "LTC", "BCH", "TRX", "AVAX", "NEAR", "UNI", "ATOM", "XLM",
                "ETC", "FIL", "APT", "ARB", "SUI"]


def write_imports(out: Path) -> None:
    """The two 100,000-row exchange files of the import benchmark (see the module docstring).
    Each keeps every running amount above zero: the statement deposits its USDT and BNB first,
    and each coin is bought before it is sold, sent or withdrawn."""
    start = 1_704_067_200
    rows = ["User_ID,UTC_Time,Account,Operation,Coin,Change,Remark",
            f"10000001,{plain_time(start - 1)},Spot,Deposit,USDT,10000000,",
            f"10000001,{plain_time(start - 1)},Spot,Deposit,BNB,1000,"]
    group = 0
    while len(rows) < 100_001:
        stamp = f"10000001,{plain_time(start + group)},Spot"
        coin = IMPORT_COINS[(group // 10) % len(IMPORT_COINS)]
        step = group % 10
        if step < 6:
            rows += [f"{stamp},Buy,{coin},0.{step + 1}0,", f"{stamp},Buy,USDT,-{100 + step}.25,", f"{stamp},Fee,BNB,-0.0001,"]
        elif step == 6:
            rows += [f"{stamp},Transaction Sold,{coin},-0.5,", f"{stamp},Transaction Revenue,USDT,55.5,",
                     f"{stamp},Transaction Fee,USDT,-0.0555,"]
        elif step == 7:
            rows.append(f"{stamp},Simple Earn Flexible Interest,USDT,0.0123,")
        elif step == 8:
            rows.append(f"{stamp},Staking Rewards,{coin},0.001,")
        else:
            rows += [f"{stamp},Withdraw,{coin},-0.01,to my wallet", f"{stamp},Fee,{coin},-0.0005,"]
        group += 1
    (out / "import-binance-statement-100k.csv").write_text("\n".join(rows[:100_001]) + "\n")

    rows = ["ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,"
            "Total (inclusive of fees and/or spread),Fees and/or Spread,Notes"]
    for n in range(100_000):
        coin = IMPORT_COINS[(n // 10) % len(IMPORT_COINS)]
        other = IMPORT_COINS[(n // 10 + 1) % len(IMPORT_COINS)]
        stamp = f"cb-{n:08d},{plain_time(start + n)} UTC"
        price = 1000 + n % 997
        step = n % 10
        if step < 5:
            rows.append(f'{stamp},Buy,{coin},1,USD,"${price:,}.00","${price:,}.00","${price + 5:,}.00",$5.00,Bought 1 {coin}')
        elif step < 7:
            rows.append(f'{stamp},Sell,{coin},-0.5,USD,"${price:,}.00","-${price // 2:,}.00","-${price // 2 - 3:,}.00",$3.00,')
        elif step == 7:
            rows.append(f'{stamp},Convert,{coin},-1,USD,"${price:,}.00","${price:,}.00","${price:,}.00",$0.00,'
                        f'Converted 1 {coin} to 2.5 {other}')
        elif step == 8:
            rows.append(f'{stamp},Staking Income,{coin},0.01,USD,"${price:,}.00",${price / 100:.2f},${price / 100:.2f},$0.00,')
        else:
            rows.append(f"{stamp},Send,{coin},-0.25,USD,$0.00,$0.00,$0.00,$0.00,")
    (out / "import-coinbase-v4-100k.csv").write_text("\n".join(rows) + "\n")


def plain_time(seconds: int) -> str:
    """`2024-01-01 00:00:00`, as the exchanges write UTC times."""
    import datetime

    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def time_text(seconds: int) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


if __name__ == "__main__":
    main()
