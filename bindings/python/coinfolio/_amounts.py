"""Exact amounts a host passes to the ledger and price calls (not a public module)."""

from __future__ import annotations

import decimal
from typing import Any, Optional, Union

#: An exact amount: a decimal string (``"0.1"``), a :class:`decimal.Decimal`, an int or a float.
Amount = Union[str, int, float, decimal.Decimal]


def decimal_payload(value: Optional[Amount], what: str) -> Any:
    """An amount for the JSON payload: Decimals travel as their exact text, floats as numbers."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number or a decimal string, not bool")
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"{what} must be a number or a decimal string, not {type(value).__name__}")

