"""SPEC §18 through the ABI (Engine.import_file), on SQLite and (make test-postgres) PostgreSQL: the
sample files of Tests/fixtures/imports (written for the tests from the exchanges' headers) with
the ledger rows each writes, idempotent re-imports, unknown symbols, broken cells, dry runs and
unknown headers, the ledger compared before and after every refusal."""

from __future__ import annotations

import os
import time
from decimal import Decimal
from pathlib import Path
from typing import Iterator, List

import pytest

import coinfolio
from backend import postgres_pass
from coinfolio import answers

from conftest import REPO, LoopbackServer, describe, ledger_rows, ledger_text

SAMPLES = REPO / "Tests" / "fixtures" / "imports"


@pytest.fixture
def engine(ledger_engine: coinfolio.Engine) -> coinfolio.Engine:
    return ledger_engine


everything = ledger_text


def rows(engine: coinfolio.Engine, portfolio: str = "main") -> List[str]:
    return ledger_rows(engine, portfolio)


def test_a_coinbase_convert_is_a_trade_from_its_notes(engine: coinfolio.Engine) -> None:
    answer = engine.import_file(SAMPLES / "coinbase-v4.csv")
    assert (answer["format"], answer["variant"]) == ("coinbase", "v4")
    assert (answer["imported"], answer["skipped"], answer["pending_prices"]) == (10, 0, 0)
    assert [n["line"] for n in answer["ignored"]] == [8]
    assert [n["line"] for n in answer["warnings"]] == [12]
    assert answer["unknown_symbols"] == [] and "transactions" not in answer
    assert rows(engine) == [
        "buy bitcoin 0.01 @43000 fee 6.5",
        "buy ethereum 2 @2250 fee 18",
        "sell ethereum 1 @2400",
        "buy bitcoin 0.048 @50000",
        "sell bitcoin 0.005 @48000 fee 4",
        "income ethereum 0.01 @3400 staking",
        "transfer_out bitcoin 0.02",
        "income the-graph 10 @0.3 reward",
        "sell bitcoin 0.001 @65000",
        "buy usd-coin 65 @1",
    ]
    convert = [t for t in engine.transactions(limit=1000)["transactions"] if (t["external_id"] or "").startswith("coinbase:cb4-0003")]
    assert [t["external_id"] for t in convert] == ["coinbase:cb4-0003", "coinbase:cb4-0003#2"]
    assert convert[0]["group_id"] is not None and convert[0]["group_id"] == convert[1]["group_id"]
    assert convert[1]["price"] == Decimal("50000")


def test_a_binance_statement_trade_is_one_group_with_a_bnb_fee_row(engine: coinfolio.Engine) -> None:
    answer = engine.import_file((SAMPLES / "binance-statement.csv").read_text(encoding="utf-8"))
    assert (answer["variant"], answer["imported"], answer["pending_prices"]) == ("statement", 13, 10)
    assert [n["line"] for n in answer["ignored"]] == [14, 15, 16]
    assert [n["line"] for n in answer["warnings"]] == [18]
    buy = next(t for t in engine.transactions(limit=1000)["transactions"] if t["kind"] == "buy" and t["coin_id"] == "bitcoin")
    group = engine.transactions(group_id=buy["group_id"])["transactions"]
    assert [describe(t) for t in group] == [
        "sell tether 470 @pending",
        "buy bitcoin 0.01 @pending fee 0.00075 binancecoin",
        "fee binancecoin 0.00075 @pending",
    ]
    assert {t["price_source"] for t in group} == {"pending"}


def test_a_kraken_trade_and_staking_reward_in_a_euro_portfolio(engine: coinfolio.Engine) -> None:
    engine.create_portfolio("kraken", vs_currency="eur")
    answer = engine.import_file(SAMPLES / "kraken-ledgers.csv", format="kraken", portfolio="kraken")
    assert (answer["variant"], answer["imported"]) == ("ledgers", 4)
    assert [n["line"] for n in answer["ignored"]] == [2, 3, 8]  # the pending row, the EUR deposit, spot → staking
    assert "EUR" in answer["ignored"][1]["reason"]
    assert rows(engine, "kraken") == [
        "buy bitcoin 0.0125 @40000 fee 0.8",
        "income polkadot 0.1 @pending staking",
        "transfer_out bitcoin 0.005 fee 0.0001 bitcoin",
        "fee bitcoin 0.0001 @pending",
    ]
    assert engine.transactions(portfolio="kraken")["transactions"][0]["external_id"] == "kraken:TRADE1-AAAAA-BBBBBB"


