#!/usr/bin/env python3
"""Measures how long hostile-but-valid answers keep a client call busy, and the memory they cost
(issue 17, fault 4), through the Python binding against the loopback server. Prints one line per
case; it asserts nothing about durations (those are figures for the README, not tests).

    COINFOLIO_LIBRARY=.build/debug/libcoinfolio.so python3 Tests/probes/bounds.py
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bindings" / "python"))
sys.path.insert(0, str(REPO / "bindings" / "python" / "tests"))

import coinfolio  # noqa: E402
from conftest import LoopbackServer  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    process = subprocess.Popen(
        [sys.executable, str(REPO / "Tests/server/coingecko_server.py"), "--port", "0", "--fixtures",
         str(REPO / "Tests/fixtures/coingecko"), "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None
    server = LoopbackServer(process, int(process.stdout.readline().decode().strip().split("=")[1]))
    cases = [
        ("400,000 minimal coins (14 MB), timeout_ms 1000, no retries",
         dict(path="/api/v3/coins/markets", array_of='{"id":"a","symbol":"b","name":"c"}', count=400000), {}),
        ("60 MB body, timeout_ms 1000", dict(path="/api/v3/global", body='{"data":{}}', pad_bytes=60_000_000), {}),
        ("200 MiB gzip bomb (200 KB on the wire), timeout_ms 10000 (the server takes a while to compress it)",
         dict(path="/api/v3/global", body='{"data":{}}', pad_bytes=200 << 20, gzip=True), {"timeout_ms": 10000}),
        ("30 MiB valid body under the limit, timeout_ms 1000",
         dict(path="/api/v3/coins/markets", array_of='{"id":"a","symbol":"b","name":"c"}', count=850000), {}),
    ]
    try:
        for label, fault, extra in cases:
            server.reset()
            server.fault(**fault)
            before = peak_mb()
            options = {"timeout_ms": 1000, **extra}
            with coinfolio.Client(base_url=server.base_url, max_retries=0, **options) as client:
                started = time.monotonic()
                try:
                    if fault["path"].endswith("markets"):
                        client.markets()
                    else:
                        client.global_data()
                    outcome = "OK"
                except coinfolio.CoinfolioError as error:
                    outcome = f"{error.code} ({error.details.get('reason', '')})"
                elapsed = time.monotonic() - started
            print(f"{label}: {outcome} after {elapsed:.2f} s, peak RSS +{max(0.0, peak_mb() - before):.0f} MB")
    finally:
        process.stdin.close() if process.stdin else None
        process.terminate()
        process.wait()


if __name__ == "__main__":
    main()
