#!/usr/bin/env python3
"""What an engine handle costs in memory (issue 31, finding 9): opens N engines on one SQLite file
(a saved 250-coin snapshot with sparklines, and a small ledger), each answering one statistics and
one portfolio query, and prints the resident memory per handle beyond the first (the shared data:
loaded libraries, the first open's caches). A probe, not a test: it prints figures and asserts
only the 100 KB target when --check is given (`make probe-handles`).

    COINFOLIO_LIBRARY=.build/release/libcoinfolio.so python3 Tests/probes/handles.py [--handles N] [--check]
"""
from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bindings" / "python"))

import coinfolio  # noqa: E402

SHARED_MARKETS = REPO.parent / "shared" / "fixtures" / "coingecko" / "coins-markets" / "cryptotracker-top250-sparkline-2024-12.json"
SMALL_MARKETS = REPO / "Tests" / "fixtures" / "coingecko" / "markets.json"
GLOBAL = REPO / "Tests" / "fixtures" / "coingecko" / "global.json"
TARGET_BYTES = 100 * 1024

libc = ctypes.CDLL(ctypes.util.find_library("c"))
sqlite = ctypes.CDLL(ctypes.util.find_library("sqlite3"))
sqlite.sqlite3_memory_used.restype = ctypes.c_int64


def start_server():  # the loopback CoinGecko server, for --refresh
    import subprocess
    sys.path.insert(0, str(REPO / "bindings" / "python" / "tests"))
    from conftest import LoopbackServer

    process = subprocess.Popen(
        [sys.executable, str(REPO / "Tests/server/coingecko_server.py"), "--port", "0", "--fixtures",
         str(REPO / "Tests/fixtures/coingecko"), "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None
    return LoopbackServer(process, int(process.stdout.readline().decode().strip().split("=")[1]))


def resident() -> int:
    """VmRSS in bytes, after Python's garbage and glibc's free lists are returned."""
    gc.collect()
    libc.malloc_trim(0)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def prepare(path: Path, snapshot: bool) -> str:
    markets = SHARED_MARKETS if SHARED_MARKETS.is_file() else SMALL_MARKETS
    with coinfolio.Engine(database=path) as engine:
        if snapshot:
            engine.load(markets.read_bytes(), GLOBAL.read_bytes())
        coins = json.loads(markets.read_bytes())
        for coin in coins[:5]:
            engine.add_transaction(coin["id"], "buy", 1, price=1, timestamp="2024-01-01")
    return f"{markets.name} ({len(coins)} coins)" if snapshot else "no snapshot"


def query(engine: coinfolio.Engine, refresh: bool) -> None:
    """One statistics and one portfolio answer (without a snapshot: the ledger's P&L), after a
    refresh when asked."""
    if refresh:
        engine.refresh()
    try:
        engine.statistics()
        engine.portfolio()
    except coinfolio.NoData:
        engine.pnl()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--handles", type=int, default=1000)
    parser.add_argument("--no-snapshot", action="store_true", help="a database with a ledger but no market snapshot")
    parser.add_argument("--refresh", action="store_true",
                        help="each engine also refreshes once from the loopback server (its HTTP session)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 above {TARGET_BYTES // 1024} KB a handle")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shared.sqlite"
        snapshot = prepare(path, not args.no_snapshot)
        server = start_server() if args.refresh else None
        api = {"base_url": server.base_url} if server else None
        first = coinfolio.Engine(database=path, api=api)
        query(first, args.refresh)
        base, base_sqlite = resident(), sqlite.sqlite3_memory_used()
        engines = []
        for _ in range(args.handles):
            engines.append(coinfolio.Engine(database=path, api=api))
        opened, opened_sqlite = resident(), sqlite.sqlite3_memory_used()
        for engine in engines:
            query(engine, args.refresh)
        used, used_sqlite = resident(), sqlite.sqlite3_memory_used()
        n = args.handles
        refreshed = ", each refreshed once from the loopback server" if args.refresh else ""
        print(f"handles: {n} engines on one SQLite file holding {snapshot}{refreshed}, library {coinfolio.library_path}")
        print(f"  opened:            {(opened - base) / n / 1024:8.1f} KB a handle (SQLite's own {(opened_sqlite - base_sqlite) / n / 1024:.1f} KB)")
        print(f"  after one query:   {(used - base) / n / 1024:8.1f} KB a handle (SQLite's own {(used_sqlite - base_sqlite) / n / 1024:.1f} KB)")
        for engine in engines:
            engine.close()
        first.close()
        del engines
        print(f"  after closing all: {(resident() - base) / n / 1024:8.1f} KB a handle still resident")
        if args.check and (used - base) / n > TARGET_BYTES:
            print(f"handles: above the {TARGET_BYTES // 1024} KB target", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
