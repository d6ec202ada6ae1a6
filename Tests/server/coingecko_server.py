#!/usr/bin/env python3
"""A loopback CoinGecko API v3 stand-in for Coinfolio's Swift, C and Python test suites.

The contract is Tests/server/PROTOCOL.md; read that first. In short:

    python3 Tests/server/coingecko_server.py [--port 0] [--fixtures DIR] [--exit-on-stdin-eof]

binds 127.0.0.1, prints one line ``PORT=<n>``, then serves ``/api/v3/coins/markets``,
``/api/v3/global``, ``/api/v3/coins/{id}``, ``/api/v3/coins/{id}/market_chart``,
``/api/v3/coins/{id}/market_chart/range`` and ``/api/v3/simple/price`` from the fixture folder,
logs and counts every request, and
injects faults queued through the ``/__control/...`` routes. Python standard library only.

With ``--exit-on-stdin-eof`` it also exits when its stdin reaches end of file, so a runner that
starts it with a pipe as stdin never leaves it behind. Without the flag stdin is ignored (a
server started with stdin=/dev/null must keep running).
"""

import argparse
import collections
import gzip
import json
import math
import os
import re
import select
import socket
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, unquote

API = "/api/v3"
MARKETS = API + "/coins/markets"
COIN_PREFIX = API + "/coins/"
SIMPLE_PRICE = API + "/simple/price"
CHART_SUFFIX = "/market_chart"
RANGE_SUFFIX = "/market_chart/range"
DAY_S, HOUR_S, FIVE_MINUTES_S = 86400, 3600, 300
HOURLY_OFFSET_S = 120  # hourly points at hh:02:00, as CoinGecko's are a few minutes past the hour
FIVE_MINUTE_OFFSET_S = 30  # 5-minute points at mm:00:30, mm:05:30, …
PLAN_DAYS = 365  # public and demo keys may not ask for more history (error 10012)
DEFAULT_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "coingecko"
# The three places CoinGecko puts an error code (a fault's "error_shape"): {"status":{…}},
# {"error":{"status":{…}}} and the top level (a demo key sent to the pro host, or the reverse).
ERROR_SHAPES = ("status", "error.status", "top_level")


# Coinfolio always asks /coins/markets and /simple/price for unrounded prices (SPEC §17); the
# real API would round without it, so this stand-in refuses such a request instead.
PRECISION_ERROR = '{"error":"precision=full is missing: without it CoinGecko rounds prices (SPEC §17)"}'


def coingecko_error(code, message, shape):
    """CoinGecko's error body for that code and message, in one of ERROR_SHAPES."""
    fields = {"timestamp": "2025-01-10T12:00:00.000+00:00", "error_code": code, "error_message": message}
    if shape == "top_level":
        return json.dumps(fields)
    if shape == "error.status":
        return json.dumps({"error": {"status": fields}})
    return json.dumps({"status": fields})


TIME_RANGE_ERROR = coingecko_error(
    10012, "Your request exceeds the allowed time range. Public API users are limited to querying "
    "historical data within the past 365 days.", "error.status")


