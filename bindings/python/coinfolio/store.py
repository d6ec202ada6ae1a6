"""The portfolio store: the user's holdings in a durable SQLite file or on a PostgreSQL server."""

from __future__ import annotations

import os
from ctypes import byref
from typing import Any, Iterable, List, Mapping, Optional, Union

from . import _ffi
from ._handle import Handle
from .answers import Holding, HoldingsAnswer

__all__ = ["Store"]

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class Store(Handle):
    """Holdings, one row per owner and CoinGecko coin id, in a SQLite file (WAL,
    synchronous=FULL) or on a PostgreSQL server.

    ``Store(":memory:")`` is a private in-memory store; ``Store("postgresql://user:pw@host/db",
    owner="alice")`` keeps alice's rows on a server shared by many owners. Every write that
    returns is committed and durable. Several threads and processes may write one database at
    once. A store sees only its owner's rows (``owner`` defaults to ``"default"``).

    ``database_timeout`` (seconds, a positive finite number; None is the library's default, 30)
    bounds every wait on the database. On PostgreSQL each round trip (connecting, preparing,
    running a statement, BEGIN, COMMIT, ROLLBACK) must be answered within it: a server that
    does not answer (a frozen process, a lock another connection holds) makes the call raise
    StoreError with ``exc.details["reason"] == "timeout"`` and a message naming the seconds; the
    query is cancelled, its transaction wrote nothing (unless the timeout fell on its COMMIT,
    which the server may have applied), and the next call reconnects. On SQLite it is the busy
    timeout: how long a write waits for another connection's lock.

    ``read_database`` (a ``postgresql://`` URL of a hot standby of ``path``) sends reads there;
    after its own write the store reads from ``path`` until the standby has replayed it, and
    while the standby cannot be reached reads go to ``path`` (SPEC §20).

    Raises (constructor):
        InvalidArgument: a bad path (invalid UTF-8), owner (empty, over 256 bytes, control
            characters), ``database_timeout`` (not a positive finite number;
            ``details["field"] == "database_timeout"``) or ``read_database`` (no PostgreSQL URL,
            or beside a SQLite file: ``details["field"] == "read_database"``).
        StoreError: the database cannot be opened (the server's message, never the password),
            is not a database, has a newer schema, or did not answer within
            ``database_timeout`` (``details["reason"] == "timeout"``).
        TypeError: ``database_timeout`` is not a number.
    """

    def __init__(
        self,
        path: PathArg,
        owner: Optional[str] = None,
        database_timeout: Optional[float] = None,
        read_database: Optional[str] = None,
    ) -> None:
        out = _ffi.cf_store_p()
        if owner is None and database_timeout is None and read_database is None:
            encoded = _ffi.encode(os.fspath(path), "path")
            _ffi.lib.cf_store_open(encoded, byref(out), _ffi.error_slot())
        else:
            location = os.fsdecode(os.fspath(path))
            timeout = None if database_timeout is None else _ffi.to_double(database_timeout, "database_timeout")
            settings = _ffi.options(database=location, owner=owner, database_timeout=timeout, read_database=read_database)
            config = _ffi.encode_json(settings, "config")
            _ffi.lib.cf_store_open_v2(config, byref(out), _ffi.error_slot())
        super().__init__(out, _ffi.lib.cf_store_close)

    def set_holding(self, coin_id: Union[str, bytes], amount: float) -> None:
        """Sets the amount (units of the coin) of ``coin_id`` held in the ``"main"`` portfolio, by
        recording a ``transfer_in`` or ``transfer_out`` of the difference in the ledger.

        ``amount > 0`` sets the holding; ``amount <= 0`` empties it (never inserts). The float is
        taken at its shortest round-trip decimal (``0.1`` is 0.1), rounded half to even to 18
        fraction digits, the ledger's unit (``1.5e-18`` holds 2e-18, ``1.23456789e-12`` holds
        1.234568e-12); send a :meth:`Engine.add_transaction` for an amount that must be exact.

        Raises:
            InvalidArgument: a bad id (empty, over 128 bytes, control characters, ``/``, ``.``,
                ``..``, bad UTF-8, a comma: held ids are sent comma-joined), a NaN/±Inf amount, an
                amount below 1e-18 or above 8.5e19 units, or a
                decrease that would leave a later-dated sell short; nothing is written. An id with
                upper-case letters or surrounding spaces (``"Bitcoin"``, ``" bitcoin"``; no real
                CoinGecko id has either) is refused too, with the corrected id in
                ``exc.details["suggestion"]`` (``"bitcoin"``). A holding such an id left behind by
                an older version can still be removed with ``amount <= 0``.
            StoreError: the database failed; nothing is written.
        """
        encoded = _ffi.encode(coin_id, "coin_id")
        value = _ffi.to_double(amount, "amount")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_store_set_holding, pointer, encoded, value)

    def set_holdings(self, holdings: Iterable[Mapping[str, Any]]) -> None:
        """Sets several holdings in one durable transaction: all are written, or none.

        ``holdings`` is a sequence of ``{"coin_id": str, "amount": float}`` (units of the coin);
        each follows :meth:`set_holding`'s rules (``amount <= 0`` deletes) and an id may appear
        once. An empty sequence writes nothing.

        Raises:
            InvalidArgument: a bad id, a NaN/±Inf or non-number amount, a repeated id, or an
                entry without ``coin_id``/``amount``; ``details["index"]`` is the entry's
                position (when the library found it). Nothing is written.
            StoreError: SQLite failed; nothing is written.
            TypeError: ``holdings`` is not a sequence of mappings.
        """
        encoded = _ffi.encode_holdings(holdings)
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_store_set_holdings, pointer, encoded)

    def holdings(self) -> List[Holding]:
        """All holdings, ``[{"coin_id": "bitcoin", "amount": 0.5}, …]``, sorted by coin_id
        (bytewise).

        Raises:
            StoreError: SQLite failed.
        """
        with self._borrow() as pointer:
            answer: HoldingsAnswer = _ffi.call_json(_ffi.lib.cf_store_holdings, pointer)
        return list(answer["holdings"])
