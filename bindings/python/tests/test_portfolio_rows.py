"""Issue 11, amended by issue 23 §4: ``Engine.portfolio`` is exactly the library's answer parsed
(the binding keeps no rows of its own and the library has one wire shape); what the caller gets is
``json.loads`` of that answer, whatever happened in between, and is the caller's to change."""

from __future__ import annotations

import json
import threading
import time
from ctypes import byref, c_void_p
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

import coinfolio
from coinfolio import _ffi
from coinfolio.engine import Engine


def raw_answer(engine: Engine, query: Dict[str, Any]) -> bytes:
    """cf_engine_portfolio's bytes, unparsed."""
    out = c_void_p()
    with engine._borrow() as pointer:
        _ffi.lib.cf_engine_portfolio(pointer, _ffi.encode_json(query, "query"), byref(out), _ffi.error_slot())
    data = _ffi.take_bytes(out.value)
    assert data is not None
    return data


def plain(engine: Engine, sort: str = "holdings", portfolio: str = "main") -> Any:
    """Today's answer as the standard library parses it."""
    return json.loads(raw_answer(engine, {"sort": sort, "sparkline": False, "portfolio": portfolio}))


def same(got: Any, expected: Any) -> None:
    """Equal values, key order and number types (json.dumps tells 1 from 1.0)."""
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)


def check_every_sort(engine: Engine) -> None:
    for sort in ("holdings", "holdings_reversed", "rank", "rank_reversed", "price", "price_reversed"):
        same(engine.portfolio(sort=sort), plain(engine, sort))
        same(engine.portfolio(sort=sort), plain(engine, sort))  # asked twice: nothing kept


