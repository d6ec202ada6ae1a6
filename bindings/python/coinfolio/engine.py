"""The tracker engine: holdings, a market snapshot and the screens computed from them."""

from __future__ import annotations

import decimal
import json
import os
import stat
from ctypes import byref
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _ffi
from ._amounts import Amount, decimal_payload as _decimal
from ._handle import Handle
from .prices import PriceMethods
from .answers import (
    CoinDetailScreen,
    CoinsAnswer,
    CoinStatistics,
    EngineMetrics,
    ImportAnswer,
    ImportSummary,
    PnLAnswer,
    PortfolioAnswer,
    PortfolioHistory,
    PortfolioInfo,
    PortfoliosAnswer,
    PriceChart,
    Progress,
    RefreshSummary,
    Statistic,
    StatisticsAnswer,
    Transaction,
    TransactionGroup,
    TransactionsAnswer,
)
from .models import Body
from .returns import ReturnsMethods

#: The most :meth:`Engine.import_file` reads from a path that is no regular file (a pipe, or a
#: device such as ``/dev/zero`` that never ends): 512 MB, as coinfolio-cli's limit.
IMPORT_READ_LIMIT = 512 << 20

__all__ = ["Engine", "Amount"]


class Engine(ReturnsMethods, PriceMethods, Handle):
    """The view-model logic of a tracker over a store, a client and a saved market snapshot.

    Args:
        database: ``":memory:"``, the path of the SQLite file (holdings, one saved snapshot per
            vs_currency, and saved coin details), or a PostgreSQL URL
            ``postgresql://user[:password]@host[:port]/db[?params]``. A path starting with
            ``file:`` (an SQLite URI) raises InvalidArgument (``details["reason"]``
            ``"sqlite_uri"``); ``"./file:…"`` names a file of that name. Any other string holding
            ``://`` that is no ``postgresql://`` URL (``postgresql+psycopg2://…``) raises
            InvalidArgument (``details["reason"]`` ``"unsupported_url"``), never a file path.
        owner: whose rows the engine sees in ``database`` (default ``"default"``): it never
            reads, changes, counts or deletes another owner's rows.
        database_timeout: seconds one wait on the database may last (a positive finite number,
            default 30). On PostgreSQL it bounds each round trip (connecting, preparing, running
            a statement, BEGIN, COMMIT, ROLLBACK): past it the call raises StoreError with
            ``details["reason"] == "timeout"``, the query is cancelled, its transaction wrote
            nothing (unless the timeout fell on its COMMIT) and the next call reconnects. On
            SQLite it is the busy timeout (how long a write waits for another connection's lock).
        api: the client config (keys of :class:`coinfolio.Client`), passed as given.
        vs_currency: the quote currency of prices and values (default ``"usd"``).
        coin_limit: how many coins ``refresh()`` downloads (1…5000, default 250).
        detail_ttl_s: seconds a saved coin detail stays fresh (default 600); older ones are
            fetched again, and still returned (``stale: True``) when that fails.
        stale_after_s: seconds after the data's own time (``as_of``) when answers report
            ``stale`` (default 600).
        chart_ttl_s: seconds a chart stays cached (default 300).
        price_change_percentage: the windows a refresh asks for (default ``["24h"]``; any of
            1h, 24h, 7d, 14d, 30d, 200d, 1y).
        refresh_max_age_s: a ``refresh()`` that finds the snapshot saved in the database (by any
            engine of any owner: market data is shared, SPEC §20) fetched less than this many
            seconds ago, with at least this engine's coin_limit and windows, answers with it and
            sends nothing (``"fetched": False``). Default 0: every refresh fetches — except one
            that waited for another engine's refresh of the same currency, which answers with
            that one's snapshot. Engines refreshing at once (threads or processes) send one set of
            requests.
        read_database: a hot standby of a PostgreSQL ``database`` (a ``postgresql://`` URL) that
            reads go to, writes going to ``database``; after its own write the engine reads from
            ``database`` until the standby has replayed it, and while the standby cannot be
            reached reads go to ``database``. With a SQLite ``database``: InvalidArgument
            (``details["field"] == "read_database"``).

    Times in answers: ``as_of`` is the data's own time (the newest ``last_updated`` among the
    coins, or ``/global``'s ``updated_at`` when newer), ``fetched_at`` when the snapshot was
    downloaded or loaded. Snapshots are kept per ``vs_currency``: an engine opened with
    ``vs_currency="jpy"`` on a file with a usd snapshot has no data (``NoData``) until a jpy
    refresh or load, and the usd one stays for the next usd engine.

    None leaves an option to the library, which applies the default given above (``database``
    None is ``":memory:"``, ``api`` None the public plan's defaults).

    Opening never touches the network. Raises InvalidArgument (config; a ``database_timeout``
    that is not a positive finite number has ``details["field"] == "database_timeout"``),
    StoreError (the database cannot be opened, for example in a folder that does not exist: the
    folder is not created; or it did not answer within ``database_timeout``:
    ``details["reason"] == "timeout"``), or TypeError (``api`` not a mapping, ``database_timeout``
    not a number).
    """

    def __init__(
        self,
        database: Optional[Union[str, "os.PathLike[str]"]] = None,
        api: Optional[Mapping[str, Any]] = None,
        vs_currency: Optional[str] = "usd",
        coin_limit: Optional[int] = None,
        detail_ttl_s: Optional[float] = None,
        stale_after_s: Optional[float] = None,
        chart_ttl_s: Optional[float] = None,
        price_change_percentage: Optional[Sequence[str]] = None,
        owner: Optional[str] = None,
        database_timeout: Optional[float] = None,
        refresh_max_age_s: Optional[float] = None,
        read_database: Optional[str] = None,
    ) -> None:
        config = _ffi.options(
            database=None if database is None else os.fspath(database),
            read_database=read_database,
            refresh_max_age_s=refresh_max_age_s,
            owner=owner,
            database_timeout=None if database_timeout is None else _ffi.to_double(database_timeout, "database_timeout"),
            api=None if api is None else _ffi.to_dict(api, "api"),
            vs_currency=vs_currency,
            coin_limit=coin_limit,
            detail_ttl_s=detail_ttl_s,
            stale_after_s=stale_after_s,
            chart_ttl_s=chart_ttl_s,
            price_change_percentage=None if price_change_percentage is None else list(price_change_percentage),
        )
        encoded = _ffi.encode_json(config, "config")
        out = _ffi.cf_engine_p()
        _ffi.lib.cf_engine_open(encoded, byref(out), _ffi.error_slot())
        super().__init__(out, _ffi.lib.cf_engine_close)
        # Every ctypes callback handed to the library lives as long as the engine: a refresh on
        # another thread may still be calling an earlier one after it was replaced.
        self._progress_callbacks: List[Tuple[Any, Any]] = []

    def refresh(self) -> RefreshSummary:
        """Downloads a new snapshot: ``/coins/markets`` per 250 coins of coin_limit, one
        ``/global``, and one ``ids=`` request for held coins missing from those pages.

        Returns ``{"coins": n, "as_of": "ISO-8601 UTC" (the data's own time), "fetched_at": "…",
        "stale": bool (judged from as_of), "fetched": bool}``. ``fetched`` is False when the call
        sent nothing and answered with the snapshot saved in the database: fetched by any engine
        less than ``refresh_max_age_s`` ago, or by the engine whose refresh of the same currency
        this one waited for (threads and processes refreshing at once send one set of requests,
        SPEC §20; the wait is bounded by ``database_timeout``). On failure the previous
        snapshot is kept (and marked stale) and the network error is raised. Blocks on the
        network, and on the database while another engine refreshes.

        Raises:
            DecodeError: also when the first ``/coins/markets`` page has no coin (``[]``, or
                every row skipped; ``details["reason"] == "no_coins"``): the previous snapshot
                is kept exactly as it was, ``stale`` unchanged.
        """
        with self._borrow() as pointer:
            summary: RefreshSummary = _ffi.call_json(_ffi.lib.cf_engine_refresh, pointer)
        return summary

    def load(self, markets_body: Body, global_body: Optional[Body] = None) -> None:
        """Replaces the snapshot with raw CoinGecko bodies (``/coins/markets`` and, optionally,
        ``/global``; without it the previous market data is kept). Never blocks. The snapshot
        is saved in the database (a later engine on the same file or server answers from it
        offline), except on ``":memory:"``, which nothing else can read: there it is held once.

        Raises:
            InvalidArgument: bad UTF-8 or malformed JSON; or a markets body with no coin
                (``[]``, ``[null, null]``, every row skipped; ``details["reason"] ==
                "no_coins"``): nothing is replaced.
            DecodeError: not CoinGecko shapes.
            StoreError: the snapshot could not be saved.
        """
        markets = _ffi.encode(markets_body, "markets_body")
        global_ = None if global_body is None else _ffi.encode(global_body, "global_body")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_load, pointer, markets, global_)

    def coins(
        self,
        search: Optional[str] = "",
        sort: Optional[str] = "rank",
        limit: Optional[int] = None,
        offset: Optional[int] = 0,
        sparkline: Optional[bool] = False,
    ) -> CoinsAnswer:
        """Lists the snapshot's coins.

        Args:
            search: substring of name, symbol or id, compared NFKC-normalized, case-folded and
                diacritic-insensitive (``"pokemon"`` finds "Pokémon", ``"strasse"`` finds
                "Straße"); ``""`` = all.
            sort: ``"rank"`` (unranked last), ``"rank_reversed"``, ``"price"`` (highest first),
                ``"price_reversed"``, ``"holdings"``, ``"holdings_reversed"``; ties break on id.
            limit, offset: paging (``limit=None``: all).
            sparkline: include ``sparkline_in_7d`` (default False: 168-odd prices per coin make
                the answer several times larger; ask for them when you draw them).

        None for any of them leaves it to the library's default: ``search=None`` lists all,
        ``sort=None`` is ``"rank"``, ``offset=None`` is 0 and ``sparkline=None`` is True (the
        library's default; this method's own default is False).

        Returns ``{"coins": [coin…], "total": n (before paging), "as_of": "…", "fetched_at": "…",
        "stale": bool}``.

        Raises:
            InvalidArgument: unknown sort, negative limit/offset.
            NoData: no snapshot in this engine's vs_currency yet (``details["vs_currency"]``).
        """
        query = _ffi.options(search=search, sort=sort, limit=limit, offset=offset, sparkline=sparkline)
        encoded = _ffi.encode_json(query, "query")
        with self._borrow() as pointer:
            answer: CoinsAnswer = _ffi.call_json(_ffi.lib.cf_engine_coins, pointer, encoded)
        return answer

    def portfolio(
        self, sort: Optional[str] = "holdings", sparkline: Optional[bool] = False, portfolio: Optional[str] = None
    ) -> PortfolioAnswer:
        """The held coins of a ledger portfolio (default ``"main"``) joined with the snapshot (the
        full snapshot, never a search).

        Each coin adds ``current_holdings`` (units), ``current_holdings_value`` (units ×
        price, null without a price) and ``price_source`` (``"coingecko"``: the snapshot's price;
        ``"manual"``: the owner's manual current price, :meth:`set_price` without a time, for a coin
        the snapshot does not have, which is then its ``current_price``; None without a price); a
        coin with neither has ``price_available: False`` and is left out of ``total_value``;
        ``unpriced_holdings`` counts those left out.
        ``total_value`` is None (unknown, never 0) when there are holdings and none has a price,
        and 0 with no holdings. ``sort="holdings"`` is value descending; ``sparkline=True`` adds
        the 7-day prices (left out by default: they are most of the answer's size). None leaves
        either to the library's default: ``sort=None`` is ``"holdings"``, ``sparkline=None`` is
        True, ``portfolio=None`` is ``"main"``.

        Returns ``{"coins": [...], "total_value": x | None, "unpriced_holdings": n,
        "as_of": "…" | None, "fetched_at": "…" | None, "stale": bool}``: new dicts and lists on
        every call, which the caller may change freely: exactly the library's answer parsed
        (orjson when installed, else json; see :data:`coinfolio.JSON_PARSER`).
        """
        encoded = _ffi.encode_json(_ffi.options(sort=sort, sparkline=sparkline, portfolio=portfolio), "query")
        with self._borrow() as pointer:
            answer: PortfolioAnswer = _ffi.call_json(_ffi.lib.cf_engine_portfolio, pointer, encoded)
        return answer

    def statistics(self) -> List[Statistic]:
        """The home screen statistics, six in this order: "Market Cap", "24h Volume",
        "BTC Dominance", "Portfolio Value", "Unrealized P&L", "Realized P&L" (the "main"
        portfolio, fifo; "n/a" when unknown); each ``{"title", "value", "percentage_change"}``
        (percent units or None). Money values follow :func:`coinfolio.format_value`
        (``"¥148,064"``, ``"₿0.000025"``).

        "Portfolio Value" adds ``"coverage"``: the share (0…1) of the value whose 24 h change
        is known. Holdings with an unknown change (no ``price_change_24h`` and no usable
        ``price_change_percentage_24h``) are left out of the change, never counted as 0 %; the
        change is None when coverage is 0. Example: 1 of A at 1 (change unknown) and 1 of B at
        1 after -50 % → ``percentage_change`` -50.0, ``coverage`` 0.5.

        Raises:
            NoData: no snapshot yet.
        """
        with self._borrow() as pointer:
            answer: StatisticsAnswer = _ffi.call_json(_ffi.lib.cf_engine_statistics, pointer)
        return list(answer["statistics"])

    def set_holding(self, coin_id: Union[str, bytes], amount: float) -> None:
        """Sets a holding of the "main" portfolio (rules of :meth:`Store.set_holding`): records a
        ``transfer_in`` or ``transfer_out`` of the difference in the ledger; ``"Bitcoin"`` or
        ``" bitcoin"`` raise InvalidArgument with ``details["suggestion"]``."""
        encoded = _ffi.encode(coin_id, "coin_id")
        value = _ffi.to_double(amount, "amount")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_set_holding, pointer, encoded, value)

    def set_holdings(self, holdings: Iterable[Mapping[str, Any]]) -> None:
        """Sets several holdings in one durable transaction, all or nothing (rules and errors
        of :meth:`Store.set_holdings`): ``[{"coin_id": "bitcoin", "amount": 0.5}, …]``."""
        encoded = _ffi.encode_holdings(holdings)
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_set_holdings, pointer, encoded)

    def coin_statistics(self, coin_id: Union[str, bytes]) -> CoinStatistics:
        """One coin's market row and statistics from the saved snapshot alone: never a request.

        Returns ``{"coin": coin, "overview": [statistic…], "additional": [statistic…]}`` with the
        titles of :meth:`coin_detail` (prices in vs_currency); "Block Time" and "Hashing
        Algorithm" come from a saved detail when there is one, else read ``"n/a"``.

        Raises:
            InvalidArgument: a bad id.
            NoData: no snapshot in this engine's vs_currency.
            NotFound: the coin is not in the snapshot.
        """
        encoded = _ffi.encode(coin_id, "coin_id")
        with self._borrow() as pointer:
            statistics: CoinStatistics = _ffi.call_json(_ffi.lib.cf_engine_coin_statistics, pointer, encoded)
        return statistics

    def coin_detail(self, coin_id: Union[str, bytes]) -> CoinDetailScreen:
        """One coin's detail screen, fetched lazily (``GET /coins/{id}`` only when asked). Each
        fetched detail is saved in the database with its fetch time: one younger than
        detail_ttl_s answers without a request (in this process or a later one); concurrent
        callers share one request. When refreshing an older one fails, the saved detail is
        returned with ``stale: True``. May block.

        Returns ``{"coin": coin | None, "detail": {…}, "overview": [statistic…],
        "additional": [statistic…], "as_of": "…" (when the detail was fetched), "stale": bool}``.

        Raises:
            InvalidArgument: a bad id. NotFound: an unknown coin. A network status (see
                :class:`coinfolio.Client`) only when no detail of the coin was saved.
        """
        encoded = _ffi.encode(coin_id, "coin_id")
        with self._borrow() as pointer:
            screen: CoinDetailScreen = _ffi.call_json(_ffi.lib.cf_engine_coin_detail, pointer, encoded)
        return screen

    def metrics(self) -> EngineMetrics:
        """Counters since open: ``{"http_requests": {"markets": n, "global": n, "detail": n,
        "market_chart": n, "market_chart_range": n, "simple_price": n}, "detail_cache_hits": n, "chart_cache_hits": n,
        "suppressed_requests": n}`` (every HTTP attempt, retries included;
        ``suppressed_requests`` counts calls refused without sending while a remembered
        Retry-After ran)."""
        with self._borrow() as pointer:
            metrics: EngineMetrics = _ffi.call_json(_ffi.lib.cf_engine_metrics, pointer)
        return metrics

    # --- Ledger (SPEC §12, §16) -------------------------------------------------------------------

    def add_transaction(
        self,
        coin_id: str,
        kind: str,
        amount: Amount,
        price: Optional[Amount] = None,
        fee: Optional[Amount] = None,
        timestamp: Optional[str] = None,
        note: Optional[str] = None,
        external_id: Optional[str] = None,
        portfolio: Optional[str] = None,
        fee_coin_id: Optional[str] = None,
        fee_price: Optional[Amount] = None,
        income_type: Optional[str] = None,
        price_currency: Optional[str] = None,
    ) -> Transaction:
        """Stores a transaction in a portfolio's ledger (default ``"main"``). Never blocks.

        Args:
            coin_id: CoinGecko coin id.
            kind: ``"buy"``, ``"sell"``, ``"transfer_in"``, ``"transfer_out"``, ``"fee"`` (a fee
                paid in a coin: a disposal) or ``"income"`` (coins received, costing their value).
            amount: coin units, > 0. Pass a ``str`` or :class:`decimal.Decimal` for exactness
                (``"0.1"``); a float is sent by its shortest repr. At most 18 fraction digits.
            price: per unit, in the portfolio's currency, >= 0; ``None`` for transfers; ``None``
                on a buy, sell, fee or income leaves it pending (unknown in every figure).
            fee: >= 0 (default 0), in the portfolio's currency, or in units of ``fee_coin_id``.
                A buy's or income's fee adds to its lot's cost, a sell's reduces its proceeds.
            timestamp: RFC 3339 (``"2024-03-01T12:30:00Z"``, an offset is normalized to UTC, a date
                alone is 00:00:00Z); default now.
            note: free text, at most 65,536 bytes; None (the default) is no note, read back as
                None, and ``""`` an empty one, read back as ``""``.
            external_id: an id from the row's source, unique per portfolio.
            portfolio: the portfolio's name (default ``"main"``).
            fee_coin_id: the coin the fee was paid in: a ``"fee"`` row of that coin is written
                right after, in one group (its price ``fee_price``, else the transaction's own
                when the coins are the same, else a stored price, else pending).
            fee_price: the fee coin's price per unit in the portfolio's currency, >= 0.
            income_type: required for income: ``"staking"``, ``"interest"``, ``"airdrop"``,
                ``"mining"``, ``"fork"``, ``"gift"``, ``"reward"`` or ``"other"``.
            price_currency: the currency ``price``, ``fee`` and ``fee_price`` are given in, when
                not the portfolio's (SPEC §17): converted with the coin's prices in both
                currencies on the transaction's UTC day when stored points have them, else the
                price is pending until :meth:`fill_prices`; ``original_price`` keeps the price.

        Returns the stored transaction (:class:`~coinfolio.answers.Transaction`), its amounts,
        prices and fees :class:`decimal.Decimal`.

        Raises:
            InvalidArgument: a bad field (``details["field"]``); a disposal of more than is held at
                its time (``details`` ``{"coin_id", "timestamp", "short_by"}``); a holding past
                8.5e19 (``details["reason"]`` ``"out_of_range"``); an external_id already in the
                portfolio. Nothing is written.
            NotFound: a portfolio other than "main" that does not exist.
            StoreError: the database failed.
        """
        payload = _ffi.options(
            coin_id=coin_id,
            kind=kind,
            amount=_decimal(amount, "amount"),
            price=_decimal(price, "price"),
            fee=_decimal(fee, "fee"),
            fee_coin_id=fee_coin_id,
            fee_price=_decimal(fee_price, "fee_price"),
            income_type=income_type,
            price_currency=price_currency,
            timestamp=timestamp,
            note=note,
            external_id=external_id,
            portfolio=portfolio,
        )
        encoded = _ffi.encode_json(payload, "transaction")
        with self._borrow() as pointer:
            transaction: Transaction = _ffi.call_exact_json(_ffi.lib.cf_engine_add_transaction, pointer, encoded)
        return transaction

    def add_trade(
        self,
        sent: Tuple[str, Amount],
        received: Tuple[str, Amount],
        value: Optional[Amount] = None,
        fee: Optional[Amount] = None,
        fee_coin_id: Optional[str] = None,
        fee_price: Optional[Amount] = None,
        timestamp: Optional[str] = None,
        note: Optional[str] = None,
        external_id: Optional[str] = None,
        portfolio: Optional[str] = None,
    ) -> TransactionGroup:
        """Stores a trade (a swap of one coin for another): a sell of the sent coin and a buy of the
        received coin (and, with a fee in a coin, its fee row), one group. Never blocks.

        Args:
            sent: ``(coin_id, amount)`` that left the portfolio; both sides are coins, not
                currencies (fiat ↔ coin is a buy or a sell), and differ.
            received: ``(coin_id, amount)`` that arrived.
            value: the trade's value in the portfolio's currency; each leg's price is value ÷ its
                amount (rounded half-even to 18 fraction digits). Without it, stored prices, else
                both legs are pending.
            fee, fee_coin_id, fee_price: as :meth:`add_transaction`; the fee goes to the received
                lot's cost.
            timestamp, note, external_id, portfolio: as :meth:`add_transaction` (the buy leg's
                external id adds ``#2``, a fee row's ``#3``).

        Returns ``{"group_id", "transactions": [...]}`` (:class:`~coinfolio.answers.TransactionGroup`).

        Raises:
            InvalidArgument: a bad field (``details["field"]``: ``"sent.coin_id"``,
                ``"received.amount"``, ``"value"``…); a price beyond 8.5e19 (``details["reason"]``
                ``"out_of_range"``); a shortfall of the sent or fee coin. Nothing is written.
            NotFound: an unknown portfolio.
        """
        payload = _ffi.options(
            sent=self._side(sent, "sent"),
            received=self._side(received, "received"),
            value=_decimal(value, "value"),
            fee=_decimal(fee, "fee"),
            fee_coin_id=fee_coin_id,
            fee_price=_decimal(fee_price, "fee_price"),
            timestamp=timestamp,
            note=note,
            external_id=external_id,
            portfolio=portfolio,
        )
        encoded = _ffi.encode_json(payload, "trade")
        with self._borrow() as pointer:
            group: TransactionGroup = _ffi.call_exact_json(_ffi.lib.cf_engine_add_trade, pointer, encoded)
        return group

    @staticmethod
    def _side(side: Tuple[str, Amount], what: str) -> Dict[str, Any]:
        if not isinstance(side, (tuple, list)) or len(side) != 2:
            raise TypeError(f"{what} must be a (coin_id, amount) pair")
        return {"coin_id": side[0], "amount": _decimal(side[1], f"{what} amount")}

    def move(
        self,
        coin_id: str,
        amount: Amount,
        from_portfolio: str,
        to_portfolio: str,
        received_amount: Optional[Amount] = None,
        timestamp: Optional[str] = None,
        note: Optional[str] = None,
        external_id: Optional[str] = None,
    ) -> TransactionGroup:
        """Moves a coin between two of the owner's portfolios (of the same currency): a transfer
        out of ``from_portfolio`` and a transfer in to ``to_portfolio``, one group. The transfer
        in receives the lots the transfer out removed, with their acquisition times and whole
        cost, scaled to ``received_amount`` (default ``amount``; less is a network fee paid in the
        coin): a move realizes nothing. Never blocks.

        Returns ``{"group_id", "transactions": [...]}``.

        Raises:
            InvalidArgument: a bad field (``details["field"]``: ``"to"``, ``"received_amount"``…);
                portfolios of different currencies (``details["reason"]`` ``"currency"``); a
                shortfall in ``from_portfolio``. Nothing is written.
            NotFound: a portfolio that does not exist.
        """
        payload = _ffi.options(
            coin_id=coin_id,
            amount=_decimal(amount, "amount"),
            received_amount=_decimal(received_amount, "received_amount"),
            timestamp=timestamp,
            note=note,
            external_id=external_id,
            **{"from": from_portfolio, "to": to_portfolio},
        )
        encoded = _ffi.encode_json(payload, "move")
        with self._borrow() as pointer:
            group: TransactionGroup = _ffi.call_exact_json(_ffi.lib.cf_engine_move, pointer, encoded)
        return group

    def delete_transaction(self, transaction_id: Union[str, int]) -> None:
        """Deletes a transaction by its id (``"12"``) and every other row of its group (a trade's
        legs, a fee row and its parent, a move's two sides).

        Raises:
            InvalidArgument: not a whole number, or deleting would leave a later disposal short
                (``details`` ``{"coin_id", "timestamp", "short_by"}``).
            NotFound: no transaction has that id.
        """
        encoded = _ffi.encode(str(transaction_id), "transaction_id")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_delete_transaction, pointer, encoded)

    def transactions(
        self,
        portfolio: Optional[str] = None,
        coin_id: Optional[str] = None,
        from_time: Optional[str] = None,
        to_time: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        group_id: Optional[str] = None,
        all_portfolios: bool = False,
    ) -> TransactionsAnswer:
        """A page of a portfolio's transactions in ledger order (timestamp, then insertion).

        ``from_time``/``to_time`` are RFC 3339 and inclusive; ``group_id`` keeps one group's rows
        (in every portfolio unless ``portfolio`` is given); ``all_portfolios`` lists every
        portfolio's rows together (``"portfolio": null``; ``portfolio`` is then ignored). Returns
        ``{"transactions": [...], "total": n}`` (total before paging); amounts, prices and fees
        are Decimals. Raises InvalidArgument for a bad time or paging value.
        """
        query = _ffi.options(
            portfolio=portfolio,
            coin_id=coin_id,
            group_id=group_id,
            to=to_time,
            limit=limit,
            offset=offset,
            **{"from": from_time},
        )
        if all_portfolios:
            query["portfolio"] = None
        encoded = _ffi.encode_json(query, "query")
        with self._borrow() as pointer:
            answer: TransactionsAnswer = _ffi.call_exact_json(_ffi.lib.cf_engine_transactions, pointer, encoded)
        return answer

    def pnl(self, portfolio: Optional[str] = None, method: Optional[str] = None) -> PnLAnswer:
        """Cost basis and profit and loss per coin and in total, in the portfolio's currency.

        Args:
            portfolio: default ``"main"``.
            method: ``"fifo"`` (default), ``"lifo"``, ``"hifo"`` (highest unit cost first),
                ``"lofo"`` (lowest first), ``"average"`` or ``"uk"`` (UK share pooling: the same
                day, the next 30 days, then the Section 104 pool; see :meth:`realized`).

        Returns ``{"portfolio", "vs_currency", "method", "coins": [{"coin_id", "amount",
        "cost_basis", "average_cost", "breakeven_price", "current_price", "price_source",
        "current_value", "unrealized_pnl", "unrealized_pnl_percentage" (percent units),
        "realized_pnl", "realized_coverage", "fees", "cost_basis_coverage", "income",
        "income_coverage"}...], "totals": {"cost_basis", "current_value", "unrealized_pnl",
        "unrealized_pnl_percentage", "realized_pnl", "fees", "income", "income_coverage"}}``.
        Money values are :class:`decimal.Decimal` (exact to 38 significant digits), percentages
        and coverages floats. Values over units of unknown cost (transfers in, pending prices)
        are None, never 0; without a price the current and unrealized values are None.
        ``price_source`` says where ``current_price`` came from: ``"coingecko"`` (the snapshot),
        ``"manual"`` (the owner's current price, :meth:`set_price` without a timestamp, for a
        coin the snapshot lacks) or None.

        Raises:
            InvalidArgument: an unknown method.
            NotFound: an unknown portfolio.
        """
        encoded = _ffi.encode_json(_ffi.options(portfolio=portfolio, method=method), "options")
        with self._borrow() as pointer:
            pnl: PnLAnswer = _ffi.call_exact_json(_ffi.lib.cf_engine_pnl, pointer, encoded)
        return pnl

    def portfolios(self) -> List[PortfolioInfo]:
        """Every portfolio by name: ``[{"name", "vs_currency"}...]``."""
        with self._borrow() as pointer:
            answer: PortfoliosAnswer = _ffi.call_json(_ffi.lib.cf_engine_portfolios, pointer)
        return list(answer["portfolios"])

    def create_portfolio(self, name: str, vs_currency: Optional[str] = None) -> None:
        """Creates a portfolio quoted in ``vs_currency`` (default: the engine's).

        Raises InvalidArgument for a bad or taken name or an unknown currency.
        """
        encoded = _ffi.encode_json(_ffi.options(name=name, vs_currency=vs_currency), "portfolio")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_create_portfolio, pointer, encoded)

    def rename_portfolio(self, name: str, new_name: str) -> None:
        """Renames a portfolio; its transactions follow.

        Raises NotFound (no such portfolio) or InvalidArgument (a bad or taken new name).
        """
        old = _ffi.encode(name, "name")
        new = _ffi.encode(new_name, "new_name")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_rename_portfolio, pointer, old, new)

    def delete_portfolio(self, name: str, force: bool = False) -> None:
        """Deletes a portfolio. One with transactions is refused with InvalidArgument
        (``details["transactions"]``) unless ``force``, which deletes them too, with the rest of
        each one's group in other portfolios (a move's other side; SPEC §16); InvalidArgument
        (``details`` ``coin_id``, ``timestamp``, ``short_by``) and nothing deleted when that would
        leave a later disposal there short. Raises NotFound."""
        encoded = _ffi.encode(name, "name")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_delete_portfolio, pointer, encoded, 1 if force else 0)

    def import_csv(self, csv: Union[str, bytes]) -> ImportSummary:
        """Imports ledger CSV (header ``timestamp,portfolio,coin_id,kind,amount,price,fee,note,
        external_id`` and, optional, ``fee_coin_id,fee_price,income_type,group_id,price_currency,
        original_price``; a row with ``price_currency`` and a price is read as converted): all rows or
        none. Rows whose external_id the portfolio already has are skipped; rows sharing a
        group_id label become one group. Returns ``{"imported": n, "skipped": n}``.

        Raises:
            InvalidArgument: ``details["line"]`` (the physical line where the record starts; the
                header is line 1) and ``details["column"]`` (the header name); nothing imported.
        """
        encoded = _ffi.encode(csv, "csv")
        with self._borrow() as pointer:
            summary: ImportSummary = _ffi.call_json(_ffi.lib.cf_engine_import_csv, pointer, encoded)
        return summary

    def import_file(
        self,
        path_or_text: Union[str, bytes, "os.PathLike[str]"],
        format: Optional[str] = None,
        dry_run: bool = False,
        symbols: Optional[Mapping[str, str]] = None,
        portfolio: Optional[str] = None,
    ) -> ImportAnswer:
        """Imports what an exchange or another tracker exports (SPEC §18): Coinbase (v1–v4),
        Binance (Trade History old and new, the Transaction History statement), Kraken ledgers,
        CoinTracking, Koinly universal, or Coinfolio's own CSV. All rows or none; rows already
        there (by their external ids) are skipped, so importing a file again, or a later export
        that overlaps it, imports only what is new. Never sends a request.

        Args:
            path_or_text: a path (an ``os.PathLike``, or a ``str`` without a line break) whose
                file is read, or the file's text (``bytes``, or a ``str`` with a line break).
            format: ``"auto"`` (None: detected from the header), ``"coinfolio"``, ``"coinbase"``,
                ``"binance"``, ``"kraken"``, ``"cointracking"`` or ``"koinly"``.
            dry_run: check and plan everything, write nothing; the answer lists the
                ``transactions`` and the ``unknown_symbols`` instead of failing on them.
            symbols: symbol → CoinGecko coin id, tried before every other rule
                (``{"BOND": "barnbridge"}``).
            portfolio: where the rows go (None: ``"main"``); created with the engine's currency
                when it does not exist.

        Returns :class:`~coinfolio.answers.ImportAnswer` (exact amounts and prices of the dry
        run's transactions as :class:`decimal.Decimal`).

        Raises:
            InvalidArgument: ``details["reason"]`` ``"unknown_format"`` (``details["header"]``,
                ``details["formats"]``) or ``"unknown_symbols"`` (``details["symbols"]``: each
                ``{"symbol", "candidates"}``); ``details["line"]`` and ``details["column"]`` for
                a broken cell or a row the ledger refuses; ``details["line"]`` alone for a
                repeated external id or a shortfall (the earliest; it adds ``coin_id``,
                ``timestamp``, ``short_by``); ``details["field"]`` for a bad option; a file that
                cannot be read, or a pipe or device longer than ``IMPORT_READ_LIMIT``
                (``details["path"]``). Nothing is imported then.
        """
        if isinstance(path_or_text, os.PathLike) or (isinstance(path_or_text, str) and "\n" not in path_or_text):
            path = os.fspath(path_or_text)
            try:
                with open(path, "rb") as handle:
                    # A regular file is read whole; a pipe or device (/dev/zero) up to the limit.
                    regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
                    data: Union[str, bytes] = handle.read() if regular else handle.read(IMPORT_READ_LIMIT + 1)
            except OSError as error:
                raise _ffi._invalid(f"cannot read {path}: {error.strerror or error}", {"path": path}) from None
            if len(data) > IMPORT_READ_LIMIT and not regular:
                raise _ffi._invalid(f"cannot read {path}: longer than {IMPORT_READ_LIMIT >> 20} MB", {"path": path})
        else:
            data = path_or_text
        encoded = _ffi.encode(data, "data")
        options = _ffi.options(format=format, portfolio=portfolio, symbols=dict(symbols) if symbols is not None else None)
        if dry_run:
            options["dry_run"] = True
        encoded_options = _ffi.encode_json(options, "options")
        with self._borrow() as pointer:
            answer: ImportAnswer = _ffi.call_exact_json(_ffi.lib.cf_engine_import, pointer, encoded_options, encoded)
        return answer

    def export_csv(self, portfolio: Optional[str] = None, all_portfolios: bool = False) -> str:
        """A portfolio's transactions (every portfolio's with ``all_portfolios``, so that a move's
        two sides stay one group through an import) as CSV with the long header, then
        ``price_currency,original_price`` when a row has a price in another currency (CRLF line ends,
        ledger order); a transaction without an external_id is written as ``coinfolio:<id>``, so
        importing it back imports nothing. Raises NotFound for an unknown portfolio."""
        query: Dict[str, Any] = {"portfolio": None} if all_portfolios else _ffi.options(portfolio=portfolio)
        encoded = _ffi.encode_json(query, "query")
        with self._borrow() as pointer:
            return _ffi.call_text(_ffi.lib.cf_engine_export_csv, pointer, encoded)

    def chart(self, coin_id: Union[str, bytes], days: Union[int, str, None] = None, interval: Optional[str] = None) -> PriceChart:
        """One coin's price chart (``GET /coins/{id}/market_chart`` in the engine's vs_currency),
        cached per (coin, days, interval) for chart_ttl_s; concurrent callers share one request.
        ``days`` is 1…36500 or ``"max"`` (None: 7); on the public and demo plans more than 365 is
        asked as 365 and the answer says ``"clamped": True``. ``interval`` is ``"daily"`` or None
        (CoinGecko's automatic granularity). May block.

        Returns ``{"coin_id", "vs_currency", "days": n | "max", "interval", "clamped",
        "points": [[t_ms, price | None], …] (sorted by time; None is a gap), "summary": {"first",
        "last", "min", "max", "min_at", "max_at", "change", "percentage_change"}}`` (summary values
        are None for a series with no price).

        Raises:
            InvalidArgument: a bad id or option; NotFound: an unknown coin; or a network error.
        """
        encoded_id = _ffi.encode(coin_id, "coin_id")
        encoded = _ffi.encode_json(_ffi.options(days=days, interval=interval), "options")
        with self._borrow() as pointer:
            chart: PriceChart = _ffi.call_json(_ffi.lib.cf_engine_chart, pointer, encoded_id, encoded)
        return chart

    def portfolio_history(self, portfolio: Optional[str] = None) -> PortfolioHistory:
        """The portfolio's value over the snapshot's last 7 days, from each priced holding's
        sparkline × its current amount; no request. ``portfolio`` None means ``"main"``. Hourly points, sparklines aligned at their
        end, the last at the latest ``last_updated``.

        Returns ``{"vs_currency", "points": [[t_ms, value | None, partial], …], "summary": {…}}``;
        ``partial`` is True where some priced holding has no price (value counts the others).

        Raises:
            NotFound: no such portfolio; StoreError.
        """
        encoded = _ffi.encode_json(_ffi.options(portfolio=portfolio), "options")
        with self._borrow() as pointer:
            history: PortfolioHistory = _ffi.call_json(_ffi.lib.cf_engine_portfolio_history, pointer, encoded)
        return history

    def refresh_prices(self) -> RefreshSummary:
        """Updates the held coins' prices with one ``GET /simple/price`` request instead of a full
        refresh. A coin the answer prices takes its price, 24 h change and time; one it does not
        keeps its previous values. Blocks on the network.

        Returns ``{"coins": n (coins priced), "as_of": "…", "stale": b}``.

        Raises:
            NoData: no snapshot yet; or a network error (the snapshot is unchanged).
        """
        with self._borrow() as pointer:
            summary: RefreshSummary = _ffi.call_json(_ffi.lib.cf_engine_refresh_prices, pointer)
        return summary

    def set_progress(self, callback: Optional[Callable[[Progress], None]]) -> None:
        """Calls ``callback(progress)`` while long work runs; ``None`` turns it off.

        ``progress`` is ``{"phase": "markets" | "global" | "ids" | "import" | "chart",
        "done": n, "total": n | None}``: ``done`` of ``total`` units of the phase are finished
        (markets: pages of ``/coins/markets``; global: 1 request; ids: held coins missing from
        the pages; import: CSV rows; chart: charts). Each phase reports ``done`` 0 when it starts,
        then after each unit. The callback runs on the thread that called :meth:`refresh` (or the
        import or chart call), before that call returns. It may call queries; work that would wait
        for the call reporting to it (:meth:`refresh`, :meth:`load` or :meth:`refresh_prices`
        during a refresh, :meth:`chart` of the chart being downloaded) raises
        :class:`InvalidArgument` with ``details["reason"] == "reentrant"``; :meth:`close` closes
        the engine once that call returns. An exception it raises is printed
        (``sys.unraisablehook``) and does not stop the work. Setting the same callback again
        reuses its relay, so toggling a callback on and off does not grow memory.
        """
        if callback is None:
            native = _ffi.cf_progress_fn()  # NULL
        else:
            if not callable(callback):
                raise TypeError(f"callback must be callable or None, not {type(callback).__name__}")

            # The relay of a callback set before is reused (it is kept alive anyway).
            # (== so that obj.method, a new bound method each time, is found too.)
            known = next((pair for pair in self._progress_callbacks if pair[0] == callback), None)
            if known is not None:
                native = known[1]
            else:

                def relay(progress_json: Optional[bytes], _user: Optional[int]) -> None:
                    if progress_json is not None:
                        callback(json.loads(progress_json.decode("utf-8")))

                native = _ffi.cf_progress_fn(relay)
                self._progress_callbacks.append((callback, native))
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_set_progress, pointer, native, None)
