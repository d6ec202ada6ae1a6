"""Coinfolio: a crypto portfolio engine (libcoinfolio) driven through ctypes.

>>> import coinfolio
>>> coinfolio.format_currency(1234.56)
'$1,234.56'

Answers are parsed with orjson when it is installed, else the standard library's json
(``coinfolio.JSON_PARSER`` says which), into plain dicts and lists whose shapes
:mod:`coinfolio.answers` gives as TypedDicts (``coinfolio.answers.CoinsAnswer``, …); the package
is typed (``py.typed``) and ``mypy --strict`` clean. Ledger answers (transactions, trades, moves,
P&L) give their exact numbers — amounts, prices, fees, cost basis, values, P&L, income — as
:class:`decimal.Decimal`, as they went in (``coinfolio.answers.EXACT_KEYS``); they are read by the
standard library's parser, which keeps a number's exact text.

The library is found through ``$COINFOLIO_LIBRARY`` (path of ``libcoinfolio.so``), else the
repository's ``.build/{release,debug}``, else the system library path; its ABI version is
checked at import.
"""

from __future__ import annotations

from . import _ffi, answers
from .charts import chart_svg
from .client import Client
from .engine import Engine
from .errors import (
    CoinfolioError,
    DecodeError,
    DetailKey,
    HTTPError,
    InternalError,
    InvalidArgument,
    NetworkError,
    NoData,
    NotFound,
    RateLimited,
    Reason,
    StoreError,
    Unauthorized,
)
from .formatting import (
    format_abbreviated,
    format_currency,
    format_number,
    format_percent,
    format_price,
    format_value,
)
from .models import decode_coin_detail, decode_global, decode_market_chart, decode_markets
from .store import Store

#: The parser that reads the library's JSON answers: "orjson" when installed, else "json".
JSON_PARSER = _ffi.JSON_PARSER

__all__ = [
    "answers",
    "JSON_PARSER",
    "Client",
    "Engine",
    "Store",
    "CoinfolioError",
    "InvalidArgument",
    "NotFound",
    "NetworkError",
    "HTTPError",
    "RateLimited",
    "Unauthorized",
    "DecodeError",
    "StoreError",
    "NoData",
    "InternalError",
    "DetailKey",
    "Reason",
    "format_currency",
    "format_price",
    "format_value",
    "format_number",
    "format_percent",
    "format_abbreviated",
    "decode_markets",
    "decode_global",
    "decode_coin_detail",
    "decode_market_chart",
    "chart_svg",
    "version",
    "abi_version",
    "ABI_VERSION",
    "library_path",
]

#: The ABI version this binding was written for.
ABI_VERSION: int = _ffi.ABI_VERSION
#: The file the library was loaded from.
library_path: str = _ffi.library_path


def version() -> str:
    """The library's version string, e.g. ``"0.1.0"``."""
    raw = _ffi.lib.cf_version()
    return raw.decode("utf-8") if raw is not None else ""


def abi_version() -> int:
    """The loaded library's ABI version (always equal to :data:`ABI_VERSION` after import)."""
    return int(_ffi.lib.cf_abi_version())
