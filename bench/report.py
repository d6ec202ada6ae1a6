"""Runs every benchmark and prints BENCHMARKS.md: the C figures (bench.c), the Python figures
(through ctypes, against pure Python on the same data), and the machine they ran on."""
from __future__ import annotations

import importlib.util
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO / "bindings" / "python"))

import coinfolio  # noqa: E402

try:
    import orjson
except ImportError:  # the orjson anchor row is left out
    orjson = None


def interleaved(ours, anchor, rounds: int = 31, per_round: int = 1) -> tuple[float, float]:
    """Medians of seconds per call of `ours` and `anchor`, interleaved A/B then B/A round after
    round (CPU time of this thread: the calls are synchronous, and this machine is shared)."""
    a, b = [], []
    for r in range(rounds):
        for first in (0, 1):
            body, samples = ((ours, a), (anchor, b))[(first + r) % 2]
            start = time.thread_time()
            for _ in range(per_round):
                body()
            samples.append((time.thread_time() - start) / per_round)
    return statistics.median(a), statistics.median(b)


def pure_python_portfolio(coins_by_id, holdings):
    """The portfolio a host would compute in Python from the same dicts: each held coin joined
    with its market row, value = amount × price, sorted by value (highest first), ties on id."""
    entries = []
    total = 0.0
    for coin_id, amount in holdings.items():
        coin = coins_by_id.get(coin_id)
        price = coin.get("current_price") if coin else None
        value = amount * price if price is not None else None
        if value is not None:
            total += value
        entry = dict(coin) if coin else {"id": coin_id}
        entry["current_holdings"] = amount
        entry["current_holdings_value"] = value
        entries.append(entry)
    entries.sort(key=lambda e: (e["current_holdings_value"] is None, -(e["current_holdings_value"] or 0.0), e["id"]))
    return {"coins": entries, "total_value": total}


def pure_python_statistics(coins_by_id, holdings, global_data):
    """The four statistics computed in Python from the same dicts (what a host would write)."""
    data = global_data["data"]

    def abbreviated(value):
        for limit, suffix in ((1e12, "Tr"), (1e9, "Bn"), (1e6, "M"), (1e3, "K")):
            if abs(value) >= limit:
                return f"{value / limit:.2f}{suffix}"
        return f"{value:.2f}"

    now = before = 0.0
    for coin_id, amount in holdings.items():
        coin = coins_by_id.get(coin_id)
        if coin is None or coin.get("current_price") is None:
            continue
        value = amount * coin["current_price"]
        change = coin.get("price_change_percentage_24h") or 0.0
        now += value
        before += value / (1 + change / 100)
    return [
        {"title": "Market Cap", "value": "$" + abbreviated(data["total_market_cap"]["usd"]),
         "percentage_change": data["market_cap_change_percentage_24h_usd"]},
        {"title": "24h Volume", "value": "$" + abbreviated(data["total_volume"]["usd"]), "percentage_change": None},
        {"title": "BTC Dominance", "value": f"{data['market_cap_percentage']['btc']:.2f}%", "percentage_change": None},
        {"title": "Portfolio Value", "value": f"${now:,.2f}",
         "percentage_change": (now - before) / before * 100 if before > 0 else None},
    ]


def portfolio_bytes(engine) -> bytes:
    """`cf_engine_portfolio`'s answer without sparklines, unparsed (what `Engine.portfolio` parses)."""
    from coinfolio import _ffi
    with engine._borrow() as pointer:
        return _ffi._call_for_json(_ffi.lib.cf_engine_portfolio, pointer, _ffi.encode_json({"sparkline": False}, "query"))


