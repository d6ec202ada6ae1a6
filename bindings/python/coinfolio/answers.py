"""The shapes of Coinfolio's answers, as TypedDicts (SPEC §7, §10–§12; include/coinfolio.h).

Every method returns the library's JSON answer parsed into plain dicts and lists; these types
say which keys each answer has and what their values are, for type checkers and readers. Units:
prices and values are in the answer's (or the engine's) ``vs_currency``, percentages in percent
units (``-2.5`` is -2.5 %), amounts in units of the coin, times ``t_ms`` in milliseconds since
1970 UTC, ``*_at`` and ``updated_at`` in seconds since 1970 where the field name says so, dates
ISO-8601 strings as CoinGecko sent them. ``None`` is JSON null: unknown, never 0.

JSON has no tuples: a chart point is a list ``[t_ms, value]`` (see :data:`ChartPoint`). The
library only ever adds keys to its answers, so a newer library may return keys not listed here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Dict, FrozenSet, List, Optional, TypedDict, Union

__all__ = [
    "ROI",
    "Sparkline",
    "Coin",
    "ListedCoin",
    "PortfolioCoin",
    "SkippedElement",
    "DecodeWarning",
    "DecodedMarkets",
    "MarketData",
    "DecodedGlobal",
    "CoinDetail",
    "DecodedCoinDetail",
    "ChartPoint",
    "ChartWarning",
    "DecodedMarketChart",
    "Holding",
    "HoldingsAnswer",
    "Statistic",
    "StatisticsAnswer",
    "CoinsAnswer",
    "PortfolioAnswer",
    "CoinDetailScreen",
    "CoinStatistics",
    "HTTPRequests",
    "EngineMetrics",
    "RefreshSummary",
    "ChartSummary",
    "PriceChart",
    "HistoryPoint",
    "PortfolioHistory",
    "SimplePrice",
    "SimplePrices",
    "Progress",
    "Transaction",
    "TransactionsAnswer",
    "TransactionGroup",
    "EXACT_KEYS",
    "CoinPnL",
    "PnLTotals",
    "PnLAnswer",
    "PortfolioInfo",
    "PortfoliosAnswer",
    "ImportSummary",
    "RealizedRow",
    "RealizedTotals",
    "IncomeRow",
    "RealizedAnswer",
    "BenchmarkChange",
    "MissingPrices",
    "PerformancePoint",
    "PerformanceAnswer",
    "ImportNotice",
    "UnknownSymbol",
    "ImportAnswer",
    "PriceAt",
    "MissingPrice",
    "PriceFill",
]


# --- Models (decode outputs, SPEC §2 and §10) ----------------------------------------------------


class ROI(TypedDict):
    """A coin's return on investment, as CoinGecko sends it."""

    times: Optional[float]
    currency: Optional[str]
    percentage: Optional[float]


class Sparkline(TypedDict):
    """Seven days of prices, oldest first, one an hour; any length (0 to 170-odd). A price read
    as null because of its type is None (and listed in the decode's ``warnings``)."""

    price: List[Optional[float]]


class _MarketFields(TypedDict):
    """The keys of a ``/coins/markets`` row besides id, symbol and name (each present)."""

    image: Optional[str]
    current_price: Optional[float]
    market_cap: Optional[float]
    market_cap_rank: Optional[int]
    fully_diluted_valuation: Optional[float]
    total_volume: Optional[float]
    high_24h: Optional[float]
    low_24h: Optional[float]
    price_change_24h: Optional[float]
    price_change_percentage_24h: Optional[float]
    market_cap_change_24h: Optional[float]
    market_cap_change_percentage_24h: Optional[float]
    circulating_supply: Optional[float]
    total_supply: Optional[float]
    max_supply: Optional[float]
    ath: Optional[float]
    ath_change_percentage: Optional[float]
    ath_date: Optional[str]
    atl: Optional[float]
    atl_change_percentage: Optional[float]
    atl_date: Optional[str]
    roi: Optional[ROI]
    last_updated: Optional[str]
    sparkline_in_7d: Optional[Sparkline]
    price_change_percentage_1h_in_currency: Optional[float]
    price_change_percentage_24h_in_currency: Optional[float]
    price_change_percentage_7d_in_currency: Optional[float]
    price_change_percentage_14d_in_currency: Optional[float]
    price_change_percentage_30d_in_currency: Optional[float]
    price_change_percentage_200d_in_currency: Optional[float]
    price_change_percentage_1y_in_currency: Optional[float]