def test_reimporting_imports_nothing_and_an_overlapping_export_only_its_new_rows(engine: coinfolio.Engine) -> None:
    assert engine.import_file(str(SAMPLES / "koinly.csv"))["imported"] == 8
    before = everything(engine)
    again = engine.import_file(str(SAMPLES / "koinly.csv"))
    assert (again["imported"], again["skipped"]) == (0, 8)
    assert everything(engine) == before
    header = (SAMPLES / "koinly.csv").read_text(encoding="utf-8").splitlines()[0]
    later = "\n".join(
        [
            header,
            "2023-04-03 00:00 UTC,,,0.01,ETH,,,18,USD,staking,,",  # already imported
            "2023-04-09 00:00 UTC,,,0.02,ETH,,,38,USD,staking,,",
        ]
    )
    overlap = engine.import_file(later)
    assert (overlap["imported"], overlap["skipped"]) == (1, 1)
    assert rows(engine)[-1] == "income ethereum 0.02 @1900 staking"


def test_bond_with_two_candidates_fails_listing_both_and_symbols_resolves_it(engine: coinfolio.Engine) -> None:
    engine.load(
        b'[{"id":"barnbridge","symbol":"bond","name":"BarnBridge","current_price":2},'
        b'{"id":"bond-protocol","symbol":"bond","name":"Bond Protocol","current_price":0.1}]'
    )
    text = (
        '"Type","Buy","Cur.","Sell","Cur.","Fee","Cur.","Exchange","Group","Comment","Date"\n'
        '"Airdrop","10.00000000","BOND","-","","-","","","","","01.05.2024 00:00:00"\n'
    )
    before = everything(engine)
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_file(text)
    assert caught.value.reason is coinfolio.Reason.UNKNOWN_SYMBOLS
    assert caught.value.details["symbols"] == [{"symbol": "BOND", "candidates": ["barnbridge", "bond-protocol"]}]
    assert everything(engine) == before
    dry = engine.import_file(text, dry_run=True)
    assert dry["unknown_symbols"] == [{"symbol": "BOND", "candidates": ["barnbridge", "bond-protocol"]}]
    assert dry.get("transactions") == []
    assert everything(engine) == before
    answer = engine.import_file(text, symbols={"BOND": "barnbridge"})
    assert answer["imported"] == 1
    assert rows(engine) == ["income barnbridge 10 @pending airdrop"]


def test_a_broken_cell_fails_with_its_line_and_column_and_writes_nothing(engine: coinfolio.Engine) -> None:
    before = everything(engine)
    text = (
        "Date(UTC),Market,Type,Price,Amount,Total,Fee,Fee Coin\n"
        "2019-05-01 08:00:00,BNBBTC,BUY,0.0030,10,0.03,0.0075,BNB\n"
        '2019-05-02 09:30:00,ETHBTC,SELL,0.0300,1,"0,03",0.00003,BTC\n'
    )
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_file(text)
    assert (caught.value.details["line"], caught.value.details["column"]) == (3, "Total")
    assert everything(engine) == before


def test_a_symbol_in_two_cases_for_two_coins_and_a_symbol_with_spaces_are_refused(engine: coinfolio.Engine) -> None:
    """`{"BTC":"bitcoin","btc":"ethereum"}` imported bitcoin whatever the order (the keys are one
    symbol), and `" BTC"` matched nothing, silently (a new user's findings): both are refused,
    naming the key, and nothing is written."""
    before = everything(engine)
    text = "Date(UTC),Pair,Side,Price,Executed,Amount,Fee\n2021-03-01 10:00:00,BTCUSDT,BUY,45000,0.01BTC,450USDT,0.00001BTC\n"
    for symbols, field in (({"BTC": "bitcoin", "btc": "ethereum"}, "symbols.btc"), ({" BTC": "bitcoin"}, "symbols. BTC")):
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            engine.import_file(text, symbols=symbols)
        assert caught.value.details["field"] == field
    assert everything(engine) == before


