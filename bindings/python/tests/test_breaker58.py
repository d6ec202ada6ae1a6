"""Breaker 58: input validation at the edges the header documents — the ledger's 8.5e19 bound
(exactly, 8.5e19 included), set_holding's 1e-18 floor, bad UTF-8 in C-string arguments (reason
"bad_utf8"), what "portfolio": null means, create_portfolio's currency and name length, a
performance range in the future, and the number grammar of ids and amounts. Each test writes the
status and details.reason the header promises."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import coinfolio
from coinfolio import _ffi

EDGE = "85000000000000000000"  # 8.5e19


def engine() -> coinfolio.Engine:
    return coinfolio.Engine(database=":memory:")


def amount_of(e: coinfolio.Engine, coin: str, portfolio: str = "main") -> Any:
    coins = [c for c in e.pnl(portfolio=portfolio)["coins"] if c["coin_id"] == coin]
    return coins[0]["amount"] if coins else None


def buy(e: coinfolio.Engine, amount: str, day: str = "2024-01-01", **more: Any) -> Any:
    return e.add_transaction("bitcoin", "buy", amount, price="1", timestamp=day, **more)


# --- F1: the bound is 8.5e19 exactly ---------------------------------------------------------------


def test_a_holding_of_exactly_8_5e19_is_kept_and_one_unit_more_is_out_of_range() -> None:
    e = engine()
    buy(e, EDGE)
    assert str(amount_of(e, "bitcoin")) == EDGE
    for more in ["70000000000000000", "0.000000000000000001"]:  # 7e16 (was accepted), one unit
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            buy(e, more, "2024-01-02")
        assert caught.value.status == 1
        assert caught.value.details == {
            "reason": "out_of_range", "field": "amount", "coin_id": "bitcoin", "timestamp": "2024-01-02T00:00:00Z"}
    assert str(amount_of(e, "bitcoin")) == EDGE


def test_a_single_amount_past_8_5e19_is_refused_as_text() -> None:
    e = engine()
    for text in ["85000000000000000000.000000000000000001", "85000000000000000001", "8.5000000000000001e19"]:
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            buy(e, text)
        assert caught.value.details.get("field") == "amount", text
        assert "at most 8.5e19" in caught.value.message
    assert e.transactions()["total"] == 0


def test_a_move_into_a_portfolio_at_the_bound_is_out_of_range() -> None:
    e = engine()
    e.create_portfolio("cold")
    buy(e, "12000")
    buy(e, EDGE, portfolio="cold")
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        e.move("bitcoin", "1", "main", "cold", timestamp="2024-02-01")
    assert caught.value.details["reason"] == "out_of_range"
    assert str(amount_of(e, "bitcoin", "cold")) == EDGE


def test_set_holding_above_8_5e19_is_invalid_argument_and_8_5e19_is_kept() -> None:
    e = engine()
    for amount in [8.500000000000002e19, 8.6e19, 1e20]:
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            e.set_holding("ethereum", amount)
        assert caught.value.details == {"field": "amount"}
    assert e.transactions()["total"] == 0
    e.set_holding("ethereum", 8.5e19)
    assert str(amount_of(e, "ethereum")) == EDGE


# --- F2: set_holding below 1e-18 -------------------------------------------------------------------


@pytest.mark.parametrize("amount", [9.9e-19, 5e-19, 1e-30, 5e-324])
def test_set_holding_below_1e_18_is_invalid_argument(amount: float) -> None:
    e = engine()
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        e.set_holding("solana", amount)
    assert caught.value.details == {"field": "amount"}
    assert e.transactions()["total"] == 0


def test_set_holding_of_1e_18_is_kept() -> None:
    e = engine()
    e.set_holding("solana", 1e-18)
    assert [t["amount"] for t in e.transactions()["transactions"]] == [Decimal("1e-18")]


# --- F5: bad UTF-8 in a C-string argument -----------------------------------------------------------


def refusal(call: Any) -> coinfolio.InvalidArgument:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    "function,args,argument",
    [
        ("cf_engine_add_transaction", (b'{"coin_id":"bitcoin","kind":"buy","amount":"1","price":"1","note":"\xff"}',), "transaction_json"),
        ("cf_engine_add_transaction", (b'{"coin_id":"bitcoin","kind":"buy","amount":"1","price":"1","note":"\xc0\xaf \xed\xa0\x80"}',), "transaction_json"),
        ("cf_engine_realized", (b'{"method":"\xc3"}',), "options_json"),
        ("cf_engine_pnl", (b'{"portfolio":"\xe2\x82"}',), "options_json"),
    ],
)
def test_bad_utf8_in_a_json_argument_says_bad_utf8(function: str, args: Any, argument: str) -> None:
    e = engine()
    with e._borrow() as pointer:
        error = refusal(lambda: _ffi.call_json(getattr(_ffi.lib, function), pointer, *args))
    assert error.details == {"reason": "bad_utf8", "input": argument}
    assert error.message == f"{argument} is not valid UTF-8"


def test_bad_utf8_in_a_plain_string_argument_says_bad_utf8() -> None:
    e = engine()
    with e._borrow() as pointer:
        deleted = refusal(lambda: _ffi.call(_ffi.lib.cf_engine_delete_transaction, pointer, b"1\xff"))
        renamed = refusal(lambda: _ffi.call(_ffi.lib.cf_engine_rename_portfolio, pointer, b"main", b"x\xff"))
    held = refusal(lambda: e.set_holding(b"bit\xffcoin", 1.0))
    assert deleted.details == {"reason": "bad_utf8", "input": "transaction_id"}
    assert renamed.details == {"reason": "bad_utf8", "input": "new_name"}
    assert held.details == {"reason": "bad_utf8", "input": "coin_id"}
    assert [p["name"] for p in e.portfolios()] == ["main"]


# --- F6: "portfolio": null is every portfolio, in every call ----------------------------------------


def two_portfolios() -> coinfolio.Engine:
    e = engine()
    e.create_portfolio("cold")
    buy(e, "1")
    e.add_transaction("ethereum", "buy", "2", price="10", timestamp="2024-01-01", portfolio="cold")
    return e


def raw_json(e: coinfolio.Engine, function: str, payload: bytes) -> Any:
    with e._borrow() as pointer:
        return _ffi.call_json(getattr(_ffi.lib, function), pointer, payload)


def test_transactions_with_portfolio_null_lists_every_portfolio() -> None:
    e = two_portfolios()
    every = raw_json(e, "cf_engine_transactions", b'{"portfolio":null}')
    assert sorted(t["portfolio"] for t in every["transactions"]) == ["cold", "main"]
    assert every["total"] == 2
    assert [t["portfolio"] for t in raw_json(e, "cf_engine_transactions", b"{}")["transactions"]] == ["main"]


def test_export_realized_and_performance_read_null_as_every_portfolio_too() -> None:
    e = two_portfolios()
    with e._borrow() as pointer:
        csv = _ffi.call_text(_ffi.lib.cf_engine_export_csv, pointer, b'{"portfolio":null}')
    assert len(csv.strip().split("\r\n")) == 3  # header and both portfolios' rows
    assert raw_json(e, "cf_engine_realized", b'{"portfolio":null}')["portfolio"] is None


@pytest.mark.parametrize(
    "function,payload",
    [
        ("cf_engine_pnl", b'{"portfolio":null}'),
        ("cf_engine_add_transaction", b'{"portfolio":null,"coin_id":"bitcoin","kind":"buy","amount":"1","price":"1"}'),
        ("cf_engine_add_trade", b'{"portfolio":null,"sent":{"coin_id":"bitcoin","amount":"1"},"received":{"coin_id":"ethereum","amount":"1"},"value":"1"}'),
        ("cf_engine_portfolio", b'{"portfolio":null}'),
        ("cf_engine_portfolio_history", b'{"portfolio":null}'),
    ],
)
def test_a_call_that_cannot_take_every_portfolio_refuses_null_never_reads_main(function: str, payload: bytes) -> None:
    e = two_portfolios()
    error = refusal(lambda: raw_json(e, function, payload))
    assert error.details == {"field": "portfolio"}
    assert error.message.startswith("portfolio null means every portfolio, which ")
    assert e.transactions(portfolio="main")["total"] == 1


# --- F4: create_portfolio's currency and name length -------------------------------------------------


def test_create_portfolio_refuses_a_currency_coingecko_does_not_price_in() -> None:
    e = engine()
    error = refusal(lambda: e.create_portfolio("y", "xyz"))
    assert error.details == {"reason": "unknown_currency", "field": "vs_currency"}
    assert [p["name"] for p in e.portfolios()] == ["main"]
    e.create_portfolio("y", "EUR")
    assert {p["name"]: p["vs_currency"] for p in e.portfolios()}["y"] == "eur"


def test_a_portfolio_name_counts_characters_not_bytes() -> None:
    e = engine()
    e.create_portfolio("ü" * 128)  # 128 characters, 256 bytes
    assert "ü" * 128 in [p["name"] for p in e.portfolios()]
    error = refusal(lambda: e.create_portfolio("ü" * 129))
    assert error.details == {"field": "portfolio"}
    assert "1 to 128 characters" in error.message


# --- F9: a range in the future ------------------------------------------------------------------------


@pytest.mark.parametrize("start,end", [("2999-01-01", "2999-01-05"), ("9999-01-01", "9999-12-31"), ("2999-01-01", None)])
def test_a_performance_range_in_the_future_says_so(start: str, end: Any) -> None:
    e = two_portfolios()
    span = {"from": start} if end is None else {"from": start, "to": end}
    error = refusal(lambda: raw_json(e, "cf_engine_performance", coinfolio._ffi.encode_json({"range": span}, "options")))
    assert error.details == {"field": "range.from"}
    assert error.message.startswith(f"the range starts at {start}T00:00:00Z, not before now (")
    assert error.message.endswith("): there are no values after now")


def test_a_past_range_ending_before_it_starts_still_names_its_end() -> None:
    e = two_portfolios()
    payload = b'{"range":{"from":"2024-01-05","to":"2024-01-01"}}'
    error = refusal(lambda: raw_json(e, "cf_engine_performance", payload))
    assert error.details == {"field": "range.to"}
    assert "now" not in error.message


# --- F10: the number grammar of amounts and ids (JSON's, SPEC §10 and §12) -----------------------------


@pytest.mark.parametrize("text", ["+1", "1.", ".5", "01", " 1", "1 ", "0x10", "1e"])
def test_an_amount_string_that_is_no_json_number_is_refused(text: str) -> None:
    e = engine()
    payload = _ffi.encode_json({"coin_id": "bitcoin", "kind": "buy", "amount": text, "price": "1"}, "transaction")
    error = refusal(lambda: raw_json(e, "cf_engine_add_transaction", payload))
    assert error.details == {"field": "amount"}
    assert e.transactions()["total"] == 0


@pytest.mark.parametrize("text,kept", [("1", "1"), ("1e2", "100"), ("1E+2", "100"), ("0.1", "0.1"), ("4.2e-3", "0.0042")])
def test_an_amount_string_that_is_a_json_number_is_kept(text: str, kept: str) -> None:
    e = engine()
    payload = _ffi.encode_json({"coin_id": "bitcoin", "kind": "buy", "amount": text, "price": "1"}, "transaction")
    raw_json(e, "cf_engine_add_transaction", payload)
    assert e.transactions()["transactions"][0]["amount"] == Decimal(kept)


def test_a_price_string_follows_the_same_grammar() -> None:
    e = engine()
    error = refusal(lambda: e.set_price("bitcoin", "+1", vs_currency="usd"))
    assert error.details.get("field") == "price"


@pytest.mark.parametrize("text", ["+1", "01", " 1", "1.0", "-1", ""])
def test_a_transaction_id_is_digits_without_sign_or_leading_zero(text: str) -> None:
    e = engine()
    buy(e, "1")
    with e._borrow() as pointer:
        error = refusal(lambda: _ffi.call(_ffi.lib.cf_engine_delete_transaction, pointer, text.encode()))
    assert error.status == 1
    assert error.details == {}
    assert e.transactions()["total"] == 1
    e.delete_transaction("1")
    assert e.transactions()["total"] == 0
