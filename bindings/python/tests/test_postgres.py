"""SPEC §13 through the binding: owners (both backends), and on the test cluster the password
kept out of every error, reconnecting after a restart, and migrations racing on a fresh database
from several processes. Needs the cluster ``make test`` starts; fails (never skips) without it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

import coinfolio
from backend import PASSWORD, password_refused, postgres_url, shared_url
from coinfolio import InvalidArgument, NoData, StoreError
from conftest import REPO, TESTS, child_env

WRITER = TESTS / "holding_writer.py"
MARKETS = '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":100,"market_cap_rank":1}]'


@pytest.fixture
def shared(tmp_path: Path) -> str:
    """A database two owners share: the cluster in the PostgreSQL pass (emptied for the test:
    market data is shared), else a SQLite file."""
    if os.environ.get("COINFOLIO_TEST_BACKEND") == "postgres":
        return shared_url()
    return str(tmp_path / "shared.sqlite")


def test_two_owners_never_see_each_others_holdings(shared: str) -> None:
    alice_owner, bob_owner = f"alice-{uuid.uuid4()}", f"bob'; DROP TABLE holding; -- {uuid.uuid4()}"
    with coinfolio.Store(shared, owner=alice_owner) as alice, coinfolio.Store(shared, owner=bob_owner) as bob:
        alice.set_holding("bitcoin", 0.5)
        bob.set_holding("bitcoin", 7)
        bob.set_holding("ethereum", 2)
        bob.set_holding("bitcoin", 0)
        assert alice.holdings() == [{"coin_id": "bitcoin", "amount": 0.5}]
        assert bob.holdings() == [{"coin_id": "ethereum", "amount": 2.0}]
    with coinfolio.Store(shared, owner=alice_owner) as alice:
        assert alice.holdings() == [{"coin_id": "bitcoin", "amount": 0.5}]


def test_two_owners_share_the_snapshot_never_the_portfolio(shared: str) -> None:
    """Market data is one per database (SPEC §20): Alice's load answers Bob, her holding does not."""
    alice_owner, bob_owner = f"alice-{uuid.uuid4()}", f"bob-{uuid.uuid4()}"
    api = {"base_url": "http://127.0.0.1:9/api/v3", "max_retries": 0}
    with coinfolio.Engine(database=shared, owner=bob_owner, api=api) as bob:
        with pytest.raises(NoData):
            bob.coins()
    with coinfolio.Engine(database=shared, owner=alice_owner, api=api) as alice:
        alice.load(MARKETS)
        alice.set_holding("bitcoin", 2)
        assert alice.portfolio()["total_value"] == 200
    with coinfolio.Engine(database=shared, owner=bob_owner, api=api) as bob:
        assert [coin["id"] for coin in bob.coins()["coins"]] == ["bitcoin"]
        assert bob.portfolio()["coins"] == []
    with coinfolio.Engine(database=shared, owner=alice_owner, api=api) as alice:
        assert [coin["id"] for coin in alice.coins()["coins"]] == ["bitcoin"]


AWKWARD_SPARKLINE = (
    '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":100,"market_cap_rank":1,'
    '"sparkline_in_7d":{"price":[1.5,-0.0,null,8.12e-06,4.2e17,57000.123,1.186e-09,0.30000000000000004,250]}}]'
)


def test_saved_sparklines_read_back_exactly_by_every_owner(shared: str) -> None:
    """A saved sparkline (JSON text on SQLite, packed doubles on PostgreSQL) reads back point for
    point, the gap included (answers write -0.0 as 0), by every owner: the snapshot is shared
    (SPEC §20), and the next load by anyone replaces it."""
    alice_owner, bob_owner = f"alice-{uuid.uuid4()}", f"bob-{uuid.uuid4()}"
    api = {"base_url": "http://127.0.0.1:9/api/v3", "max_retries": 0}
    with coinfolio.Engine(database=shared, owner=alice_owner, api=api) as alice:
        alice.load(AWKWARD_SPARKLINE)
    with coinfolio.Engine(database=shared, owner=bob_owner, api=api) as bob:
        points = bob.coins(sparkline=True)["coins"][0]["sparkline_in_7d"]["price"]
        assert points == [1.5, 0.0, None, 8.12e-06, 4.2e17, 57000.123, 1.186e-09, 0.30000000000000004, 250.0]
        bob.load(MARKETS)
    with coinfolio.Engine(database=shared, owner=alice_owner, api=api) as alice:
        assert alice.coins(sparkline=True)["coins"][0]["sparkline_in_7d"] is None


