"""A CoinGecko API v3 client."""

from __future__ import annotations

from ctypes import byref
from typing import Optional, Sequence, Union

from . import _ffi
from ._handle import Handle
from .answers import DecodedCoinDetail, DecodedGlobal, DecodedMarketChart, DecodedMarkets, SimplePrices

__all__ = ["Client"]


class Client(Handle):
    """A CoinGecko API v3 client (the ``api`` object of an engine config).

    Args:
        base_url: API root; default ``https://api.coingecko.com/api/v3`` (pro:
            ``https://pro-api.coingecko.com/api/v3``).
        plan: ``"public"`` (no key), ``"demo"`` (header ``x-cg-demo-api-key``) or ``"pro"``
            (header ``x-cg-pro-api-key``).
        api_key: the key; no run of 6 of its characters ever appears in errors or logs.
            Required by demo and pro; sent only over https, or over http to a loopback address
            (127.0.0.0/8, ::1, localhost).
        max_body_bytes: the largest answer body read, in bytes, counted while it is
            decompressed (default 33554432, 32 MiB; a gzip bomb costs about that much memory); a
            larger one raises HTTPError with ``details["reason"] == "body_too_large"``.
        timeout_ms: per-attempt timeout in milliseconds, 1…3600000 (default 15000).
        max_retries: retries on 429, 5xx and network failures, 0…10 (default 2).
        max_retry_wait_s: the longest Retry-After honoured, in seconds, 0…86400 (default 60);
            a longer one raises RateLimited at once, and the client then remembers it: until
            it has passed, every request method raises RateLimited at once without sending
            (``details["sent"] is False``, ``retry_after_s`` the seconds left).

    None (each argument's default) leaves the option to the library: the defaults above.

    Raises InvalidArgument for a value outside those ranges, an unknown plan or a bad URL.

    Every request method blocks on the network, at most ``timeout_ms × (max_retries + 1)`` plus
    the Retry-After waits it chose plus about a second, and may raise NetworkError, HTTPError
    (``details["http_status"]``; a 403 without a key error code is one), RateLimited
    (``retry_after_s``), Unauthorized (401, or error codes 10002/10005/10010/10011/10012 in
    ``details["error_code"]``, read from any of CoinGecko's three error shapes), NotFound or
    DecodeError. A request to a loopback address that the environment's proxy variables
    (``http_proxy``, ``ALL_PROXY``…, as libcurl reads them) would send through a proxy raises
    NetworkError with ``details["reason"] == "proxy"`` and sends nothing: add the address to
    ``no_proxy``.

    Raises (constructor):
        InvalidArgument: unknown plan, bad URL, negative timeout or retries, a plan that needs a
            key without one.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        plan: Optional[str] = None,
        api_key: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        max_retries: Optional[int] = None,
        max_retry_wait_s: Optional[float] = None,
        max_body_bytes: Optional[int] = None,
    ) -> None:
        config = _ffi.options(
            max_body_bytes=max_body_bytes,
            base_url=base_url,
            plan=plan,
            api_key=api_key,
            timeout_ms=timeout_ms,
            max_retries=max_retries,
            max_retry_wait_s=max_retry_wait_s,
        )
        encoded = _ffi.encode_json(config, "config")
        out = _ffi.cf_client_p()
        _ffi.lib.cf_client_open(encoded, byref(out), _ffi.error_slot())
        super().__init__(out, _ffi.lib.cf_client_close)

    def markets(
        self,
        ids: Optional[Sequence[str]] = None,
        vs_currency: Optional[str] = "usd",
        per_page: Optional[int] = None,
        page: Optional[int] = None,
        sparkline: Optional[bool] = None,
    ) -> DecodedMarkets:
        """``GET /coins/markets``: coins by market cap, or the given ``ids`` (more than 250 are
        split into several requests and merged).

        ``ids=None`` asks for the top list. ``vs_currency`` is the quote currency (``None``: the
        library's default, ``"usd"``); ``per_page`` 1…250 and ``page`` from 1 are ignored with
        ``ids`` (``None``: 250 and 1); ``sparkline`` includes ``sparkline_in_7d`` (``None``:
        ``True``).

        Returns ``{"coins": [coin, …], "skipped": [{"index", "reason"}, …], "warnings":
        [{"index", "id", "field", "reason"}, …]}`` (see :func:`coinfolio.decode_markets`;
        indexes count from the first element of the first answer). Prices are in
        ``vs_currency``.
        """
        if isinstance(ids, str):
            ids = [ids]
        request = _ffi.options(
            vs_currency=vs_currency,
            ids=None if ids is None else list(ids),
            per_page=per_page,
            page=page,
            sparkline=sparkline,
        )
        encoded = _ffi.encode_json(request, "request")
        with self._borrow() as pointer:
            answer: DecodedMarkets = _ffi.call_json(_ffi.lib.cf_client_markets, pointer, encoded)
        return answer

    def global_data(self) -> DecodedGlobal:
        """``GET /global``. Returns ``{"market_data": {…}}`` (see
        :func:`coinfolio.decode_global`)."""
        with self._borrow() as pointer:
            answer: DecodedGlobal = _ffi.call_json(_ffi.lib.cf_client_global, pointer)
        return answer

    def coin_detail(self, coin_id: Union[str, bytes]) -> DecodedCoinDetail:
        """``GET /coins/{id}`` without tickers, market, community or developer data.

        The id is checked (InvalidArgument before any request for ``""``, ``"."``, ``".."``,
        ``/``, control characters, over 128 bytes) and percent-encoded as one path segment.
        Returns ``{"detail": {…}}`` (see :func:`coinfolio.decode_coin_detail`); NotFound for an
        unknown id.
        """
        encoded = _ffi.encode(coin_id, "coin_id")
        with self._borrow() as pointer:
            answer: DecodedCoinDetail = _ffi.call_json(_ffi.lib.cf_client_coin_detail, pointer, encoded)
        return answer

    def market_chart(
        self,
        coin_id: Union[str, bytes],
        days: Union[int, str] = 7,
        vs_currency: Optional[str] = "usd",
        interval: Optional[str] = None,
    ) -> DecodedMarketChart:
        """``GET /coins/{id}/market_chart``: prices, market caps and volumes over ``days`` (a
        whole number 1…36500, or ``"max"``), in ``vs_currency`` (None: usd); ``interval="daily"``
        for one point a day, None for CoinGecko's automatic granularity.

        Returns the shape of :func:`coinfolio.decode_market_chart` (null points kept as gaps).
        The days are sent as given: beyond 365 on the public and demo plans CoinGecko refuses
        with error code 10012, raised as Unauthorized (``details["error_code"] == 10012``,
        ``details["reason"] == "history_limit"``).
        Blocks on the network.

        Raises:
            InvalidArgument: a bad id or days; NotFound: an unknown coin; or a network error.
        """
        request = _ffi.options(vs_currency=vs_currency, days=days, interval=interval)
        encoded_id = _ffi.encode(coin_id, "coin_id")
        encoded = _ffi.encode_json(request, "request")
        with self._borrow() as pointer:
            answer: DecodedMarketChart = _ffi.call_json(_ffi.lib.cf_client_market_chart, pointer, encoded_id, encoded)
        return answer

    def market_chart_range(
        self,
        coin_id: Union[str, bytes],
        start: Union[int, str],
        end: Union[int, str],
        vs_currency: Optional[str] = "usd",
    ) -> DecodedMarketChart:
        """``GET /coins/{id}/market_chart/range``: prices, market caps and volumes from ``start``
        to ``end``, in ``vs_currency`` (None: usd). Each time is whole UNIX seconds or RFC 3339
        text (``"2024-03-01"``; no zone is UTC), sent as UNIX seconds. CoinGecko spaces the
        points by the range: 5 minutes within a day of now, hourly up to 90 days, daily (00:00
        UTC) beyond.

        Returns the shape of :func:`coinfolio.decode_market_chart`. On the public and demo plans
        a range reaching back more than 365 days raises Unauthorized
        (``details["error_code"] == 10012``). Blocks on the network.

        Raises:
            InvalidArgument: a bad id, a time missing or out of range (years 1970…9999), or
                ``start`` after ``end`` (``details["field"]`` names it; nothing is sent); NotFound:
                an unknown coin; or a network error.
        """
        request = _ffi.options(vs_currency=vs_currency, **{"from": start, "to": end})
        encoded_id = _ffi.encode(coin_id, "coin_id")
        encoded = _ffi.encode_json(request, "request")
        with self._borrow() as pointer:
            answer: DecodedMarketChart = _ffi.call_json(
                _ffi.lib.cf_client_market_chart_range, pointer, encoded_id, encoded
            )
        return answer

    def simple_price(self, ids: Sequence[str], vs_currency: Optional[str] = "usd") -> SimplePrices:
        """``GET /simple/price`` with the 24 h change and last-updated time, in ``vs_currency``
        (None: usd); more than 250 ids are split into several requests; an empty list makes none.

        Returns ``{"prices": {id: {"price": x | None, "change_24h": percent | None,
        "last_updated_at": unix_seconds | None}}}`` with every asked id; an id CoinGecko answers
        with ``{}`` or leaves out has None values. Blocks on the network.

        Raises:
            InvalidArgument: a bad id (or one with a comma); or a network error.
        """
        if isinstance(ids, str):
            ids = [ids]
        encoded = _ffi.encode_json(_ffi.options(ids=list(ids), vs_currency=vs_currency), "request")
        with self._borrow() as pointer:
            answer: SimplePrices = _ffi.call_json(_ffi.lib.cf_client_simple_price, pointer, encoded)
        return answer
