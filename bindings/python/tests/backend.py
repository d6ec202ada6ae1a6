"""Where the store and engine tests keep their rows (not a test module).

The store and engine suites run twice: on SQLite (files in each test's temporary folder), and in
the PostgreSQL pass (``COINFOLIO_TEST_BACKEND=postgres``) on the cluster ``make test`` starts
(``COINFOLIO_TEST_POSTGRES_URL``). In that pass a SQLite location a test names (not a URL) becomes the
cluster's URL with an owner of its own: the path itself (unique per test), or a fresh owner for
``":memory:"``. The library under test is the real one either way.

Market data is one per database, shared by every owner, and a refresh asks for every owner's held
coins (SPEC §20): in the PostgreSQL pass the cluster's database is emptied (through ``psql``) when a
test first places a database in it, so that no test sees an earlier test's snapshot, details or
holdings (pytest runs one test at a time).
"""

from __future__ import annotations

import os
import subprocess
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


EMPTY_DATABASE = (
    "DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
    "AND tablename <> 'coinfolio_schema' LOOP EXECUTE format('DELETE FROM %I', t); END LOOP; END $$"
)


def empty_database_once(url: str) -> None:
    """Empties the cluster's database the first time the running test asks (see the module). The
    test that emptied it is kept in the environment, so that a helper process the test starts
    (which inherits both) never empties it again under the test."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    if os.environ.get("COINFOLIO_TEST_EMPTIED_FOR") == test:
        return
    os.environ["COINFOLIO_TEST_EMPTIED_FOR"] = test
    subprocess.run(["psql", "-q", "-X", "-d", url, "-c", EMPTY_DATABASE], check=True, capture_output=True)


def shared_url() -> str:
    """The cluster's URL for a test that opens several owners on one database itself."""
    url = postgres_url()
    empty_database_once(url)
    return url


def through_pgbouncer() -> bool:
    """True in the PostgreSQL pass through pgbouncer (transaction pooling, SPEC §20)."""
    return os.environ.get("COINFOLIO_TEST_THROUGH_PGBOUNCER") == "1"


def password_refused() -> str:
    """What refuses a wrong password: the server, or pgbouncer, which checks it first."""
    return "SASL authentication failed" if through_pgbouncer() else "password authentication failed"


def place(location: Any, owner: Optional[str]) -> Tuple[Any, Optional[str]]:
    """The (database, owner) a test's (location, owner) means in this pass."""
    if not postgres_pass() or owner is not None:
        return location, owner
    text = ":memory:" if location is None else os.fsdecode(os.fspath(location))
    if "://" in text:  # a URL, supported or not, is no SQLite location
        return location, owner
    url = postgres_url()
    empty_database_once(url)
    return url, (f"memory-{uuid.uuid4()}" if text == ":memory:" else text)
