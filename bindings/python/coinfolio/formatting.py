"""Number formatting, pinned to en_US (SPEC §3 and §10). Every function returns a str and raises
:class:`~coinfolio.errors.InvalidArgument` when the library rejects its arguments.
NaN and ±Inf format as ``"n/a"``; negative zero prints as zero; rounding is half-to-even.

Currency rules (one table inside the library drives every output):

- prefix: usd ``$``, eur ``€``, gbp ``£``, jpy ``¥``, btc ``₿``, eth ``Ξ``; any other code in
  upper case and a space (``"CHF 1,234.56"``, ``"KWD 1.235"``, ``"SATS 12,345"``);
- fiat money uses its ISO 4217 minor unit: 0 digits for jpy, krw, vnd, clp, isk (and the other
  0-digit codes) and sats, 3 for bhd, kwd, iqd, jod, lyd, omr, tnd, 2 for the rest and bits;
- crypto (btc, eth, ltc, bch, bnb, eos, xrp, xlm, link, dot, yfi, sol) and metal (xau, xag)
  quotes use 2 to 8 digits, and below 0.0001 as many as 4 significant digits need, so a value
  that is not zero never prints as zero.
"""

from __future__ import annotations

from typing import Optional, cast

from . import _ffi

__all__ = [
    "format_currency",
    "format_price",
    "format_value",
    "format_number",
    "format_percent",
    "format_abbreviated",
]


def _currency(vs_currency: Optional[str]) -> Optional[bytes]:
    return None if vs_currency is None else _ffi.encode(vs_currency, "vs_currency")


def format_currency(
    value: float,
    min_fraction_digits: int = 2,
    max_fraction_digits: int = 2,
    vs_currency: Optional[str] = "usd",
) -> str:
    """A currency amount with grouping and min…max fraction digits.

    ``format_currency(1234.56)`` → ``"$1,234.56"``; ``format_currency(12.3456, 2, 6)`` →
    ``"$12.3456"``; ``vs_currency="chf"`` → ``"CHF 1,234.56"``; ``vs_currency=None`` is
    ``"usd"`` (NULL, the library's default).

    Raises:
        InvalidArgument: a bad vs_currency (1–16 ASCII letters/digits), digits outside 0…18,
            or min > max.
    """
    return cast(str, _ffi.lib.cf_format_currency(
        _ffi.to_double(value, "value"),
        _ffi.to_int32(min_fraction_digits, "min_fraction_digits"),
        _ffi.to_int32(max_fraction_digits, "max_fraction_digits"),
        _currency(vs_currency),
    ))


def format_value(value: float, vs_currency: Optional[str] = "usd") -> str:
    """A money value (a total, a holding's value) in vs_currency's own precision (see the
    module docstring): ``format_value(123400, "jpy")`` → ``"¥123,400"``;
    ``format_value(148064.07, "jpy")`` → ``"¥148,064"``; ``format_value(1.2346, "kwd")`` →
    ``"KWD 1.235"``; ``format_value(2.5e-05, "btc")`` → ``"₿0.000025"``;
    ``format_value(1234.5)`` → ``"$1,234.50"``.

    Args:
        value: the amount, in vs_currency.
        vs_currency: a CoinGecko quote currency code (case-insensitive); None means usd.

    Raises:
        InvalidArgument: a bad vs_currency (1–16 ASCII letters/digits).
    """
    return cast(str, _ffi.lib.cf_format_value(_ffi.to_double(value, "value"), _currency(vs_currency)))


def format_price(value: float, vs_currency: Optional[str] = "usd") -> str:
    """A price, never in exponent form. 2-digit fiat: 2–6 fraction digits, more when needed
    for 4 significant digits: ``8.12e-06`` → ``"$0.00000812"``; ``57000.123`` →
    ``"$57,000.123"``. Other fiat: its minor unit, more only for 4 significant digits:
    ``format_price(32.034, "jpy")`` → ``"¥32.03"``; ``format_price(14800000, "jpy")`` →
    ``"¥14,800,000"``. Crypto and metal quotes: as :func:`format_value`.
    ``vs_currency=None`` is ``"usd"`` (NULL, the library's default).

    Raises:
        InvalidArgument: a bad vs_currency.
    """
    return cast(str, _ffi.lib.cf_format_price(_ffi.to_double(value, "value"), _currency(vs_currency)))


def format_number(value: float) -> str:
    """Two fraction digits, no grouping: ``1.2345`` → ``"1.23"``."""
    return cast(str, _ffi.lib.cf_format_number(_ffi.to_double(value, "value")))


def format_percent(value: float) -> str:
    """A value already in percent units: ``1.2345`` → ``"1.23%"``."""
    return cast(str, _ffi.lib.cf_format_percent(_ffi.to_double(value, "value")))


def format_abbreviated(value: float) -> str:
    """Sign, then Tr/Bn/M/K with two fraction digits: ``1234`` → ``"1.23K"``,
    ``999999`` → ``"1.00M"``, ``12`` → ``"12.00"``."""
    return cast(str, _ffi.lib.cf_format_abbreviated(_ffi.to_double(value, "value")))
