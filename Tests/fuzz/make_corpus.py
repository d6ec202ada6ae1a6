#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (Tests/fuzz/corpus/<target>/) from the
test fixtures (Tests/fixtures/coingecko) and the reproducers of issue 17. Run it again after the
fixtures change; `make fuzz` reads the result."""
from __future__ import annotations

import hashlib
import json
import shutil
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "coingecko"
CORPUS = HERE / "corpus"

MALFORMED = [
    b"[01]", b'["a\tb"]', b'[{"id":"a","symbol":"b","name":"c","current_price":1.}]', b'{"data":{"markets":-}}',
    b'{"x":-}', b'["\\x"]', b'["\\ud800"]', b"[1e400]", b"[1,]", b'{"a":1,}', b"\xef\xbb\xbf\xef\xbb\xbf[]", b"[" * 600,
]
# Issue 31, finding 6: what the chart and transaction readers once let through, in members they
# do not read: a lone surrogate, a number beyond ±1.8e308, nesting past 512; a key given twice.
HOSTILE = [
    b'{"note":"\\ud800\\u0059","prices":[[1,2]]}', b'{"x":1e400,"points":[[1,2]]}', b'{"points":[[1,-2e308]]}',
    b'{"x":' + b"[" * 513 + b"]" * 513 + b',"points":[]}', b'{"points":[[1,2]],"points":[[3,4]]}',
]


def write(target: str, name: str, data: bytes) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(data).hexdigest()[:10]
    (folder / f"{name}-{digest}").write_bytes(data)


def compact(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def compact_snapshot(coins: list) -> bytes:
    """The saved snapshot's compact coins (SnapshotCodec.encode, schema step 4) of markets rows:
    "CFS1", the count, then per coin a 64-bit presence mask and its fields in the codec's order."""
    out = bytearray(b"CFS1") + struct.pack("<I", len(coins))
    for coin in coins:
        mask, bit, body = 0, 0, bytearray()

        def flag(present: bool) -> None:
            nonlocal mask, bit
            if present:
                mask |= 1 << bit
            bit += 1

        def text(value: object) -> None:
            data = str(value).encode("utf-8")
            body.extend(struct.pack("<I", len(data)) + data)

        def optional_text(value: object) -> None:
            flag(isinstance(value, str))
            if isinstance(value, str):
                text(value)

        def optional_number(value: object, kind: str = "<d") -> None:
            present = isinstance(value, (int, float)) and not isinstance(value, bool)
            flag(present)
            if present:
                body.extend(struct.pack(kind, int(value) if kind == "<q" else float(value)))

        for key in ("id", "symbol", "name"):
            text(coin.get(key, ""))
        for key in ("image", "ath_date", "atl_date", "last_updated"):
            optional_text(coin.get(key))
        for key in ("current_price", "market_cap", "fully_diluted_valuation", "total_volume", "high_24h", "low_24h",
                    "price_change_24h", "price_change_percentage_24h", "market_cap_change_24h",
                    "market_cap_change_percentage_24h", "circulating_supply", "total_supply", "max_supply", "ath",
                    "ath_change_percentage", "atl", "atl_change_percentage"):
            optional_number(coin.get(key))
        optional_number(coin.get("market_cap_rank"), "<q")
        roi = coin.get("roi") if isinstance(coin.get("roi"), dict) else None
        flag(roi is not None)
        optional_number((roi or {}).get("times"))
        optional_text((roi or {}).get("currency"))
        optional_number((roi or {}).get("percentage"))
        for window in ("1h", "24h", "7d", "14d", "30d", "200d", "1y"):
            optional_number(coin.get(f"price_change_percentage_{window}_in_currency"))
        flag(isinstance(coin.get("sparkline_in_7d"), dict))
        out.extend(struct.pack("<Q", mask) + body)
    return bytes(out)