class Coin(_MarketFields):
    """One coin of ``GET /coins/markets`` with CoinGecko's keys, each present: prices, market
    caps, volumes and supplies in the request's vs_currency (supplies in coin units), changes
    ``price_change_percentage_*`` in percent. ``symbol`` and ``name`` are ``""`` when CoinGecko
    left them out. ``sparkline_in_7d`` is None when not asked for."""

    id: str
    symbol: str
    name: str


class ListedCoin(Coin):
    """A coin of an engine answer (:meth:`Engine.coins`, :meth:`Engine.coin_detail`):
    ``price_available`` is False when ``current_price`` is unknown."""

    price_available: bool


class PortfolioCoin(_MarketFields):
    """A held coin of :meth:`Engine.portfolio`: its market row, ``current_holdings`` (coin units),
    ``current_holdings_value`` (units × price in vs_currency, None without a price) and
    ``price_source`` (``"coingecko"``, ``"manual"`` or None). A held coin with no market row has
    None for ``symbol``, ``name`` and every market value but ``current_price`` (the owner's manual
    current price, when one values it; else ``price_available`` is False)."""

    id: str
    symbol: Optional[str]
    name: Optional[str]
    price_available: bool
    current_holdings: float
    current_holdings_value: Optional[float]
    price_source: Optional[str]


class SkippedElement(TypedDict):
    """An element of a ``/coins/markets`` body that was left out: its position in the body and
    why (not an object, no usable id, an id seen again later)."""

    index: int
    reason: str


class DecodeWarning(TypedDict):
    """A field read as null (or ``""``) because of its type. ``index`` is the element's position
    in a markets body (None for ``/global`` and details), ``id`` the coin id (None for
    ``/global``), ``field`` the CoinGecko key as a path (``"roi.times"``,
    ``"sparkline_in_7d.price[3]"``, ``"total_market_cap.eur"``), ``reason`` one of
    ``"not a number"``, ``"not a whole number"``, ``"not a string"``, ``"missing"``,
    ``"not an object"``, ``"not an array"``."""

    index: Optional[int]
    id: Optional[str]
    field: str
    reason: str


class DecodedMarkets(TypedDict):
    """:func:`coinfolio.decode_markets` and :meth:`Client.markets`."""

    coins: List[Coin]
    skipped: List[SkippedElement]
    warnings: List[DecodeWarning]


class MarketData(TypedDict):
    """``data`` of ``GET /global``; each None when unknown. ``total_market_cap`` and
    ``total_volume`` map a currency code to an amount in it, ``market_cap_percentage`` a coin
    symbol to its share in percent; ``updated_at`` is in seconds since 1970."""

    total_market_cap: Optional[Dict[str, float]]
    total_volume: Optional[Dict[str, float]]
    market_cap_percentage: Optional[Dict[str, float]]
    market_cap_change_percentage_24h_usd: Optional[float]
    active_cryptocurrencies: Optional[int]
    markets: Optional[int]
    updated_at: Optional[int]


class DecodedGlobal(TypedDict):
    """:func:`coinfolio.decode_global` and :meth:`Client.global_data`."""

    market_data: MarketData
    warnings: List[DecodeWarning]


