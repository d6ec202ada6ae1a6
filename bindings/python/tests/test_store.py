"""SPEC §4: the holdings store, a durable SQLite file."""

from __future__ import annotations

import math
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict, List

import pytest

import coinfolio
from coinfolio import InvalidArgument, StoreError

from conftest import TESTS, child_env

WRITER = TESTS / "holding_writer.py"

BAD_IDS = ["", "a/b", ".", "..", "x" * 129, "\x01", "bit\ncoin", "\x7f", "\udc80", b"\xff\xfe"]


def amounts(store: coinfolio.Store) -> Dict[str, float]:
    return {row["coin_id"]: row["amount"] for row in store.holdings()}


def test_new_store_is_empty(db_path: Path) -> None:
    with coinfolio.Store(db_path) as store:
        assert store.holdings() == []


def test_positive_amount_inserts_then_updates(db_path: Path) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", 0.5)
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 0.5}]
        store.set_holding("bitcoin", 2)
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 2.0}]


@pytest.mark.parametrize("amount", [0, -0.0, -1, -1e-300])
def test_zero_or_negative_amount_deletes(db_path: Path, amount: float) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", 1)
        store.set_holding("ethereum", 1)
        store.set_holding("bitcoin", amount)
        assert amounts(store) == {"ethereum": 1.0}


@pytest.mark.parametrize("amount", [0, -0.0, -5])
def test_zero_amount_never_inserts(db_path: Path, amount: float) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", amount)
        assert store.holdings() == []


@pytest.mark.parametrize("amount", [math.nan, math.inf, -math.inf])
def test_non_finite_amount_is_invalid_and_writes_nothing(db_path: Path, amount: float) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", 1)
        with pytest.raises(InvalidArgument):
            store.set_holding("bitcoin", amount)
        with pytest.raises(InvalidArgument):
            store.set_holding("ethereum", amount)
        assert amounts(store) == {"bitcoin": 1.0}


@pytest.mark.parametrize("coin_id", BAD_IDS, ids=lambda v: repr(v)[:20])
def test_bad_id_is_invalid_and_writes_nothing(db_path: Path, coin_id: object) -> None:
    with coinfolio.Store(db_path) as store:
        with pytest.raises(InvalidArgument):
            store.set_holding(coin_id, 1)  # type: ignore[arg-type]
        assert store.holdings() == []


@pytest.mark.parametrize(
    "coin_id",
    ["x" * 128, "1move token", "boringdao-[old]", "hive_dollar", "bitcoin?x=1", "%2e%2e", "ünï", "a..b", "..."],
)
def test_real_world_ids_are_accepted(db_path: Path, coin_id: str) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding(coin_id, 1.5)
        assert store.holdings() == [{"coin_id": coin_id, "amount": 1.5}]


def test_sql_looking_id_is_stored_literally(db_path: Path) -> None:
    # Lower case: holding ids with upper-case letters are refused (SPEC §10).
    coin_id = "x'); drop table holding;--"
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", 1)
        store.set_holding(coin_id, 2)
        store.set_holding('y"; drop table holdings;--', 3)
        assert amounts(store) == {"bitcoin": 1.0, coin_id: 2.0, 'y"; drop table holdings;--': 3.0}
    with coinfolio.Store(db_path) as store:
        assert amounts(store)[coin_id] == 2.0


@pytest.mark.parametrize("amount", [0.1, 1e-8, 1 / 3, 123456789.123456789, 1e-18, 4.2e17])
def test_amounts_round_trip_exactly(db_path: Path, amount: float) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("coin", amount)
    with coinfolio.Store(db_path) as store:
        assert store.holdings()[0]["amount"] == amount


@pytest.mark.parametrize("amount", [5e-324, 1e-19, 1.7976931348623157e308])
def test_amounts_the_ledger_cannot_hold_exactly_are_refused(db_path: Path, amount: float) -> None:
    """The ledger keeps exact decimals with 18 fraction digits up to 8.5e19 units (SPEC §12)."""
    with coinfolio.Store(db_path) as store:
        with pytest.raises(coinfolio.InvalidArgument):
            store.set_holding("coin", amount)
        assert store.holdings() == []


