"""SPEC §12 through the ABI: transactions, cost basis and P&L, portfolios, CSV, migration."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

import coinfolio
from conftest import REPO, TESTS, child_env

WRITER = TESTS / "ledger_writer.py"
HEADER = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"
MARKETS_AT_400 = '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":400}]'


@pytest.fixture
def engine() -> Iterator[coinfolio.Engine]:
    with coinfolio.Engine(database=":memory:") as e:
        yield e


def worked_example(engine: coinfolio.Engine) -> None:
    """buy 1 BTC @ 100 fee 1; buy 1 @ 200; sell 1.5 @ 300 fee 3; price now 400."""
    engine.load(MARKETS_AT_400)
    engine.add_transaction("bitcoin", "buy", 1, price=100, fee=1, timestamp="2024-01-01T00:00:00Z")
    engine.add_transaction("bitcoin", "buy", 1, price=200, timestamp="2024-01-02T00:00:00Z")
    engine.add_transaction("bitcoin", "sell", "1.5", price=300, fee=3, timestamp="2024-01-03T00:00:00Z")


def btc(engine: coinfolio.Engine, method: str) -> Dict[str, Any]:
    coins = engine.pnl(method=method)["coins"]
    assert [c["coin_id"] for c in coins] == ["bitcoin"]
    return dict(coins[0])


def test_worked_example_fifo(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    coin = btc(engine, "fifo")
    assert coin["realized_pnl"] == 246
    assert coin["amount"] == 0.5
    assert coin["cost_basis"] == 100
    assert coin["unrealized_pnl"] == 100
    assert coin["current_value"] == 200
    assert coin["fees"] == 4
    assert coin["cost_basis_coverage"] == 1
    assert coin["realized_coverage"] == 1
    totals = engine.pnl()["totals"]
    assert totals["realized_pnl"] == 246 and totals["unrealized_pnl"] == 100


def test_worked_example_average(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    coin = btc(engine, "average")
    assert coin["realized_pnl"] == 221.25
    assert coin["cost_basis"] == 75.25
    assert coin["unrealized_pnl"] == 124.75
    assert coin["average_cost"] == 150.5


def test_worked_example_lifo(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    coin = btc(engine, "lifo")
    assert coin["realized_pnl"] == 196.5
    assert coin["cost_basis"] == 50.5
    assert coin["unrealized_pnl"] == 149.5


def test_statistics_gain_pnl_after_portfolio_value(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    stats = engine.statistics()
    assert [s["title"] for s in stats][3:] == ["Portfolio Value", "Unrealized P&L", "Realized P&L"]
    assert stats[4]["value"] == "$100.00" and stats[4]["percentage_change"] == 100
    assert stats[5]["value"] == "$246.00"


def test_exact_decimals_close_a_position_to_zero(engine: coinfolio.Engine) -> None:
    engine.add_transaction("ethereum", "buy", Decimal("0.3"), price="10", timestamp="2024-01-01")
    engine.add_transaction("ethereum", "sell", 0.1, price="10", timestamp="2024-01-02")
    engine.add_transaction("ethereum", "sell", "0.2", price="10", timestamp="2024-01-03")
    coin = engine.pnl()["coins"][0]
    assert coin["amount"] == 0 and coin["cost_basis"] == 0
    assert engine.portfolio()["coins"] == []


def test_selling_more_than_held_is_refused_with_details(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.add_transaction("bitcoin", "sell", "0.75", price=1, timestamp="2024-01-04T00:00:00Z")
    assert caught.value.details == {"coin_id": "bitcoin", "timestamp": "2024-01-04T00:00:00Z", "short_by": 0.25}
    assert engine.transactions()["total"] == 3
    engine.add_transaction("bitcoin", "transfer_out", "0.5", timestamp="2024-01-05")  # exactly what is held
    first = engine.transactions()["transactions"][0]["id"]
    with pytest.raises(coinfolio.InvalidArgument):
        engine.delete_transaction(first)
    with pytest.raises(coinfolio.NotFound):
        engine.delete_transaction("999")


@pytest.mark.parametrize(
    "fields",
    [
        {"amount": "NaN", "kind": "buy", "price": 1},
        {"amount": -1, "kind": "buy", "price": 1},
        {"amount": 1, "kind": "buy", "price": -5},
        {"amount": 1, "kind": "buy", "price": 1, "fee": "-1"},
        {"amount": 1, "kind": "income"},
        {"amount": 1, "kind": "transfer_in", "price": 5},
        {"amount": 1, "kind": "airdrop"},
        {"amount": 1, "kind": "transfer_in", "timestamp": "1 March 2024"},
        {"amount": 1, "kind": "transfer_in", "timestamp": "2024-03-01T12:30:00+2"},
        {"amount": 1, "kind": "transfer_in", "note": "x" * 10_000_000},
        {"amount": "1e-19", "kind": "transfer_in"},
    ],
)
def test_bad_inputs_change_nothing(engine: coinfolio.Engine, fields: Dict[str, Any]) -> None:
    worked_example(engine)
    before = engine.transactions()
    with pytest.raises(coinfolio.InvalidArgument):
        engine.add_transaction("bitcoin", **fields)
    assert engine.transactions() == before


def test_nan_float_is_refused_before_the_call(engine: coinfolio.Engine) -> None:
    with pytest.raises(coinfolio.InvalidArgument):
        engine.add_transaction("bitcoin", "buy", float("nan"), price=1)
    assert engine.transactions()["total"] == 0


def test_sql_in_a_note_is_only_text(engine: coinfolio.Engine) -> None:
    note = "'); DROP TABLE ledger_transaction; --"
    stored = engine.add_transaction("bitcoin", "transfer_in", 1, note=note, timestamp="2024-01-01")
    assert stored["note"] == note and stored["price"] is None
    assert engine.transactions()["transactions"] == [stored]


def test_timestamps_are_normalized_to_utc(engine: coinfolio.Engine) -> None:
    stored = engine.add_transaction("bitcoin", "transfer_in", 1, timestamp="2024-03-01T14:30:00.1234+02:00")
    assert stored["timestamp"] == "2024-03-01T12:30:00.123Z"
    assert engine.add_transaction("bitcoin", "transfer_in", 1, timestamp="2024-03-01")["timestamp"] == "2024-03-01T00:00:00Z"


def test_portfolios_create_rename_delete(engine: coinfolio.Engine) -> None:
    engine.create_portfolio("cold", vs_currency="eur")
    engine.add_transaction("bitcoin", "buy", 1, price=3, portfolio="cold", timestamp="2024-01-01")
    assert engine.portfolios() == [{"name": "cold", "vs_currency": "eur"}, {"name": "main", "vs_currency": "usd"}]
    assert [c["id"] for c in engine.portfolio(portfolio="cold", sparkline=False)["coins"]] == ["bitcoin"]
    engine.rename_portfolio("cold", "vault")
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.delete_portfolio("vault")
    assert caught.value.details["transactions"] == 1
    engine.delete_portfolio("vault", force=True)
    with pytest.raises(coinfolio.NotFound):
        engine.pnl(portfolio="vault")


# --- CSV -----------------------------------------------------------------------------------------


def test_csv_quotes_commas_newlines_bom_and_crlf(engine: coinfolio.Engine) -> None:
    text = (
        "\ufeff" + HEADER + "\r\n"
        '2024-01-01T00:00:00Z,main,bitcoin,buy,1,100,1,"a, ""quoted"" note\r\nsecond line",x-1\r\n'
        "2024-01-02T00:00:00Z,,bitcoin,buy,1,200,,,x-2\r\n"
    )
    assert engine.import_csv(text) == {"imported": 2, "skipped": 0}
    assert engine.transactions()["transactions"][0]["note"] == 'a, "quoted" note\r\nsecond line'
    assert engine.import_csv(text) == {"imported": 0, "skipped": 2}
    assert engine.import_csv("") == {"imported": 0, "skipped": 0}


def test_csv_duplicate_external_id_in_one_file_fails_at_its_second_row(engine: coinfolio.Engine) -> None:
    text = HEADER + "\n2024-01-01,main,bitcoin,buy,1,1,0,,dup\n2024-01-02,main,bitcoin,buy,1,1,0,,dup\n"
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_csv(text)
    assert caught.value.details["line"] == 3 and caught.value.details["column"] == "external_id"
    assert engine.transactions()["total"] == 0


@pytest.mark.parametrize(
    "text, line, column",
    [
        (HEADER.replace(",", ";") + "\n", 1, None),
        (HEADER + '\n2024-01-01,main,bitcoin,buy,"1,5",1,0,,\n', 2, "amount"),
        (HEADER + "\n2024-01-01,main,bitcoin,buy,1,1,0,,\n2024-01-02,main,bitcoin,swap,1,1,0,,\n", 3, "kind"),
        (HEADER + '\n"2024-01-01",main,bitcoin,buy,1,1,0,"two\nlines",\n01/02/2024,main,bitcoin,buy,1,1,0,,\n', 4, "timestamp"),
    ],
)
def test_csv_errors_name_line_and_column(engine: coinfolio.Engine, text: str, line: int, column: Any) -> None:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_csv(text)
    assert caught.value.details["line"] == line
    assert caught.value.details.get("column") == column
    assert engine.transactions()["total"] == 0


def test_csv_export_import_round_trips_exactly(engine: coinfolio.Engine) -> None:
    worked_example(engine)
    engine.add_transaction("ethereum", "transfer_in", "0.000000000000000001", note='a,"b"\nc', timestamp="2024-02-01")
    exported = engine.export_csv()
    # Export writes the long header of SPEC §16 (the short one still imports).
    assert exported.startswith(HEADER + ",fee_coin_id,fee_price,income_type,group_id\r\n") and ",coinfolio:1,,,,\r\n" in exported
    assert engine.import_csv(exported) == {"imported": 0, "skipped": 4}
    with coinfolio.Engine(database=":memory:") as other:
        assert other.import_csv(exported) == {"imported": 4, "skipped": 0}
        assert other.export_csv() == exported


# --- Migration and durability ---------------------------------------------------------------------


def test_schema_one_fixture_migrates_holdings_to_transfers_in(tmp_path: Path) -> None:
    copy = tmp_path / "schema-v1.sqlite"
    shutil.copyfile(REPO / "Tests" / "fixtures" / "store" / "schema-v1.sqlite", copy)
    with coinfolio.Engine(database=str(copy)) as engine:
        page = engine.transactions()
        assert page["total"] == 4
        assert {(t["coin_id"], t["amount"]) for t in page["transactions"]} == {
            ("0.1-token", Decimal("0.1")), ("bitcoin", Decimal("0.5")), ("ethereum", Decimal("2.25")),
            ("not-a-listed-coin", Decimal("10")),
        }
        for t in page["transactions"]:
            assert t["kind"] == "transfer_in" and t["price"] is None
            assert t["timestamp"] == "1970-01-01T00:00:00Z" and t["note"] == "schema 1 holding"
        assert engine.coins()["total"] == 12
        assert [c["cost_basis"] for c in engine.pnl()["coins"]] == [None, None, None, None]
        assert engine.pnl()["totals"]["cost_basis"] is None  # no known cost held: unknown, not 0
    with coinfolio.Store(copy) as store:
        assert [h["amount"] for h in store.holdings()] == [0.1, 0.5, 2.25, 10]
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_several_processes_adding_transactions_lose_nothing(db_path: Path) -> None:
    coinfolio.Engine(database=str(db_path)).close()
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), "add", str(db_path), f"coin-{n}", "60"],
            env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for n in range(3)
    ]
    acknowledged = set()
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        lines = out.split()
        assert lines[-1] == "done"
        acknowledged.update(lines[:-1])
    assert len(acknowledged) == 180
    with coinfolio.Engine(database=str(db_path)) as engine:
        page = engine.transactions(limit=1000)
        assert {t["id"] for t in page["transactions"]} == acknowledged
        assert [c["amount"] for c in engine.pnl()["coins"]] == [6, 6, 6]


def test_sigkill_mid_import_leaves_all_or_none(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    csv = tmp_path / "big.csv"
    rows = 150_000
    with csv.open("w", encoding="utf-8") as handle:
        handle.write(HEADER + "\n")
        for i in range(rows):
            handle.write(f"2024-01-01T00:00:00Z,main,coin-{i % 50},buy,0.5,2,0,,row-{i}\n")
    coinfolio.Engine(database=str(db)).close()
    child = subprocess.Popen(
        [sys.executable, str(WRITER), "import", str(db), str(csv)],
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "importing"
    time.sleep(0.4)  # inside the one import call
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with coinfolio.Engine(database=str(db)) as engine:
        assert engine.transactions(limit=0)["total"] in (0, rows)


def test_csv_bytes_that_are_not_utf8_name_their_line(engine: coinfolio.Engine) -> None:
    data = (HEADER + "\n2024-01-01,main,bitcoin,buy,1,1,0,ok,\n2024-01-02,main,bitcoin,buy,1,1,0,").encode() + b"\xff\xfe\n"
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_csv(data)
    assert caught.value.details["line"] == 3
    assert engine.transactions()["total"] == 0


def test_import_reports_progress(engine: coinfolio.Engine) -> None:
    seen = []
    engine.set_progress(lambda progress: seen.append(progress))
    rows = "".join(f"2024-01-01T00:00:{i % 60:02d}Z,main,coin-{i % 3},buy,1,1,0,,r{i}\n" for i in range(2500))
    assert engine.import_csv(HEADER + "\n" + rows) == {"imported": 2500, "skipped": 0}
    imports = [p for p in seen if p["phase"] == "import"]
    assert imports[0] == {"phase": "import", "done": 0, "total": None}
    assert {"phase": "import", "done": 1000, "total": None} in imports
    assert imports[-1] == {"phase": "import", "done": 2500, "total": 2500}


def test_a_progress_function_calling_back_during_import_is_refused_not_hung(engine: coinfolio.Engine) -> None:
    """The import holds the database for its one transaction: a call back into it would wait for
    itself, so it is refused with reason "reentrant" and the import goes on."""
    reasons = []

    def on_progress(progress: Any) -> None:
        if progress["phase"] == "import" and progress["done"] == 1000:
            try:
                engine.transactions()
            except coinfolio.InvalidArgument as error:
                reasons.append(error.details.get("reason"))

    engine.set_progress(on_progress)
    rows = "".join(f"2024-01-01T00:00:00Z,main,bitcoin,buy,1,1,0,,r{i}\n" for i in range(1500))
    assert engine.import_csv(HEADER + "\n" + rows) == {"imported": 1500, "skipped": 0}
    assert reasons == ["reentrant"]
    engine.set_progress(None)
    assert engine.transactions(limit=0)["total"] == 1500


def test_the_ledger_on_both_backends_keeps_owners_apart(tmp_path: Path) -> None:
    """The worked example, CSV and the never-negative rule where the store and engine suites run:
    a SQLite file, or the test cluster in the PostgreSQL pass; two owners never see each other."""
    import os
    import uuid

    if os.environ.get("COINFOLIO_TEST_BACKEND") == "postgres":
        from backend import shared_url

        database = shared_url()
    else:
        database = str(tmp_path / "owners.sqlite")
    alice_owner, bob_owner = f"alice-{uuid.uuid4()}", f"bob'; DROP TABLE ledger_transaction; -- {uuid.uuid4()}"
    with coinfolio.Engine(database=database, owner=alice_owner) as alice, coinfolio.Engine(
        database=database, owner=bob_owner
    ) as bob:
        worked_example(alice)
        assert btc(alice, "fifo")["realized_pnl"] == 246
        assert btc(alice, "average")["cost_basis"] == 75.25
        assert btc(alice, "lifo")["unrealized_pnl"] == 149.5
        assert bob.transactions()["total"] == 0 and bob.pnl()["coins"] == []
        exported = alice.export_csv()
        assert alice.import_csv(exported) == {"imported": 0, "skipped": 3}
        assert bob.import_csv(exported) == {"imported": 3, "skipped": 0}
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            bob.add_transaction("bitcoin", "sell", 1, price=1, timestamp="2024-01-04")
        assert caught.value.details["short_by"] == 0.5
        assert alice.transactions()["total"] == 3
        page = alice.transactions(coin_id="bitcoin", from_time="2024-01-02", limit=1, offset=1)
        assert page["total"] == 2 and len(page["transactions"]) == 1
