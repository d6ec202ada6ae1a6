"""`make bench-service` (issue 28, SPEC §20): runs service_bench's steps on the throwaway cluster,
its hot standby and pgbouncer that Tests/postgres/with-cluster.sh starts (bench/Makefile runs this
under it), and the loopback CoinGecko server (Tests/server) serving the recorded 250-coin body;
writes the section between SECTION_BEGIN and SECTION_END of BENCHMARKS.md (report.py keeps it
when `make bench` rewrites the rest) and prints it.

    service_report.py BUILD_DIR
Environment: SERVICE_OWNERS (default 10000), SERVICE_SECONDS (each load run, default 30),
SERVICE_PROCESSES (default 16). Without the recorded body, or without the cluster, it fails.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import generate  # noqa: E402  (the recorded body's path, the committed fixtures)

SECTION_BEGIN = "<!-- make bench-service: begin -->"
SECTION_END = "<!-- make bench-service: end -->"


def existing_section(markdown: str) -> str:
    """The bench-service section of a BENCHMARKS.md text (markers included), or ""."""
    start, end = markdown.find(SECTION_BEGIN), markdown.find(SECTION_END)
    return markdown[start:end + len(SECTION_END)] if start >= 0 and end > start else ""


def fixtures(build: Path) -> Path:
    """The loopback server's folder: the committed fixtures with markets.json the recorded body."""
    if not generate.RECORDED.exists():
        sys.exit(f"service_report.py: the recorded input {generate.RECORDED} is missing; the benchmark measures that body")
    build.mkdir(parents=True, exist_ok=True)
    body = generate.RECORDED.read_bytes()
    (build / "markets-250.json").write_bytes(body)
    folder = build / "service-fixtures"
    folder.mkdir(exist_ok=True)
    for fixture in generate.COMMITTED.parent.glob("*.json"):
        shutil.copy(fixture, folder / fixture.name)
    (folder / "markets.json").write_text(json.dumps(json.loads(body.decode("utf-8-sig")), separators=(",", ":")))
    return folder


def control(base: str, route: str, post: bool = False) -> dict:
    request = urllib.request.Request(f"{base}/__control/{route}", data=b"" if post else None, method="POST" if post else "GET")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def main() -> None:
    build = Path(sys.argv[1]).resolve()
    direct = os.environ.get("COINFOLIO_TEST_POSTGRES_URL")
    pooled = os.environ.get("COINFOLIO_TEST_PGBOUNCER_URL")
    if not direct or not pooled:
        sys.exit("service_report.py: run under Tests/postgres/with-cluster.sh (`make bench-service` does)")
    owners = int(os.environ.get("SERVICE_OWNERS", "10000"))
    seconds = os.environ.get("SERVICE_SECONDS", "30")
    processes = os.environ.get("SERVICE_PROCESSES", "16")
    program = str(build / "service_bench")
    folder = fixtures(build)

    def run(*args: str) -> list[str]:
        print(f"service_report.py: service_bench {args[0]} {' '.join(args[2:])}", file=sys.stderr, flush=True)
        return subprocess.run([program, *args], check=True, stdout=subprocess.PIPE, text=True).stdout.splitlines()

    rows = run("seed", direct, str(build), str(owners))
    rows += run("load", pooled, str(owners), processes, seconds, "cold")
    rows += run("load", pooled, str(owners), processes, seconds, "warm")

    server = subprocess.Popen([sys.executable, str(REPO / "Tests" / "server" / "coingecko_server.py"), "--port", "0",
                               "--fixtures", str(folder), "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        line = server.stdout.readline().decode().strip()
        if not line.startswith("PORT="):
            sys.exit(f"service_report.py: the loopback server printed {line!r}")
        base = f"http://127.0.0.1:{line.split('=', 1)[1]}"
        counts = []
        # A currency of its own for each run: its first refresh finds no saved snapshot.
        for count, currency, at_once in ((1, "eur", "1"), (100, "gbp", processes), (owners, "jpy", processes)):
            control(base, "reset", post=True)
            result = run("refresh", pooled, f"{base}/api/v3", str(count), at_once, currency)[0]
            fields = dict(part.split("=") for part in result.split())
            asked = control(base, "counts")["counts"]
            counts.append((count, at_once, asked, fields))
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.terminate()
        server.wait()
    for count, at_once, asked, fields in counts:
        total = sum(asked.values())
        detail = ", ".join(f"{name} {n}" for name, n in sorted(asked.items())) or "none"
        rows.append(f"| service: CoinGecko requests while {count:,} owners' engines each refresh once ({at_once} processes "
                    f"at once, through pgbouncer, `refresh_max_age_s` 3600) | {total} | — | — | — | {detail}; "
                    f"{fields['fetched']} answer(s) `\"fetched\": true`; {float(fields['seconds']):.1f} s; target: flat as owners grow |")
    rows += run("prepare", direct, str(owners), str(build))

    flat = len({sum(asked.values()) for _, _, asked, _ in counts}) == 1
    section = "\n".join([
        SECTION_BEGIN,
        "## Many owners on one service (issue 28, `make bench-service`)",
        "",
        f"Measured by `make bench-service` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores "
        f"shared with other work, release build: one PostgreSQL cluster (fsync on) with Debian's pgbouncer in transaction "
        f"pooling mode in front (Tests/postgres/with-cluster.sh), {owners:,} owners of 20 transactions sharing the "
        "recorded 250-coin snapshot. Latencies are wall time per call under the whole load (p50 and p99 over every "
        "call of every process); each anchor runs in the same process, request by request alternately before and "
        f"after ours. Refresh requests are counted on the loopback CoinGecko server: {'flat' if flat else 'NOT flat'} "
        "across 1, 100 and every owner.",
        "",
        "| benchmark | ours | anchor | anchor time | ratio | notes |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Reading these figures. The clients are a closed loop: {processes} processes each sending its next call as soon as the "
        "last one answered, on 2 cores that also run PostgreSQL, pgbouncer and other work, so a call's latency is "
        "mostly its wait for a CPU; the anchor's own p99 shows that floor. Where a call's time goes (perf, and the "
        "server's statement log): an engine kept open sends one statement for `portfolio` and one for `pnl` (the "
        "owner's ledger change counter, the portfolio's currency, the manual current prices and, at most once a "
        "second, the version check, in one `UNION ALL`); the ledger rows cross the network only when the counter "
        "moved since the engine cached them (another engine or process wrote); the anchor sends one each. An engine "
        "opened per request first pays libpq's connection (SCRAM-SHA-256 to pgbouncer: the `PQconnectdb` anchor) and "
        "its first `portfolio` joins the shared snapshot, read whole from the server; a service keeps its users' "
        "engines open (README, Memory per handle; pgbouncer here accepts about 1,000 clients, its "
        "file descriptor limit, so 50 a process). The refresh rows: one set of requests (one /coins/markets page of "
        "250 coins and /global) whatever the number of owners; every other engine waits on the currency's advisory "
        "lock or finds the saved snapshot younger than `refresh_max_age_s`.",
        SECTION_END,
    ])
    target = REPO / "BENCHMARKS.md"
    text = target.read_text() if target.exists() else "# Benchmarks\n"
    old = existing_section(text)
    text = text.replace(old, section) if old else text.rstrip() + "\n\n" + section + "\n"
    target.write_text(text)
    print(section, flush=True)


if __name__ == "__main__":
    main()