@pytest.fixture(params=["orjson", "json"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs the test with orjson (when installed) and with the standard library."""
    if request.param == "orjson":
        if _ffi._orjson is None:
            pytest.skip("orjson is not installed")
    else:
        monkeypatch.setattr(_ffi, "_orjson", None)
    yield request.param


def markets(fixture_text: Any, factor: float) -> str:
    """The committed markets.json with every price multiplied by `factor`."""
    coins = json.loads(fixture_text("markets.json"))
    for coin in coins:
        if isinstance(coin.get("current_price"), (int, float)):
            coin["current_price"] = coin["current_price"] * factor
    return json.dumps(coins)


def test_the_answer_is_the_plain_one_through_every_change(db_path: Path, fixture_text: Any, parser: str) -> None:
    with coinfolio.Engine(database=db_path) as engine:
        same(engine.portfolio(), plain(engine))  # no holding, no snapshot
        engine.set_holding("bitcoin", 0.5)
        engine.set_holding("delisted-coin", 2)  # never in any snapshot
        same(engine.portfolio(), plain(engine))  # holdings, no snapshot
        engine.load(fixture_text("markets.json"), fixture_text("global.json"))
        check_every_sort(engine)
        engine.set_holding("ethereum", 1.25)  # a newly held coin (with an roi object)
        engine.set_holding("tether", 1000)
        check_every_sort(engine)
        engine.set_holding("bitcoin", 0)  # no longer held
        check_every_sort(engine)
        engine.load(markets(fixture_text, 2.0))  # a new snapshot: every price doubled
        check_every_sort(engine)
        tether = next(coin for coin in engine.portfolio()["coins"] if coin["id"] == "tether")
        original = next(coin for coin in json.loads(fixture_text("markets.json")) if coin["id"] == "tether")
        assert tether["current_price"] == original["current_price"] * 2.0
        same(engine.portfolio(portfolio="main"), plain(engine, portfolio="main"))
        engine.create_portfolio("cold")
        engine.add_transaction(
            portfolio="cold", coin_id="dogecoin", kind="transfer_in", amount="10", timestamp="2024-01-01T00:00:00Z"
        )
        same(engine.portfolio(portfolio="cold"), plain(engine, portfolio="cold"))
        same(engine.portfolio(), plain(engine))
    # The saved snapshot, reopened (another engine's load of the same file included).
    with coinfolio.Engine(database=db_path) as reopened:
        check_every_sort(reopened)
        with coinfolio.Engine(database=db_path) as other:
            other.load(fixture_text("markets.json"))
        check_every_sort(reopened)


def test_each_currency_has_its_own_rows(db_path: Path, fixture_text: Any, parser: str) -> None:
    with coinfolio.Engine(database=db_path) as usd, coinfolio.Engine(database=db_path, vs_currency="eur") as eur:
        usd.set_holding("bitcoin", 1)
        usd.load(fixture_text("markets.json"))
        eur.load(markets(fixture_text, 0.5))
        check_every_sort(usd)
        check_every_sort(eur)
        assert eur.portfolio()["coins"][0]["current_price"] == usd.portfolio()["coins"][0]["current_price"] * 0.5


def test_changing_an_answer_changes_no_later_one(fixture_text: Any, parser: str) -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"))
        engine.set_holding("ethereum", 2)
        engine.set_holding("bitcoin", 1)
        first = engine.portfolio()
        second = engine.portfolio()
        for answer in (first, second):
            for coin in answer["coins"]:
                coin["name"] = "changed"
                coin["current_price"] = -1
                if isinstance(coin.get("roi"), dict):
                    coin["roi"]["times"] = -1
            answer["coins"].clear()
        same(engine.portfolio(), plain(engine))
        rois = [next(c["roi"] for c in engine.portfolio()["coins"] if c["id"] == "ethereum") for _ in range(2)]
        assert isinstance(rois[0], dict) and rois[0] == rois[1] and rois[0] is not rois[1]


def test_answers_with_and_without_sparklines_alternate_as_the_plain_ones(fixture_text: Any, parser: str) -> None:
    """An answer with sparklines and one without, in any order, after a changed amount and after
    a new snapshot, are each exactly the plain answer."""
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"))
        engine.set_holding("bitcoin", 1)

        def check() -> None:
            for sparkline in (False, True, False, True):
                expected = json.loads(raw_answer(engine, {"sort": "holdings", "sparkline": sparkline}))
                same(engine.portfolio(sparkline=sparkline), expected)

        check()
        engine.set_holding("bitcoin", 3)
        check()
        engine.load(markets(fixture_text, 3.0))
        check()
        assert engine.portfolio()["coins"][0]["current_holdings"] == 3


def test_there_is_one_wire_shape(fixture_text: Any) -> None:
    """Issue 23 §4: the second wire shape (``"coins_by_reference"``) is gone; the key is now an
    unknown key like any other (ignored: the header's rule for JSON objects), giving the plain answer."""
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"))
        engine.set_holding("bitcoin", 1)
        for value in (True, False, 1):
            same(json.loads(raw_answer(engine, {"coins_by_reference": value, "sparkline": False})), plain(engine))
        assert "snapshot_version" not in plain(engine)


def test_escaped_ids_unicode_rows_and_loads_on_other_threads_join_as_the_plain_answer(
    db_path: Path, fixture_text: Any, parser: str
) -> None:
    rows = json.loads(fixture_text("markets.json")) + [
        {"id": 'q"uo\\te', "symbol": "q", "name": 'Quote "x" \u2028', "current_price": 2.5, "market_cap_rank": 50,
         "roi": {"times": 1, "currency": "usd", "percentage": 100}},
        {"id": "\u00fcn\u00ef-\u00e7\u00f6d\u00e9", "symbol": "\u00fc", "name": "\u00dcn\u00ef \U0001F680", "current_price": 3,
         "market_cap_rank": 51},
    ]

    def body(variant: int) -> str:
        changed = json.loads(json.dumps(rows))
        for row in changed:
            if variant == 1 and isinstance(row.get("current_price"), (int, float)):
                row["current_price"] *= 2
            if variant == 2 and row["id"] == "tether":
                row["name"], row["roi"] = "Renamed", {"times": 5, "currency": "btc", "percentage": 7}
        if variant == 3:  # held coins' rows disappear
            changed = [row for row in changed if row["id"] not in ("bitcoin", 'q"uo\\te')]
        return json.dumps(changed)

    with coinfolio.Engine(database=db_path) as engine, coinfolio.Engine(database=db_path) as other:
        engine.load(body(0))
        for index, coin_id in enumerate(["bitcoin", "tether", 'q"uo\\te', "\u00fcn\u00ef-\u00e7\u00f6d\u00e9", "gone"]):
            engine.set_holding(coin_id, index + 1)
        for variant in (1, 2, 3, 0):
            engine.load(body(variant))
            check_every_sort(engine)
            # Another engine's load replaces the currency's shared snapshot (SPEC §20); this engine
            # takes it on its first query at least 1 s later (the version check), so it is asked
            # after that: a query just before the check and one just after would see two snapshots.
            other.load(body((variant + 1) % 4))
            check_every_sort(other)
            time.sleep(1.05)
            check_every_sort(engine)
            same(engine.portfolio(), plain(other))
        # Queries on threads while this one loads: every answer is a plain answer of one body.
        possible = set()
        for variant in range(4):
            engine.load(body(variant))
            answer = plain(engine)
            for key in ("as_of", "fetched_at", "stale"):
                answer.pop(key)
            possible.add(json.dumps(answer))
        done = threading.Event()
        wrong: List[Any] = []

        def read() -> None:
            while not done.is_set():
                answer = engine.portfolio()
                for key in ("as_of", "fetched_at", "stale"):
                    answer.pop(key)
                if json.dumps(answer) not in possible:
                    wrong.append(answer)

        readers = [threading.Thread(target=read) for _ in range(3)]
        for reader in readers:
            reader.start()
        for round in range(24):
            engine.load(body(round % 4))
        done.set()
        for reader in readers:
            reader.join()
        assert wrong == []
        check_every_sort(engine)
