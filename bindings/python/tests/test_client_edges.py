"""Issue 31's client findings through the ABI: CoinGecko's error code in each of its three shapes."""

from __future__ import annotations

from typing import Any, Optional

import pytest

import coinfolio
from coinfolio import HTTPError, Unauthorized


def client(server: Any, **options: Any) -> coinfolio.Client:
    return coinfolio.Client(base_url=server.base_url, max_retries=0, timeout_ms=5000, **options)


@pytest.mark.parametrize("shape", ["status", "error.status", "top_level"])
@pytest.mark.parametrize(
    "status, code, expected, reason",
    [
        (400, 10011, Unauthorized, None),  # a demo key sent to the pro host
        (400, 10010, Unauthorized, None),  # a pro key sent to the public host
        (401, 10012, Unauthorized, "history_limit"),
        (401, 10002, Unauthorized, None),
        (400, 10099, HTTPError, None),
    ],
)
def test_error_code_is_read_in_every_shape(
    server: Any, shape: str, status: int, code: int, expected: type, reason: Optional[str]
) -> None:
    server.fault(path="/api/v3/global", status=status, error_code=code, error_shape=shape, error_message="said")
    with client(server) as c:
        with pytest.raises(expected) as info:
            c.global_data()
    assert type(info.value) is expected
    assert info.value.details["error_code"] == code
    assert info.value.details["http_status"] == status
    assert info.value.details.get("reason") == reason
    assert info.value.message.endswith(": said")


def test_the_top_level_shape_of_the_issue(server: Any) -> None:
    body = (
        '{"timestamp":"2025-01-10T12:00:00.000+00:00","error_code":10011,'
        '"error_message":"If you are using Demo API key, please change your root URL"}'
    )
    server.fault(path="/api/v3/coins/markets", status=400, body=body)
    with client(server) as c:
        with pytest.raises(Unauthorized) as info:
            c.markets()
    assert info.value.details == {"http_status": 400, "error_code": 10011}
    assert info.value.message == (
        "CoinGecko refused the API key (error 10011): If you are using Demo API key, please change your root URL"
    )


def test_markets_and_simple_price_ask_for_full_precision(server: Any) -> None:
    server.route(
        path="/api/v3/coins/markets",
        body='[{"id":"shiba-inu","symbol":"shib","name":"Shiba Inu","current_price":2.6e-13}]',
    )
    server.route(path="/api/v3/simple/price", body='{"shiba-inu":{"btc":2.6e-13}}')
    with client(server) as c:
        assert c.markets(vs_currency="btc")["coins"][0]["current_price"] == 2.6e-13
        assert c.simple_price(["shiba-inu"], vs_currency="btc")["prices"]["shiba-inu"]["price"] == 2.6e-13
    for path in ("/coins/markets", "/simple/price"):
        assert server.requests_to(path)[0]["query"]["precision"] == "full"


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compression_bomb_is_body_too_large(server: Any, encoding: str) -> None:
    # 256 MiB of JSON padding from 260 KB on the wire; the client stops at 1 MiB. (What a 2 GiB
    # bomb costs in memory is measured by Tests/probes/bounds.py, run by make stress.)
    server.fault(path="/api/v3/global", body='{"data":{}}', bomb_bytes=256 << 20, encoding=encoding)
    with client(server, max_body_bytes=1 << 20) as c:
        with pytest.raises(HTTPError) as info:
            c.global_data()
        assert info.value.details["reason"] == "body_too_large"
        assert c.global_data()["market_data"]["markets"] is not None, "the next call works"