def test_holdings_persist_across_reopen(db_path: Path) -> None:
    with coinfolio.Store(db_path) as store:
        store.set_holding("bitcoin", 0.5)
        store.set_holding("ethereum", 3)
        store.set_holding("dogecoin", 1000)
        store.set_holding("dogecoin", 0)
    with coinfolio.Store(db_path) as store:
        assert store.holdings() == [
            {"coin_id": "bitcoin", "amount": 0.5},
            {"coin_id": "ethereum", "amount": 3.0},
        ]


def test_holdings_are_sorted_by_coin_id_bytewise(db_path: Path) -> None:
    ids = ["zcash", "bitcoin-", "bitcoin", "1move token", "ethereum", "äpfel", "_"]
    with coinfolio.Store(db_path) as store:
        for coin_id in ids:
            store.set_holding(coin_id, 1)
        got = [row["coin_id"] for row in store.holdings()]
    assert got == sorted(ids, key=lambda s: s.encode("utf-8"))


def test_memory_store_is_private() -> None:
    with coinfolio.Store(":memory:") as first, coinfolio.Store(":memory:") as second:
        first.set_holding("bitcoin", 1)
        assert second.holdings() == []


@pytest.mark.sqlite_only
def test_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(b"this is not a SQLite database" * 100)
    with pytest.raises(StoreError):
        with coinfolio.Store(path) as store:
            store.holdings()


@pytest.mark.sqlite_only
def test_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        coinfolio.Store(tmp_path / "missing-dir" / "x.sqlite")


def test_bad_utf8_path_is_invalid(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Store(str(tmp_path).encode() + b"/\xff.sqlite")


def test_threads_writing_one_store_lose_nothing(db_path: Path) -> None:
    errors: List[BaseException] = []
    with coinfolio.Store(db_path) as store:

        def write(n: int) -> None:
            try:
                for i in range(100):
                    store.set_holding(f"t{n}-{i}", i + 1)
            except BaseException as exc:  # pragma: no cover
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert len(store.holdings()) == 400


def test_two_handles_on_one_file_see_each_others_writes(db_path: Path) -> None:
    with coinfolio.Store(db_path) as first, coinfolio.Store(db_path) as second:
        first.set_holding("bitcoin", 1)
        second.set_holding("ethereum", 2)
        assert amounts(first) == amounts(second) == {"bitcoin": 1.0, "ethereum": 2.0}


def test_three_processes_writing_one_file_lose_nothing(db_path: Path) -> None:
    coinfolio.Store(db_path).close()  # create the schema once, like an app's first launch
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), str(db_path), f"p{n}", "300"],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(3)
    ]
    for writer in writers:
        out, err = writer.communicate(timeout=600)
        assert writer.returncode == 0, err[-3000:]
        assert out.splitlines()[-1] == "done"
        assert "locked" not in err
    with coinfolio.Store(db_path) as store:
        got = amounts(store)
    expected = {f"p{n}-{i}": float(i + 1) for n in range(3) for i in range(300)}
    assert got == expected


def test_three_processes_creating_a_new_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite"
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), str(path), f"q{n}", "20"],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(3)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err[-3000:]
    with coinfolio.Store(path) as store:
        assert len(store.holdings()) == 60


