#!/usr/bin/env python3
"""make stress: crash and contention trials of the portfolio store (SPEC §4), through the C ABI
(the Python binding) in real processes, checked by an independent reader (Python's sqlite3).

1. STRESS_TRIALS (default 100) SIGKILL trials: a writer process acknowledges each committed
   `set_holding` on stdout and is killed at a random moment; every acknowledged write must then
   be in the file with its amount, and `PRAGMA integrity_check` must say ok. One file for all
   trials, so each trial also recovers the WAL the previous kill left behind.
2. 4 processes write one file at once (distinct ids and one shared id); no write may fail with
   "database is locked" and none may be lost.
3. A full disk: a small tmpfs (where mounting is allowed; skipped with the reason elsewhere) is
   filled; writes must then fail with CF_STORE (never a crash), every acknowledged write stays,
   the file passes integrity_check, and writing works again once space is freed.

Prints the counts (trials, acknowledged and lost writes) and exits 1 on any loss or failure.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from decimal import Decimal
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[2]
PYTHON_PACKAGE = REPO / "bindings" / "python"

WRITER = textwrap.dedent(
    """
    import sys
    import coinfolio
    path, prefix, count, shared = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
    with coinfolio.Store(path) as store:
        for i in range(count):
            amount = i + 1.5
            store.set_holding(f"{prefix}-{i}", amount)
            if shared:
                store.set_holding("shared-coin", amount)
            print(f"ACK {prefix}-{i} {amount!r}", flush=True)
    print("DONE", flush=True)
    """
)


def child_env(library: str) -> Dict[str, str]:
    env = dict(os.environ, COINFOLIO_LIBRARY=library)
    env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_PACKAGE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def read_back(path: Path) -> Tuple[str, Dict[str, float]]:
    """integrity_check's answer and every holding of the "main" portfolio, read by Python's own
    sqlite3: since schema 2 a holding is the sum of the ledger's transactions (exact decimal text;
    set_holding records a transfer of the difference). Since step 5 each writer checks the
    never-negative rule against positions it keeps in memory, valid only while no other process
    wrote (the owner's ledger_change counter): every coin's running sum, in ledger order, must
    never go below zero (the answer names the coins where it does)."""
    connection = sqlite3.connect(str(path), timeout=30)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        held: Dict[str, Decimal] = {}
        negative = set()
        for coin_id, kind, amount in connection.execute(
            "SELECT coin_id, kind, amount FROM ledger_transaction WHERE portfolio = 'main' AND owner = 'default'"
            " ORDER BY timestamp_ms, id"
        ):
            sign = 1 if kind in ("buy", "transfer_in") else -1
            held[coin_id] = held.get(coin_id, Decimal(0)) + sign * Decimal(amount)
            if held[coin_id] < 0:
                negative.add(coin_id)
        rows = {coin_id: float(total) for coin_id, total in held.items() if total > 0}
        if integrity == "ok" and negative:
            integrity = f"the ledger goes below zero for {sorted(negative)[:5]}"
    finally:
        connection.close()
    return integrity, rows


def parse_acks(lines: List[str]) -> Dict[str, float]:
    acked = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ACK":
            acked[parts[1]] = float(parts[2])
    return acked


def kill_trials(trials: int, library: str, folder: Path) -> Tuple[int, int, int]:
    """Returns (trials, acknowledged, lost)."""
    path = folder / "killed.sqlite"
    acknowledged: Dict[str, float] = {}
    lost = 0
    rng = random.Random(17)
    for trial in range(trials):
        process = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), f"t{trial}", "100000", "0"],
            env=child_env(library), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert process.stdout is not None
        # Wait for the first acknowledgement (the library is loaded), then kill at a random moment.
        first = process.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.25))
        process.send_signal(signal.SIGKILL)
        rest, errors = process.communicate()
        acks = parse_acks([first] + rest.splitlines())
        if not acks:
            print(f"trial {trial}: the writer acknowledged nothing: {errors.strip()[:300]}")
            lost += 1
            continue
        acknowledged.update(acks)
        integrity, rows = read_back(path)
        if integrity != "ok":
            print(f"trial {trial}: integrity_check says {integrity}")
            lost += 1
        missing = [key for key, amount in acknowledged.items() if rows.get(key) != amount]
        if missing:
            print(f"trial {trial}: {len(missing)} acknowledged writes lost, e.g. {missing[:3]}")
            lost += len(missing)
    return trials, len(acknowledged), lost


def concurrent_writers(library: str, folder: Path, processes: int = 4, each: int = 1000) -> Tuple[int, int, List[str]]:
    """Returns (acknowledged, lost, errors)."""
    path = folder / "shared.sqlite"
    children = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"p{n}", str(each), "1"], env=child_env(library),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for n in range(processes)
    ]
    acknowledged: Dict[str, float] = {}
    errors = []
    for child in children:
        out, err = child.communicate(timeout=600)
        acknowledged.update(parse_acks(out.splitlines()))
        if child.returncode != 0 or "DONE" not in out:
            errors.append(err.strip().splitlines()[-1] if err.strip() else f"exit {child.returncode}")
    integrity, rows = read_back(path)
    lost = sum(1 for key, amount in acknowledged.items() if rows.get(key) != amount)
    if integrity != "ok":
        errors.append(f"integrity_check: {integrity}")
    if "shared-coin" not in rows:
        errors.append("the shared coin is missing")
    return len(acknowledged), lost, errors


def full_disk(library: str, folder: Path) -> str:
    """A line for the report; raises AssertionError on a failure."""
    mount = folder / "tmpfs"
    mount.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True, text=True)
    if result.returncode != 0:
        reason = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["mount failed"]
        return f"full disk: skipped (cannot mount a tmpfs here: {reason[0]})"
    try:
        script = textwrap.dedent(
            """
            import os, sys
            import coinfolio
            path, filler = sys.argv[1], sys.argv[2]
            acked = 0
            failure = None
            with coinfolio.Store(path) as store:
                for i in range(50):   # some holdings first, then the disk fills
                    store.set_holding(f"before-{i}", i + 1.0)
                    print(f"ACK before-{i} {i + 1.0!r}", flush=True)
                with open(filler, "wb") as f:   # eat the disk
                    try:
                        while True:
                            f.write(b"x" * 65536); f.flush(); os.fsync(f.fileno())
                    except OSError:
                        pass
                for i in range(100000):
                    try:
                        store.set_holding(f"disk-{i}-" + "x" * 100, i + 1.0)
                    except coinfolio.StoreError as error:
                        failure = f"CF_STORE: {error}"
                        break
                    print(f"ACK disk-{i}-{'x' * 100} {i + 1.0!r}", flush=True)
                os.remove(filler)
                store.set_holding("after-free", 1.0)
                print("ACK after-free 1.0", flush=True)
            print("FAILURE", failure, flush=True)
            """
        )
        path = mount / "full.sqlite"
        run = subprocess.run([sys.executable, "-c", script, str(path), str(mount / "filler")], env=child_env(library),
                             capture_output=True, text=True, timeout=600)
        acks = parse_acks(run.stdout.splitlines())
        failure = next((line for line in run.stdout.splitlines() if line.startswith("FAILURE")), "FAILURE none")
        assert run.returncode == 0, f"the writer crashed (exit {run.returncode}): {run.stderr.strip()[-500:]}"
        assert "CF_STORE" in failure, f"a full disk never failed a write: {failure}"
        integrity, rows = read_back(path)
        assert integrity == "ok", f"integrity_check after a full disk: {integrity}"
        lost = sum(1 for key, amount in acks.items() if rows.get(key) != amount)
        assert lost == 0, f"{lost} acknowledged writes lost on a full disk"
        return (f"full disk (2 MiB tmpfs): {len(acks) - 1} writes acknowledged, then {failure[8:].split(':')[0]}"
                f" (no crash), 0 lost, integrity ok, writing again after space was freed")
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", default=os.environ.get("COINFOLIO_LIBRARY", str(REPO / ".build/debug/libcoinfolio.so")))
    parser.add_argument("--cli", help="(unused; kept for the Makefile's symmetry)")
    parser.add_argument("--trials", type=int, default=int(os.environ.get("STRESS_TRIALS", "100")))
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory(prefix="coinfolio-stress-") as temp:
        folder = Path(temp)
        started = time.monotonic()
        trials, acknowledged, lost = kill_trials(args.trials, args.library, folder)
        print(f"SIGKILL trials: {trials} trials, {acknowledged} acknowledged writes, {lost} lost "
              f"({time.monotonic() - started:.0f} s)")
        failed |= lost > 0
        started = time.monotonic()
        acked, lost_concurrent, errors = concurrent_writers(args.library, folder)
        print(f"4 processes on one file: {acked} acknowledged writes (each also updating one shared row), {lost_concurrent} lost, "
              f"{len(errors)} failed writers ({time.monotonic() - started:.0f} s)")
        for error in errors:
            print(f"  {error}")
        failed |= lost_concurrent > 0 or bool(errors)
        try:
            print(full_disk(args.library, folder))
        except AssertionError as error:
            print(f"full disk: FAILED: {error}")
            failed = True
    print("stress: " + ("FAILURES above" if failed else "no lost write, no corruption, no crash"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