def test_an_unknown_header_lists_its_cells_and_the_formats(engine: coinfolio.Engine) -> None:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.import_file("Date,Coin,Amount\n2024-01-01,BTC,1\n")
    assert caught.value.reason is coinfolio.Reason.UNKNOWN_FORMAT
    assert caught.value.details["header"] == ["Date", "Coin", "Amount"]
    assert caught.value.details["formats"] == ["coinfolio", "coinbase", "binance", "kraken", "cointracking", "koinly"]
    with pytest.raises(coinfolio.InvalidArgument) as asked:
        engine.import_file(SAMPLES / "koinly.csv", format="mtgox")
    assert asked.value.details["field"] == "format"
    with pytest.raises(coinfolio.InvalidArgument):
        engine.import_file(SAMPLES / "no-such-file.csv")


def test_a_dry_run_lists_what_it_would_write_and_writes_nothing(engine: coinfolio.Engine) -> None:
    before = everything(engine)
    dry = engine.import_file(SAMPLES / "coinbase-v2.csv", dry_run=True, portfolio="new")
    assert (dry["variant"], dry["imported"]) == ("v2", 3)
    planned = dry["transactions"]
    assert [describe(t) for t in planned] == [
        "buy ethereum 0.5 @2600 fee 19.9",
        "income ethereum 0.001 @2500 reward",
        "transfer_out ethereum 0.2",
    ]
    assert planned[0]["id"] is None and planned[0]["portfolio"] == "new" and planned[0]["amount"] == Decimal("0.5")
    assert everything(engine) == before
    assert [p["name"] for p in engine.portfolios()] == ["main"]


def test_the_coinfolio_format_through_import_file(engine: coinfolio.Engine) -> None:
    text = "timestamp,coin_id,kind,amount,price,external_id\n2024-01-01T00:00:00Z,bitcoin,buy,1,40000,x1\n"
    answer = engine.import_file(text, portfolio="cold")
    assert (answer["format"], answer["variant"], answer["imported"]) == ("coinfolio", "default", 1)
    assert rows(engine, "cold") == ["buy bitcoin 1 @40000"]
    assert engine.import_file(text, format="coinfolio", portfolio="cold")["skipped"] == 1


# --- Prices (SPEC §18 with §17) ------------------------------------------------------------------


