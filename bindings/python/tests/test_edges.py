"""SPEC §10 "Right at every edge" through the binding and the CLI: money in every currency,
the 24 h change with unknown changes, numbers as strings, rows with only an id, empty answers,
HTML to text, Unicode search and holding ids. Expected values are written out literally."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict

import pytest

import coinfolio
from coinfolio import DecodeError, InvalidArgument
from conftest import REPO, cli_binary



def statistic(engine: coinfolio.Engine, title: str) -> Dict[str, Any]:
    return next(s for s in engine.statistics() if s["title"] == title)


def offline_engine(vs_currency: str = "usd") -> coinfolio.Engine:
    return coinfolio.Engine(database=":memory:", vs_currency=vs_currency)


# ---------------------------------------------------------------- money in every currency


@pytest.mark.parametrize(
    "value, vs_currency, expected",
    [
        (123400, "jpy", "¥123,400"),
        (148064.07, "jpy", "¥148,064"),
        (1234567.89, "krw", "KRW 1,234,568"),
        (12345, "sats", "SATS 12,345"),
        (1.2346, "kwd", "KWD 1.235"),
        (1.5, "bhd", "BHD 1.500"),
        (1234.5, "usd", "$1,234.50"),
        (1.5, "bits", "BITS 1.50"),
        (2.5e-05, "btc", "₿0.000025"),
        (0.5, "btc", "₿0.50"),
        (1.23456789, "btc", "₿1.23456789"),
        (3.3e-10, "btc", "₿0.00000000033"),
        (2.5e-05, "xau", "XAU 0.000025"),
        (float("nan"), "jpy", "n/a"),
    ],
)
def test_format_value(value: float, vs_currency: str, expected: str) -> None:
    assert coinfolio.format_value(value, vs_currency) == expected


@pytest.mark.parametrize(
    "value, vs_currency, expected",
    [
        (32.034, "jpy", "¥32.03"),
        (14800000, "jpy", "¥14,800,000"),
        (12345, "sats", "SATS 12,345"),
        (2.5e-05, "btc", "₿0.000025"),
        (3.3e-10, "btc", "₿0.00000000033"),
        (57000.123, "usd", "$57,000.123"),
        (0.000123456, "usd", "$0.0001235"),
    ],
)
def test_format_price_per_currency(value: float, vs_currency: str, expected: str) -> None:
    assert coinfolio.format_price(value, vs_currency) == expected


def test_format_value_defaults_and_errors() -> None:
    assert coinfolio.format_value(1234.5) == "$1,234.50"
    assert coinfolio.format_value(1234.5, None) == "$1,234.50"
    assert coinfolio.format_currency(1234.56, 2, 2, "jpy") == "¥1,234.56"  # digits as given
    with pytest.raises(InvalidArgument):
        coinfolio.format_value(1, "not a code")


def test_yen_portfolio_value_has_no_minor_unit() -> None:
    with offline_engine("jpy") as engine:
        engine.load(json.dumps([{"id": "coin-a", "symbol": "a", "name": "A", "current_price": 148064.07}]))
        engine.set_holding("coin-a", 1)
        assert statistic(engine, "Portfolio Value")["value"] == "¥148,064"


def test_bitcoin_quoted_portfolio_never_prints_zero() -> None:
    with offline_engine("btc") as engine:
        engine.load(json.dumps([{"id": "tiny", "symbol": "t", "name": "Tiny", "current_price": 2.5e-08}]))
        engine.set_holding("tiny", 1000)
        assert engine.portfolio()["total_value"] == pytest.approx(2.5e-05, abs=1e-18)
        assert statistic(engine, "Portfolio Value")["value"] == "₿0.000025"


# ---------------------------------------------------------------- 24 h change


def test_unknown_change_is_left_out_with_coverage() -> None:
    with offline_engine() as engine:
        engine.load(
            json.dumps(
                [
                    {"id": "coin-a", "symbol": "a", "name": "A", "current_price": 1, "price_change_percentage_24h": None},
                    {"id": "coin-b", "symbol": "b", "name": "B", "current_price": 1, "price_change_percentage_24h": -50},
                ]
            )
        )
        engine.set_holding("coin-a", 1)
        engine.set_holding("coin-b", 1)
        assert statistic(engine, "Portfolio Value") == {
            "title": "Portfolio Value",
            "value": "$2.00",
            "percentage_change": -50,
            "coverage": 0.5,
        }
        assert "coverage" not in statistic(engine, "Market Cap")


def test_coin_at_zero_after_minus_100_percent_uses_price_change() -> None:
    with offline_engine() as engine:
        engine.load(
            json.dumps(
                [
                    {
                        "id": "gone",
                        "symbol": "g",
                        "name": "Gone",
                        "current_price": 0,
                        "price_change_24h": -2,
                        "price_change_percentage_24h": -100,
                    }
                ]
            )
        )
        engine.set_holding("gone", 1)
        value = statistic(engine, "Portfolio Value")
        assert value["percentage_change"] == -100
        assert value["coverage"] == 1


# ---------------------------------------------------------------- decoding


@pytest.mark.parametrize("text, number", [("0.0421", 0.0421), ("-1.5", -1.5), ("4.2e17", 4.2e17)])
def test_number_sent_as_string_is_read(text: str, number: float) -> None:
    decoded = coinfolio.decode_markets(json.dumps([{"id": "coin-a", "symbol": "a", "name": "A", "current_price": text}]))
    assert decoded["coins"][0]["current_price"] == number
    assert decoded["skipped"] == []
    assert decoded["warnings"] == []


@pytest.mark.parametrize("text", ["12abc", "", " 1", "NaN", "Infinity", "0x10"])
def test_other_strings_are_null_and_reported(text: str) -> None:
    decoded = coinfolio.decode_markets(json.dumps([{"id": "coin-a", "symbol": "a", "name": "A", "current_price": text}]))
    assert decoded["coins"][0]["current_price"] is None
    assert decoded["skipped"] == []
    assert decoded["warnings"] == [{"index": 0, "id": "coin-a", "field": "current_price", "reason": "not a number"}]


def test_price_sent_as_string_is_counted_in_the_portfolio() -> None:
    with offline_engine() as engine:
        engine.load('[{"id":"coin-a","symbol":"a","name":"A","current_price":"0.0421"}]')
        engine.set_holding("coin-a", 100)
        portfolio = engine.portfolio()
        assert portfolio["coins"][0]["price_available"] is True
        assert portfolio["total_value"] == pytest.approx(4.21)


def test_client_markets_read_number_strings_and_report_warnings(server) -> None:
    body = json.dumps(
        [
            {"id": "coin-a", "symbol": "a", "name": "A", "current_price": "0.0421"},
            {"id": "coin-b", "symbol": "b", "name": "B", "current_price": "12abc"},
        ]
    )
    server.route(path="/api/v3/coins/markets", body=body)
    with coinfolio.Client(base_url=server.base_url, max_retries=0) as client:
        for answer in (client.markets(), client.markets(ids=["coin-a", "coin-b"])):
            assert [c["current_price"] for c in answer["coins"]] == [0.0421, None]
            assert answer["warnings"] == [{"index": 1, "id": "coin-b", "field": "current_price", "reason": "not a number"}]


def test_global_and_detail_warnings() -> None:
    data = coinfolio.decode_global('{"data":{"total_market_cap":{"usd":"2.5e12","eur":"x"},"markets":"900"}}')
    assert data["market_data"]["total_market_cap"] == {"usd": 2.5e12}
    assert data["market_data"]["markets"] == 900
    assert data["warnings"] == [{"index": None, "id": None, "field": "total_market_cap.eur", "reason": "not a number"}]
    detail = coinfolio.decode_coin_detail('{"id":"a","symbol":"a","name":"A","block_time_in_minutes":"ten"}')
    assert detail["detail"]["block_time_in_minutes"] is None
    assert detail["warnings"] == [{"index": None, "id": "a", "field": "block_time_in_minutes", "reason": "not a number"}]


def test_row_needs_only_its_id() -> None:
    decoded = coinfolio.decode_markets('[{"id":"coin-a","current_price":50}]')
    assert [(c["id"], c["symbol"], c["name"], c["current_price"]) for c in decoded["coins"]] == [("coin-a", "", "", 50)]
    assert decoded["skipped"] == []
    assert decoded["warnings"] == [
        {"index": 0, "id": "coin-a", "field": "symbol", "reason": "missing"},
        {"index": 0, "id": "coin-a", "field": "name", "reason": "missing"},
    ]


def test_html_description_keeps_bare_brackets() -> None:
    body = json.dumps(
        {
            "id": "a",
            "symbol": "a",
            "name": "A",
            "description": {"en": 'Fees are < 0.1% and > 0 for <a href="https://example.org">holders</a>.'},
        }
    )
    assert coinfolio.decode_coin_detail(body)["detail"]["description"] == "Fees are < 0.1% and > 0 for holders."
    body = json.dumps({"id": "a", "symbol": "a", "name": "A", "description": {"en": "&lt;b&gt;"}})
    assert coinfolio.decode_coin_detail(body)["detail"]["description"] == "<b>"


# ---------------------------------------------------------------- empty answers


@pytest.mark.parametrize("body", ["[]", "[null,null]", '[{"id":1}]'])
def test_load_of_no_coin_replaces_nothing(body: str) -> None:
    with offline_engine() as engine:
        engine.load('[{"id":"coin-a","symbol":"a","name":"A","current_price":1}]')
        with pytest.raises(InvalidArgument) as raised:
            engine.load(body)
        assert raised.value.details["reason"] == "no_coins"
        assert [c["id"] for c in engine.coins()["coins"]] == ["coin-a"]


@pytest.mark.parametrize("body", ["[]", "[null,null]", '[{"id":1}]'])
def test_refresh_with_empty_first_page_keeps_snapshot(server, tmp_path: Path, body: str) -> None:
    api = {"base_url": server.base_url, "max_retries": 0, "timeout_ms": 5000}
    server.live()  # answers stamped now: the good snapshot is not stale
    with coinfolio.Engine(database=str(tmp_path / "e.sqlite"), api=api) as engine:
        first = engine.refresh()
        server.fault(path="/api/v3/coins/markets", body=body)
        with pytest.raises(DecodeError) as raised:
            engine.refresh()
        assert raised.value.message == "CoinGecko returned no coins"
        assert raised.value.details["reason"] == "no_coins"
        listing = engine.coins()
        assert listing["total"] == first["coins"]
        assert listing["stale"] is False
        assert listing["as_of"] == first["as_of"]


# ---------------------------------------------------------------- search


@pytest.mark.parametrize("query", ["pokemon", "POKÉMON", "poke\u0301mon", "Pok\u00e9mon"])
def test_search_finds_pokemon(query: str) -> None:
    with offline_engine() as engine:
        engine.load(json.dumps([{"id": "pokemon-token", "symbol": "pkmn", "name": "Pok\u00e9mon Token"},
                                {"id": "other", "symbol": "oth", "name": "Other"}]))
        assert [c["id"] for c in engine.coins(search=query)["coins"]] == ["pokemon-token"]


def test_search_strasse_finds_strasse_with_sharp_s() -> None:
    with offline_engine() as engine:
        engine.load(json.dumps([{"id": "strasse-coin", "symbol": "str", "name": "Stra\u00dfe"},
                                {"id": "decomposed", "symbol": "dec", "name": "Poke\u0301mon"}]))
        assert [c["id"] for c in engine.coins(search="strasse")["coins"]] == ["strasse-coin"]
        assert [c["id"] for c in engine.coins(search="pok\u00e9mon")["coins"]] == ["decomposed"]


# ---------------------------------------------------------------- holding ids


@pytest.mark.parametrize("coin_id", ["Bitcoin", " bitcoin", "bitcoin ", " BITCOIN "])
def test_holding_id_with_upper_case_or_spaces_is_refused(coin_id: str) -> None:
    with coinfolio.Store(":memory:") as store:
        with pytest.raises(InvalidArgument) as raised:
            store.set_holding(coin_id, 1)
        assert raised.value.details["suggestion"] == "bitcoin"
        assert store.holdings() == []
    with offline_engine() as engine:
        with pytest.raises(InvalidArgument) as raised:
            engine.set_holding(coin_id, 1)
        assert raised.value.details["suggestion"] == "bitcoin"
        assert engine.portfolio()["coins"] == []


# ---------------------------------------------------------------- the CLI


@pytest.fixture
def cli(tmp_path: Path):
    """Runs coinfolio-cli offline on a fresh database, without colour."""
    binary = cli_binary()
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    env.pop("COINFOLIO_API_KEY", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(binary), *args], env=env, capture_output=True, text=True, timeout=60)

    return run


def _markets_file(tmp_path: Path, rows: Any) -> str:
    path = tmp_path / "markets.json"
    path.write_text(json.dumps(rows))
    return str(path)


def test_cli_yen_total_and_price(cli, tmp_path: Path) -> None:
    markets = _markets_file(
        tmp_path,
        [
            {"id": "bitcoin", "symbol": "btc", "name": "Bitcoin", "current_price": 14800000, "market_cap_rank": 1},
            {"id": "coin-a", "symbol": "a", "name": "A", "current_price": 148064.07, "market_cap_rank": 2},
        ],
    )
    assert cli("load", markets, "--vs-currency", "jpy").returncode == 0
    assert cli("set", "coin-a", "1", "--offline", "--vs-currency", "jpy").returncode == 0
    home = cli("home", "--offline", "--vs-currency", "jpy")
    assert home.returncode == 0, home.stderr
    assert "Portfolio Value: ¥148,064\n" in home.stdout
    assert "¥14,800,000" in home.stdout and "¥14,800,000.00" not in home.stdout
    portfolio = cli("portfolio", "--offline", "--vs-currency", "jpy")
    assert "Total: ¥148,064\n" in portfolio.stdout


def test_cli_bitcoin_quoted_total(cli, tmp_path: Path) -> None:
    markets = _markets_file(tmp_path, [{"id": "tiny", "symbol": "t", "name": "Tiny", "current_price": 2.5e-08}])
    assert cli("load", markets, "--vs-currency", "btc").returncode == 0
    assert cli("set", "tiny", "1000", "--offline", "--vs-currency", "btc").returncode == 0
    assert "Portfolio Value: ₿0.000025\n" in cli("home", "--offline", "--vs-currency", "btc").stdout
    assert "Total: ₿0.000025\n" in cli("portfolio", "--offline", "--vs-currency", "btc").stdout


def test_cli_partial_change_says_how_many_coins(cli, tmp_path: Path) -> None:
    markets = _markets_file(
        tmp_path,
        [
            {"id": "coin-a", "symbol": "a", "name": "A", "current_price": 1, "price_change_percentage_24h": None},
            {"id": "coin-b", "symbol": "b", "name": "B", "current_price": 1, "price_change_percentage_24h": -50},
        ],
    )
    assert cli("load", markets).returncode == 0
    assert cli("set", "coin-a", "1", "--offline").returncode == 0
    assert cli("set", "coin-b", "1", "--offline").returncode == 0
    assert "Portfolio Value: $2.00 -50.00% (1 of 2 coins)\n" in cli("home", "--offline").stdout
    assert "Total: $2.00 -50.00% (1 of 2 coins)\n" in cli("portfolio", "--offline").stdout


def test_cli_refuses_upper_case_holding_id_with_suggestion(cli) -> None:
    result = cli("set", "Bitcoin", "1")
    assert result.returncode == 2
    assert 'did you mean "bitcoin"?' in result.stderr
    assert cli("portfolio", "--offline").stdout.startswith("no holdings yet")


def test_cli_load_of_empty_body_replaces_nothing(cli, tmp_path: Path) -> None:
    markets = _markets_file(tmp_path, [{"id": "coin-a", "symbol": "a", "name": "A", "current_price": 1}])
    assert cli("load", markets).returncode == 0
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    result = cli("load", str(empty))
    assert result.returncode != 0
    assert "no coin" in result.stderr
    assert "1 match" in cli("search", "coin", "--offline").stdout