class CoinDetail(TypedDict):
    """``GET /coins/{id}``: ``description`` is ``description.en`` as plain text (tags removed,
    entities decoded), ``homepage`` the first non-empty ``links.homepage``,
    ``block_time_in_minutes`` in minutes."""

    id: str
    symbol: str
    name: str
    block_time_in_minutes: Optional[int]
    hashing_algorithm: Optional[str]
    description: Optional[str]
    homepage: Optional[str]
    subreddit_url: Optional[str]
    genesis_date: Optional[str]
    categories: List[str]


class DecodedCoinDetail(TypedDict):
    """:func:`coinfolio.decode_coin_detail` and :meth:`Client.coin_detail`."""

    detail: CoinDetail
    warnings: List[DecodeWarning]


#: ``[t_ms, value]``: milliseconds since 1970 UTC and a value in the chart's vs_currency, or
#: None for a gap (never 0).
ChartPoint = List[Optional[float]]


class ChartWarning(TypedDict):
    """A market chart point left out (no usable time) or read as a gap because of its type:
    ``series`` is ``"prices"``, ``"market_caps"`` or ``"total_volumes"``, ``index`` the point's
    position in the body's series."""

    series: str
    index: int
    reason: str


class DecodedMarketChart(TypedDict):
    """:func:`coinfolio.decode_market_chart` and :meth:`Client.market_chart`: each series sorted
    as sent; a missing series is ``[]``."""

    prices: List[ChartPoint]
    market_caps: List[ChartPoint]
    total_volumes: List[ChartPoint]
    warnings: List[ChartWarning]


# --- Store ---------------------------------------------------------------------------------------


class Holding(TypedDict):
    """One holding: ``amount`` in units of the coin."""

    coin_id: str
    amount: float


class HoldingsAnswer(TypedDict):
    """``cf_store_holdings``: sorted by coin_id (bytewise)."""

    holdings: List[Holding]


# --- Engine (SPEC §6, §10, §11) ------------------------------------------------------------------


class _StatisticFields(TypedDict):
    title: str
    value: str
    percentage_change: Optional[float]


class Statistic(_StatisticFields, total=False):
    """A titled display value: ``value`` is formatted (``"$2.58Tr"``, ``"42.50%"``, ``"n/a"``),
    ``percentage_change`` the 24 h change in percent (None when not applicable or unknown).
    Only the "Portfolio Value" statistic has ``coverage``: the share (0…1) of the value whose
    24 h change is known."""

    coverage: float


class StatisticsAnswer(TypedDict):
    """``cf_engine_statistics``."""

    statistics: List[Statistic]


class CoinsAnswer(TypedDict):
    """:meth:`Engine.coins`: ``total`` counts the matches before limit and offset; ``as_of`` is
    the data's own time (ISO-8601 UTC: the newest ``last_updated``, or ``/global``'s
    ``updated_at`` when newer), ``fetched_at`` when the snapshot was downloaded or loaded,
    ``stale`` whether ``as_of`` is older than stale_after_s."""

    coins: List[ListedCoin]
    total: int
    as_of: str
    fetched_at: Optional[str]
    stale: bool


class PortfolioAnswer(TypedDict):
    """:meth:`Engine.portfolio`: ``total_value`` is the sum of the priced holdings' values in
    vs_currency (None, never 0, when there are holdings and none has a price; 0 with no
    holdings), ``unpriced_holdings`` the holdings left out of it; ``as_of`` and ``fetched_at``
    (ISO-8601 UTC) None without a snapshot."""

    coins: List[PortfolioCoin]
    total_value: Optional[float]
    unpriced_holdings: int
    as_of: Optional[str]
    fetched_at: Optional[str]
    stale: bool


class CoinDetailScreen(TypedDict):
    """:meth:`Engine.coin_detail`: the snapshot's row (None when the coin is not in it), the
    detail, and the overview and additional statistics (missing values print ``"n/a"``);
    ``as_of`` is when the detail was fetched (ISO-8601 UTC), ``stale`` True when a saved detail
    is returned because refreshing it failed."""

    coin: Optional[ListedCoin]
    detail: CoinDetail
    overview: List[Statistic]
    additional: List[Statistic]
    as_of: Optional[str]
    stale: bool