def python_rows(build: Path) -> list[str]:
    rows = []
    body = (build / "markets-250.json").read_bytes()
    with coinfolio.Engine(database=":memory:") as engine:
        ours, anchor = interleaved(lambda: engine.load(body), lambda: json.loads(body))
        rows.append(f"| ingest from Python: `Engine.load` (250 coins) | {ours * 1e3:.3f} ms | `json.loads` | {anchor * 1e3:.3f} ms | "
                    f"{ours / anchor:.2f}× | {len(body) / 1e6 / ours:.0f} MB/s ours; target ≤ 0.5× |")
        if orjson is not None:
            ours, anchor = interleaved(lambda: engine.load(body), lambda: orjson.loads(body))
            rows.append(f"| ingest from Python: `Engine.load` (250 coins) | {ours * 1e3:.3f} ms | `orjson.loads` | {anchor * 1e3:.3f} ms | "
                        f"{ours / anchor:.2f}× | orjson {len(body) / 1e6 / anchor:.0f} MB/s |")
    big = (build / "markets-15k.json").read_bytes()
    global_body = (REPO / "Tests" / "fixtures" / "coingecko" / "global.json").read_bytes()
    ids = (build / "holdings-15k-1k.txt").read_text().split()
    holdings = {coin_id: 1.0 + n / 7 for n, coin_id in enumerate(ids)}
    coins_by_id = {coin["id"]: coin for coin in json.loads(big)}
    global_data = json.loads(global_body)
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(big, global_body)
        for coin_id, amount in holdings.items():
            engine.set_holding(coin_id, amount)
        ours, anchor = interleaved(lambda: engine.portfolio(sparkline=False),
                                   lambda: pure_python_portfolio(coins_by_id, holdings), rounds=21, per_round=3)
        rows.append(f"| query from Python: `Engine.portfolio` (15,000 coins, 1,000 holdings, no sparkline) | {ours * 1e3:.3f} ms | "
                    f"pure-Python join over dicts | {anchor * 1e3:.3f} ms | {ours / anchor:.2f}× | answers parsed with "
                    f"{coinfolio.JSON_PARSER}; issue 11's target ≤ 1.0×, amended by issue 23 §4 (no row cache in the binding): "
                    "the floor is the next row |")
        # The floor for any binding that parses the answer: the parse alone of the same bytes.
        answer = portfolio_bytes(engine)
        parse = orjson.loads if orjson is not None else json.loads
        ours, anchor = interleaved(lambda: engine.portfolio(sparkline=False), lambda: parse(answer), rounds=21, per_round=3)
        rows.append(f"| query from Python: `Engine.portfolio` (15,000 coins, 1,000 holdings, no sparkline) | {ours * 1e3:.3f} ms | "
                    f"`{coinfolio.JSON_PARSER}.loads` of the same answer ({len(answer) / 1e6:.2f} MB) | {anchor * 1e3:.3f} ms | "
                    f"{ours / anchor:.2f}× | the parse alone: the floor for a binding that parses; ours adds the library's "
                    "join and JSON and the ctypes copy |")
        ours, anchor = interleaved(engine.statistics, lambda: pure_python_statistics(coins_by_id, holdings, global_data),
                                   rounds=21, per_round=20)
        rows.append(f"| query from Python: `Engine.statistics` (1,000 holdings) | {ours * 1e3:.3f} ms | same statistics in pure Python on dicts | "
                    f"{anchor * 1e3:.3f} ms | {ours / anchor:.2f}× | includes ctypes call and JSON parse |")
    return rows


HOME_ANCHOR = r"""
import json, sys
try:
    import orjson
    loads = orjson.loads
except ImportError:
    loads = json.loads
coins = loads(open(sys.argv[1], "rb").read())
held = {line: 1.0 + n / 7 for n, line in enumerate(open(sys.argv[2]).read().split())}
by_id = {c["id"]: c for c in coins}
total = sum(a * (by_id[i].get("current_price") or 0) for i, a in held.items() if i in by_id)
top = sorted((c for c in coins if c.get("market_cap_rank")), key=lambda c: (c["market_cap_rank"], c["id"]))[:20]
for c in top:
    print(c["market_cap_rank"], c["symbol"].upper(), c["name"], f"${c['current_price']:,.2f}")
print(f"Portfolio Value: ${total:,.2f}")
"""


