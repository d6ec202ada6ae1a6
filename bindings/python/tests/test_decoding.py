"""SPEC §2: tolerant decoding of CoinGecko bodies, and bad input that must never crash."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Callable, Dict

import pytest

import coinfolio
from coinfolio import DecodeError, InvalidArgument

from conftest import FIXTURES, child_env

COIN_KEYS = [
    "id", "symbol", "name", "image", "current_price", "market_cap", "market_cap_rank",
    "fully_diluted_valuation", "total_volume", "high_24h", "low_24h", "price_change_24h",
    "price_change_percentage_24h", "market_cap_change_24h", "market_cap_change_percentage_24h",
    "circulating_supply", "total_supply", "max_supply", "ath", "ath_change_percentage",
    "ath_date", "atl", "atl_change_percentage", "atl_date", "roi", "last_updated",
    "sparkline_in_7d",
] + [
    f"price_change_percentage_{period}_in_currency"
    for period in ("1h", "24h", "7d", "14d", "30d", "200d", "1y")
]

DECODERS: Dict[str, Callable[[Any], Dict[str, Any]]] = {
    "markets": coinfolio.decode_markets,
    "global": coinfolio.decode_global,
    "coin_detail": coinfolio.decode_coin_detail,
}


def by_id(decoded: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    return {coin["id"]: coin for coin in decoded["coins"]}


def test_markets_fixture_keeps_every_coin_with_every_key(fixture_text) -> None:
    raw = json.loads(fixture_text("markets.json"))
    decoded = coinfolio.decode_markets(fixture_text("markets.json"))
    assert decoded["skipped"] == []
    assert [coin["id"] for coin in decoded["coins"]] == [coin["id"] for coin in raw]
    for coin in decoded["coins"]:
        assert set(COIN_KEYS) <= set(coin), coin["id"]


def test_markets_accepts_bytes_as_well_as_str(fixture_text) -> None:
    text = fixture_text("markets.json")
    assert coinfolio.decode_markets(text.encode("utf-8")) == coinfolio.decode_markets(text)


def test_null_price_and_null_rank_stay_null(fixture_text) -> None:
    coins = by_id(coinfolio.decode_markets(fixture_text("markets.json")))
    assert coins["compound-usdt"]["current_price"] is None
    assert coins["hive_dollar"]["market_cap_rank"] is None


def test_tiny_and_huge_numbers_keep_their_value(fixture_text) -> None:
    raw = {coin["id"]: coin for coin in json.loads(fixture_text("markets.json"))}
    coins = by_id(coinfolio.decode_markets(fixture_text("markets.json")))
    assert coins["baby-doge-coin"]["current_price"] == 1.186e-09
    assert coins["shiba-inu"]["current_price"] == 8.12e-06
    for coin_id, coin in raw.items():
        for key in ("total_supply", "market_cap", "current_price"):
            expected = None if coin.get(key) is None else float(coin[key])
            assert coins[coin_id][key] == expected, (coin_id, key)


def test_sparklines_of_any_length_are_kept(fixture_text) -> None:
    raw = {coin["id"]: coin for coin in json.loads(fixture_text("markets.json"))}
    coins = by_id(coinfolio.decode_markets(fixture_text("markets.json")))
    lengths = set()
    for coin_id, coin in raw.items():
        sparkline = coin.get("sparkline_in_7d")
        if sparkline is None:
            assert coins[coin_id]["sparkline_in_7d"] is None
            continue
        lengths.add(len(sparkline["price"]))
        assert coins[coin_id]["sparkline_in_7d"]["price"] == [float(p) for p in sparkline["price"]]
    assert 0 in lengths and 170 in lengths


def test_duplicate_symbols_are_distinct_coins(fixture_text) -> None:
    coins = coinfolio.decode_markets(fixture_text("markets.json"))["coins"]
    weth = sorted(coin["id"] for coin in coins if coin["symbol"] == "weth")
    assert weth == ["binance-peg-weth", "weth"]


def test_roi_and_dates_are_kept_as_sent(fixture_text) -> None:
    raw = {coin["id"]: coin for coin in json.loads(fixture_text("markets.json"))}
    coins = by_id(coinfolio.decode_markets(fixture_text("markets.json")))
    for coin_id, coin in raw.items():
        for key in ("ath_date", "atl_date", "last_updated"):
            assert coins[coin_id][key] == coin.get(key), (coin_id, key)
        roi = coin.get("roi")
        if roi is None:
            assert coins[coin_id]["roi"] is None
        else:
            assert coins[coin_id]["roi"]["times"] == float(roi["times"])
            assert coins[coin_id]["roi"]["currency"] == roi["currency"]
            assert coins[coin_id]["roi"]["percentage"] == float(roi["percentage"])


def test_bad_elements_are_skipped_and_reported_not_the_whole_list(fixture_text) -> None:
    decoded = coinfolio.decode_markets(fixture_text("markets-bad-elements.json"))
    ids = [coin["id"] for coin in decoded["coins"]]
    # A row needs only its id (SPEC §10): 7, with a number for its name, is kept with "".
    assert sorted(ids) == ["bitcoin", "ethereum", "numeric-name", "tether"]
    assert len(ids) == len(set(ids))
    skipped = {entry["index"] for entry in decoded["skipped"]}
    # 1-4 are not objects, 5 is the earlier "ethereum" (the later row wins), 6 has no id.
    assert skipped == {1, 2, 3, 4, 5, 6}
    assert decoded["warnings"] == [{"index": 7, "id": "numeric-name", "field": "name", "reason": "not a string"}]
    for entry in decoded["skipped"]:
        assert isinstance(entry["reason"], str) and entry["reason"]


def test_repeated_id_keeps_the_later_row() -> None:
    body = json.dumps(
        [
            {"id": "a", "symbol": "a", "name": "A", "current_price": 1},
            {"id": "a", "symbol": "a", "name": "A", "current_price": 2},
        ]
    )
    decoded = coinfolio.decode_markets(body)
    assert [coin["current_price"] for coin in decoded["coins"]] == [2]
    assert [entry["index"] for entry in decoded["skipped"]] == [0]


def test_wrong_typed_field_reads_as_null() -> None:
    body = '[{"id":"a","symbol":"a","name":"A","current_price":"12x","market_cap_rank":"x"}]'
    coin = coinfolio.decode_markets(body)["coins"][0]
    assert coin["current_price"] is None
    assert coin["market_cap_rank"] is None


def test_empty_array_decodes_to_no_coins() -> None:
    assert coinfolio.decode_markets("[]") == {"coins": [], "skipped": [], "warnings": []}


def test_global_fixture(fixture_text) -> None:
    raw = json.loads(fixture_text("global.json"))["data"]
    data = coinfolio.decode_global(fixture_text("global.json"))["market_data"]
    assert data["total_market_cap"]["usd"] == 2.58e12
    assert data["total_volume"]["usd"] == 342e9
    assert data["market_cap_percentage"]["btc"] == 42.5
    assert data["market_cap_change_percentage_24h_usd"] == 1.2
    assert data["active_cryptocurrencies"] == raw["active_cryptocurrencies"]
    assert data["markets"] == raw["markets"]
    assert data["updated_at"] == raw["updated_at"]
    for key in ("total_market_cap", "total_volume", "market_cap_percentage"):
        assert data[key] == {k: float(v) for k, v in raw[key].items()}


def test_global_with_missing_fields_reads_nulls() -> None:
    data = coinfolio.decode_global('{"data":{}}')["market_data"]
    for key in ("total_market_cap", "total_volume", "market_cap_percentage",
                "market_cap_change_percentage_24h_usd", "active_cryptocurrencies", "markets",
                "updated_at"):
        assert data.get(key) is None, key


def test_coin_detail_fixture_gives_plain_text_description(fixture_text) -> None:
    details = json.loads(fixture_text("details.json"))
    detail = coinfolio.decode_coin_detail(json.dumps(details["bitcoin"]))["detail"]
    assert detail["id"] == "bitcoin"
    assert detail["symbol"] == "btc"
    assert detail["name"] == "Bitcoin"
    assert detail["block_time_in_minutes"] == 10
    assert detail["hashing_algorithm"] == "SHA-256"
    assert detail["genesis_date"] == "2009-01-03"
    assert detail["categories"] == details["bitcoin"]["categories"]
    assert detail["homepage"] == "https://bitcoin.org"
    assert detail["subreddit_url"] == "https://www.reddit.com/r/Bitcoin/"
    assert "<a" not in detail["description"] and "</a>" not in detail["description"]
    assert "&amp;" not in detail["description"]
    assert detail["description"].startswith("Bitcoin is the first & best known")


def test_coin_detail_homepage_is_the_first_non_empty(fixture_text) -> None:
    details = json.loads(fixture_text("details.json"))
    detail = coinfolio.decode_coin_detail(json.dumps(details["boringdao-[old]"]))["detail"]
    assert detail["homepage"] == "https://www.boringdao.com/"
    sparse = coinfolio.decode_coin_detail(json.dumps(details["1move token"]))["detail"]
    assert sparse["id"] == "1move token"
    assert sparse["homepage"] is None
    assert sparse["hashing_algorithm"] is None
    assert sparse["block_time_in_minutes"] is None


def test_coin_detail_without_name_is_a_decode_error() -> None:
    with pytest.raises(DecodeError):
        coinfolio.decode_coin_detail('{"id":"x","symbol":"x"}')


@pytest.mark.parametrize("kind", sorted(DECODERS))
@pytest.mark.parametrize(
    "body",
    ["", b"\xff\xfe", b"[\xff]", '[{"id":"a"', "{", "nul", "[1,]", "\udc80"],
    ids=["empty", "invalid-utf8", "invalid-utf8-inside", "truncated", "open-brace", "bad-literal",
         "trailing-comma", "lone-surrogate"],
)
def test_bad_input_raises_invalid_argument(kind: str, body: Any) -> None:
    with pytest.raises(InvalidArgument):
        DECODERS[kind](body)


@pytest.mark.parametrize(
    "kind, body",
    [
        ("markets", '{"status":{"error_code":429,"error_message":"rate"}}'),
        ("markets", '"text"'),
        ("markets", "42"),
        ("markets", "null"),
        ("global", "[]"),
        ("global", '"x"'),
        ("coin_detail", "[]"),
        ("coin_detail", "null"),
    ],
)
def test_wrong_top_level_type_is_a_decode_error(kind: str, body: str) -> None:
    with pytest.raises(DecodeError):
        DECODERS[kind](body)


def test_library_errors_carry_status_code_and_message() -> None:
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_markets("[")
    assert info.value.status == 1
    assert info.value.code == "invalid_argument"
    assert info.value.message
    assert isinstance(info.value.details, dict)


DEEP_NESTING = r"""
import coinfolio
bodies = {
    "open": "[" * 100000,
    "open-objects": '{"a":' * 100000,
    "closed": "[" * 100000 + "]" * 100000,
}
for kind in ("decode_markets", "decode_global", "decode_coin_detail"):
    for name, body in bodies.items():
        try:
            getattr(coinfolio, kind)(body)
            print(kind, name, "ok")
        except coinfolio.CoinfolioError as exc:
            print(kind, name, type(exc).__name__)
print("survived")
"""


def test_deep_nesting_raises_and_the_process_survives() -> None:
    # In a child process: a stack overflow must show up as this test failing, not as the
    # whole suite disappearing.
    result = subprocess.run(
        [sys.executable, "-c", DEEP_NESTING],
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"child died with {result.returncode}: {result.stderr[-2000:]}"
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "survived"
    outcomes = {tuple(line.split()[:2]): line.split()[2] for line in lines[:-1]}
    assert len(outcomes) == 9
    for (kind, name), outcome in outcomes.items():
        if name == "closed":
            # Well-formed but absurdly deep: rejected, or (markets) one skipped element.
            allowed = ("InvalidArgument", "DecodeError") + (("ok",) if kind == "decode_markets" else ())
            assert outcome in allowed, (kind, name, outcome)
        else:
            assert outcome == "InvalidArgument", (kind, name, outcome)


def test_huge_valid_body_decodes(fixture_text) -> None:
    coin = json.loads(fixture_text("markets.json"))[0]
    body = json.dumps([dict(coin, id=f"coin-{i}") for i in range(5000)])
    assert len(coinfolio.decode_markets(body)["coins"]) == 5000
