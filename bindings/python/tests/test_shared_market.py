"""Many owners on one service (SPEC §20) through the binding, on SQLite and in both PostgreSQL
passes (directly and through pgbouncer): one snapshot for every owner, ``refresh_max_age_s`` and
``"fetched"``, 8 processes refreshing at once sending one set of requests (counted on the loopback
server), the version check, owners who never see each other's ledgers, and ``read_database`` with
the test cluster's streaming standby."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

import coinfolio
from backend import postgres_pass, shared_url
from coinfolio import InvalidArgument, NoData, NotFound
from conftest import REPO, child_env

MARKETS = '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":100,"market_cap_rank":1}]'

# A process that opens an engine of its own owner and refreshes once (argv: database, owner,
# base URL); prints the answer's "fetched".
REFRESHER = """
import sys, coinfolio
with coinfolio.Engine(database=sys.argv[1], owner=sys.argv[2], refresh_max_age_s=60,
                      api={"base_url": sys.argv[3], "max_retries": 0, "timeout_ms": 20000}) as engine:
    print(engine.refresh()["fetched"])
"""


@pytest.fixture
def shared(tmp_path: Path) -> str:
    """A database several owners share: the cluster in the PostgreSQL pass (emptied for the test),
    else a SQLite file."""
    return shared_url() if postgres_pass() else str(tmp_path / "shared.sqlite")


def engine(shared: str, owner: str, server: Any, **options: Any) -> coinfolio.Engine:
    return coinfolio.Engine(database=shared, owner=owner, api={"base_url": server.base_url, "max_retries": 0}, **options)


def test_a_second_refresh_within_the_max_age_sends_nothing(shared: str, server: Any) -> None:
    server.live()
    with engine(shared, "alice", server, refresh_max_age_s=60) as alice, engine(
        shared, "bob", server, refresh_max_age_s=60
    ) as bob:
        first = alice.refresh()
        assert first["fetched"] is True
        assert len(server.log()) == 2  # one markets page and /global
        second = bob.refresh()
        assert second["fetched"] is False
        assert second["fetched_at"] == first["fetched_at"]
        assert len(server.log()) == 2
        assert bob.coins()["total"] == 12
    with engine(shared, "carol", server) as carol:  # no max age: fetches
        assert carol.refresh()["fetched"] is True


def test_eight_processes_refreshing_at_once_send_one_set_of_requests(shared: str, server: Any) -> None:
    server.live()
    server.fault(path="/api/v3/global", times=-1, delay_ms=1000)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", REFRESHER, shared, f"process-{index}-{uuid.uuid4()}", server.base_url],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for index in range(8)
    ]
    answers = [process.communicate(timeout=120)[0].strip() for process in processes]
    assert all(process.returncode == 0 for process in processes), answers
    assert sorted(answers) == ["False"] * 7 + ["True"]
    assert len(server.requests_to("/api/v3/coins/markets")) == 1
    assert len(server.requests_to("/api/v3/global")) == 1


def test_an_engine_sees_another_engines_snapshot_on_its_next_query(shared: str, server: Any) -> None:
    with engine(shared, "reader", server) as reader, engine(shared, "writer", server) as writer:
        with pytest.raises(NoData):
            reader.coins()
        writer.load(MARKETS)
        time.sleep(1.1)
        assert reader.coins()["total"] == 1
        writer.load(MARKETS.replace('"current_price":100', '"current_price":7'))
        time.sleep(1.1)
        assert reader.coins()["coins"][0]["current_price"] == 7


def test_owners_never_see_each_others_ledgers(shared: str, server: Any) -> None:
    with engine(shared, "alice", server) as alice:
        alice.load(MARKETS)
        bought = alice.add_transaction("bitcoin", "buy", "2", price="100", timestamp="2024-01-01")
        alice.create_portfolio("cold")
    with engine(shared, "bob", server) as bob:
        assert bob.coins()["total"] == 1  # the market is shared
        assert bob.portfolio()["coins"] == []
        assert bob.transactions()["total"] == 0
        assert [portfolio["name"] for portfolio in bob.portfolios()] == ["main"]
        assert bob.pnl()["coins"] == []
        with pytest.raises(NotFound):
            bob.delete_transaction(str(bought["id"]))
        with pytest.raises(NotFound):
            bob.rename_portfolio("cold", "mine")
    with engine(shared, "alice", server) as alice:
        assert alice.portfolio()["total_value"] == 200
        assert [portfolio["name"] for portfolio in alice.portfolios()] == ["cold", "main"]


def test_read_database_beside_a_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "read.sqlite"
    for opener in (
        lambda: coinfolio.Engine(database=str(path), owner="o", read_database="postgresql://coinfolio@127.0.0.1:9/x"),
        lambda: coinfolio.Store(str(path), owner="o", read_database="postgresql://coinfolio@127.0.0.1:9/x"),
    ):
        with pytest.raises(InvalidArgument) as caught:
            opener()
        assert caught.value.details["field"] == "read_database"
    assert not path.exists()


def standby(sql: str) -> None:
    """Runs SQL on the test cluster's standby (pausing or resuming its replay)."""
    subprocess.run(["psql", "-q", "-X", "-d", os.environ["COINFOLIO_TEST_STANDBY_URL"], "-c", sql], check=True, capture_output=True)


def standby_script(command: str) -> None:
    subprocess.run(
        [str(REPO / "Tests" / "postgres" / "standby.sh"), command, os.environ["COINFOLIO_TEST_POSTGRES_DIR"]], check=True
    )


@pytest.mark.skipif(not postgres_pass(), reason="a PostgreSQL pass")
def test_reading_from_the_standby_sees_its_own_write_and_fails_over(shared: str, server: Any) -> None:
    read = os.environ["COINFOLIO_TEST_STANDBY_URL"]
    with engine(shared, "reader", server, read_database=read, database_timeout=5) as reader:
        standby("SELECT pg_wal_replay_pause()")
        try:
            reader.set_holding("bitcoin", 1)
            assert [coin["id"] for coin in reader.portfolio()["coins"]] == ["bitcoin"]  # read on the primary
        finally:
            standby("SELECT pg_wal_replay_resume()")
        standby_script("stop")
        try:
            with engine(shared, "writer", server) as writer:
                writer.set_holding("ethereum", 2)
            reader.set_holding("dogecoin", 3)
            assert sorted(coin["id"] for coin in reader.portfolio()["coins"]) == ["bitcoin", "dogecoin"]
            assert reader.transactions()["total"] == 2
        finally:
            standby_script("restart")


@pytest.mark.skipif(not postgres_pass(), reason="a PostgreSQL pass")
def test_the_url_option_prepare_false_is_accepted(shared: str, server: Any) -> None:
    with engine(f"{shared}?prepare=false", "unprepared", server) as unprepared:
        unprepared.set_holding("bitcoin", 1)
        unprepared.set_holding("bitcoin", 2)
        assert unprepared.portfolio()["coins"][0]["current_holdings"] == 2
    with pytest.raises(InvalidArgument):
        coinfolio.Engine(database=f"{shared}?prepare=maybe", owner="x")