def child_cpu_seconds(command: list[str]) -> float:
    """CPU time (user + system) of one child process run to completion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def snapshot_rows(build: Path) -> list[str]:
    """The saved snapshot and holdings writes (snapshot_bench.c), and `coinfolio-cli --offline
    home` on the same 15k-coin file against a Python script (orjson when installed) that
    answers the same screen from the JSON body; CLI and anchor alternate."""
    tool = str(build / "snapshot_bench")
    database = str(build / "snapshot-15k.sqlite")
    markets, holdings = str(build / "markets-15k.json"), str(build / "holdings-1k.txt")
    subprocess.run([tool, "prepare", database, markets, holdings], check=True)
    rows = subprocess.run([tool, "open", database, markets], check=True, capture_output=True, text=True).stdout.splitlines()
    rows += subprocess.run([tool, "open-rss", database], check=True, capture_output=True, text=True).stdout.splitlines()
    cli = str(Path(os.environ.get("COINFOLIO_LIBRARY", str(REPO / ".build" / "release" / "libcoinfolio.so"))).parent / "coinfolio-cli")
    if not Path(cli).exists():
        raise SystemExit(f"benchmark input missing: {cli} (run `make build CONFIG=release`)")
    ours, anchor = [], []
    for _ in range(9):
        ours.append(child_cpu_seconds([cli, "--db", database, "--offline", "home"]))
        anchor.append(child_cpu_seconds([sys.executable, "-c", HOME_ANCHOR, markets, holdings]))
    parser = "orjson" if importlib.util.find_spec("orjson") else "json"
    o, a = statistics.median(ours), statistics.median(anchor)
    rows.append(f"| cli: `coinfolio-cli --offline home`, 15,000 coins, 1,000 holdings | {o * 1e3:.1f} ms CPU | "
                f"Python script with {parser} answering the same screen from the JSON body | {a * 1e3:.1f} ms CPU | "
                f"{o / a:.3g}× | target ≤ 50 ms CPU; whole process, start-up included |")
    rows += subprocess.run([tool, "writes", str(build)], check=True, capture_output=True, text=True).stdout.splitlines()
    return rows


def async_rows(build: Path) -> list[str]:
    """The async API's hop (bench/async, SPEC §21): awaited queries against the same calls made
    synchronously, interleaved in one process; wall time per call."""
    tool = Path(os.environ.get("COINFOLIO_LIBRARY", str(REPO / ".build" / "release" / "libcoinfolio.so"))).parent / "coinfolio-async-bench"
    if not tool.exists():
        raise SystemExit(f"benchmark input missing: {tool} (run `make bench`)")
    return subprocess.run([str(tool), str(build / "markets-15k.json")], check=True, capture_output=True, text=True).stdout.splitlines()


def import_rows(build: Path) -> list[str]:
    """import_bench's rows: a 100,000-row Binance statement and Coinbase v4 file through
    cf_engine_import against the same ledger rows through sqlite3 (SPEC §22)."""
    return subprocess.run([str(build / "import_bench"), str(build)], check=True, capture_output=True, text=True).stdout.splitlines()


def postgres_rows(build: Path) -> list[str]:
    """postgres_bench's rows, on the cluster bench/Makefile starts (Tests/postgres/with-cluster.sh).
    Without one the run fails: a missing backend is not a figure."""
    url = os.environ.get("COINFOLIO_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit("report.py: COINFOLIO_TEST_POSTGRES_URL is not set; run `make bench`, which starts a PostgreSQL cluster")
    return subprocess.run([str(build / "postgres_bench"), url, str(build)], check=True, capture_output=True,
                          text=True).stdout.splitlines()


def start_chart_server(build: Path) -> "tuple[subprocess.Popen[bytes], str]":
    """The loopback CoinGecko server over bench/build/chart-fixtures (the one-year chart)."""
    server = subprocess.Popen([sys.executable, str(REPO / "Tests" / "server" / "coingecko_server.py"), "--port", "0",
                               "--fixtures", str(build / "chart-fixtures"), "--exit-on-stdin-eof"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdout is not None
    line = server.stdout.readline().decode().strip()
    if not line.startswith("PORT="):
        sys.exit(f"report.py: the loopback server printed {line!r}")
    return server, f"http://127.0.0.1:{line.split('=', 1)[1]}/api/v3"


def main() -> None:
    build = Path(sys.argv[1]).resolve()
    server, base_url = start_chart_server(build)
    try:
        c_rows = subprocess.run([str(build / "bench"), "run", str(build)], check=True, capture_output=True, text=True,
                                env=dict(os.environ, COINFOLIO_BENCH_BASE_URL=base_url)).stdout.splitlines()
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.terminate()
        server.wait()
    memory = subprocess.run([str(build / "bench"), "memory", str(build / "markets-15k.json")], check=True,
                            capture_output=True, text=True).stdout.splitlines()
    memory += subprocess.run([str(build / "bench"), "memory", str(build / "markets-15k.json"), str(build / "memory-file.sqlite")],
                             check=True, capture_output=True, text=True).stdout.splitlines()
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    print("# Benchmarks\n")
    print(f"Measured by `make bench` on {time.strftime('%Y-%m-%d')}: {os.cpu_count()} cores ({cpu}), "
          f"{platform.system()} {platform.release()}, release build. Input: {(build / 'source.txt').read_text().strip()}; "
          "1,000, 15,000 and 100,000 coins generated from it for scaling, queries and memory. Each figure is the median "
          "of interleaved rounds (ours and the anchor alternating, in the same process) of the calling thread's CPU "
          "time; the ratio is ours ÷ the anchor (below 1 is faster than the anchor).\n")
    print("| benchmark | ours | anchor | anchor time | ratio | notes |")
    print("|---|---|---|---|---|---|")
    returns = subprocess.run([str(build / "returns_bench"), str(build)], check=True, capture_output=True, text=True).stdout.splitlines()
    prices = subprocess.run([str(build / "prices_bench"), str(build)], check=True, capture_output=True, text=True).stdout.splitlines()
    for line in c_rows + import_rows(build) + python_rows(build) + memory + postgres_rows(build) + snapshot_rows(build) + prices + returns + async_rows(build):
        print(line)
    print()
    print((BENCH / "NOTES.md").read_text().rstrip())
    # `make bench-service` writes its own section (service_report.py); a `make bench` run keeps it.
    from service_report import existing_section
    previous = REPO / "BENCHMARKS.md"
    section = existing_section(previous.read_text()) if previous.exists() else ""
    if section:
        print()
        print(section)


if __name__ == "__main__":
    main()
