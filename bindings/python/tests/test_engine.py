"""SPEC §6: the engine (refresh, load, coins, portfolio, statistics, lazy coin detail)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import coinfolio
from coinfolio import DecodeError, HTTPError, InvalidArgument, NoData

STATISTIC_TITLES = [
    "Market Cap", "24h Volume", "BTC Dominance", "Portfolio Value", "Unrealized P&L", "Realized P&L"
]
OVERVIEW_TITLES = ["Current Price", "Market Capitalization", "Rank", "Volume"]
ADDITIONAL_TITLES = [
    "24h High",
    "24h Low",
    "24h Price Change",
    "24h Market Cap Change",
    "Block Time",
    "Hashing Algorithm",
]


def coin(coin_id: str, price: Optional[float], change: Optional[float], rank: Optional[int] = None,
         **extra: Any) -> Dict[str, Any]:
    return dict(
        id=coin_id,
        symbol=coin_id[:4],
        name=coin_id.title(),
        current_price=price,
        price_change_percentage_24h=change,
        market_cap_rank=rank,
        **extra,
    )


def markets_body(*coins: Dict[str, Any]) -> str:
    return json.dumps(list(coins))


def online_engine(server: Any, **options: Any) -> coinfolio.Engine:
    api = {"base_url": server.base_url, "max_retries": 0}
    api.update(options.pop("api", {}))
    options.setdefault("database", ":memory:")
    return coinfolio.Engine(api=api, **options)


def statistic(stats: List[Dict[str, Any]], title: str) -> Dict[str, Any]:
    [found] = [s for s in stats if s["title"] == title]
    return found


def detail_requests(server: Any) -> List[Dict[str, Any]]:
    return [
        r for r in server.log()
        if r["path"].startswith("/api/v3/coins/") and r["path"] != "/api/v3/coins/markets"
    ]


@pytest.fixture
def loaded(fixture_text) -> Any:
    """An offline engine loaded with the committed markets.json and global.json."""
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"), fixture_text("global.json"))
        yield engine


# --- refresh -------------------------------------------------------------------------------------


def test_refresh_makes_one_markets_and_one_global_request_and_no_detail(server) -> None:
    server.live()
    with online_engine(server, coin_limit=3) as engine:
        engine.set_holding("bitcoin", 1)  # inside the first page: no top-up
        result = engine.refresh()
        metrics = engine.metrics()
    assert result["coins"] == 3
    assert result["stale"] is False
    assert isinstance(result["as_of"], str) and result["as_of"]
    markets = server.requests_to("/coins/markets")
    assert len(markets) == 1
    assert markets[0]["query"]["per_page"] == "3"
    assert "ids" not in markets[0]["query"]
    assert len(server.requests_to("/global")) == 1
    assert detail_requests(server) == []
    assert metrics["http_requests"] == {"markets": 1, "global": 1, "detail": 0, "market_chart": 0, "market_chart_range": 0,
                                        "simple_price": 0}
    assert metrics["detail_cache_hits"] == 0


def test_refresh_tops_up_held_coins_missing_from_the_page(server) -> None:
    with online_engine(server, coin_limit=3) as engine:
        engine.set_holding("hive_dollar", 10)
        engine.set_holding("bitcoin", 0.5)
        engine.refresh()
        metrics = engine.metrics()
        portfolio = engine.portfolio()
    markets = server.requests_to("/coins/markets")
    assert len(markets) == 2
    top_up = [r for r in markets if "ids" in r["query"]]
    assert len(top_up) == 1
    assert [i.strip() for i in top_up[0]["query"]["ids"].split(",")] == ["hive_dollar"]
    assert len(server.requests_to("/global")) == 1
    assert detail_requests(server) == []
    assert metrics["http_requests"] == {"markets": 2, "global": 1, "detail": 0, "market_chart": 0, "market_chart_range": 0,
                                        "simple_price": 0}
    rows = {row["id"]: row for row in portfolio["coins"]}
    assert rows["hive_dollar"]["price_available"] is True
    assert rows["hive_dollar"]["current_holdings_value"] == pytest.approx(10 * 0.9871)
    assert portfolio["total_value"] == pytest.approx(10 * 0.9871 + 0.5 * 57000.123)


def test_refresh_uses_the_configured_vs_currency(server) -> None:
    with online_engine(server, vs_currency="eur") as engine:
        engine.refresh()
        stats = engine.statistics()
    assert server.requests_to("/coins/markets")[0]["query"]["vs_currency"] == "eur"
    assert statistic(stats, "Market Cap")["value"] == "€2.46Tr"


def test_failed_refresh_keeps_the_snapshot_and_marks_it_stale(server) -> None:
    server.live()
    with online_engine(server) as engine:
        engine.refresh()
        before = engine.coins()
        assert before["stale"] is False
        server.fault(path="/api/v3/coins/markets", times=-1, status=500, body="oops")
        with pytest.raises(HTTPError):
            engine.refresh()
        after = engine.coins()
        assert after["stale"] is True
        assert after["coins"] == before["coins"]
        assert after["as_of"] == before["as_of"]
        server.reset()
        server.live()
        assert engine.refresh()["stale"] is False
        assert engine.coins()["stale"] is False


def test_snapshot_survives_reopening_a_file_database(db_path: Path, fixture_text) -> None:
    with coinfolio.Engine(database=db_path) as engine:
        engine.load(fixture_text("markets.json"), fixture_text("global.json"))
        engine.set_holding("bitcoin", 2)
        first = engine.coins()
        stats = engine.statistics()
    with coinfolio.Engine(database=db_path) as engine:
        again = engine.coins()
        assert again["total"] == first["total"] == 12
        assert again["as_of"] == first["as_of"]
        assert [c["id"] for c in again["coins"]] == [c["id"] for c in first["coins"]]
        assert engine.statistics() == stats
        assert engine.portfolio()["total_value"] == pytest.approx(2 * 57000.123)


def test_engine_and_store_share_the_holdings_file(db_path: Path) -> None:
    with coinfolio.Engine(database=db_path) as engine:
        engine.set_holding("bitcoin", 0.25)
    with coinfolio.Store(db_path) as store:
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 0.25}]


# --- coin detail ---------------------------------------------------------------------------------


def test_coin_detail_is_fetched_on_demand_and_cached(server) -> None:
    with online_engine(server) as engine:
        engine.refresh()
        assert engine.metrics()["http_requests"]["detail"] == 0
        first = engine.coin_detail("bitcoin")
        second = engine.coin_detail("bitcoin")
        metrics = engine.metrics()
    assert first == second
    assert metrics["http_requests"]["detail"] == 1
    assert metrics["detail_cache_hits"] == 1
    assert len(detail_requests(server)) == 1


def test_coin_detail_screen_shape_and_values(server) -> None:
    with online_engine(server) as engine:
        engine.refresh()
        screen = engine.coin_detail("bitcoin")
    assert screen["coin"]["id"] == "bitcoin"
    assert screen["detail"]["id"] == "bitcoin"
    assert [s["title"] for s in screen["overview"]] == OVERVIEW_TITLES
    assert [s["title"] for s in screen["additional"]] == ADDITIONAL_TITLES
    price = statistic(screen["overview"], "Current Price")
    assert price["value"] == coinfolio.format_price(57000.123) == "$57,000.123"
    assert price["percentage_change"] == pytest.approx(2.15)
    assert statistic(screen["overview"], "Rank")["value"] == "1"
    assert statistic(screen["overview"], "Rank")["percentage_change"] is None
    assert statistic(screen["additional"], "Hashing Algorithm")["value"] == "SHA-256"
    assert statistic(screen["additional"], "Block Time")["value"] == "10"
    for stat in screen["overview"] + screen["additional"]:
        assert stat["value"] != "$" and not stat["value"].endswith("$")


def test_missing_detail_values_print_n_a(server) -> None:
    with online_engine(server) as engine:
        engine.refresh()
        sparse = engine.coin_detail("1move token")
        zero_block = engine.coin_detail("boringdao-[old]")
    assert statistic(sparse["additional"], "Block Time")["value"] == "n/a"
    assert statistic(sparse["additional"], "Hashing Algorithm")["value"] == "n/a"
    assert statistic(zero_block["additional"], "Block Time")["value"] == "n/a"


def test_coin_detail_without_a_market_row_prints_n_a(server) -> None:
    with online_engine(server) as engine:  # no refresh: no snapshot
        screen = engine.coin_detail("bitcoin")
    assert screen["coin"] is None
    assert screen["detail"]["id"] == "bitcoin"
    assert statistic(screen["overview"], "Current Price")["value"] == "n/a"
    assert statistic(screen["overview"], "Market Capitalization")["value"] == "n/a"
    for stat in screen["overview"] + screen["additional"]:
        assert stat["value"] not in ("", "$")


def test_threads_asking_for_one_detail_share_one_request(server) -> None:
    server.fault(path="/api/v3/coins/boringdao-[old]", delay_ms=500)
    results: List[Any] = []
    errors: List[BaseException] = []
    with online_engine(server) as engine:
        barrier = threading.Barrier(8)

        def ask() -> None:
            barrier.wait()
            try:
                results.append(engine.coin_detail("boringdao-[old]"))
            except BaseException as exc:  # pragma: no cover
                errors.append(exc)

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        metrics = engine.metrics()
    assert errors == []
    assert len(results) == 8
    assert all(r["detail"]["id"] == "boringdao-[old]" for r in results)
    assert len(detail_requests(server)) == 1
    assert metrics["http_requests"]["detail"] == 1


@pytest.mark.parametrize("coin_id", ["", "..", "a/b", "\x01"])
def test_bad_detail_id_is_invalid_without_a_request(server, coin_id: str) -> None:
    with online_engine(server) as engine:
        with pytest.raises(InvalidArgument):
            engine.coin_detail(coin_id)
    assert server.log() == []


# --- coins: search, sort, paging -----------------------------------------------------------------


def test_coins_default_is_rank_ascending_with_unranked_last(loaded, fixture_text) -> None:
    raw = json.loads(fixture_text("markets.json"))
    result = loaded.coins()
    expected = sorted(raw, key=lambda c: (c["market_cap_rank"] is None, c["market_cap_rank"] or 0, c["id"]))
    assert [c["id"] for c in result["coins"]] == [c["id"] for c in expected]
    assert result["coins"][-1]["id"] == "hive_dollar"
    assert result["total"] == len(raw)
    assert result["stale"] in (True, False)
    assert isinstance(result["as_of"], str)


def test_rank_reversed_puts_highest_rank_number_first(loaded) -> None:
    ranks = [c["market_cap_rank"] for c in loaded.coins(sort="rank_reversed")["coins"]]
    ranked = [r for r in ranks if r is not None]
    assert ranked == sorted(ranked, reverse=True)


def test_price_sort_is_highest_first(loaded) -> None:
    prices = [c["current_price"] for c in loaded.coins(sort="price")["coins"]]
    known = [p for p in prices if p is not None]
    assert known == sorted(known, reverse=True)
    reversed_prices = [c["current_price"] for c in loaded.coins(sort="price_reversed")["coins"]]
    known_reversed = [p for p in reversed_prices if p is not None]
    assert known_reversed == sorted(known_reversed)


def test_holdings_sort_of_the_list_is_by_rank(loaded) -> None:
    assert [c["id"] for c in loaded.coins(sort="holdings")["coins"]] == [
        c["id"] for c in loaded.coins(sort="rank")["coins"]
    ]
    ranks = [c["market_cap_rank"] for c in loaded.coins(sort="holdings_reversed")["coins"]]
    ranked = [r for r in ranks if r is not None]
    assert ranked == sorted(ranked, reverse=True)


@pytest.mark.parametrize("sort", ["rank", "rank_reversed", "price", "price_reversed"])
def test_ties_break_on_id(sort: str) -> None:
    body = markets_body(
        coin("cherry", 5, 0, 3), coin("apple", 5, 0, 3), coin("banana", 5, 0, 3)
    )
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(body)
        ids = [c["id"] for c in engine.coins(sort=sort)["coins"]]
    assert ids == ["apple", "banana", "cherry"]


def test_search_matches_name_symbol_or_id_case_insensitively(loaded) -> None:
    assert sorted(c["id"] for c in loaded.coins(search="WETH")["coins"]) == [
        "binance-peg-weth",
        "weth",
    ]
    assert [c["id"] for c in loaded.coins(search="1MOVE")["coins"]] == ["1move token"]
    assert [c["id"] for c in loaded.coins(search="[old]")["coins"]] == ["boringdao-[old]"]
    assert [c["id"] for c in loaded.coins(search="hive_")["coins"]] == ["hive_dollar"]
    nothing = loaded.coins(search="zzzz-nothing")
    assert nothing["coins"] == [] and nothing["total"] == 0


def test_limit_and_offset_page_the_list(loaded) -> None:
    everything = [c["id"] for c in loaded.coins()["coins"]]
    page = loaded.coins(limit=2, offset=1)
    assert [c["id"] for c in page["coins"]] == everything[1:3]
    assert page["total"] == len(everything)
    assert loaded.coins(offset=100)["coins"] == []


def test_none_options_mean_the_documented_defaults(loaded) -> None:
    """None leaves an option to the library: its documented default (for sparkline, True; the
    binding's own default is False, so large answers carry sparklines only when asked)."""
    nones = loaded.coins(search=None, sort=None, limit=None, offset=None, sparkline=None)
    assert nones == loaded.coins(sparkline=True) == loaded.coins(search="", sort="rank", offset=0, sparkline=True)
    assert loaded.coins() == loaded.coins(sparkline=False)
    assert nones["coins"][-1]["id"] == "hive_dollar"  # rank order, unranked last
    loaded.set_holding("bitcoin", 1)
    loaded.set_holding("weth", 2)
    assert loaded.portfolio(sort=None, sparkline=None) == loaded.portfolio(sort="holdings", sparkline=True)


def test_coins_without_sparkline(loaded) -> None:
    for c in loaded.coins(sparkline=False)["coins"]:
        assert c.get("sparkline_in_7d") is None
    assert len(loaded.coins(sparkline=True)["coins"][0]["sparkline_in_7d"]["price"]) == 170


def test_coins_carry_price_available(loaded) -> None:
    rows = {c["id"]: c for c in loaded.coins()["coins"]}
    assert rows["bitcoin"]["price_available"] is True
    assert rows["compound-usdt"]["price_available"] is False


@pytest.mark.parametrize(
    "query",
    [{"sort": "name"}, {"limit": -1}, {"offset": -1}, {"search": "\udc80"}],
)
def test_bad_coins_query_is_invalid(loaded, query: Dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        loaded.coins(**query)


def test_coins_before_any_data_is_no_data() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        with pytest.raises(NoData):
            engine.coins()


# --- portfolio and statistics --------------------------------------------------------------------


def test_search_never_changes_the_portfolio_value(loaded) -> None:
    loaded.set_holding("bitcoin", 0.5)
    loaded.set_holding("ethereum", 2)
    before = loaded.portfolio()
    stats_before = loaded.statistics()
    loaded.coins(search="doge")
    loaded.coins(search="zzzz")
    after = loaded.portfolio()
    assert after["total_value"] == before["total_value"] == pytest.approx(
        0.5 * 57000.123 + 2 * 3928.55
    )
    assert loaded.statistics() == stats_before


def test_portfolio_value_and_change_use_the_previous_value() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(markets_body(coin("a", 50, -50, 1), coin("b", 110, 10, 2)))
        engine.set_holding("a", 1)
        engine.set_holding("b", 1)
        stats = engine.statistics()
        portfolio = engine.portfolio()
    assert [s["title"] for s in stats] == STATISTIC_TITLES
    value = statistic(stats, "Portfolio Value")
    assert value["value"] == "$160.00"
    assert value["percentage_change"] == pytest.approx(-20.0)
    assert portfolio["total_value"] == pytest.approx(160.0)


def test_statistics_with_global_data(loaded) -> None:
    stats = loaded.statistics()
    assert [s["title"] for s in stats] == STATISTIC_TITLES
    assert stats[0] == {"title": "Market Cap", "value": "$2.58Tr", "percentage_change": 1.2}
    assert stats[1] == {"title": "24h Volume", "value": "$342.00Bn", "percentage_change": None}
    assert stats[2] == {"title": "BTC Dominance", "value": "42.50%", "percentage_change": None}


def test_statistics_without_global_data_print_n_a() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(markets_body(coin("a", 50, -50, 1)))
        stats = engine.statistics()
    assert [s["title"] for s in stats] == STATISTIC_TITLES
    assert [s["value"] for s in stats[:3]] == ["n/a", "n/a", "n/a"]


def test_load_without_global_keeps_previous_market_data(fixture_text) -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"), fixture_text("global.json"))
        engine.load(markets_body(coin("a", 50, -50, 1)))
        assert engine.statistics()[0]["value"] == "$2.58Tr"
        assert [c["id"] for c in engine.coins()["coins"]] == ["a"]


def test_empty_portfolio_is_zero_with_no_change(loaded) -> None:
    value = statistic(loaded.statistics(), "Portfolio Value")
    assert value == {"title": "Portfolio Value", "value": "$0.00", "percentage_change": None, "coverage": 0}
    portfolio = loaded.portfolio()
    assert portfolio["coins"] == []
    assert portfolio["total_value"] == 0


def test_coin_at_minus_100_percent_gives_no_change() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(markets_body(coin("a", 50, -50, 1), coin("dead", 3, -100, 2)))
        engine.set_holding("a", 1)
        engine.set_holding("dead", 1)
        value = statistic(engine.statistics(), "Portfolio Value")
    # "dead" at -100 % without price_change_24h has an unknown previous value: left out of
    # both sums (SPEC §10), so the change is a's alone.
    assert value["value"] == "$53.00"
    assert value["percentage_change"] == pytest.approx(-50.0)
    assert value["coverage"] == pytest.approx(50 / 53)


def test_null_change_is_left_out_not_counted_as_zero() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(markets_body(coin("a", 50, -50, 1), coin("b", 100, None, 2)))
        engine.set_holding("a", 1)
        engine.set_holding("b", 1)
        value = statistic(engine.statistics(), "Portfolio Value")
    # SPEC §10: b's change is unknown, so only a counts: now 50, before 100.
    assert value["value"] == "$150.00"
    assert value["percentage_change"] == pytest.approx(-50.0)
    assert value["coverage"] == pytest.approx(50 / 150)


def test_held_coin_missing_from_the_snapshot_is_listed_without_price() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(markets_body(coin("a", 50, -50, 1)))
        engine.set_holding("a", 2)
        engine.set_holding("ghost", 5)
        portfolio = engine.portfolio()
        value = statistic(engine.statistics(), "Portfolio Value")
    rows = {row["id"]: row for row in portfolio["coins"]}
    assert set(rows) == {"a", "ghost"}
    assert rows["ghost"]["price_available"] is False
    assert rows["ghost"]["current_holdings"] == 5
    assert rows["ghost"]["current_holdings_value"] is None
    assert rows["a"]["price_available"] is True
    assert rows["a"]["current_holdings"] == 2
    assert rows["a"]["current_holdings_value"] == 100
    assert portfolio["total_value"] == 100
    assert value["value"] == "$100.00"


def test_held_coin_with_null_price_is_excluded_from_value(loaded) -> None:
    loaded.set_holding("compound-usdt", 100)
    loaded.set_holding("bitcoin", 1)
    portfolio = loaded.portfolio()
    rows = {row["id"]: row for row in portfolio["coins"]}
    assert rows["compound-usdt"]["price_available"] is False
    assert rows["compound-usdt"]["current_holdings_value"] is None
    assert portfolio["total_value"] == pytest.approx(57000.123)


def test_portfolio_sorts_by_value(loaded) -> None:
    loaded.set_holding("bitcoin", 0.001)  # 57.00
    loaded.set_holding("ethereum", 1)  # 3928.55
    loaded.set_holding("dogecoin", 100)  # 16.23
    assert [c["id"] for c in loaded.portfolio()["coins"]] == ["ethereum", "bitcoin", "dogecoin"]
    assert [c["id"] for c in loaded.portfolio(sort="holdings_reversed")["coins"]] == [
        "dogecoin",
        "bitcoin",
        "ethereum",
    ]
    assert [c["id"] for c in loaded.portfolio(sort="rank")["coins"]] == [
        "bitcoin",
        "ethereum",
        "dogecoin",
    ]


def test_portfolio_without_a_snapshot_lists_holdings_without_prices() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.set_holding("bitcoin", 1)
        portfolio = engine.portfolio()
    assert portfolio["as_of"] is None
    assert [c["id"] for c in portfolio["coins"]] == ["bitcoin"]
    assert portfolio["coins"][0]["price_available"] is False
    assert portfolio["total_value"] is None, "unknown, never 0"
    assert portfolio["unpriced_holdings"] == 1


def test_statistics_before_any_data_is_no_data() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        with pytest.raises(NoData):
            engine.statistics()


# --- load errors and config ----------------------------------------------------------------------


def test_bad_load_raises_and_keeps_the_snapshot(loaded) -> None:
    before = loaded.coins()
    with pytest.raises(InvalidArgument):
        loaded.load("[{")
    with pytest.raises(InvalidArgument):
        loaded.load(b"\xff\xfe")
    with pytest.raises(DecodeError):
        loaded.load('{"status":{"error_code":429}}')
    with pytest.raises((InvalidArgument, DecodeError)):
        loaded.load("[]", "[1,2]")
    assert loaded.coins()["coins"] == before["coins"]


def test_load_accepts_bytes(fixture_text) -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json").encode(), fixture_text("global.json").encode())
        assert engine.coins()["total"] == 12


@pytest.mark.parametrize(
    "options",
    [
        {"coin_limit": 0},
        {"coin_limit": 5001},
        {"vs_currency": "us$"},
        {"api": {"plan": "gold"}},
        {"detail_ttl_s": float("nan")},
    ],
)
def test_bad_engine_config_is_invalid(options: Dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Engine(database=":memory:", **options)


def test_engine_set_holding_follows_store_rules() -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        with pytest.raises(InvalidArgument):
            engine.set_holding("a/b", 1)
        with pytest.raises(InvalidArgument):
            engine.set_holding("bitcoin", float("inf"))
        engine.set_holding("bitcoin", 0)
        assert engine.portfolio()["coins"] == []


def test_answers_are_parsed_with_orjson_when_installed() -> None:
    import importlib.util

    expected = "orjson" if importlib.util.find_spec("orjson") else "json"
    assert coinfolio.JSON_PARSER == expected


def test_large_answers_carry_sparklines_only_when_asked(loaded) -> None:
    assert all(c["sparkline_in_7d"] is None for c in loaded.coins()["coins"])
    with_prices = loaded.coins(search="bitcoin", sparkline=True)["coins"]
    assert any(c["sparkline_in_7d"] and len(c["sparkline_in_7d"]["price"]) == 170 for c in with_prices)
    loaded.set_holding("bitcoin", 1.0)
    assert loaded.portfolio()["coins"][0]["sparkline_in_7d"] is None
    assert len(loaded.portfolio(sparkline=True)["coins"][0]["sparkline_in_7d"]["price"]) == 170


def _answers_without_fetch_time(engine: coinfolio.Engine) -> List[Any]:
    """Every answer of a loaded engine (coins with and without sparklines, the portfolio with
    sparklines, statistics, portfolio history), each without ``fetched_at`` (the load time)."""
    answers: List[Any] = []
    for answer in (engine.coins(sparkline=True), engine.coins(sparkline=False), engine.portfolio(sparkline=True)):
        answers.append({key: value for key, value in answer.items() if key != "fetched_at"})
    answers += [engine.statistics(), engine.portfolio_history()]
    return answers


def test_a_memory_engine_answers_as_a_database_engine_and_its_reopening(db_path: Path, fixture_text) -> None:
    """Issue 11: an engine on ":memory:" holds its snapshot once (nothing is saved where nothing
    could read it back); its answers, every sparkline point included, are those of an engine on a
    database and of that database reopened offline."""
    markets, global_body = fixture_text("markets.json"), fixture_text("global.json")
    # The owner keeps ":memory:" in memory in the PostgreSQL pass too.
    with coinfolio.Engine(database=":memory:", owner="default") as memory, coinfolio.Engine(database=db_path) as database:
        for engine in (memory, database):
            engine.load(markets, global_body)
            engine.set_holding("bitcoin", 0.5)
        expected = _answers_without_fetch_time(memory)
        assert len(expected[0]["coins"][0]["sparkline_in_7d"]["price"]) == 170
        assert expected[2]["total_value"] == 0.5 * 57000.123
        assert _answers_without_fetch_time(database) == expected
    with coinfolio.Engine(database=db_path) as reopened:
        assert _answers_without_fetch_time(reopened) == expected
