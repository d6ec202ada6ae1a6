#!/usr/bin/env python3
"""Measures how long hostile-but-valid answers keep a client call busy, and the memory they cost
(issue 17 fault 4, issue 31 finding 3), through the Python binding against the loopback server.
Each case runs in a fresh process (so one case's peak does not hide the next's) and prints one
line: the outcome, the wall time, and the peak resident memory above what the process had before
the call. Figures for the README, not a test: it asserts nothing unless --check is given, which
fails when a compression bomb costs more than 3 × max_body_bytes of memory (`make stress` runs it).

    COINFOLIO_LIBRARY=.build/debug/libcoinfolio.so python3 Tests/probes/bounds.py [--check]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bindings" / "python"))
sys.path.insert(0, str(REPO / "bindings" / "python" / "tests"))

from conftest import LoopbackServer, child_env  # noqa: E402

MiB = 1 << 20

# One case: the client call, in a child process with the library already loaded.
CASE = """
import json, resource, sys, time
import coinfolio
options, path = json.loads(sys.argv[1]), sys.argv[2]
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
client = coinfolio.Client(**options)
before = peak()
started = time.monotonic()
try:
    client.markets() if path.endswith("markets") else client.global_data()
    outcome = "OK"
except coinfolio.CoinfolioError as error:
    outcome = f"{error.code} ({error.details.get('reason', '')})"
elapsed = time.monotonic() - started
closing = time.monotonic()
client.close()
closed = time.monotonic() - closing
# What the process still does after the call: libcurl inflating the rest of a bomb it had read.
cpu = time.process_time()
time.sleep(float(sys.argv[3]))
print(json.dumps({"outcome": outcome, "seconds": elapsed, "close": closed, "peak": peak() - before,
                  "after": time.process_time() - cpu}))
"""

CASES = [
    # (label, fault, client options beyond base_url and max_retries 0, bomb?)
    ("400,000 minimal coins (14 MB), timeout_ms 1000",
     dict(path="/api/v3/coins/markets", array_of='{"id":"a","symbol":"b","name":"c"}', count=400000), {}, False),
    ("60 MB body, timeout_ms 1000 (declared length over the 32 MiB limit)",
     dict(path="/api/v3/global", body='{"data":{}}', pad_bytes=60_000_000), {}, False),
    ("30 MiB valid body under the limit, timeout_ms 1000",
     dict(path="/api/v3/coins/markets", array_of='{"id":"a","symbol":"b","name":"c"}', count=850000), {}, False),
    ("200 MB /global body with max_body_bytes 256 MiB, timeout_ms 5000",
     dict(path="/api/v3/global", body='{"data":{}}', pad_bytes=200_000_000),
     {"timeout_ms": 5000, "max_body_bytes": 256 * MiB}, False),
    ("gzip bomb: 2 GiB from 2.1 MB on the wire, timeout_ms 10000",
     dict(path="/api/v3/global", body='{"data":{}}', bomb_bytes=2048 * MiB, encoding="gzip"), {"timeout_ms": 10000}, True),
    ("deflate bomb: 2 GiB from 2.1 MB on the wire, timeout_ms 10000",
     dict(path="/api/v3/global", body='{"data":{}}', bomb_bytes=2048 * MiB, encoding="deflate"), {"timeout_ms": 10000}, True),
    ("gzip bomb: 2 GiB, max_body_bytes 1 MiB, timeout_ms 10000",
     dict(path="/api/v3/global", body='{"data":{}}', bomb_bytes=2048 * MiB, encoding="gzip"),
     {"timeout_ms": 10000, "max_body_bytes": MiB}, True),
    ("gzip 20 MiB under the limit (decodes), timeout_ms 10000",
     dict(path="/api/v3/global", body='{"data":{}}', bomb_bytes=20 * MiB, encoding="gzip"), {"timeout_ms": 10000}, False),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when a bomb costs more than 3 × max_body_bytes")
    args = parser.parse_args()
    process = subprocess.Popen(
        [sys.executable, str(REPO / "Tests/server/coingecko_server.py"), "--port", "0", "--fixtures",
         str(REPO / "Tests/fixtures/coingecko"), "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None
    server = LoopbackServer(process, int(process.stdout.readline().decode().strip().split("=")[1]))
    failed = []
    try:
        for label, fault, extra, bomb in CASES:
            server.reset()
            server.fault(**fault)
            options = {"base_url": server.base_url, "max_retries": 0, "timeout_ms": 1000, **extra}
            child = subprocess.run([sys.executable, "-c", CASE, json.dumps(options), fault["path"], "5" if bomb else "0"],
                                   env=child_env(), capture_output=True, text=True, timeout=600)
            if child.returncode != 0:
                print(f"{label}: the child failed: {child.stderr.strip()[-400:]}")
                failed.append(label)
                continue
            result = json.loads(child.stdout)
            limit = options.get("max_body_bytes", 32 * MiB)
            after = f", then {result['after']:.1f} s of CPU in the next 5 s" if bomb else ""
            print(f"{label}: {result['outcome']} after {result['seconds']:.2f} s (close {result['close']:.2f} s), "
                  f"peak RSS +{result['peak'] / MiB:.0f} MB{after}")
            if bomb and (result["peak"] > 3 * limit + 64 * MiB or "body_too_large" not in result["outcome"]):
                failed.append(label)
    finally:
        if process.stdin:
            process.stdin.close()
        process.terminate()
        process.wait()
    if args.check and failed:
        print(f"bounds: over the bound: {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
