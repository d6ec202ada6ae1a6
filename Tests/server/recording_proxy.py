#!/usr/bin/env python3
"""A forward HTTP proxy on 127.0.0.1 that records what reaches it, for the proxy tests (issue 31,
finding 2: loopback never goes through a proxy, and a key never goes to one in clear text).

    python3 Tests/server/recording_proxy.py --log FILE [--forward-to HOST:PORT]

binds 127.0.0.1 on a free port, prints one line ``PORT=<n>``, and appends one JSON line to FILE
per request that reaches it: ``{"method", "target" (the request target: an absolute URL, or
host:port for CONNECT), "headers" (names lower-case)}``. A plain request (``GET http://…``) is
forwarded to --forward-to (default: answered 502 by the proxy itself) whatever host it names, so
a client using the proxy for a made-up host gets the loopback server's answer. CONNECT (the
tunnel https takes through a proxy) is recorded and refused with 502: the test sees what a proxy
learns before any TLS, which is the host and the headers, never a key. Exits when stdin closes.
Python standard library only.
"""

import argparse
import http.client
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from coingecko_server import watch_stdin  # this folder: exits when stdin closes


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = ""
    forward_to = None  # (host, port) or None
    lock = threading.Lock()

    def log_message(self, fmt, *args):  # keep stderr quiet
        pass

    def record(self):
        entry = {"method": self.command, "target": self.path,
                 "headers": {name.lower(): value for name, value in self.headers.items()}}
        with self.lock, open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")

    def refuse(self):
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def do_CONNECT(self):
        self.record()
        self.refuse()

    def do_GET(self):
        self.record()
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.forward_to is None:
            return self.refuse()
        target = urlsplit(self.path)
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        upstream = http.client.HTTPConnection(*self.forward_to, timeout=30)
        try:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "host")}
            upstream.request("GET", path, headers=headers)
            answer = upstream.getresponse()
            body = answer.read()
        except OSError:
            return self.refuse()
        finally:
            upstream.close()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description="A recording forward proxy on 127.0.0.1")
    parser.add_argument("--log", required=True, help="file that gets one JSON line per request")
    parser.add_argument("--forward-to", help="HOST:PORT plain requests are forwarded to")
    args = parser.parse_args()
    Proxy.log_path = args.log
    if args.forward_to:
        host, _, port = args.forward_to.rpartition(":")
        Proxy.forward_to = (host, int(port))
    open(args.log, "a").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    print(f"PORT={server.server_address[1]}", flush=True)
    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