class CoinStatistics(TypedDict):
    """:meth:`Engine.coin_statistics`: the snapshot's row and the detail screen's statistics,
    from the saved snapshot alone."""

    coin: ListedCoin
    overview: List[Statistic]
    additional: List[Statistic]


#: HTTP attempts per endpoint, retries included (``global`` is a Python keyword, hence this
#: form).
HTTPRequests = TypedDict(
    "HTTPRequests",
    {
        "markets": int,
        "global": int,
        "detail": int,
        "market_chart": int,
        "market_chart_range": int,
        "simple_price": int,
    },
)


class EngineMetrics(TypedDict):
    """:meth:`Engine.metrics`: counters since the engine was opened. The cache hits count answers
    that made no request of their own; ``suppressed_requests`` counts calls refused unsent while
    a remembered Retry-After ran."""

    http_requests: HTTPRequests
    detail_cache_hits: int
    chart_cache_hits: int
    suppressed_requests: int


class RefreshSummary(TypedDict):
    """:meth:`Engine.refresh` and :meth:`Engine.refresh_prices`: coins in the new snapshot (or
    coins priced), the data's own time ``as_of`` and ``fetched_at`` (ISO-8601 UTC), staleness
    (judged from ``as_of``), and ``fetched``: whether this call sent the requests (False when a
    refresh answered with the snapshot another engine saved: within ``refresh_max_age_s``, or
    after waiting for that engine's refresh; SPEC §20)."""

    coins: int
    as_of: str
    fetched_at: str
    stale: bool
    fetched: bool


class ChartSummary(TypedDict):
    """A series' summary, gaps ignored; every value None for a series with no value. ``first``
    and ``last`` are the values at the earliest and latest times that have one, ``min_at`` and
    ``max_at`` the t_ms where each extreme is first reached, ``change`` last − first,
    ``percentage_change`` in percent (None when first is 0)."""

    first: Optional[float]
    last: Optional[float]
    min: Optional[float]
    max: Optional[float]
    min_at: Optional[int]
    max_at: Optional[int]
    change: Optional[float]
    percentage_change: Optional[float]


class PriceChart(TypedDict):
    """:meth:`Engine.chart`: ``days`` as asked of CoinGecko (a whole number or ``"max"``),
    ``clamped`` True when the plan's 365-day limit shortened the ask, ``points`` sorted by
    time."""

    coin_id: str
    vs_currency: str
    days: Union[int, str]
    interval: Optional[str]
    clamped: bool
    points: List[ChartPoint]
    summary: ChartSummary


#: ``[t_ms, value, partial]``: milliseconds since 1970 UTC, the portfolio's value in vs_currency
#: (None when no priced holding has a price then), and whether some priced holding has none.
HistoryPoint = List[Union[float, bool, None]]


class PortfolioHistory(TypedDict):
    """:meth:`Engine.portfolio_history`: hourly points, oldest first."""

    vs_currency: str
    points: List[HistoryPoint]
    summary: ChartSummary


class SimplePrice(TypedDict):
    """One coin of ``GET /simple/price``: price in vs_currency, 24 h change in percent,
    ``last_updated_at`` in seconds since 1970; None where CoinGecko gave none."""

    price: Optional[float]
    change_24h: Optional[float]
    last_updated_at: Optional[int]


class SimplePrices(TypedDict):
    """:meth:`Client.simple_price`: every asked id."""

    prices: Dict[str, SimplePrice]


class Progress(TypedDict):
    """What :meth:`Engine.set_progress` callbacks receive: ``done`` of ``total`` units of the
    phase (``"markets"``, ``"global"``, ``"ids"``, ``"import"`` or ``"chart"``) are finished;
    ``total`` None when not known in advance."""

    phase: str
    done: int
    total: Optional[int]


