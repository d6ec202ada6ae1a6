"""Where the store and engine tests keep their rows (not a test module).

The store and engine suites run twice: on SQLite (files in each test's temporary folder), and in
the PostgreSQL pass (``COINFOLIO_TEST_BACKEND=postgres``) on the cluster ``make test`` starts
(``COINFOLIO_TEST_POSTGRES_URL``). In that pass a SQLite location a test names (not a URL) becomes the
cluster's URL with an owner of its own: the path itself (unique per test), or a fresh owner for
``":memory:"``. The library under test is the real one either way.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Optional, Tuple

PASSWORD = "pw-Zebra-7781-quokka"


def postgres_pass() -> bool:
    """True in the PostgreSQL pass."""
    return os.environ.get("COINFOLIO_TEST_BACKEND") == "postgres"


def postgres_url() -> str:
    """The test cluster's URL; raises (a backend is never skipped) without one."""
    url = os.environ.get("COINFOLIO_TEST_POSTGRES_URL", "")
    if not url:
        raise RuntimeError("COINFOLIO_TEST_POSTGRES_URL is not set: run the suites through make test")
    return url


def place(location: Any, owner: Optional[str]) -> Tuple[Any, Optional[str]]:
    """The (database, owner) a test's (location, owner) means in this pass."""
    if not postgres_pass() or owner is not None:
        return location, owner
    text = ":memory:" if location is None else os.fsdecode(os.fspath(location))
    if "://" in text:  # a URL, supported or not, is no SQLite location
        return location, owner
    return postgres_url(), (f"memory-{uuid.uuid4()}" if text == ":memory:" else text)