def test_killed_writer_keeps_every_acknowledged_write(db_path: Path) -> None:
    acknowledged: Dict[str, float] = {}
    for round_ in range(6):
        writer = subprocess.Popen(
            [sys.executable, str(WRITER), str(db_path), f"k{round_}", "1000000"],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert writer.stdout is not None
        wanted = 15 + 37 * round_  # kill at a different point each round
        seen = 0
        while seen < wanted:
            line = writer.stdout.readline()
            assert line, "writer exited early"
            coin_id, amount = line.split()
            acknowledged[coin_id] = float(amount)
            seen += 1
        writer.send_signal(signal.SIGKILL)
        # Lines already written before the kill are acknowledged writes too.
        for line in writer.stdout:
            if line.endswith("\n"):
                coin_id, amount = line.split()
                acknowledged[coin_id] = float(amount)
        writer.wait()
        assert writer.returncode == -signal.SIGKILL

    connection = sqlite3.connect(str(db_path))
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        connection.close()
    with coinfolio.Store(db_path) as store:
        got = amounts(store)
    missing = {k: v for k, v in acknowledged.items() if got.get(k) != v}
    assert missing == {}
    # Nothing but the writers' own ids (an unacknowledged last write may or may not be there).
    assert all(key.startswith("k") for key in got)


# --- schema step 5: positions --------------------------------------------------------------------


def test_never_negative_through_positions_on_backdated_sells_deletes_and_batches(db_path: Path) -> None:
    """Each write reads its coin's position and the entries after its own time (schema step 5)."""
    with coinfolio.Engine(database=str(db_path)) as engine:
        first = engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2024-01-01T00:00:00Z")
        engine.add_transaction("bitcoin", "buy", 1, price=200, timestamp="2024-01-02T00:00:00Z")
        engine.add_transaction("bitcoin", "sell", "1.5", price=300, timestamp="2024-01-03T00:00:00Z")
        with pytest.raises(InvalidArgument) as backdated:
            engine.add_transaction("bitcoin", "sell", "0.6", price=1, timestamp="2024-01-02T12:00:00Z")
        assert backdated.value.details == {"coin_id": "bitcoin", "timestamp": "2024-01-03T00:00:00Z", "short_by": 0.1}
        with pytest.raises(InvalidArgument) as deleted:
            engine.delete_transaction(first["id"])
        assert deleted.value.details == {"coin_id": "bitcoin", "timestamp": "2024-01-03T00:00:00Z", "short_by": 0.5}
        # Held 0.5 now and 0.5 in all, but the sell in 2100 needs the 0.5 held now.
        engine.add_transaction("bitcoin", "buy", 3, price=1, timestamp="2099-01-01T00:00:00Z")
        engine.add_transaction("bitcoin", "sell", "3.5", price=1, timestamp="2100-01-01T00:00:00Z")
        engine.add_transaction("bitcoin", "buy", "0.5", price=1, timestamp="2200-01-01T00:00:00Z")
        before = engine.transactions()
        with pytest.raises(InvalidArgument) as batch:
            engine.set_holdings([{"coin_id": "ethereum", "amount": 2}, {"coin_id": "bitcoin", "amount": 0}])
        assert batch.value.details == {"coin_id": "bitcoin", "timestamp": "2100-01-01T00:00:00Z", "short_by": 0.5,
                                       "index": 1}
        assert engine.transactions() == before, "nothing of the batch was written"
        engine.set_holdings([{"coin_id": "ethereum", "amount": 2}, {"coin_id": "bitcoin", "amount": 1.5}])
    with coinfolio.Store(db_path) as store:
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 1.5}, {"coin_id": "ethereum", "amount": 2}]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_write_to_a_database_file_deleted_or_replaced_mid_session_is_refused(tmp_path: Path, how: str) -> None:
    # Once the file was deleted (or another file renamed over it) an open engine went on
    # writing into the unlinked file and answered OK: the transaction vanished at close.
    path = tmp_path / "ledger.sqlite"
    buy = {"coin_id": "bitcoin", "kind": "buy", "amount": "1", "price": "100", "timestamp": "2024-01-01"}
    with coinfolio.Engine(database=path, api={"base_url": "http://127.0.0.1:9/api/v3"}) as engine:
        engine.add_transaction(**buy)
        for name in [path.name, path.name + "-wal", path.name + "-shm"]:
            if (tmp_path / name).exists():
                (tmp_path / name).unlink()
        if how == "replaced":
            with sqlite3.connect(tmp_path / "other.sqlite") as other:
                other.execute("CREATE TABLE t (x)")
            (tmp_path / "other.sqlite").rename(path)
        with pytest.raises(StoreError) as raised:
            engine.add_transaction(**buy)
        assert "deleted, moved or replaced" in str(raised.value)
        assert raised.value.details.get("sqlite_code") == 1032  # SQLITE_READONLY_DBMOVED


@pytest.mark.sqlite_only
def test_a_database_path_that_is_no_regular_file_is_refused_and_nothing_is_made_beside_it(tmp_path: Path) -> None:
    # --db /dev/null once failed with "disk I/O error" only after SQLite had made a world-writable
    # /dev/null-journal beside the device; a FIFO the same, beside it.
    fifo = tmp_path / "pipe.sqlite"
    os.mkfifo(fifo)
    link = tmp_path / "null.sqlite"
    link.symlink_to("/dev/null")
    for path in [fifo, link]:
        with pytest.raises(StoreError) as raised:
            coinfolio.Engine(database=path, api={"base_url": "http://127.0.0.1:9/api/v3"})
        assert "not a regular file" in str(raised.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.sqlite", "pipe.sqlite"]
    assert not Path("/dev/null-journal").exists() and not Path("/dev/null-wal").exists()