# --- Ledger (SPEC §12, §16) -----------------------------------------------------------------------

#: The keys whose numbers are exact ledger values, given as :class:`decimal.Decimal` (as they went
#: in: ``Decimal("0.1")`` comes back ``Decimal("0.1")``): amounts, prices and fees, and what is
#: derived from them (cost basis, values, P&L, income, proceeds, gains, flows), exact to 38
#: significant digits. Every other number of a ledger answer stays a float (percentages, returns,
#: coverages) or an int (counts, days, ``price_at``, a performance point's ``t_ms``).
#: tests/test_ledger_history.py holds this set equal to the TypedDicts' Decimal fields.
EXACT_KEYS: FrozenSet[str] = frozenset(
    (
        "amount",
        "price",
        "fee",
        "fee_price",
        "original_price",
        "cost_basis",
        "average_cost",
        "breakeven_price",
        "current_price",
        "current_value",
        "unrealized_pnl",
        "realized_pnl",
        "fees",
        "income",
        "proceeds",
        "cost",
        "gain",
        "short_term_gain",
        "long_term_gain",
        "taxable_gain",
        "value",
        "income_total",
        "start_value",
        "end_value",
        "net_flows",
        "points",
    )
)


class Transaction(TypedDict):
    """A stored transaction: ``id`` a whole number as a string, ``kind`` ``"buy"``, ``"sell"``,
    ``"transfer_in"``, ``"transfer_out"``, ``"fee"`` or ``"income"``, ``amount`` in coin units,
    ``price`` per unit in the portfolio's currency (None for transfers, and while pending),
    ``fee`` in the portfolio's currency or in units of ``fee_coin_id``, ``timestamp`` RFC 3339
    UTC, ``note`` None when none (``""`` when sent empty), ``external_id`` None when none,
    ``group_id`` the rows one call wrote together (None alone), ``income_type`` on income, ``fee_price`` as given,
    ``price_source`` ``"user"``, ``"pending"``, ``"coingecko"`` or ``"manual"`` (None for
    transfers), ``price_at`` the price point's time in ms (else None), ``original_price`` and
    ``price_currency`` a price given in another currency, as given (SPEC §17; else None). ``id``
    is None only in the ``transactions`` of a dry-run import (:meth:`Engine.import_file`), which
    are not stored."""

    id: Optional[str]
    portfolio: str
    coin_id: str
    kind: str
    amount: Decimal
    price: Optional[Decimal]
    fee: Decimal
    timestamp: str
    note: Optional[str]
    external_id: Optional[str]
    group_id: Optional[str]
    income_type: Optional[str]
    fee_coin_id: Optional[str]
    fee_price: Optional[Decimal]
    price_source: Optional[str]
    price_at: Optional[int]
    original_price: Optional[Decimal]
    price_currency: Optional[str]


class TransactionsAnswer(TypedDict):
    """:meth:`Engine.transactions`: a page in ledger order; ``total`` before paging."""

    transactions: List[Transaction]
    total: int


class TransactionGroup(TypedDict):
    """:meth:`Engine.add_trade` and :meth:`Engine.move`: the rows written together, in order,
    and their ``group_id``."""

    group_id: Optional[str]
    transactions: List[Transaction]


class CoinPnL(TypedDict):
    """One coin of :meth:`Engine.pnl`, in the portfolio's currency, over units of known cost:
    None where unknown (units of unknown cost only, no price, a pending fee), never 0.
    ``unrealized_pnl_percentage`` is in percent; the coverages are shares 0…1 (floats)."""

    coin_id: str
    amount: Decimal
    cost_basis: Optional[Decimal]
    average_cost: Optional[Decimal]
    breakeven_price: Optional[Decimal]
    current_price: Optional[Decimal]
    price_source: Optional[str]
    current_value: Optional[Decimal]
    unrealized_pnl: Optional[Decimal]
    unrealized_pnl_percentage: Optional[float]
    realized_pnl: Decimal
    realized_coverage: float
    fees: Optional[Decimal]
    cost_basis_coverage: float
    income: Decimal
    income_coverage: float


