"""Breaker 59 (the merged stop's tester): set_holding's rounding said and tested, the coinfolio
CSV's numbers spelled as JSON numbers (SPEC §18: that format stays strict), and bytes that are not
UTF-8 named in the decoders and in a CSV file's field."""

from __future__ import annotations

from decimal import Decimal

import pytest

import coinfolio
from coinfolio import _ffi

HEADER = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"


def engine() -> coinfolio.Engine:
    return coinfolio.Engine(database=":memory:")


@pytest.mark.parametrize(
    "amount,held",
    [
        (1.5e-18, "2E-18"),  # half to even: 1.5 units → 2
        (2.5e-18, "2E-18"),  # 2.5 units → 2
        (3.5e-18, "4E-18"),
        (1.23456789e-12, "1.234568E-12"),  # 1234567.89 units → 1234568
        (0.1, "0.1"),  # the shortest text, not the binary double's 0.1000000000000000055…
    ],
)
def test_set_holding_rounds_the_shortest_text_half_to_even_to_18_fraction_digits(amount: float, held: str) -> None:
    """The header: the double is taken at its shortest round-trip decimal text, rounded half to even
    to 18 fraction digits (the tester found 1.5e-18 held as 2e-18 while the header said such an
    amount was refused)."""
    e = engine()
    e.set_holding("ethereum", amount)
    assert e.transactions()["transactions"][-1]["amount"] == Decimal(held)


@pytest.mark.parametrize("cell", ["+1", ".5", "1.", "01", "-01", "1.e5"])
@pytest.mark.parametrize("column", ["amount", "price", "fee"])
def test_a_coinfolio_csv_number_not_spelled_as_json_is_refused_at_its_line_and_column(cell: str, column: str) -> None:
    values = {"amount": "1", "price": "1", "fee": "0", column: cell}
    text = HEADER + f"2024-05-01T00:00:00Z,main,bitcoin,buy,{values['amount']},{values['price']},{values['fee']},,\n"
    e = engine()
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        e.import_csv(text)
    assert caught.value.details["line"] == 2
    assert caught.value.details["column"] == column
    assert e.transactions()["transactions"] == []


def test_a_coinfolio_csv_takes_json_numbers_with_exponents() -> None:
    e = engine()
    e.import_csv(HEADER + "2024-05-01T00:00:00Z,main,bitcoin,buy,1e-5,2E+3,0.0,,\n")
    row = e.transactions()["transactions"][0]
    assert (row["amount"], row["price"], row["fee"]) == (Decimal("0.00001"), Decimal("2000"), Decimal("0"))


@pytest.mark.parametrize("function", ["cf_decode_markets", "cf_decode_global", "cf_decode_coin_detail", "cf_decode_market_chart"])
def test_a_body_that_is_not_utf8_is_named_in_the_decoders(function: str) -> None:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        _ffi.call_json(getattr(_ffi.lib, function), b'{"id":"caf\xff"}')
    assert caught.value.details == {"reason": "bad_utf8", "input": "body"}
    assert caught.value.message == "body is not valid UTF-8"


@pytest.mark.parametrize("function", ["cf_engine_import_csv", "cf_engine_import"])
def test_a_csv_field_that_is_not_utf8_says_bad_utf8_at_its_line_and_column(function: str) -> None:
    e = engine()
    data = (HEADER + "2024-05-01T00:00:00Z,main,bitcoin,buy,1,1,0,caf\xe9,\n").encode("latin-1")
    args = (data,) if function == "cf_engine_import_csv" else (b"{}", data)
    with e._borrow() as pointer, pytest.raises(coinfolio.InvalidArgument) as caught:
        _ffi.call_json(getattr(_ffi.lib, function), pointer, *args)
    assert caught.value.details == {"reason": "bad_utf8", "line": 2, "column": "note", "field_index": 7}
    assert e.transactions()["transactions"] == []


def test_transactions_of_every_portfolio_together() -> None:
    """``all_portfolios`` sends ``"portfolio": null`` (the header: every portfolio, ledger order);
    without it the default is "main" alone."""
    e = engine()
    e.create_portfolio("cold")
    e.add_transaction("bitcoin", "buy", "1", price="100", timestamp="2024-01-02T00:00:00Z")
    e.add_transaction("bitcoin", "buy", "2", price="100", timestamp="2024-01-01T00:00:00Z", portfolio="cold")
    every = e.transactions(all_portfolios=True)
    assert [(t["portfolio"], t["amount"]) for t in every["transactions"]] == [("cold", Decimal("2")), ("main", Decimal("1"))]
    assert every["total"] == 2
    assert [t["portfolio"] for t in e.transactions()["transactions"]] == ["main"]
    assert [t["portfolio"] for t in e.transactions(portfolio="main", all_portfolios=True)["transactions"]] == ["cold", "main"]
