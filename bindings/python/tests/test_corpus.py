"""Every recorded real CoinGecko body in ../shared/fixtures/coingecko decodes, value for value.

The corpus lives beside the checkout (``<repo>/../shared/fixtures/coingecko``) and is not
committed; without it these tests are skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import coinfolio

from conftest import SHARED_FIXTURES
from test_decoding import COIN_KEYS

NUMERIC_COIN_KEYS = [
    "current_price", "market_cap", "market_cap_rank", "fully_diluted_valuation", "total_volume",
    "high_24h", "low_24h", "price_change_24h", "price_change_percentage_24h",
    "market_cap_change_24h", "market_cap_change_percentage_24h", "circulating_supply",
    "total_supply", "max_supply", "ath", "ath_change_percentage", "atl", "atl_change_percentage",
] + [
    f"price_change_percentage_{period}_in_currency"
    for period in ("1h", "24h", "7d", "14d", "30d", "200d", "1y")
]
STRING_COIN_KEYS = ["id", "symbol", "name", "image", "ath_date", "atl_date", "last_updated"]


def corpus(folder: str) -> List[Path]:
    directory = SHARED_FIXTURES / folder
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.json"))


def require_corpus(folder: str) -> None:
    if not (SHARED_FIXTURES / folder).is_dir():
        pytest.skip(
            f"recorded CoinGecko corpus not found at {SHARED_FIXTURES / folder} "
            "(it sits beside the checkout as ../shared/fixtures/coingecko)"
        )


def raw_json(path: Path) -> Any:
    # utf-8-sig: a leading BOM is part of some recordings and must be accepted.
    return json.loads(path.read_text(encoding="utf-8-sig"))


def expected_number(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None  # a field of the wrong type (or null) reads as null
    return float(value)


def ids(paths: List[Path]) -> List[str]:
    return [path.name for path in paths]


MARKETS = corpus("coins-markets")
GLOBALS = corpus("global")
DETAILS = corpus("coins-id")


def test_corpus_is_present_or_skipped_clearly() -> None:
    require_corpus("coins-markets")
    assert MARKETS and GLOBALS and DETAILS


@pytest.mark.parametrize("path", MARKETS, ids=ids(MARKETS))
def test_recorded_markets_keep_every_coin_and_value(path: Path) -> None:
    require_corpus("coins-markets")
    raw = raw_json(path)
    decoded = coinfolio.decode_markets(path.read_bytes())
    raw_by_id: Dict[str, Dict[str, Any]] = {}
    for coin in raw:
        raw_by_id[coin["id"]] = coin  # a repeated id keeps the later row
    assert decoded["skipped"] == [] or len(raw_by_id) < len(raw)
    coins = {coin["id"]: coin for coin in decoded["coins"]}
    assert set(coins) == set(raw_by_id)
    assert len(decoded["coins"]) == len(raw_by_id)
    for coin_id, expected in raw_by_id.items():
        got = coins[coin_id]
        assert set(COIN_KEYS) <= set(got), coin_id
        for key in NUMERIC_COIN_KEYS:
            assert got[key] == expected_number(expected.get(key)), (coin_id, key)
        for key in STRING_COIN_KEYS:
            assert got[key] == expected.get(key), (coin_id, key)
        roi = expected.get("roi")
        if roi is None:
            assert got["roi"] is None, coin_id
        else:
            for key in ("times", "percentage"):
                assert got["roi"][key] == expected_number(roi.get(key)), (coin_id, "roi", key)
            assert got["roi"]["currency"] == roi.get("currency"), coin_id
        sparkline = expected.get("sparkline_in_7d")
        if sparkline is None:
            assert got["sparkline_in_7d"] is None, coin_id
        else:
            assert got["sparkline_in_7d"]["price"] == [
                expected_number(p) for p in sparkline["price"]
            ], coin_id


@pytest.mark.parametrize("path", GLOBALS, ids=ids(GLOBALS))
def test_recorded_global_keeps_every_value(path: Path) -> None:
    require_corpus("global")
    raw = raw_json(path)["data"]
    data = coinfolio.decode_global(path.read_bytes())["market_data"]
    for key in ("total_market_cap", "total_volume", "market_cap_percentage"):
        assert data[key] == {k: expected_number(v) for k, v in raw[key].items()}, key
    assert data["market_cap_change_percentage_24h_usd"] == expected_number(
        raw.get("market_cap_change_percentage_24h_usd")
    )
    for key in ("active_cryptocurrencies", "markets", "updated_at"):
        assert data[key] == raw.get(key), key


@pytest.mark.parametrize("path", DETAILS, ids=ids(DETAILS))
def test_recorded_coin_detail_decodes(path: Path) -> None:
    require_corpus("coins-id")
    raw = raw_json(path)
    # trakx-bitconnect-full.json starts with a UTF-8 BOM: the library accepts it.
    detail = coinfolio.decode_coin_detail(path.read_bytes())["detail"]
    for key in ("id", "symbol", "name", "hashing_algorithm", "genesis_date"):
        assert detail[key] == raw.get(key), key
    assert detail["block_time_in_minutes"] == raw.get("block_time_in_minutes")
    assert detail["categories"] == [c for c in raw.get("categories") or [] if isinstance(c, str)]
    description = detail["description"]
    assert isinstance(description, (str, type(None)))
    if description:
        assert "<a " not in description and "</a>" not in description
    subreddit = (raw.get("links") or {}).get("subreddit_url")
    if subreddit:
        assert detail["subreddit_url"] == subreddit
    else:
        assert detail["subreddit_url"] in (None, "")
    homepages = [h for h in (raw.get("links") or {}).get("homepage") or [] if h]
    assert detail["homepage"] == (homepages[0] if homepages else None)


def test_bom_prefixed_body_is_accepted_by_every_decoder() -> None:
    assert coinfolio.decode_markets(b"\xef\xbb\xbf[]")["coins"] == []
    assert coinfolio.decode_global(b'\xef\xbb\xbf{"data":{}}')["market_data"] is not None
    detail = coinfolio.decode_coin_detail(b'\xef\xbb\xbf{"id":"a","symbol":"a","name":"A"}')
    assert detail["detail"]["id"] == "a"