class PnLTotals(TypedDict):
    """The totals of :meth:`Engine.pnl`, in the portfolio's currency; ``income_coverage`` is the
    share of income transactions whose price is known; ``cost_basis`` is None when coins are held
    and none has a known cost."""

    cost_basis: Optional[Decimal]
    current_value: Optional[Decimal]
    unrealized_pnl: Optional[Decimal]
    unrealized_pnl_percentage: Optional[float]
    realized_pnl: Decimal
    fees: Optional[Decimal]
    income: Decimal
    income_coverage: float


class PnLAnswer(TypedDict):
    """:meth:`Engine.pnl`: ``method`` ``"fifo"``, ``"lifo"``, ``"hifo"``, ``"lofo"``,
    ``"average"`` or ``"uk"``."""

    portfolio: str
    vs_currency: str
    method: str
    coins: List[CoinPnL]
    totals: PnLTotals


class PortfolioInfo(TypedDict):
    """A ledger portfolio: its name and quote currency."""

    name: str
    vs_currency: str


class PortfoliosAnswer(TypedDict):
    """``cf_engine_portfolios``: every portfolio by name."""

    portfolios: List[PortfolioInfo]


class ImportSummary(TypedDict):
    """:meth:`Engine.import_csv`: rows of the file imported, and rows skipped because the
    portfolio already has their external_id."""

    imported: int
    skipped: int


# --- Returns and taxes (SPEC §19) ------------------------------------------------------------------


class RealizedRow(TypedDict):
    """One (disposal, lot) pair of :meth:`Engine.realized`: ``amount`` units of one lot a sell
    or fee row took; ``acquired_at`` and ``disposed_at`` RFC 3339 UTC (a moved lot keeps its
    first acquisition time); ``proceeds`` the lot's share by units of the disposal's proceeds
    net of fees (None while its price is pending); ``cost`` and ``gain`` None for units of
    unknown cost, never 0; ``holding_days`` UTC calendar days; ``term`` ``"short"`` or
    ``"long"``; ``tax_free`` None without ``tax_free_after_years``; ``disposal_id`` the sell's
    or fee row's id."""

    portfolio: str
    coin_id: str
    amount: Decimal
    acquired_at: str
    disposed_at: str
    proceeds: Optional[Decimal]
    cost: Optional[Decimal]
    gain: Optional[Decimal]
    holding_days: int
    term: str
    tax_free: Optional[bool]
    disposal_id: str


class RealizedTotals(TypedDict):
    """The sums of :meth:`Engine.realized`'s rows, each over the rows whose figure is known;
    ``coverage`` the share of rows whose gain is known (1 when none)."""

    proceeds: Decimal
    cost: Decimal
    gain: Decimal
    short_term_gain: Decimal
    long_term_gain: Decimal
    taxable_gain: Decimal
    coverage: float


class IncomeRow(TypedDict):
    """Income received in :meth:`Engine.realized`'s period: ``value`` amount × price at receipt
    (None while pending)."""

    portfolio: str
    coin_id: str
    income_type: Optional[str]
    amount: Decimal
    value: Optional[Decimal]
    timestamp: str
    transaction_id: str


class RealizedAnswer(TypedDict):
    """:meth:`Engine.realized`: ``portfolio`` None for every portfolio; rows by disposal in
    ledger order."""

    portfolio: Optional[str]
    vs_currency: str
    method: str
    rows: List[RealizedRow]
    totals: RealizedTotals
    income: List[IncomeRow]
    income_total: Decimal


class BenchmarkChange(TypedDict):
    """The benchmark coin's price change over the range, percent (None when a price is missing)."""

    coin_id: str
    change: Optional[float]


class MissingPrices(TypedDict):
    """A UTC day (``"YYYY-MM-DD"``) and the coins a report found no stored price for."""

    date: str
    coin_ids: List[str]


