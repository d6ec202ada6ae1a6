"""SPEC §17 through the ABI: ``Client.market_chart_range`` against the loopback server's range
route (Tests/server/PROTOCOL.md: ethereum is worth 110 + 1 usd per hour of the day, UTC; hourly
points at hh:02:00, daily ones at 00:00:00)."""

from __future__ import annotations

import decimal
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator, Optional, Tuple

import pytest

import coinfolio
from backend import postgres_pass
from coinfolio import HTTPError, InvalidArgument, NoData, NotFound, Unauthorized

from conftest import LoopbackServer, cli_binary

HOUR_MS = 3_600_000
MINUTE_MS = 60_000


_today: Optional[int] = None  # the UTC day (days since 1970) of the running test; see pin_today


@pytest.fixture(autouse=True)
def pin_today() -> Iterator[None]:
    """Today is read once per test: a test running across a UTC midnight would otherwise write its
    rows counting from one day and compute what it expects counting from the next."""
    global _today
    _today = int(time.time()) // 86400
    yield
    _today = None


def day_start(days_ago: int) -> int:
    """00:00 UTC ``days_ago`` days before today (the test's, ``pin_today``), in UNIX seconds."""
    today = _today if _today is not None else int(time.time()) // 86400
    return (today - days_ago) * 86400


def client(server: LoopbackServer, **extra: Any) -> coinfolio.Client:
    return coinfolio.Client(base_url=server.base_url, timeout_ms=5000, max_retries=0, **extra)


def test_a_range_of_one_day_long_ago_has_hourly_points_sent_as_unix_seconds(server: LoopbackServer) -> None:
    day = day_start(10)
    with client(server) as api:
        chart = api.market_chart_range("ethereum", day, day + 86400)
    assert len(chart["prices"]) == 24
    assert chart["prices"][0] == [(day + 120) * 1000, 110]
    assert chart["prices"][-1] == [(day + 23 * 3600 + 120) * 1000, 133]
    assert chart["market_caps"][0][1] == 110_000_000
    [request] = server.requests_to("/coins/ethereum/market_chart/range")
    assert request["query"] == {"vs_currency": "usd", "from": str(day), "to": str(day + 86400), "precision": "full"}
    assert server.counts() == {"market_chart_range": 1}


def test_rfc_3339_times_are_sent_as_whole_seconds_covering_them(server: LoopbackServer) -> None:
    day = day_start(3)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(day))
    with client(server) as api:
        chart = api.market_chart_range("bitcoin", text + ".250Z", text + ".250+00:00", vs_currency="eur")
    assert chart["prices"] == []
    [request] = server.requests_to("/coins/bitcoin/market_chart/range")
    assert (request["query"]["from"], request["query"]["to"]) == (str(day), str(day + 1))


def test_a_long_range_has_daily_points_at_midnight(server: LoopbackServer) -> None:
    start = day_start(200)
    with client(server) as api:
        chart = api.market_chart_range("bitcoin", start - 3600, start + 100 * 86400, vs_currency="eur")
    assert len(chart["prices"]) == 101
    assert chart["prices"][0] == [start * 1000, 36000]
    assert all(t % 86_400_000 == 0 and v == 36000 for t, v in chart["prices"])