@pytest.mark.parametrize("owner", ["", "a\x00b", "tab\there", "x" * 257])
def test_bad_owners_are_invalid_arguments(shared: str, owner: str) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Store(shared, owner=owner)
    with pytest.raises(InvalidArgument):
        coinfolio.Engine(database=shared, owner=owner)


def test_password_never_appears_in_errors() -> None:
    url = postgres_url()
    assert PASSWORD in url
    wrong = url.replace(PASSWORD, "Zebra-wrong-password")
    for opener in (lambda: coinfolio.Store(wrong), lambda: coinfolio.Engine(database=wrong)):
        with pytest.raises(StoreError) as caught:
            opener()
        error = caught.value
        assert "Zebra" not in str(error) and "Zebra" not in repr(error.details)
        assert password_refused() in error.message
        assert "postgresql://…@127.0.0.1" in error.message


def test_a_store_idle_during_a_restart_works_on_its_next_call() -> None:
    folder = os.environ.get("COINFOLIO_TEST_POSTGRES_DIR")
    assert folder, "COINFOLIO_TEST_POSTGRES_DIR is not set: run the suites through make test"
    with coinfolio.Store(postgres_url(), owner=f"restart-{uuid.uuid4()}") as store:
        store.set_holding("bitcoin", 1)
        subprocess.run(["bash", str(REPO / "Tests" / "postgres" / "cluster.sh"), "restart", folder], check=True)
        store.set_holding("ethereum", 2)
        assert [row["coin_id"] for row in store.holdings()] == ["bitcoin", "ethereum"]


def test_four_processes_opening_a_fresh_database_at_once(fresh_database: str) -> None:
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), fresh_database, f"m{n}", "25"],
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err[-3000:]
        assert out.splitlines()[-1] == "done"
    with coinfolio.Store(fresh_database) as store:
        assert len(store.holdings()) == 100