#: ``[t_ms, value, net_flows]``: ms since 1970 UTC (an int), the value then and the net flows in
#: [from, t_ms) as Decimals (None when unknown).
PerformancePoint = List[Union[int, Decimal, None]]


#: :meth:`Engine.performance`: ``from`` and ``to`` RFC 3339 UTC; money as Decimals in
#: ``vs_currency``; ``roi``, ``twr``, ``mwr`` (a yearly rate) and the benchmark's change in percent;
#: ``coverage`` the share of points with a value; ``missing`` the days without a stored price.
#: (A functional TypedDict: ``from`` is a Python keyword.)
PerformanceAnswer = TypedDict(
    "PerformanceAnswer",
    {
        "portfolio": Optional[str],
        "vs_currency": str,
        "from": str,
        "to": str,
        "start_value": Optional[Decimal],
        "end_value": Optional[Decimal],
        "net_flows": Optional[Decimal],
        "gain": Optional[Decimal],
        "roi": Optional[float],
        "twr": Optional[float],
        "mwr": Optional[float],
        "benchmark": Optional[BenchmarkChange],
        "coverage": float,
        "points": List[PerformancePoint],
        "missing": List[MissingPrices],
    },
)


# --- Imports (SPEC §18) --------------------------------------------------------------------------


class ImportNotice(TypedDict):
    """A row of an imported file that was not written: its physical line (1-based, preamble
    lines included) and why, in one sentence."""

    line: int
    reason: str


class UnknownSymbol(TypedDict):
    """A symbol no rule resolved: unknown (no ``candidates``), or shared by the snapshot's coins
    whose ids ``candidates`` lists (sorted)."""

    symbol: str
    candidates: List[str]


class _ImportAnswerFields(TypedDict):
    format: str
    variant: str
    imported: int
    skipped: int
    ignored: List[ImportNotice]
    warnings: List[ImportNotice]
    pending_prices: int
    unknown_symbols: List[UnknownSymbol]


class ImportAnswer(_ImportAnswerFields, total=False):
    """:meth:`Engine.import_file`: the ``format`` read and its ``variant`` (``"v4"``,
    ``"statement"``, ``"default"``), transactions ``imported`` (trade legs and fee rows each
    count; in a dry run, that would be) and ``skipped`` (already there), the rows ``ignored`` on
    purpose (a fiat deposit, a move between an exchange's own accounts) and the ``warnings``
    (rows no rule reads), the written rows whose price is pending, and the ``unknown_symbols``
    (empty unless ``dry_run``: an import fails on them). With ``dry_run`` only:
    ``transactions``, the rows that would be written (``id`` None)."""

    transactions: List[Transaction]


# --- Prices in the past (SPEC §17) --------------------------------------------------------------


class PriceAt(TypedDict):
    """:meth:`Engine.price_at`: the price of one unit of ``coin_id`` in ``vs_currency`` at
    ``timestamp`` (RFC 3339 UTC, as asked), exact (a manual price as set, a CoinGecko price as
    sent); ``at`` is the t_ms of the point used (the snapshot's ``last_updated`` for
    ``"snapshot"``); ``source`` is ``"manual"``, ``"coingecko"`` or ``"snapshot"``."""

    coin_id: str
    vs_currency: str
    timestamp: str
    price: Decimal
    at: int
    source: str


class MissingPrice(TypedDict):
    """A row :meth:`Engine.fill_prices` left pending: its id, coin, time (RFC 3339 UTC) and why:
    ``"history_limit"``, ``"unknown_coin"``, ``"no_point"``, ``"max_requests"`` or
    ``"rate_limited"``."""

    transaction_id: str
    coin_id: str
    timestamp: str
    reason: str


class PriceFill(TypedDict):
    """:meth:`Engine.fill_prices`: rows priced, range requests sent, rows still pending."""

    filled: int
    requests: int
    missing: List[MissingPrice]
