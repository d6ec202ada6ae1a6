"""Decoders of raw CoinGecko response bodies into Coinfolio's normalized model JSON.

Each takes the body as ``str`` or ``bytes`` (bytes are passed unchanged, so the library checks
their UTF-8) and returns the parsed output object. They never block.
"""

from __future__ import annotations

from typing import Union

from . import _ffi
from .answers import DecodedCoinDetail, DecodedGlobal, DecodedMarketChart, DecodedMarkets

__all__ = ["decode_markets", "decode_global", "decode_coin_detail", "decode_market_chart"]

Body = Union[str, bytes, bytearray, memoryview]


def decode_markets(body: Body) -> DecodedMarkets:
    """Decodes a ``GET /coins/markets`` body (a JSON array).

    Returns ``{"coins": [coin, …], "skipped": [{"index": i, "reason": "…"}, …],
    "warnings": [{"index": i, "id": "…", "field": "…", "reason": "…"}, …]}``; a coin has
    every key of the header's coin object (``current_price``, ``market_cap_rank``, …), null
    when unknown. One bad element is skipped, never the whole list; only a row without a
    usable ``id`` is skipped (a missing ``symbol`` or ``name`` reads as ``""``).

    A number sent as a string that is entirely a JSON number (``"0.0421"``, ``"-1.5"``,
    ``"4.2e17"``) reads as that number. Each field read as null (or ``""``) because of its type
    is listed in ``warnings``: ``field`` is the CoinGecko key (``"current_price"``,
    ``"roi.times"``, ``"sparkline_in_7d.price[3]"``) and ``reason`` one of ``"not a number"``
    (``"12abc"``, ``""``, ``"NaN"``, ``true``, …), ``"not a whole number"``, ``"not a string"``,
    ``"missing"`` (symbol/name), ``"not an object"``, ``"not an array"``.

    Raises:
        InvalidArgument: bad UTF-8 or malformed JSON.
        DecodeError: JSON that is not an array (e.g. a CoinGecko error object).
    """
    decoded: DecodedMarkets = _ffi.call_json(_ffi.lib.cf_decode_markets, _ffi.encode(body, "body"))
    return decoded


def decode_global(body: Body) -> DecodedGlobal:
    """Decodes a ``GET /global`` body.

    Returns ``{"market_data": {"total_market_cap": {cur: x}, "total_volume": {cur: x},
    "market_cap_percentage": {coin: percent}, "market_cap_change_percentage_24h_usd": x,
    "active_cryptocurrencies": n, "markets": n, "updated_at": unix_seconds}, "warnings": [...]}``
    (each may be null; number strings read as numbers; ``warnings`` as in :func:`decode_markets`,
    with ``index`` and ``id`` None and ``field`` a path such as ``"total_market_cap.eur"``).

    Raises:
        InvalidArgument: bad UTF-8 or malformed JSON.
        DecodeError: JSON that is not an object.
    """
    decoded: DecodedGlobal = _ffi.call_json(_ffi.lib.cf_decode_global, _ffi.encode(body, "body"))
    return decoded


def decode_coin_detail(body: Body) -> DecodedCoinDetail:
    """Decodes a ``GET /coins/{id}`` body.

    Returns ``{"detail": {"id", "symbol", "name", "block_time_in_minutes",
    "hashing_algorithm", "description" (plain text), "homepage", "subreddit_url",
    "genesis_date", "categories": [...]}, "warnings": [...]}`` (``warnings`` as in
    :func:`decode_markets`, with ``index`` None and ``field`` a path such as
    ``"description.en"`` or ``"categories[1]"``).

    Raises:
        InvalidArgument: bad UTF-8 or malformed JSON.
        DecodeError: not an object, or no id/symbol/name.
    """
    decoded: DecodedCoinDetail = _ffi.call_json(_ffi.lib.cf_decode_coin_detail, _ffi.encode(body, "body"))
    return decoded


def decode_market_chart(body: Body) -> DecodedMarketChart:
    """Decodes a ``GET /coins/{id}/market_chart`` body.

    Returns ``{"prices": [[t_ms, v | None], …], "market_caps": […], "total_volumes": […],
    "warnings": [{"series", "index", "reason"}, …]}``: t_ms in milliseconds since 1970 (UTC),
    values in the request's vs_currency. A null or non-numeric value is kept as a gap (None,
    never 0); a point without a usable time is left out and reported in ``warnings``. A missing
    series is ``[]``; an empty series is valid.

    Raises:
        InvalidArgument: bad UTF-8 or malformed JSON.
        DecodeError: not an object, or a series that is not an array.
    """
    decoded: DecodedMarketChart = _ffi.call_json(_ffi.lib.cf_decode_market_chart, _ffi.encode(body, "body"))
    return decoded