def test_cli_keeps_each_owners_holdings_on_the_server(tmp_path: Path) -> None:
    from conftest import cli_binary

    url = postgres_url()
    owner = f"cli-{uuid.uuid4()}"
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=url, COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")

    def run(*args: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([str(cli_binary()), *args], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)

    result = run("--owner", owner, "--offline", "set", "bitcoin", "0.5")
    assert result.returncode == 0, result.stderr
    result = run("--owner", owner, "--offline", "--json", "portfolio")
    assert result.returncode == 0, result.stderr
    coins = json.loads(result.stdout)["coins"]
    assert [(coin["id"], coin["current_holdings"]) for coin in coins] == [("bitcoin", 0.5)]
    result = run("--owner", f"other-{owner}", "--offline", "--json", "portfolio")
    assert result.returncode == 0, result.stderr
    assert "bitcoin" not in result.stdout
    assert not any(tmp_path.iterdir()), "a server URL never creates a local folder"
    assert "Zebra" not in result.stderr


@pytest.mark.parametrize("password", ["Zeb/raQQ", "Zeb@raQQ", "Ze/b@raQQ", "Ze/b?raQQ"])
def test_a_password_with_unencoded_delimiters_never_appears(password: str) -> None:
    host_and_database = postgres_url().split("@", 1)[1]
    url = f"postgresql://coinfolio:{password}@{host_and_database}"
    for opener in (lambda: coinfolio.Store(url, owner="o"), lambda: coinfolio.Engine(database=url)):
        with pytest.raises(StoreError) as caught:
            opener()
        error = caught.value
        assert error.message == (
            f'cannot open database "postgresql://…@{host_and_database}": its user or password holds an unencoded'
            " '@', '/' or '?' (percent-encode them: %40, %2F, %3F)"
        )
        assert error.details == {"reason": "ambiguous_url"}
        for text in (str(error), repr(error)):
            assert "Zeb" not in text and "raQQ" not in text


def test_a_password_with_a_question_mark_is_redacted_whole() -> None:
    host_and_database = postgres_url().split("@", 1)[1]
    with pytest.raises(StoreError) as caught:
        coinfolio.Store(f"postgresql://coinfolio:Zeb?raQQ@{host_and_database}", owner="o")
    assert caught.value.message.startswith(f'cannot open database "postgresql://…@{host_and_database}": ')
    assert password_refused() in caught.value.message
    assert "raQQ" not in repr(caught.value)


def test_a_scheme_in_any_case_is_the_server(tmp_path: Path) -> None:
    rest = postgres_url().split("://", 1)[1]
    owner = f"scheme-case-{uuid.uuid4()}"
    with coinfolio.Store("POSTGRESQL://" + rest, owner=owner) as store:
        store.set_holding("bitcoin", 3)
    with coinfolio.Store(postgres_url(), owner=owner) as store:
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 3.0}]
    from conftest import cli_binary

    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB="Postgres://" + rest, COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    result = subprocess.run(
        [str(cli_binary()), "--owner", owner, "--offline", "--json", "portfolio"],
        env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert [coin["id"] for coin in json.loads(result.stdout)["coins"]] == ["bitcoin"]
    assert not any(tmp_path.iterdir()), "no local folder named after the URL"


# break-it finding 1: passwords holding each of '@ / ? % # :' and non-ASCII letters.
DELIMITED_PASSWORDS = [
    "S3cret@Pa55?w0rd", "?start/slash@end", "Zebra#Quokka", "Zebra%Quokka", "Zebra:Quokka", "Zebra/Quokka",
    "Zebra?Quokka", "@ZebraQuokka", "ZebraQuokka%", "#ZebraQuokka", "Zébra€Quökka", "Пароль@Zebra/Quokka",
    "Z@e/b?r%a#Q:uökka",
]


def _pieces(password: str) -> "list[str]":
    """The password and each run of 4 or more letters or digits in it."""
    import re

    return [password] + [piece for piece in re.split(r"[^\w]|_", password) if len(piece) >= 4]


def _assert_nothing_of(password: str, text: str) -> None:
    for piece in _pieces(password):
        assert piece not in text, f"{piece!r} in {text!r}"
    assert "//coinfolio" not in text, text


@pytest.mark.parametrize("password", DELIMITED_PASSWORDS)
def test_a_password_with_any_delimiter_or_letter_never_appears(password: str) -> None:
    host = postgres_url().rsplit("@", 1)[1]
    url = f"postgresql://coinfolio:{password}@{host}"
    for opener in (lambda: coinfolio.Store(url, owner="o"), lambda: coinfolio.Engine(database=url)):
        with pytest.raises(StoreError) as caught:
            opener()
        for text in (str(caught.value), repr(caught.value), repr(caught.value.details)):
            _assert_nothing_of(password, text)
        assert f"postgresql://…@{host}" in caught.value.message


@pytest.mark.parametrize("scheme", ["postgresql+psycopg2://", "jdbc:postgresql://", " postgresql://", "mysql://"])
def test_an_unsupported_url_is_refused_never_a_path(scheme: str, tmp_path: Path) -> None:
    from conftest import cli_binary

    url = f"{scheme}coinfolio:Z@e/b?r%a#Q:uökka@127.0.0.1:9/coinfolio"
    for opener in (lambda: coinfolio.Store(url), lambda: coinfolio.Engine(database=url)):
        with pytest.raises(InvalidArgument) as caught:
            opener()
        assert caught.value.details == {"reason": "unsupported_url", "field": "database"}
        assert caught.value.message.startswith(f'database "{scheme}…@127.0.0.1:9/coinfolio" is not a URL')
        _assert_nothing_of("Z@e/b?r%a#Q:uökka", str(caught.value))
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    for args, extra in (((["--db", url]), {}), ([], {"COINFOLIO_DB": url})):
        result = subprocess.run(
            [str(cli_binary()), *args, "--offline", "set", "bitcoin", "1"],
            env=dict(env, **extra), capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )
        assert result.returncode == 2, result.stderr  # a bad setting is bad usage
        assert "is not a URL Coinfolio opens" in result.stderr, result.stderr
        _assert_nothing_of("Z@e/b?r%a#Q:uökka", result.stderr + result.stdout)
        assert not any(tmp_path.iterdir()), "no folder or file named after the string"


@pytest.mark.parametrize("password", ["S3cret@Pa55?w0rd", "?start/slash@end", "Zebra%Quokka", "Zébra€Quökka"])
def test_the_cli_never_shows_a_password_with_delimiters(password: str, tmp_path: Path) -> None:
    from conftest import cli_binary

    url = f"postgresql://coinfolio:{password}@{postgres_url().rsplit('@', 1)[1]}"
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=url, COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    result = subprocess.run(
        [str(cli_binary()), "--offline", "set", "bitcoin", "1"], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert result.returncode == 1, result.stderr
    _assert_nothing_of(password, result.stderr + result.stdout)
    assert not any(tmp_path.iterdir())


LEDGER_HEADER = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"


def _concurrently(jobs: "list[Any]") -> "list[Any]":
    """Runs each job on its own thread, released together; each job's result or exception."""
    import threading

    start = threading.Barrier(len(jobs))
    results: "list[Any]" = [None] * len(jobs)

    def run(index: int) -> None:
        start.wait()
        try:
            results[index] = jobs[index]()
        except Exception as error:  # noqa: BLE001 - the test inspects it
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_concurrent_imports_of_different_owners_all_succeed(shared: str) -> None:
    # Regression: an import read max(id) of the whole table in a SERIALIZABLE transaction, so
    # another owner's write aborted it ("met a concurrent write"): 20 of 40 failed on PostgreSQL.
    owners = [f"importer-{index}-{uuid.uuid4()}" for index in range(8)]
    rows = "".join(f"2024-01-01T00:00:{second:02d}Z,main,bitcoin,buy,1,10,0,,x{second}\n" for second in range(5))
    engines = [coinfolio.Engine(database=shared, owner=owner) for owner in owners]
    try:

        def importing(engine: coinfolio.Engine) -> Any:
            return lambda: [engine.import_csv(f"{LEDGER_HEADER}\n{rows}".replace(",x", f",r{round}-x")) for round in range(5)]

        results = _concurrently([importing(engine) for engine in engines])
        assert [error for error in results if isinstance(error, Exception)] == []
        assert results == [[{"imported": 5, "skipped": 0}] * 5] * 8
        for engine in engines:
            assert engine.transactions(limit=1000)["total"] == 25
    finally:
        for engine in engines:
            engine.close()


def test_concurrent_imports_of_one_owner_never_go_negative_nor_lose_rows(shared: str) -> None:
    owner = f"one-owner-{uuid.uuid4()}"
    with coinfolio.Engine(database=shared, owner=owner) as engine:
        engine.import_csv(f"{LEDGER_HEADER}\n2024-01-01T00:00:00Z,main,bitcoin,buy,1,10,0,,seed\n")
    engines = [coinfolio.Engine(database=shared, owner=owner) for _ in range(6)]
    try:
        # Six files each selling the one bitcoin: exactly one may land, the rest are refused whole.
        sells = [
            f"{LEDGER_HEADER}\n2024-02-01T00:00:00Z,main,ethereum,buy,1,5,0,,b{index}\n"
            f"2024-02-01T00:00:0{index}Z,main,bitcoin,sell,1,20,0,,s{index}\n"
            for index in range(6)
        ]
        results = _concurrently([lambda engine=engine, text=text: engine.import_csv(text) for engine, text in zip(engines, sells)])
        landed = [result for result in results if result == {"imported": 2, "skipped": 0}]
        refused = [result for result in results if isinstance(result, InvalidArgument)]
        assert len(landed) == 1 and len(refused) == 5, results
        # Each refusal names the coin; the line only when the short row is the file's own (a
        # sell earlier than the one that landed leaves that one short instead).
        assert all(error.details["coin_id"] == "bitcoin" and error.details["short_by"] == 1 for error in refused)
        # Six files of buys at once: every row of every file is kept.
        buys = [
            f"{LEDGER_HEADER}\n"
            + "".join(f"2024-03-01T00:00:{row:02d}Z,main,solana,buy,1,1,0,,f{index}-{row}\n" for row in range(10))
            for index in range(6)
        ]
        results = _concurrently([lambda engine=engine, text=text: engine.import_csv(text) for engine, text in zip(engines, buys)])
        assert results == [{"imported": 10, "skipped": 0}] * 6
        kinds = [(row["coin_id"], row["kind"]) for row in engines[0].transactions(limit=1000)["transactions"]]
        assert kinds.count(("bitcoin", "sell")) == 1 and kinds.count(("ethereum", "buy")) == 1
        assert kinds.count(("solana", "buy")) == 60 and len(kinds) == 63
    finally:
        for engine in engines:
            engine.close()


# database_timeout: a server that stops answering fails the call (StoreError, reason "timeout")
# instead of blocking it; the next call works once the server answers again.

OWNER_LOCK = "SELECT pg_advisory_xact_lock(1667656807, hashtext('{owner}'))"


class _OwnerLockHolder:
    """Another writer of ``owner`` in the middle of its transaction: a psql session holding the
    owner's ledger lock (LedgerStore's ``ownerLockSQL``) until ``release()``."""

    def __init__(self, url: str, owner: str) -> None:
        self.psql = subprocess.Popen(
            ["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.psql.stdin is not None and self.psql.stdout is not None
        self.psql.stdin.write(f"BEGIN;\n{OWNER_LOCK.format(owner=owner)};\n\\echo locked\n")
        self.psql.stdin.flush()
        for line in self.psql.stdout:
            if line.strip() == "locked":
                return
        raise AssertionError("psql did not take the lock: " + (self.psql.stderr.read() if self.psql.stderr else ""))

    def release(self) -> None:
        if self.psql.poll() is None:
            assert self.psql.stdin is not None
            self.psql.stdin.write("ROLLBACK;\n\\q\n")
            self.psql.stdin.close()
        self.psql.wait(timeout=60)


def test_a_lock_held_elsewhere_times_out_writes_nothing_and_the_next_call_works() -> None:
    url = postgres_url()
    owner = f"locked-{uuid.uuid4()}"
    with coinfolio.Store(url, owner=owner, database_timeout=1) as store:
        store.set_holding("bitcoin", 1)
        holder = _OwnerLockHolder(url, owner)
        try:
            with pytest.raises(StoreError) as caught:
                store.set_holding("bitcoin", 5)
            error = caught.value
            assert error.details == {"reason": "timeout"}
            assert "within 1 s (database_timeout)" in error.message
            assert "Zebra" not in error.message
            with coinfolio.Store(url, owner=owner) as reader:
                assert [row["amount"] for row in reader.holdings()] == [1], "nothing written"
        finally:
            holder.release()
        store.set_holding("bitcoin", 5)
        assert [row["amount"] for row in store.holdings()] == [5]


def test_an_engine_honours_database_timeout_too() -> None:
    url = postgres_url()
    owner = f"locked-engine-{uuid.uuid4()}"
    with coinfolio.Engine(database=url, owner=owner, database_timeout=0.5) as engine:
        holder = _OwnerLockHolder(url, owner)
        try:
            with pytest.raises(StoreError) as caught:
                engine.set_holding("bitcoin", 2)
            assert caught.value.details == {"reason": "timeout"}
            assert "within 0.5 s (database_timeout)" in caught.value.message
        finally:
            holder.release()
        engine.set_holding("bitcoin", 2)


@pytest.mark.parametrize("bad", [0, -1, -0.5])
def test_bad_database_timeouts_are_refused(bad: float) -> None:
    with pytest.raises(InvalidArgument) as caught:
        coinfolio.Store(":memory:", database_timeout=bad)
    assert caught.value.details == {"field": "database_timeout"}
    with pytest.raises(InvalidArgument) as caught:
        coinfolio.Engine(database_timeout=bad)
    assert caught.value.details == {"field": "database_timeout"}


def test_non_numbers_and_non_finite_database_timeouts_are_refused() -> None:
    for bad in (float("nan"), float("inf")):
        with pytest.raises(InvalidArgument):
            coinfolio.Store(":memory:", database_timeout=bad)
        with pytest.raises(InvalidArgument):
            coinfolio.Engine(database_timeout=bad)
    with pytest.raises(TypeError):
        coinfolio.Store(":memory:", database_timeout="30")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        coinfolio.Engine(database_timeout=True)
