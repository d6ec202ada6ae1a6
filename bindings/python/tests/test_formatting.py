"""SPEC §3: number formatting, locale pinned to en_US, half-to-even, "n/a" for non-finite."""

from __future__ import annotations

import math

import pytest

import coinfolio
from coinfolio import InvalidArgument

NON_FINITE = [math.nan, math.inf, -math.inf]


@pytest.mark.parametrize(
    "value, expected",
    [(1234.56, "$1,234.56"), (-1234.5, "-$1,234.50")],
)
def test_currency_two_decimals_with_grouping(value: float, expected: str) -> None:
    assert coinfolio.format_currency(value) == expected
    assert coinfolio.format_currency(value, 2, 2) == expected


@pytest.mark.parametrize(
    "value, expected",
    [(12.3456, "$12.3456"), (0.123456, "$0.123456"), (1.5, "$1.50")],
)
def test_currency_two_to_six_decimals(value: float, expected: str) -> None:
    assert coinfolio.format_currency(value, 2, 6) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        (57000.123, "$57,000.123"),
        (8.12e-06, "$0.00000812"),
        (2.096e-09, "$0.000000002096"),
        (0.000123456, "$0.0001235"),
    ],
)
def test_price_shows_four_significant_digits_never_exponent(value: float, expected: str) -> None:
    assert coinfolio.format_price(value) == expected


def test_number_has_two_decimals_without_grouping() -> None:
    assert coinfolio.format_number(1.2345) == "1.23"
    assert coinfolio.format_number(1234567.891) == "1234567.89"


@pytest.mark.parametrize("value, expected", [(1.2345, "1.23%"), (-0.001, "0.00%")])
def test_percent_is_number_plus_sign(value: float, expected: str) -> None:
    assert coinfolio.format_percent(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        (1234, "1.23K"),
        (123456, "123.46K"),
        (1234567890, "1.23Bn"),
        (-1234, "-1.23K"),
        (12, "12.00"),
        (999999, "1.00M"),
        (999.999, "1.00K"),
        (2.58e12, "2.58Tr"),
        (342e9, "342.00Bn"),
    ],
)
def test_abbreviated_moves_up_a_unit_when_rounding_crosses_it(value: float, expected: str) -> None:
    assert coinfolio.format_abbreviated(value) == expected


@pytest.mark.parametrize("value", NON_FINITE, ids=["nan", "inf", "-inf"])
def test_non_finite_prints_n_a_everywhere(value: float) -> None:
    assert coinfolio.format_currency(value) == "n/a"
    assert coinfolio.format_currency(value, 2, 6) == "n/a"
    assert coinfolio.format_price(value) == "n/a"
    assert coinfolio.format_number(value) == "n/a"
    assert coinfolio.format_percent(value) == "n/a"
    assert coinfolio.format_abbreviated(value) == "n/a"


def test_negative_zero_prints_as_zero() -> None:
    assert coinfolio.format_currency(-0.0) == "$0.00"
    assert coinfolio.format_price(-0.0) == "$0.00"
    assert coinfolio.format_number(-0.0) == "0.00"
    assert coinfolio.format_percent(-0.0) == "0.00%"
    assert coinfolio.format_abbreviated(-0.0) == "0.00"


def test_values_rounding_to_zero_lose_their_sign() -> None:
    assert coinfolio.format_currency(-0.001) == "$0.00"
    assert coinfolio.format_number(-0.004) == "0.00"
    assert coinfolio.format_abbreviated(-0.001) == "0.00"


@pytest.mark.parametrize(
    "value, expected",
    [(0.125, "0.12"), (0.375, "0.38"), (1.005, "1.00"), (2.675, "2.68"), (0.135, "0.14")],
)
def test_rounding_is_half_to_even_on_the_shortest_decimal(value: float, expected: str) -> None:
    assert coinfolio.format_number(value) == expected


@pytest.mark.parametrize(
    "vs_currency, expected",
    [
        ("usd", "$1,234.56"),
        ("USD", "$1,234.56"),
        ("eur", "€1,234.56"),
        ("gbp", "£1,234.56"),
        ("jpy", "¥1,234.56"),
        ("btc", "₿1,234.56"),
        ("eth", "Ξ1,234.56"),
        ("chf", "CHF 1,234.56"),
        ("sats", "SATS 1,234.56"),
    ],
)
def test_currency_symbol_follows_vs_currency(vs_currency: str, expected: str) -> None:
    assert coinfolio.format_currency(1234.56, vs_currency=vs_currency) == expected


def test_none_currency_means_usd() -> None:
    assert coinfolio.format_currency(1.5, vs_currency=None) == "$1.50"
    assert coinfolio.format_price(1.5, vs_currency=None) == "$1.50"


def test_other_currencies_in_price() -> None:
    assert coinfolio.format_price(57000.123, "chf") == "CHF 57,000.123"
    assert coinfolio.format_price(8.12e-06, "eur") == "€0.00000812"


@pytest.mark.parametrize(
    "vs_currency", ["", "us$", "u s", "abcdefghijklmnopq", "d\u00f6m", "usd\udc80"]
)
def test_bad_currency_code_raises_invalid_argument(vs_currency: str) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.format_currency(1.0, vs_currency=vs_currency)
    with pytest.raises(InvalidArgument):
        coinfolio.format_price(1.0, vs_currency=vs_currency)


@pytest.mark.parametrize("low, high", [(3, 2), (-1, 2), (2, 19), (0, 2**31 - 1), (0, 2**40)])
def test_bad_fraction_digits_raise_invalid_argument(low: int, high: int) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.format_currency(1.0, low, high)


def test_fraction_digit_limits_are_inclusive() -> None:
    assert coinfolio.format_currency(1234.5, 0, 0) == "$1,234"  # half-to-even
    assert coinfolio.format_currency(1.0, 0, 18) == "$1"


def test_format_rejects_non_numbers_with_type_error() -> None:
    with pytest.raises(TypeError):
        coinfolio.format_number("1.0")  # type: ignore[arg-type]