def test_a_range_within_a_day_of_now_has_five_minute_points(server: LoopbackServer) -> None:
    # An hour ending on a 5-minute mark: its points are at :00:30, :05:30, … — exactly 12 (an hour
    # ending at mm:00:30 itself would hold 13, so the end is not left to the clock).
    end = int(time.time()) // 300 * 300
    with client(server) as api:
        chart = api.market_chart_range("tether", end - 3600, end)
    assert len(chart["prices"]) == 12
    assert all((t // 1000) % 300 == 30 and v == 1 for t, v in chart["prices"])


def test_a_tiny_price_keeps_its_digits(server: LoopbackServer) -> None:
    day = day_start(3)
    with client(server) as api:
        chart = api.market_chart_range("baby-doge-coin", day, day + 3600)
    assert chart["prices"][0][1] == 2.6e-13


def test_older_than_365_days_is_unauthorized_on_the_public_plan(server: LoopbackServer) -> None:
    start = day_start(400)
    with client(server) as api, pytest.raises(Unauthorized) as caught:
        api.market_chart_range("ethereum", start, start + 86400)
    assert caught.value.details["error_code"] == 10012
    with client(server, plan="pro", api_key="test-key-123456") as pro:
        assert len(pro.market_chart_range("ethereum", start, start + 86400)["prices"]) == 24


def test_unknown_coin_is_not_found_and_a_coin_without_points_is_empty(server: LoopbackServer) -> None:
    day = day_start(5)
    with client(server) as api:
        with pytest.raises(NotFound):
            api.market_chart_range("no-such-coin", day, day + 60)
        assert api.market_chart_range("boringdao-[old]", day, day + 86400)["prices"] == []


@pytest.mark.parametrize(
    "start, end",
    [(-1, 10), (10, 253402300800), (20, 10), (1.5, 10), ("yesterday", 10), (True, 10), ("1969-12-31T23:59:59Z", 10)],
)
def test_bad_times_are_refused_and_send_nothing(server: LoopbackServer, start: Any, end: Any) -> None:
    with client(server) as api, pytest.raises(InvalidArgument):
        api.market_chart_range("ethereum", start, end)
    assert server.counts() == {}


def test_a_bad_id_or_currency_is_refused_and_sends_nothing(server: LoopbackServer) -> None:
    with client(server) as api:
        for bad_id in ("a/b", "", ".."):
            with pytest.raises(InvalidArgument):
                api.market_chart_range(bad_id, 0, 10)
        with pytest.raises(InvalidArgument):
            api.market_chart_range("ethereum", 0, 10, vs_currency="u$d")
    assert server.counts() == {}


# --- The engine: price_at and set_price ---------------------------------------------------------


@pytest.fixture
def price_database(tmp_path: Path, request: pytest.FixtureRequest) -> Tuple[str, Optional[str]]:
    """(database, owner) no other test's price points reach: a SQLite file, or in the PostgreSQL
    pass a database of its own (price points are shared by every owner of a database)."""
    if not postgres_pass():
        return str(tmp_path / "prices.sqlite"), None
    url: str = request.getfixturevalue("fresh_database")
    return url, "prices"


@pytest.fixture
def engine(server: LoopbackServer, price_database: Tuple[str, Optional[str]]) -> Iterator[coinfolio.Engine]:
    database, owner = price_database
    with coinfolio.Engine(
        database=database, owner=owner, api={"base_url": server.base_url, "timeout_ms": 5000, "max_retries": 0}
    ) as opened:
        yield opened


def rfc3339(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return text + (f".{millis:03d}Z" if millis else "Z")


def test_the_lookup_order_fetch_then_at_or_before_then_after_then_manual(
    engine: coinfolio.Engine, server: LoopbackServer
) -> None:
    day = day_start(10) * 1000
    fetched = engine.price_at("ethereum", rfc3339(day + 12 * HOUR_MS + 30 * MINUTE_MS))
    assert fetched == {
        "coin_id": "ethereum", "vs_currency": "usd", "timestamp": rfc3339(day + 12 * HOUR_MS + 30 * MINUTE_MS),
        "price": decimal.Decimal(122), "at": day + 12 * HOUR_MS + 2 * MINUTE_MS, "source": "coingecko",
    }
    assert server.counts() == {"market_chart_range": 1}
    before = engine.price_at("ethereum", rfc3339(day + 15 * HOUR_MS))
    assert (before["price"], before["at"]) == (124, day + 14 * HOUR_MS + 2 * MINUTE_MS)
    after = engine.price_at("ethereum", rfc3339(day + MINUTE_MS))
    assert (after["price"], after["at"]) == (110, day + 2 * MINUTE_MS)
    assert server.counts() == {"market_chart_range": 1}
    engine.set_price("ethereum", decimal.Decimal("99.125"), timestamp=rfc3339(day + 10 * HOUR_MS))
    manual = engine.price_at("ethereum", rfc3339(day + 12 * HOUR_MS))
    assert manual["price"] == decimal.Decimal("99.125") and isinstance(manual["price"], decimal.Decimal)
    assert (manual["at"], manual["source"]) == (day + 10 * HOUR_MS, "manual")
    engine.set_price("ethereum", None, timestamp=rfc3339(day + 10 * HOUR_MS))
    assert engine.price_at("ethereum", rfc3339(day + 12 * HOUR_MS))["source"] == "coingecko"


def test_the_snapshot_answers_within_an_hour(engine: coinfolio.Engine, server: LoopbackServer) -> None:
    updated = day_start(3) * 1000 + 6 * HOUR_MS
    body = [{"id": "ethereum", "symbol": "eth", "name": "Ethereum", "current_price": 3000.5,
             "last_updated": rfc3339(updated)}]
    engine.load(json.dumps(body))
    answer = engine.price_at("ethereum", rfc3339(updated + 59 * MINUTE_MS))
    assert (answer["price"], answer["at"], answer["source"]) == (decimal.Decimal("3000.5"), updated, "snapshot")
    assert server.counts() == {}
    later = engine.price_at("ethereum", rfc3339(updated + HOUR_MS + MINUTE_MS))
    assert (later["price"], later["source"]) == (116, "coingecko")


def test_each_no_data_reason(engine: coinfolio.Engine, server: LoopbackServer) -> None:
    def reason(coin_id: str, when_ms: int) -> Any:
        with pytest.raises(NoData) as caught:
            engine.price_at(coin_id, rfc3339(when_ms))
        return caught.value.details["reason"]

    assert reason("ethereum", day_start(400) * 1000) == "history_limit"
    assert reason("ethereum", int(time.time() * 1000) + 2 * HOUR_MS) == "no_point"
    assert server.counts() == {}
    assert reason("no-such-coin", day_start(5) * 1000) == "unknown_coin"
    assert reason("boringdao-[old]", day_start(5) * 1000) == "no_point"
    server.fault(path="/api/v3/coins/tether/market_chart/range", status=500, body="{}")
    with pytest.raises(HTTPError):
        engine.price_at("tether", rfc3339(day_start(6) * 1000))


@pytest.mark.parametrize(
    "query",
    [
        {"coin_id": "ethereum", "timestamp": "1969-12-31T23:59:59Z"},
        {"coin_id": "ethereum", "timestamp": "10000-01-01"},
        {"coin_id": "ethereum", "timestamp": "2026-01-01", "vs_currency": "xyz"},
        {"coin_id": "a/b", "timestamp": "2026-01-01"},
    ],
)
def test_bad_price_queries_are_refused_and_send_nothing(
    engine: coinfolio.Engine, server: LoopbackServer, query: Any
) -> None:
    with pytest.raises(InvalidArgument) as caught:
        engine.price_at(**query)
    assert caught.value.details["field"] in ("timestamp", "vs_currency", "coin_id")
    assert server.counts() == {}


@pytest.mark.parametrize(
    "price, timestamp, vs_currency, field",
    [
        ("-1", None, None, "price"),
        ("NaN", None, None, "price"),
        ("Infinity", None, None, "price"),
        ("1e400", None, None, "price"),
        ("0.0000000000000000001", None, None, "price"),
        ("1", "1969-12-31", None, "timestamp"),
        ("1", None, "xyz", "vs_currency"),
    ],
)
def test_bad_manual_prices_are_refused_and_change_nothing(
    engine: coinfolio.Engine, price: str, timestamp: Optional[str], vs_currency: Optional[str], field: str
) -> None:
    day = day_start(2) * 1000
    engine.set_price("tether", "1.5", timestamp=rfc3339(day))
    with pytest.raises(InvalidArgument) as caught:
        engine.set_price("tether", price, timestamp=timestamp or rfc3339(day), vs_currency=vs_currency)
    assert caught.value.details["field"] == field
    assert engine.price_at("tether", rfc3339(day))["price"] == decimal.Decimal("1.5")
    with pytest.raises(InvalidArgument):
        engine.set_price("a/b", "1")
    with pytest.raises(TypeError):
        engine.set_price("tether", True)  # type: ignore[arg-type]


# --- The CLI ------------------------------------------------------------------------------------


def run_cli(server: LoopbackServer, database: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(database), COINFOLIO_BASE_URL=server.base_url)
    env.pop("COINFOLIO_API_KEY", None)
    return subprocess.run([str(cli_binary()), *args], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.sqlite_only
def test_cli_price_and_set_price(server: LoopbackServer, tmp_path: Path) -> None:
    database = tmp_path / "cli.sqlite"
    day = rfc3339(day_start(10) * 1000)[:10]
    result = run_cli(server, database, "price", "ethereum", "--at", day + "T12:30:00Z")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"ethereum at {day}T12:30:00Z: $122.00 (CoinGecko's point of {day}T12:02:00Z)\n"
    result = run_cli(server, database, "--vs-currency", "eur", "price", "bitcoin", "--at", day, "--json")
    assert json.loads(result.stdout)["price"] == 36000
    result = run_cli(server, database, "set-price", "ethereum", "99.125", "--at", day + "T10:00:00Z")
    assert result.stdout == f"ethereum price on the UTC day of {day}T10:00:00Z: $99.125 (manual)\n"
    result = run_cli(server, database, "price", "ethereum", "--at", day + "T12:30:00Z")
    assert result.stdout == f"ethereum at {day}T12:30:00Z: $99.125 (your manual price of {day}T10:00:00Z)\n"
    assert run_cli(server, database, "set-price", "my-token", "0.5").stdout == "my-token current price: $0.50 (manual)\n"
    assert run_cli(server, database, "set-price", "my-token", "none").stdout == "removed the manual current price of my-token\n"
    assert server.counts() == {"market_chart_range": 2}
    # --offline answers from what is stored, and says so when nothing is.
    offline = run_cli(server, database, "--offline", "--vs-currency", "eur", "price", "bitcoin", "--at", day + "T12:30:00Z")
    assert offline.stdout == f"bitcoin at {day}T12:30:00Z: €36,108.00 (CoinGecko's point of {day}T12:02:00Z)\n"
    missing = run_cli(server, database, "--offline", "price", "tether", "--at", day)
    assert missing.returncode == 1 and "nothing was asked of CoinGecko" in missing.stderr
    assert server.counts() == {"market_chart_range": 2}


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "args, code, message",
    [
        (("price", "no-such-coin", "--at", "2026-11-01"), 1, None),
        (("price", "ethereum", "--at", "yesterday"), 2, "--at must be an RFC 3339 time"),
        (("price", "a/b"), 2, 'coin id may not contain "/"'),
        (("--vs-currency", "xyz", "price", "ethereum"), 2, 'vs_currency "xyz" is not a currency CoinGecko prices'),
        (("set-price", "ethereum", "-1"), 2, "PRICE must be a decimal number of 0 or more"),
        (("set-price", "ethereum", "1,5"), 2, "PRICE must be a decimal number of 0 or more"),
        (("set-price", "ethereum", "1", "--at", "1969-12-31"), 2, "timestamp must be between 1970-01-01 and 9999-12-31"),
        (("price",), 2, "usage: coinfolio-cli price COIN [--at TIME]"),
    ],
)
def test_cli_price_errors_are_one_line(
    server: LoopbackServer, tmp_path: Path, args: Tuple[str, ...], code: int, message: Optional[str]
) -> None:
    result = run_cli(server, tmp_path / "cli.sqlite", *args)
    assert result.returncode == code, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("coinfolio-cli: ")
    if message is not None:
        assert message in result.stderr


def test_a_manual_current_price_values_a_coin_the_snapshot_lacks(engine: coinfolio.Engine) -> None:
    engine.set_holding("my-token", 100)
    engine.set_price("my-token", decimal.Decimal("0.5"))
    answer = engine.portfolio()
    [token] = answer["coins"]
    assert (token["current_price"], token["current_holdings_value"], token["price_source"]) == (0.5, 50, "manual")
    assert (answer["total_value"], answer["unpriced_holdings"]) == (50, 0)
    assert engine.portfolio(sparkline=True)["coins"][0]["price_source"] == "manual"
    engine.set_price("my-token", None)
    assert engine.portfolio()["coins"][0]["price_source"] is None
    assert engine.portfolio()["total_value"] is None


def test_pnl_values_a_coin_the_snapshot_lacks_with_its_manual_current_price(engine: coinfolio.Engine) -> None:
    """100 my-token bought at 0.4 are worth 50 at a manual 0.5: unrealized 10."""
    engine.add_transaction("my-token", "buy", 100, price=decimal.Decimal("0.4"), timestamp=rfc3339(day_start(2) * 1000))
    [coin] = engine.pnl()["coins"]
    assert (coin["current_price"], coin["price_source"], coin["unrealized_pnl"]) == (None, None, None)
    engine.set_price("my-token", decimal.Decimal("0.5"))
    [coin] = engine.pnl()["coins"]
    assert (coin["current_price"], coin["price_source"], coin["current_value"], coin["unrealized_pnl"]) == (
        decimal.Decimal("0.5"), "manual", decimal.Decimal(50), decimal.Decimal(10))
    engine.load(json.dumps([{"id": "ethereum", "symbol": "eth", "name": "Ethereum", "current_price": 3000.5}]))
    statistics = {statistic["title"]: statistic["value"] for statistic in engine.statistics()}
    assert statistics["Unrealized P&L"] == "$10.00"


# --- fill_prices ----------------------------------------------------------------------------------


def pending_income(engine: coinfolio.Engine, coins: Tuple[str, ...], count: int, first_day: int) -> list:
    """``count`` staking rewards of 1 unit without a price, cycling through ``coins``, at 12:30 on
    days going forward from ``first_day`` days ago (two rows of three share a day)."""
    rows = []
    for index in range(count):
        when = (day_start(first_day) + (index * 2 // 3) * 86400) * 1000 + 12 * HOUR_MS + 30 * MINUTE_MS
        rows.append(engine.add_transaction(coins[index % len(coins)], "income", 1, timestamp=rfc3339(when),
                                           income_type="staking"))
    return rows


def test_300_pending_rows_over_3_coins_and_200_days_take_3_requests(
    engine: coinfolio.Engine, server: LoopbackServer
) -> None:
    rows = pending_income(engine, ("bitcoin", "ethereum", "dogecoin"), 300, 201)
    assert rows[0]["price"] is None and rows[0]["price_source"] == "pending"
    phases = []
    engine.set_progress(lambda progress: phases.append((progress["phase"], progress["done"], progress["total"])))
    fill = engine.fill_prices()
    assert fill == {"filled": 300, "requests": 3, "missing": []}
    assert server.counts() == {"market_chart_range": 3}
    assert phases == [("prices", 0, 3), ("prices", 1, 3), ("prices", 2, 3), ("prices", 3, 3)]
    prices = {}
    for row in engine.transactions(limit=1000)["transactions"]:
        prices.setdefault(row["coin_id"], set()).add(row["price"])
        assert row["price_source"] == "coingecko"
        assert rfc3339(row["price_at"]) == row["timestamp"][:10] + "T00:00:00Z"  # the day's daily point
    # Over 90 days CoinGecko gives daily points at 00:00 UTC: each row takes its day's.
    assert prices == {"bitcoin": {decimal.Decimal(40000)}, "ethereum": {decimal.Decimal(110)},
                      "dogecoin": {decimal.Decimal("0.1")}}
    assert engine.fill_prices() == {"filled": 0, "requests": 0, "missing": []}


def test_a_429_with_retry_after_119_stops_the_fill_and_the_next_sends_nothing(
    engine: coinfolio.Engine, server: LoopbackServer
) -> None:
    rows = pending_income(engine, ("bitcoin", "ethereum"), 4, 20)
    server.fault(path="/api/v3/coins/bitcoin/market_chart/range", status=429, headers={"Retry-After": "119"},
                 body='{"status":{"error_code":429,"error_message":"rate limit"}}')
    fill = engine.fill_prices()
    assert (fill["filled"], fill["requests"]) == (0, 1)
    assert [m["transaction_id"] for m in fill["missing"]] == [row["id"] for row in rows]
    assert {m["reason"] for m in fill["missing"]} == {"rate_limited"}
    assert fill["missing"][0]["coin_id"] == "bitcoin" and fill["missing"][0]["timestamp"] == rows[0]["timestamp"]
    again = engine.fill_prices()
    assert again["requests"] == 0 and {m["reason"] for m in again["missing"]} == {"rate_limited"}
    assert server.counts() == {"market_chart_range": 1}


def test_a_buy_in_euros_costs_the_coins_dollars_of_that_day(engine: coinfolio.Engine) -> None:
    when = rfc3339(day_start(6) * 1000 + 30 * MINUTE_MS)  # 00:30: 110 usd and 100 eur
    buy = engine.add_transaction("ethereum", "buy", 1, price=100, fee="2", timestamp=when, price_currency="eur")
    assert (buy["price"], buy["price_source"], buy["original_price"], buy["price_currency"]) == (
        None, "pending", decimal.Decimal(100), "eur")
    assert engine.pnl()["coins"][0]["fees"] is None
    assert engine.fill_prices()["filled"] == 1
    [row] = engine.transactions()["transactions"]
    assert (row["price"], row["fee"], row["original_price"], row["price_currency"], row["price_source"]) == (
        decimal.Decimal(110), decimal.Decimal("2.2"), decimal.Decimal(100), "eur", "user")
    assert row["price_at"] == day_start(6) * 1000 + 2 * MINUTE_MS  # the 00:02 eur and usd points
    assert engine.pnl()["coins"][0]["cost_basis"] == decimal.Decimal("112.2")
    # Export → import into a fresh database keeps it (SPEC §16): the two columns after the long
    # header, and a converted fee (2.2 usd) is not converted again.
    exported = engine.export_csv()
    assert exported.split("\r\n")[0].endswith(",group_id,price_currency,original_price")
    assert exported.split("\r\n")[1].endswith(",buy,1,110,2.2,,coinfolio:1,,,,,eur,100")
    with coinfolio.Engine(database=":memory:") as other:
        assert other.import_csv(exported) == {"imported": 1, "skipped": 0}
        [copy] = other.transactions()["transactions"]
        assert (copy["price"], copy["fee"], copy["original_price"], copy["price_currency"]) == (
            decimal.Decimal(110), decimal.Decimal("2.2"), decimal.Decimal(100), "eur")


def test_a_pending_rows_pnl_is_unknown_with_its_coverage(engine: coinfolio.Engine) -> None:
    when = day_start(5) * 1000 + 12 * HOUR_MS + 30 * MINUTE_MS
    engine.add_transaction("ethereum", "buy", 1, price=100, timestamp=rfc3339(when - 86_400_000))
    engine.add_transaction("ethereum", "buy", 1, timestamp=rfc3339(when))
    [coin] = engine.pnl()["coins"]
    assert (coin["cost_basis"], coin["cost_basis_coverage"]) == (decimal.Decimal(100), 0.5)
    engine.fill_prices()
    [coin] = engine.pnl()["coins"]
    assert (coin["cost_basis"], coin["cost_basis_coverage"]) == (decimal.Decimal(222), 1)


def test_max_requests_leaves_the_rest_listed(engine: coinfolio.Engine, server: LoopbackServer) -> None:
    rows = pending_income(engine, ("bitcoin", "dogecoin", "ethereum"), 3, 10)
    fill = engine.fill_prices(max_requests=2)
    assert (fill["filled"], fill["requests"]) == (2, 2)
    assert fill["missing"] == [{"transaction_id": rows[2]["id"], "coin_id": "ethereum", "timestamp": rows[2]["timestamp"],
                                "reason": "max_requests"}]
    assert server.counts() == {"market_chart_range": 2}


@pytest.mark.parametrize("options", [{"max_requests": -1}, {"max_requests": 1001}, {"portfolio": " main"}])
def test_bad_fill_options_are_refused_and_change_nothing(
    engine: coinfolio.Engine, server: LoopbackServer, options: Any
) -> None:
    pending_income(engine, ("bitcoin",), 1, 3)
    with pytest.raises(InvalidArgument):
        engine.fill_prices(**options)
    assert server.counts() == {}
    assert engine.transactions()["transactions"][0]["price_source"] == "pending"


@pytest.mark.sqlite_only
def test_cli_fill_prices_says_what_it_filled_and_why_the_rest_waits(server: LoopbackServer, tmp_path: Path) -> None:
    database = tmp_path / "cli.sqlite"
    day = rfc3339(day_start(10) * 1000)[:10]
    old = rfc3339(day_start(500) * 1000)[:10]
    assert run_cli(server, database, "buy", "ethereum", "1", "--at", day + "T12:30:00Z").returncode == 0
    assert run_cli(server, database, "buy", "tether", "5", "--at", old).returncode == 0
    result = run_cli(server, database, "fill-prices")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "filled 1 price with 1 request\n1 still pending:\n"
        f"  transaction 2 tether {old}T00:00:00Z: older than the plan's 365 days (a pro key reaches further)\n")
    answer = json.loads(run_cli(server, database, "fill-prices", "--json").stdout)
    assert answer == {"filled": 0, "requests": 0, "missing": [
        {"transaction_id": "2", "coin_id": "tether", "timestamp": f"{old}T00:00:00Z", "reason": "history_limit"}]}
    bad = run_cli(server, database, "fill-prices", "--max-requests", "1001")
    assert bad.returncode == 2 and "--max-requests needs a whole number from 0 to 1000" in bad.stderr


# --- performance over the stored points (SPEC §19) ------------------------------------------------


def test_performance_reads_the_points_fill_prices_and_set_price_store(
    engine: coinfolio.Engine, server: LoopbackServer
) -> None:
    """As the Swift suite's PerformancePriceEngineTests, worked by hand: F is 00:00 UTC 300 days
    ago; two pending buys of 1 bitcoin (F and F+150, 12:30) filled from one daily range at 40,000;
    a manual 50,000 on F+100 (06:00) beats CoinGecko's 00:00 point; a manual 48,400 at F+151 00:00
    ends the range. Net flows 80,000, gain 16,800, roi and twr 21 %, mwr 132.49 % (40,000
    (1+r)^(151/365) + 40,000 (1+r)^(1/365) = 96,800), benchmark 48,400 ÷ 40,000 − 1."""
    first = day_start(300) * 1000
    day = 86_400_000
    for offset in (0, 150):
        engine.add_transaction("bitcoin", "buy", "1", timestamp=rfc3339(first + offset * day + 12 * HOUR_MS + 30 * MINUTE_MS))
    fill = engine.fill_prices()
    assert (fill["filled"], fill["requests"]) == (2, 1)
    engine.set_price("bitcoin", "50000", timestamp=rfc3339(first + 100 * day + 6 * HOUR_MS))
    engine.set_price("bitcoin", decimal.Decimal("48400"), timestamp=rfc3339(first + 151 * day))
    server.reset()
    answer = engine.performance(range=(rfc3339(first), rfc3339(first + 151 * day)), benchmark="bitcoin")
    assert server.counts() == {}, "performance never sends a request"
    values = [point[1] for point in answer["points"]]
    assert len(values) == 152
    assert (values[0], values[1], values[100], values[150], values[151]) == (0, 40000, 50000, 40000, 96800)
    assert (answer["coverage"], answer["missing"]) == (1, [])
    assert (answer["start_value"], answer["end_value"], answer["net_flows"], answer["gain"]) == (0, 96800, 80000, 16800)
    assert answer["roi"] == pytest.approx(21, abs=1e-9)
    assert answer["twr"] == pytest.approx(21, abs=1e-9)
    assert answer["mwr"] == pytest.approx(132.49, abs=0.005)
    assert answer["benchmark"] is not None and answer["benchmark"]["change"] == pytest.approx(21, abs=1e-9)
    # Without the manual point of F+100 that day takes CoinGecko's 40,000 again.
    engine.set_price("bitcoin", None, timestamp=rfc3339(first + 100 * day + 6 * HOUR_MS))
    assert engine.performance(range=(rfc3339(first), rfc3339(first + 151 * day)))["points"][100][1] == 40000


def test_a_range_ending_now_ends_at_the_manual_current_price_of_a_coin_the_snapshot_lacks(
    engine: coinfolio.Engine,
) -> None:
    """A token CoinGecko does not list: bought 3 days ago at 0.25, its current price set by hand
    at 0.5. The last value of a range ending now is 100 × 0.5 = 50 (as pnl values it); the days
    before have no point, listed as missing."""
    now = int(time.time() * 1000)
    engine.add_transaction("my-token", "buy", 100, price="0.25", timestamp=rfc3339(now - 3 * 86_400_000))
    engine.set_price("my-token", "0.5")
    answer = engine.performance(range="7d")
    assert answer["end_value"] == 50
    assert answer["points"][-1][1] == 50
    assert answer["coverage"] < 1
    assert all(entry["coin_ids"] == ["my-token"] for entry in answer["missing"])
    assert engine.pnl()["coins"][0]["current_value"] == 50
    engine.set_price("my-token", None)
    assert engine.performance(range="7d")["end_value"] is None
