"""examples/dashboard.py against hostile requests: odd methods, traversal and odd coin paths."""

from __future__ import annotations

import http.client
import urllib.parse
from typing import Tuple

from test_dashboard import dashboard  # noqa: F401  (the fixture)


def request(url: str, method: str, path: str) -> Tuple[int, str, str]:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheader("Allow") or "", response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_every_method_but_get_and_head_is_405(dashboard, server):  # noqa: F811
    # Before: OPTIONS, TRACE, PROPFIND and unknown methods got http.server's 501 page.
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "FOO"):
        status, allow, body = request(dashboard.url, method, "/")
        assert (status, allow, body) == (405, "GET, HEAD", ""), method
    assert request(dashboard.url, "HEAD", "/")[:2] == (200, "")


def test_odd_coin_paths_are_404_and_never_leave_the_coin_route(dashboard, server):  # noqa: F811
    server.reset()
    for path in ("/coin/..%2f..%2fglobal", "/coin/%2e%2e", "/coin/.", "/coin/a%2fb", "/coin/" + "a" * 200,
                 "/coin/%00", "/coin/%", "/../../etc/passwd", "/coin/%ff%fe"):
        status, _, body = request(dashboard.url, "GET", path)
        assert status == 404, path
        assert "<script" not in body
    # Ids the library refuses (".", "..", "/", too long, NUL) make no request; the others go as
    # one percent-encoded path segment.
    assert [entry["path"] for entry in server.log()] == ["/api/v3/coins/%25", "/api/v3/coins/%EF%BF%BD%EF%BF%BD"]