@pytest.fixture
def priced_engine(server: LoopbackServer, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[coinfolio.Engine]:
    """An engine talking to the loopback server, on a database no other test's price points
    reach (in the PostgreSQL pass a database of its own: points are shared by every owner)."""
    database = request.getfixturevalue("fresh_database") if postgres_pass() else str(tmp_path / "import-prices.sqlite")
    with coinfolio.Engine(
        database=database, owner="importer", api={"base_url": server.base_url, "timeout_ms": 5000, "max_retries": 0}
    ) as opened:
        yield opened


def file_time(ms: int) -> str:
    """``yyyy-mm-dd HH:MM:SS UTC``, as Koinly and Coinbase write a time."""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ms // 1000))


def test_imported_pending_rows_are_filled_and_a_euro_price_converted(
    priced_engine: coinfolio.Engine, server: LoopbackServer
) -> None:
    """A Koinly file: a buy of 1 ethereum for 100 eur (fee 2 eur), a 0.001 bitcoin staking reward
    and a trade of that ethereum for 0.001 bitcoin, none valued: all pending. The fill asks 3
    ranges (ethereum usd and eur, bitcoin usd; the server's ethereum is 110 + 1 usd and 100 + 1
    eur, bitcoin 40,000 + 10 usd per hour, points at hh:02): the buy costs 100 × 110 ÷ 100 = 110
    usd, fee 2.2; the reward 40,120 (12:02); the trade 0.001 × 40,120 = 40.12. A Coinbase v4 buy
    of 2 ethereum at €50 (fee €1) that day is then converted as it is written: 55 usd, fee 1.1."""
    day = 86_400_000
    today = int(time.time()) // 86400 * day
    buy_time, later = today - 6 * day + 30 * 60_000, today - 4 * day + 12 * 3_600_000 + 30 * 60_000
    koinly = (
        "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,"
        "Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n"
        f"{file_time(buy_time)},100,EUR,1,ETH,2,EUR,,,,,\n"
        f"{file_time(later)},,,0.001,BTC,,,,,staking,,\n"
        f"{file_time(later)},1,ETH,0.001,BTC,,,,,,,\n"
    )
    answer = priced_engine.import_file(koinly)
    assert (answer["imported"], answer["pending_prices"]) == (4, 4)
    assert rows(priced_engine) == [
        "buy ethereum 1 @pending fee 2 (100 eur)", "income bitcoin 0.001 @pending staking", "sell ethereum 1 @pending",
        "buy bitcoin 0.001 @pending",
    ]
    [buy] = priced_engine.transactions(limit=1)["transactions"]
    assert (buy["original_price"], buy["price_currency"], buy["price_source"]) == (Decimal(100), "eur", "pending")

    fill = priced_engine.fill_prices()
    assert (fill["filled"], fill["requests"], fill["missing"]) == (4, 3, [])
    assert rows(priced_engine) == [
        "buy ethereum 1 @110 fee 2.2 (100 eur)", "income bitcoin 0.001 @40120 staking", "sell ethereum 1 @40.12",
        "buy bitcoin 0.001 @40120",
    ]

    coinbase = (
        "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,"
        "Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n"
        f"cb-eur-1,{file_time(buy_time)},Buy,ETH,2,EUR,€50.00,€100.00,€101.00,€1.00,Bought 2 ETH\n"
    )
    answer = priced_engine.import_file(coinbase, format="coinbase")
    assert (answer["imported"], answer["pending_prices"]) == (1, 0)
    [converted] = [t for t in priced_engine.transactions(limit=10)["transactions"] if t["external_id"] == "coinbase:cb-eur-1"]
    assert describe(converted) == "buy ethereum 2 @55 fee 1.1 (50 eur)"
    assert (converted["original_price"], converted["price_currency"], converted["price_source"]) == (Decimal(50), "eur", "user")
    assert server.counts() == {"market_chart_range": 3}


def test_an_import_that_writes_nothing_is_no_ledger_change(db_path: Path) -> None:
    """A re-import (everything skipped) or a file of ignored rows writes nothing, so it does not
    count as a write in the owner's ledger_change row that other engines watch; an import that
    writes does."""
    import sqlite3

    if postgres_pass():
        pytest.skip("reads ledger_change from the SQLite file; the rule is the store's, the same on both servers")

    def counter() -> int:
        with sqlite3.connect(db_path) as db:
            return int(db.execute("SELECT counter FROM ledger_change WHERE owner = 'default'").fetchone()[0])

    with coinfolio.Engine(database=db_path) as engine:
        assert engine.import_file(str(SAMPLES / "koinly.csv"))["imported"] == 8
        first = counter()
        assert engine.import_file(str(SAMPLES / "koinly.csv"))["skipped"] == 8
        assert engine.import_csv(ledger_text(engine))["imported"] == 0
        assert counter() == first
        engine.add_transaction("bitcoin", "transfer_in", "1")
        assert counter() == first + 1


def test_a_path_that_never_ends_is_refused_past_the_read_limit(
    engine: coinfolio.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # import_file("/dev/zero") once read the device whole into Python's memory, without end.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    import coinfolio.engine

    monkeypatch.setattr(coinfolio.engine, "IMPORT_READ_LIMIT", 1 << 20)
    before = engine.transactions()["total"]
    with pytest.raises(coinfolio.InvalidArgument) as raised:
        engine.import_file("/dev/zero")
    assert "longer than 1 MB" in str(raised.value) and raised.value.details["path"] == "/dev/zero"
    assert engine.transactions()["total"] == before