class Bomb:
    """A compressed body that inflates to `size` bytes: the fault's body (default `{"data":{}}`)
    followed by spaces, sent as Content-Encoding `encoding` (gzip or deflate, zlib-wrapped). One
    megabyte of spaces is compressed once after a full flush and its bytes repeated, so a
    gigabyte bomb costs the server a few megabytes and a checksum pass, not a compression."""

    BLOCK = 1 << 20

    def __init__(self, head, size, encoding):
        self.head, self.size, self.encoding = head, max(size, len(head)), encoding
        wbits = 31 if encoding == "gzip" else 15
        compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
        self.start = compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH)
        self.blocks, rest = divmod(self.size - len(head), self.BLOCK)
        self.block = compressor.compress(b" " * self.BLOCK) + compressor.flush(zlib.Z_FULL_FLUSH)
        self.rest = rest
        # The tail ends with the checksum of what this compressor saw (one block); the real one
        # covers every repeated block: `chunks` puts it in, only if a client reads that far.
        self.tail = compressor.compress(b" " * rest) + compressor.flush(zlib.Z_FINISH)

    def _trailer(self, rest):
        spaces = b" " * self.BLOCK
        if self.encoding == "gzip":
            crc = zlib.crc32(self.head)
            for _ in range(self.blocks):
                crc = zlib.crc32(spaces, crc)
            crc = zlib.crc32(b" " * rest, crc)
            return crc.to_bytes(4, "little") + (self.size & 0xFFFFFFFF).to_bytes(4, "little")
        adler = zlib.adler32(self.head)
        for _ in range(self.blocks):
            adler = zlib.adler32(spaces, adler)
        adler = zlib.adler32(b" " * rest, adler)
        return adler.to_bytes(4, "big")

    def __len__(self):
        return len(self.start) + self.blocks * len(self.block) + len(self.tail)

    def chunks(self):
        yield self.start
        for _ in range(self.blocks):
            yield self.block
        trailer = 8 if self.encoding == "gzip" else 4
        yield self.tail[:-trailer] + self._trailer(self.rest)


def split_json_array(text):
    """Return the raw text of each element of a JSON array, with the parsed element, or None.

    Keeping each element's raw text means a filtered or sliced answer repeats the fixture's
    numbers byte for byte (8.12e-06, 4.2e+17, 1e400) instead of Python's re-serialization.
    """
    decoder = json.JSONDecoder()
    ws = " \t\r\n"
    i = len(text) - len(text.lstrip(ws))
    if not text.startswith("[", i):
        return None
    elements, i = [], i + 1
    try:
        while True:
            while i < len(text) and text[i] in ws:
                i += 1
            if text.startswith("]", i) and not elements:
                return elements
            obj, end = decoder.raw_decode(text, i)
            elements.append((obj, text[i:end]))
            i = end
            while i < len(text) and text[i] in ws:
                i += 1
            if text.startswith("]", i):
                return elements
            if not text.startswith(",", i):
                return None
            i += 1
    except ValueError:
        return None


def int_param(query, name, default, low, high):
    """An integer query parameter clamped to [low, high]; the default when absent or not a number."""
    try:
        return max(low, min(high, int(query.get(name, default))))
    except ValueError:
        return default


def significant(value):
    """value to 12 significant digits (0.1 + 3 × 0.001 is 0.103, and 2.6e-13 stays 2.6e-13)."""
    rounded = float(f"{value:.12g}")
    return int(rounded) if rounded == int(rounded) and abs(rounded) < 1e15 else rounded


def range_times(start, end, now):
    """The UNIX seconds of the points a range gets (see market_chart_range), oldest first."""
    if end < start:
        return []
    if start >= now - DAY_S:
        step, offset = FIVE_MINUTES_S, FIVE_MINUTE_OFFSET_S
    elif end - start <= 90 * DAY_S:
        step, offset = HOUR_S, HOURLY_OFFSET_S
    else:
        step, offset = DAY_S, 0
    first = math.ceil((start - offset) / step) * step + offset
    return list(range(int(first), int(end) + 1, step))


ENDPOINTS = (  # request counting: the name of each CoinGecko route, as Coinfolio's metrics name it
    ("market_chart_range", lambda p: p.startswith(COIN_PREFIX) and p.endswith(RANGE_SUFFIX)),
    ("market_chart", lambda p: p.startswith(COIN_PREFIX) and p.endswith(CHART_SUFFIX)),
    ("markets", lambda p: p == MARKETS),
    ("global", lambda p: p == API + "/global"),
    ("simple_price", lambda p: p == SIMPLE_PRICE),
    ("detail", lambda p: p.startswith(COIN_PREFIX) and "/" not in p[len(COIN_PREFIX):]),
)


def endpoint_name(path):
    """The counted name of a request path ("other" for any other route)."""
    return next((name for name, matches in ENDPOINTS if matches(path)), "other")


