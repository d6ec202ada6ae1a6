"""Issue 17 (faults 1-5) and issue 10 items 8-9 through the Python binding."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

import coinfolio
from coinfolio import HTTPError, InvalidArgument, NetworkError, RateLimited, Unauthorized
from conftest import cli_binary

KEY = "CG-Zq8WvT3nRk5YhLmP2sXa"

ECHO_SHAPES = [
    f"Invalid API key: {KEY[:14]}...",
    f"Invalid API key: {KEY}",
    f"key {KEY[:8]}…{KEY[-8:]} is not valid",
    f"invalid key '{KEY.lower()}'",
    f"x_cg_demo_api_key={KEY}&vs_currency=usd",
    f"key={KEY[3:]}",
    f"The key ending in {KEY[-10:]} was revoked",
    f"API key {KEY.upper()} unknown",
    f"bad key: CG%2D{KEY[3:15]}",
    f"{KEY[:6]}****{KEY[-6:]}",
    json.dumps({"key": KEY}),
]


def longest_key_run(text: str, key: str = KEY) -> int:
    text, key = text.lower(), key.lower()
    best = 0
    for i in range(len(text)):
        for j in range(len(key)):
            n = 0
            while i + n < len(text) and j + n < len(key) and text[i + n] == key[j + n]:
                n += 1
            best = max(best, n)
    return best


def client(server: Any, **options: Any) -> coinfolio.Client:
    options.setdefault("base_url", server.base_url)
    options.setdefault("max_retries", 0)
    return coinfolio.Client(**options)


@pytest.mark.parametrize(
    ("text", "offset"),
    [("[01]", 1), ('["a\tb"]', 3), ('[{"id":"a","symbol":"b","name":"c","current_price":1.}]', 51), ('["\\x"]', 2)],
)
def test_malformed_markets_are_refused_with_the_offset(text: str, offset: int) -> None:
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_markets(text)
    assert info.value.details["reason"] == "malformed_json"
    assert info.value.details["offset"] == offset
    assert f"malformed JSON at byte offset {offset}: " in info.value.message


def test_malformed_config_and_its_offsets() -> None:
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_global('{"data":{"markets":-}}')
    assert info.value.details["offset"] == 19
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_markets('[{"id":"a","symbol":"a","name":"A","current_price":1e400}]')
    assert info.value.details["reason"] == "number_out_of_range"
    assert info.value.message == "JSON number at byte offset 51 is out of range: 1e400 is beyond ±1.8e308"
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_coin_detail('{"id":"\\ud800","symbol":"a","name":"A"}')
    assert info.value.details["reason"] == "lone_surrogate"


@pytest.mark.parametrize("host", ["127.0.0.1.attacker.example", "localhost.attacker.example", "127.evil.example"])
def test_key_over_plain_http_only_to_a_loopback_address(host: str) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Client(base_url=f"http://{host}/api/v3", plan="demo", api_key=KEY)


@pytest.mark.parametrize("shape", ECHO_SHAPES)
def test_no_six_key_characters_in_exceptions(server, shape: str) -> None:
    body = json.dumps({"status": {"error_code": 10002, "error_message": shape}})
    server.fault(path="/api/v3/global", status=401, body=body)
    with client(server, plan="demo", api_key=KEY) as c:
        with pytest.raises(Unauthorized) as info:
            c.global_data()
    for text in (str(info.value), repr(info.value), info.value.message, json.dumps(info.value.details)):
        assert longest_key_run(text) < 6, text


def test_no_six_key_characters_on_the_cli(server, tmp_path) -> None:
    body = json.dumps({"status": {"error_code": 10002, "error_message": ECHO_SHAPES[0]}})
    server.fault(path="/api/v3/coins/markets", status=401, body=body, times=-1)
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url,
               COINFOLIO_API_KEY=KEY)
    result = subprocess.run([str(cli_binary()), "--plan", "demo", "home"], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "[redacted]" in result.stderr
    assert longest_key_run(result.stdout + result.stderr) < 6, result.stderr


def test_body_over_max_body_bytes_is_body_too_large(server) -> None:
    server.fault(path="/api/v3/global", body='{"data":{}}', pad_bytes=5000)
    with client(server, max_body_bytes=1000) as c:
        with pytest.raises(HTTPError) as info:
            c.global_data()
    assert info.value.details["reason"] == "body_too_large"


def test_gzip_body_counts_after_decompression(server) -> None:
    server.fault(path="/api/v3/global", body='{"data":{}}', pad_bytes=4 << 20, gzip=True)
    with client(server, max_body_bytes=1 << 20) as c:
        with pytest.raises(HTTPError) as info:
            c.global_data()
    assert info.value.details["reason"] == "body_too_large"


def test_huge_valid_body_ends_as_a_timeout(server) -> None:
    server.fault(path="/api/v3/coins/markets", array_of='{"id":"a","symbol":"b","name":"c"}', count=400000)
    with client(server, timeout_ms=100) as c:
        with pytest.raises(NetworkError) as info:
            c.markets()
    assert info.value.details["reason"] in ("timeout", "deadline")


def test_hex_retry_after_is_ignored(server) -> None:
    server.fault(path="/api/v3/global", status=429, headers={"Retry-After": "0x10"}, times=2)
    with client(server, max_retries=1) as c:
        with pytest.raises(RateLimited) as info:
            c.global_data()
    assert info.value.retry_after_s is None
    assert len(server.requests_to("/global")) == 2


def test_a_long_retry_after_is_remembered(server) -> None:
    server.fault(path="/api/v3/global", status=429, headers={"Retry-After": "119"})
    with client(server, max_retries=2, max_retry_wait_s=60) as c:
        with pytest.raises(RateLimited) as first:
            c.global_data()
        assert first.value.retry_after_s == 119
        with pytest.raises(RateLimited) as second:
            c.markets()
    assert second.value.details["sent"] is False
    assert 118 <= second.value.retry_after_s <= 119
    assert len(server.log()) == 1


def test_engine_metrics_count_suppressed_requests(server) -> None:
    server.fault(path="/api/v3/coins/markets", status=429, headers={"Retry-After": "119"})
    api = {"base_url": server.base_url, "max_retries": 2, "max_retry_wait_s": 60}
    with coinfolio.Engine(database=":memory:", api=api) as engine:
        with pytest.raises(RateLimited):
            engine.refresh()
        with pytest.raises(RateLimited) as info:
            engine.refresh()
        assert info.value.details["sent"] is False
        assert engine.metrics()["suppressed_requests"] == 1


@pytest.mark.parametrize(
    ("status", "body", "error", "error_code"),
    [
        (403, "<html><body><h1>Access denied</h1> Cloudflare</body></html>", HTTPError, None),
        (401, '{"status":{"error_code":10012,"error_message":"time range"}}', Unauthorized, 10012),
        (403, '{"status":{"error_code":10002,"error_message":"API Key Missing"}}', Unauthorized, 10002),
        (400, '{"status":{"error_code":10099,"error_message":"other"}}', HTTPError, 10099),
    ],
)
def test_error_classes(server, status: int, body: str, error: type, error_code: Any) -> None:
    server.fault(path="/api/v3/global", status=status, body=body)
    with client(server) as c:
        with pytest.raises(error) as info:
            c.global_data()
    assert info.value.details["http_status"] == status
    assert info.value.details.get("error_code") == error_code


def test_a_nul_escape_in_a_member_name_round_trips() -> None:
    # Found by `make fuzz` (decode_global): valid JSON that some parsers cannot hold; the
    # library keeps the key and writes it back escaped.
    decoded = coinfolio.decode_global('{"data":{"market_cap_percentage":{"u\\u0000sdc":1.61,"btc":42.5}}}')
    assert decoded["market_data"]["market_cap_percentage"] == {"u\x00sdc": 1.61, "btc": 42.5}