def main() -> None:
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    markets = json.loads((FIXTURES / "markets.json").read_text(encoding="utf-8"))
    bad = (FIXTURES / "markets-bad-elements.json").read_bytes()
    global_body = (FIXTURES / "global.json").read_bytes()
    details = json.loads((FIXTURES / "details.json").read_text(encoding="utf-8"))

    for index, coin in enumerate(markets):
        write("decode_markets", f"coin{index}", compact([coin]))
        write("engine_load", f"coin{index}", compact([coin]))
    write("decode_markets", "first3", compact(markets[:3]))
    write("decode_markets", "bad-elements", bad)
    write("engine_load", "bad-elements", bad)
    for name in ("decode_global", "engine_load"):
        write(name, "global", global_body)
    write("decode_global", "bare", compact(json.loads(global_body)["data"]))
    for coin_id, body in details.items():
        write("decode_coin_detail", coin_id.replace(" ", "_").replace("/", "_"), compact(body))
    for target in ("decode_markets", "decode_global", "decode_coin_detail", "engine_load", "client_open", "engine_open",
                   "engine_query", "markets_request"):
        for index, text in enumerate(MALFORMED):
            write(target, f"malformed{index}", text)

    configs = [
        {}, {"base_url": "http://127.0.0.1:1/api/v3", "plan": "demo", "api_key": "CG-abc", "timeout_ms": 1000, "max_retries": 0,
             "max_retry_wait_s": 5, "max_body_bytes": 1048576},
        {"plan": "pro", "api_key": "x"}, {"base_url": "http://[::1]:8080/api/v3"}, {"timeout_ms": 0.5},
    ]
    for index, config in enumerate(configs):
        write("client_open", f"config{index}", compact(config))
        write("engine_open", f"config{index}", compact({"database": ":memory:", "vs_currency": "eur", "coin_limit": 100,
                                                        "api": config}))
    for index, query in enumerate([{}, {"search": "bit", "sort": "price", "limit": 5, "offset": 1}, {"sort": "holdings_reversed"},
                                   {"search": "pok\u00e9mon", "sparkline": False}]):
        write("engine_query", f"query{index}", compact(query))
    for index, request in enumerate([{}, {"vs_currency": "jpy", "ids": ["bitcoin", "1move token"], "per_page": 2, "page": 3,
                                          "sparkline": False}]):
        write("markets_request", f"request{index}", compact(request))

    for index, (value, low, high, code) in enumerate([
        (1234.56, 2, 2, b"usd"), (-0.004, 2, 6, b"eur"), (2.096e-09, 2, 6, b"btc"), (float("nan"), 0, 2, b"jpy"),
        (float("inf"), 2, 2, b""), (1.7976931348623157e308, 0, 11, b"kwd"), (5e-324, 2, 8, b"sats"), (999999.999, 2, 2, b"xau"),
    ]):
        write("format", f"value{index}", struct.pack(">dBB", value, low, high) + code)

    # Charts: /coins/{id}/market_chart bodies and the chart JSON cf_chart_svg draws.
    charts = json.loads((FIXTURES / "market_charts.json").read_text(encoding="utf-8"))
    for coin_id, body in charts.items():
        write("decode_market_chart", coin_id, compact(body))
        write("chart_svg", coin_id, compact({"coin_id": coin_id, "vs_currency": "usd", "days": 7, "points": body.get("prices", [])[:50]}))
    write("chart_svg", "history", compact({"vs_currency": "jpy", "points": [[1700000000000, 1.5, False], [1700003600000, None, True]]}))
    write("chart_svg", "options", compact({"width": 320, "height": 200, "title": "BTC \u00e9", "theme": "dark"}))
    for target in ("decode_market_chart", "chart_svg"):
        for index, text in enumerate(MALFORMED):
            write(target, f"malformed{index}", text)
    for target in ("decode_market_chart", "chart_svg", "ledger_add"):
        for index, text in enumerate(HOSTILE):
            write(target, f"hostile{index}", text)

    # The ledger (SPEC §12): transaction JSON, query JSON and CSV, small and hand-written.
    for target in ("ledger_add", "ledger_query"):
        for index, text in enumerate(MALFORMED):
            write(target, f"malformed{index}", text)
    transactions = [
        {"coin_id": "bitcoin", "kind": "buy", "amount": "0.1", "price": 100, "fee": 0, "timestamp": "2024-03-01T12:30:00Z"},
        {"coin_id": "bitcoin", "kind": "sell", "amount": 2, "price": "101.5", "timestamp": "2024-03-02T00:00:00.250Z",
         "note": "all of it", "external_id": "ex-1"},
        {"portfolio": "eur-book", "coin_id": "ethereum", "kind": "transfer_in", "amount": "0.000000000000000001",
         "price": None, "timestamp": "2024-03-01"},
        {"coin_id": "bitcoin", "kind": "transfer_out", "amount": 3, "timestamp": "2024-03-01T12:30:00+02:00"},
        {"coin_id": "solana", "kind": "buy", "amount": "1e2", "price": -1},
        {"portfolio": "nowhere", "coin_id": "bitcoin", "kind": "swap", "amount": 0},
        {"coin_id": "bitcoin", "kind": "transfer_in", "amount": 1, "timestamp": "2016-12-31T23:59:60Z", "x": [1e308]},
    ]
    for index, transaction in enumerate(transactions):
        write("ledger_add", f"transaction{index}", compact(transaction))
    for index, query in enumerate([{}, {"portfolio": "main", "coin_id": "bitcoin", "from": "2024-01-01T00:00:00Z",
                                        "to": "2025-01-01T00:00:00Z", "limit": 10, "offset": 0},
                                   {"portfolio": "eur-book"}, {"limit": -1}, {"from": "yesterday"}, {"portfolio": None}]):
        write("ledger_query", f"query{index}", compact(query))
    # realized and performance options (SPEC §19) read the same inputs.
    for index, options in enumerate([
        {"method": "uk", "year": 2024, "long_term_after_years": 1, "tax_free_after_years": 1, "format": "csv"},
        {"portfolio": None, "from": "2024-01-01", "to": "2024-07-01"}, {"range": "1y", "benchmark": "bitcoin"},
        {"range": {"from": "2024-01-01T00:00:00Z", "to": "2024-02-01"}}, {"range": "ytd", "portfolio": "eur-book"},
        {"year": 1969}, {"range": {"to": "2024-01-01"}},
    ]):
        write("ledger_query", f"returns{index}", compact(options))
    # Groups (SPEC §16): each input is tried as a trade and as a move, so seeds of both shapes.
    for index, text in enumerate(MALFORMED + HOSTILE):
        write("ledger_group", f"bad{index}", text)
    groups = [
        {"timestamp": "2024-06-01T00:00:00Z", "sent": {"coin_id": "bitcoin", "amount": "0.5"},
         "received": {"coin_id": "ethereum", "amount": "10"}, "value": "30000", "fee": "0.01", "fee_coin_id": "binancecoin",
         "fee_price": "310", "note": "swap", "external_id": "t-1"},
        {"sent": {"coin_id": "bitcoin", "amount": "5"}, "received": {"coin_id": "usd", "amount": "1"}},
        {"sent": {"coin_id": "bitcoin", "amount": "1"}, "received": {"coin_id": "bitcoin", "amount": "1"}},
        {"from": "main", "to": "cold", "coin_id": "bitcoin", "amount": "1", "received_amount": "0.9995",
         "timestamp": "2024-06-02T00:00:00Z", "note": "to the cold wallet", "external_id": "m-1"},
        {"from": "main", "to": "eur-book", "coin_id": "bitcoin", "amount": "0.1"},
        {"from": "cold", "to": "main", "coin_id": "bitcoin", "amount": "0.000000000000000001"},
        {"from": "main", "to": "main", "coin_id": "bitcoin", "amount": "1", "received_amount": "2"},
    ]
    for index, group in enumerate(groups):
        write("ledger_group", f"group{index}", compact(group))
    # The saved snapshot's compact coins (snapshot_open): the fixture, a few coins, and damage.
    whole = compact_snapshot(markets)
    write("snapshot_open", "markets", whole)
    write("snapshot_open", "first3", compact_snapshot(markets[:3]))
    write("snapshot_open", "bitcoin-twice", compact_snapshot(markets + markets[:1]))
    write("snapshot_open", "no-coin", compact_snapshot([]))
    for cut in (3, 8, 40, len(whole) // 2, len(whole) - 1):
        write("snapshot_open", f"cut{cut}", whole[:cut])
    write("snapshot_open", "huge-count", whole[:4] + struct.pack("<I", 0xFFFFFFFF) + whole[8:])
    write("snapshot_open", "json", (FIXTURES / "markets.json").read_bytes()[:2000])

    header = b"timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
    csvs = [
        header + b"2024-01-01T00:00:00Z,main,bitcoin,buy,1,100,0,,\n2024-02-01T00:00:00Z,main,bitcoin,sell,0.5,120,1,,x1\n",
        header + b'2024-01-01,eur-book,ethereum,transfer_in,2,,0,"a,""b""\nc",\r\n',
        header + b"2024-01-01,main,bitcoin,sell,5,1,0,,\n",
        header + b"2024-01-01,main,bitcoin,buy,\"1,5\",1,0,,\n",
        header + b"2024-01-01,main,bitcoin,buy,1,1,0,,dup\n2024-01-02,main,bitcoin,buy,1,1,0,,dup\n",
        header.replace(b",", b";"),
        b"coin_id,kind,amount,timestamp\nbitcoin,buy,1,2024-01-01\n",
        header + b'"unterminated,main,bitcoin,buy,1,1,0,,\n',
        header + b"2024-01-01,new-book,bitcoin,buy,1,1,0,,coinfolio:1\n",
        b"",
    ]
    for index, text in enumerate(csvs):
        write("ledger_csv", f"csv{index}", text)
    import_corpus()


#: The import targets' sample files (Tests/fixtures/imports), by format.
IMPORT_SAMPLES = {
    "coinbase": ["coinbase-v1.csv", "coinbase-v2.csv", "coinbase-v3.csv", "coinbase-v4.csv"],
    "binance": ["binance-trade-history.csv", "binance-trade-history-old.csv", "binance-statement.csv"],
    "kraken": ["kraken-ledgers.csv", "kraken-ledgers-wallet.csv"],
    "cointracking": ["cointracking.csv"],
    "koinly": ["koinly.csv"],
}


def import_corpus() -> None:
    """Each import target's seeds: its format's sample files, each also cut after its header and
    in the middle of a row, and with its data rows in reverse order."""
    samples = HERE.parent / "fixtures" / "imports"
    for fmt, names in IMPORT_SAMPLES.items():
        target = f"import_{fmt}"
        shutil.rmtree(CORPUS / target, ignore_errors=True)
        for name in names:
            data = (samples / name).read_bytes()
            stem = name.removesuffix(".csv")
            write(target, stem, data)
            lines = data.split(b"\n")
            header_end = next((i for i, line in enumerate(lines) if line.count(b",") >= 5), 0)
            write(target, f"{stem}-header", b"\n".join(lines[: header_end + 1]) + b"\n")
            write(target, f"{stem}-cut", data[: len(data) * 2 // 3])
            write(target, f"{stem}-reversed", b"\n".join(lines[: header_end + 1] + lines[header_end + 1 :][::-1]))

    # Prices in the past (price_input): price_at queries, set_price settings, range requests and
    # fill options, good and bad.
    prices = [
        {"coin_id": "bitcoin", "timestamp": "2024-03-01T12:30:00Z"},
        {"coin_id": "bitcoin", "timestamp": "2024-03-01", "vs_currency": "eur", "price": "0.1"},
        {"coin_id": "my-token", "price": 0.5},
        {"coin_id": "my-token", "timestamp": None, "price": None},
        {"coin_id": "a/b", "timestamp": "1969-12-31T23:59:59Z", "price": -1},
        {"coin_id": "bitcoin", "timestamp": "10000-01-01", "vs_currency": "xyz", "price": "NaN"},
        {"coin_id": "bitcoin", "timestamp": "2024-03-01", "price": "0.0000000000000000001"},
        {"vs_currency": "usd", "from": 1709251200, "to": "2024-03-02T00:00:00.5+01:00"},
        {"from": -1, "to": 1e400},
        {"portfolio": "main", "max_requests": 20},
        {"portfolio": None, "max_requests": 1001},
    ]
    for index, value in enumerate(prices):
        write("price_input", f"price{index}", compact(value))
    for index, text in enumerate(MALFORMED[:6]):
        write("price_input", f"malformed{index}", text)


if __name__ == "__main__":
    main()