class State:
    """Fixtures, faults, route overrides and the request log, shared by all handler threads."""

    def __init__(self, fixtures):
        self.lock = threading.Lock()
        self.markets = (fixtures / "markets.json").read_text(encoding="utf-8")
        self.global_body = (fixtures / "global.json").read_text(encoding="utf-8")
        self.details = json.loads((fixtures / "details.json").read_text(encoding="utf-8"))
        self.charts = json.loads((fixtures / "market_charts.json").read_text(encoding="utf-8"))
        self.simple_prices = json.loads((fixtures / "simple_price.json").read_text(encoding="utf-8"))
        self.price_history = json.loads((fixtures / "price_history.json").read_text(encoding="utf-8"))
        self.reset()

    def reset(self):
        with self.lock:
            self.faults = collections.defaultdict(collections.deque)  # path -> FIFO of faults
            self.routes = {}  # path -> {"status": int|None, "body": str|None}
            self.log = []
            self.live = False  # stamp answers with the current time, as the live API's are
            self.holds = {}  # path -> (monotonic deadline, fault): a rate limit still in force

    @staticmethod
    def _keys(path):
        # A fault or override registered for either the raw path or its percent-decoded form
        # matches (so "/api/v3/coins/1move token" and "/api/v3/coins/1move%20token" both work).
        return [path] if unquote(path) == path else [path, unquote(path)]

    def take_fault(self, path):
        """Pop (or, for times=-1, peek) the oldest fault queued for this request path; a fault
        still held for its path (``hold_ms``) answers again first."""
        with self.lock:
            for key in self._keys(path):
                held = self.holds.get(key)
                if held and time.monotonic() < held[0]:
                    return held[1]
            for key in self._keys(path):
                queue = self.faults.get(key)
                if queue:
                    fault = queue[0]
                    if fault["times"] > 0:
                        fault["times"] -= 1
                        if fault["times"] == 0:
                            queue.popleft()
                    if fault["hold_ms"] > 0:
                        self.holds[key] = (time.monotonic() + fault["hold_ms"] / 1000, fault)
                    return fault
        return None

    def route_override(self, path):
        with self.lock:
            for key in self._keys(path):
                if key in self.routes:
                    return self.routes[key]
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "coingecko-stand-in/1"
    disable_nagle_algorithm = True  # headers and body are separate writes; avoid 40 ms stalls
    state: State = None  # set in main()

    def log_message(self, fmt, *args):  # keep stderr quiet
        pass

    # ---------------------------------------------------------------- request plumbing

    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def dispatch(self):
        body = self.read_body()  # always drain, so keep-alive stays in sync
        path, _, raw_query = self.path.partition("?")
        if path.startswith("/__control/"):
            return self.control(path, body)
        query = dict(parse_qsl(raw_query, keep_blank_values=True))  # percent- and '+'-decoded
        headers = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = headers[name] + ", " + value if name in headers else value
        entry = {"method": self.command, "path": path, "query": query,
                 "raw_query": raw_query, "headers": headers}
        with self.state.lock:
            self.state.log.append(entry)

        fault = self.state.take_fault(path)
        if fault and fault["close"]:
            self.close_connection = True  # the server closes the socket; nothing is sent
            return
        status, payload = self.answer(path, query)
        extra = {}
        if fault:  # a fault's status and body default to the route's own (200 + fixture)
            status = fault["status"] if fault["status"] is not None else status
            payload = fault["body"] if fault["body"] is not None else payload
            extra = fault["headers"]
        if not self.send(status, payload, extra, fault):
            with self.state.lock:
                entry["abandoned"] = True

    def client_left(self, seconds):
        """Waits up to `seconds` for the client to close its end; True when it did (EOF)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([self.connection], [], [], left)
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return True
                except OSError:
                    return True
                time.sleep(min(left, 0.01))  # bytes of a next request: keep waiting out the delay

    def send(self, status, payload, extra_headers=None, fault=None):
        """Sends the answer; False when the client went away before it was complete."""
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data))}
        if fault and fault.get("bomb_bytes"):
            return self.send_bomb(status, Bomb(data, fault["bomb_bytes"], fault.get("encoding") or "gzip"))
        if fault and fault.get("gzip"):
            data = gzip.compress(data, compresslevel=6)
            headers["Content-Encoding"] = "gzip"
            headers["Content-Length"] = str(len(data))
        for name, value in (extra_headers or {}).items():  # fault headers win, case-insensitively
            for old in [h for h in headers if h.lower() == name.lower()]:
                del headers[old]
            headers[name] = str(value)
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if fault and fault["delay_ms"] > 0:
                self.wfile.flush()  # status line and headers go out now, the body later
                if self.client_left(fault["delay_ms"] / 1000):
                    self.close_connection = True  # the client gave up (e.g. its timeout fired)
                    return False
            if fault and fault["truncate"]:
                self.wfile.write(data[: len(data) // 2])  # Content-Length still says the full size
                self.wfile.flush()
                self.close_connection = True
                return True
            self.wfile.write(data)
            return True
        except (BrokenPipeError, ConnectionError):
            self.close_connection = True  # the client gave up (e.g. its timeout fired)
            return False

    def send_bomb(self, status, bomb):
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", bomb.encoding)
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            for chunk in bomb.chunks():
                self.wfile.write(chunk)
            return True
        except (BrokenPipeError, ConnectionError):
            self.close_connection = True  # the client stopped reading: what it should do
            return False

    def send_json(self, status, obj):
        self.send(status, json.dumps(obj, ensure_ascii=False))

    # ---------------------------------------------------------------- CoinGecko routes

    def answer(self, path, query):
        """The route's normal (status, body), stamped with the current time in live mode."""
        status, body = self.recorded_answer(path, query)
        if self.state.live and status == 200:
            now = time.time()
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".000Z"
            body = re.sub(r'("last_updated"\s*:\s*)"[^"]*"', lambda m: m.group(1) + '"' + stamp + '"', body)
            body = re.sub(r'("updated_at"\s*:\s*)-?[0-9]+', lambda m: m.group(1) + str(int(now)), body)
        return status, body

    def recorded_answer(self, path, query):
        """The route's recorded (status, body): fixture, route override, or a CoinGecko error."""
        override = self.state.route_override(path)
        is_range = path.startswith(COIN_PREFIX) and path.endswith(RANGE_SUFFIX)
        if (path in (MARKETS, SIMPLE_PRICE) or is_range) and query.get("precision") != "full":
            return 422, PRECISION_ERROR
        if path == MARKETS:
            if not query.get("vs_currency"):
                return 422, '{"error":"Missing parameter vs_currency"}'
            status, universe = 200, self.state.markets
            if override:
                status = override["status"] or 200
                universe = override["body"] if override["body"] is not None else universe
            return status, self.markets(universe, query)
        if override:
            normal = self.fixture(path, query)
            return (override["status"] or normal[0],
                    override["body"] if override["body"] is not None else normal[1])
        return self.fixture(path, query)

    def fixture(self, path, query):
        if path == API + "/global":
            return 200, self.state.global_body
        if path == SIMPLE_PRICE:
            return self.simple_price(query)
        if path.startswith(COIN_PREFIX) and path.endswith(RANGE_SUFFIX):
            return self.market_chart_range(unquote(path[len(COIN_PREFIX):-len(RANGE_SUFFIX)]), query)
        if path.startswith(COIN_PREFIX) and path.endswith(CHART_SUFFIX):
            return self.market_chart(unquote(path[len(COIN_PREFIX):-len(CHART_SUFFIX)]), query)
        if path.startswith(COIN_PREFIX) and "/" not in path[len(COIN_PREFIX):] \
                and path != COIN_PREFIX:
            coin_id = unquote(path[len(COIN_PREFIX):])  # decoded exactly once
            if coin_id in self.state.details:
                return 200, json.dumps(self.state.details[coin_id], ensure_ascii=False)
            return 404, '{"error":"coin not found"}'
        return 404, '{"error":"Not Found"}'

    def market_chart(self, coin_id, query):
        """The chart of coin_id from market_charts.json, whatever days and interval say; more
        than 365 days (or max) without a pro key is CoinGecko's 401 with error code 10012."""
        if "/" in coin_id or not coin_id:
            return 404, '{"error":"Not Found"}'
        if not query.get("vs_currency"):
            return 422, '{"error":"Missing parameter vs_currency"}'
        days = query.get("days", "")
        if not days:
            return 422, '{"error":"Missing parameter days"}'
        pro = "x-cg-pro-api-key" in {name.lower() for name in self.headers.keys()}
        if not pro and (days == "max" or (days.isdigit() and int(days) > PLAN_DAYS)):
            return 401, TIME_RANGE_ERROR
        if coin_id not in self.state.charts:
            return 404, '{"error":"coin not found"}'
        return 200, json.dumps(self.state.charts[coin_id])

    def market_chart_range(self, coin_id, query):
        """Points of coin_id between from and to (UNIX seconds) built from price_history.json,
        spaced as CoinGecko spaces them: 5 minutes when the range starts within a day of now,
        hourly up to 90 days, daily at 00:00 UTC beyond; never after now. A range starting more
        than 365 days ago without a pro key is CoinGecko's 401 with error code 10012."""
        if "/" in coin_id or not coin_id:
            return 404, '{"error":"Not Found"}'
        for name in ("vs_currency", "from", "to"):
            if not query.get(name):
                return 422, '{"error":"Missing parameter %s"}' % name
        try:
            start, end = float(query["from"]), float(query["to"])
        except ValueError:
            return 422, '{"error":"Invalid parameter from or to"}'
        now = time.time()
        pro = "x-cg-pro-api-key" in {name.lower() for name in self.headers.keys()}
        if not pro and start < now - PLAN_DAYS * DAY_S:
            return 401, TIME_RANGE_ERROR
        if coin_id not in self.state.price_history:
            return 404, '{"error":"coin not found"}'
        rule = self.state.price_history[coin_id].get(query["vs_currency"].lower())
        prices, caps, volumes = [], [], []
        if rule is not None:
            for t in range_times(start, min(end, now), now):
                price = significant(rule["price"] + rule["per_hour"] * (int(t) % DAY_S // HOUR_S))
                prices.append([t * 1000, price])
                caps.append([t * 1000, significant(price * 1_000_000)])
                volumes.append([t * 1000, significant(price * 10_000)])
        return 200, json.dumps({"prices": prices, "market_caps": caps, "total_volumes": volumes})

    def simple_price(self, query):
        """The asked ids found in simple_price.json, each with the asked currencies and, when
        include_24hr_change / include_last_updated_at are true, those keys; unknown ids are left
        out of the answer, as CoinGecko does."""
        ids = [i.strip() for i in query.get("ids", "").split(",") if i.strip()]
        if not ids:
            return 422, '{"error":"Missing parameter ids"}'
        currencies = [c.strip() for c in query.get("vs_currencies", "").split(",") if c.strip()]
        if not currencies:
            return 422, '{"error":"Missing parameter vs_currencies"}'
        answer = {}
        for coin_id in ids:
            known = self.state.simple_prices.get(coin_id)
            if known is None:
                continue
            entry = {}
            for code in currencies:
                for key in (code, code + "_24h_change"):
                    if key in known and (key == code or query.get("include_24hr_change") == "true"):
                        entry[key] = known[key]
            if "last_updated_at" in known and query.get("include_last_updated_at") == "true":
                entry["last_updated_at"] = known["last_updated_at"]
            answer[coin_id] = entry
        return 200, json.dumps(answer)

    @staticmethod
    def markets(universe, query):
        """Filter the universe by ids, then slice by per_page/page; non-arrays pass unchanged."""
        elements = split_json_array(universe)
        if elements is None:
            return universe
        all_elements = elements
        ids = {i.strip() for i in query.get("ids", "").split(",") if i.strip()}
        if ids:
            elements = [e for e in elements if isinstance(e[0], dict) and e[0].get("id") in ids]
        per_page = int_param(query, "per_page", 100, 1, 250)
        page = int_param(query, "page", 1, 1, 10**9)
        chosen = elements[(page - 1) * per_page: page * per_page]
        if len(chosen) == len(all_elements):
            return universe  # nothing filtered out: the body exactly as stored
        return "[" + ",".join(raw for _, raw in chosen) + "]"

    # ---------------------------------------------------------------- control routes

    def control(self, path, body):
        state = self.state
        if path == "/__control/log":
            with state.lock:
                return self.send_json(200, {"requests": list(state.log)})
        if path == "/__control/counts":
            with state.lock:
                names = [endpoint_name(entry["path"]) for entry in state.log]
            return self.send_json(200, {"counts": dict(collections.Counter(names))})
        if path == "/__control/reset":
            state.reset()
            return self.send_json(200, {"ok": True})
        if path == "/__control/live":
            try:
                live = json.loads(body or b"{}").get("live", True)
            except (ValueError, AttributeError):
                return self.send_json(400, {"error": "expected a JSON object"})
            with state.lock:
                state.live = bool(live)
            return self.send_json(200, {"ok": True})
        if path not in ("/__control/fault", "/__control/route"):
            return self.send_json(404, {"error": "Not Found"})
        try:
            spec = json.loads(body or b"{}")
            target = spec["path"]
            times, delay_ms = int(spec.get("times", 1)), int(spec.get("delay_ms") or 0)
            if not isinstance(target, str):
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError):
            return self.send_json(400, {"error": "expected a JSON object with a string \"path\""})
        payload = spec.get("body")
        if spec.get("error_code") is not None:  # CoinGecko's error body in the shape asked for
            shape = spec.get("error_shape", "status")
            if shape not in ERROR_SHAPES:
                return self.send_json(400, {"error": f"error_shape must be one of {list(ERROR_SHAPES)}"})
            payload = coingecko_error(spec["error_code"], spec.get("error_message", "error"), shape)
        if payload is not None and not isinstance(payload, str):
            payload = json.dumps(payload)  # convenience: a JSON value is sent as its text
        if isinstance(spec.get("array_of"), str):  # a big JSON array: the element `count` times
            payload = "[" + ",".join([spec["array_of"]] * int(spec.get("count", 1))) + "]"
        if isinstance(spec.get("pad_bytes"), int):  # the body followed by that many spaces (still JSON)
            payload = (payload or "") + " " * spec["pad_bytes"]
        if path == "/__control/route":
            with state.lock:
                state.routes[target] = {"status": spec.get("status"), "body": payload}
            return self.send_json(200, {"ok": True})
        if times != 0:  # times 0 would never answer anything; ignore it
            fault = {"times": -1 if times < 0 else times, "status": spec.get("status"),
                     "headers": spec.get("headers") or {}, "body": payload,
                     "truncate": bool(spec.get("truncate")), "close": bool(spec.get("close")),
                     "delay_ms": delay_ms, "gzip": bool(spec.get("gzip")),
                     "bomb_bytes": int(spec.get("bomb_bytes") or 0), "encoding": spec.get("encoding"),
                     "hold_ms": int(spec.get("hold_ms") or 0)}
            with state.lock:
                state.faults[target].append(fault)
        return self.send_json(200, {"ok": True})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # suites hammer the server from many threads at once

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)  # real bugs still show on stderr


def watch_stdin():
    """Exit the whole process once stdin reaches end of file (the runner went away)."""
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description="Loopback CoinGecko API v3 stand-in")
    parser.add_argument("--port", type=int, default=0, help="0 picks any free port")
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin reaches EOF (start with stdin as a pipe)")
    args = parser.parse_args()

    Handler.state = State(args.fixtures)
    server = Server(("127.0.0.1", args.port), Handler)
    print(f"PORT={server.server_address[1]}", flush=True)
    if args.exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
