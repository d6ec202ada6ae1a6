"""The facts include/coinfolio.h states and the binding repeats: the status codes (number and
code string), the ``details.reason`` values and the ABI version. The header is the reference;
these fail when Python differs."""
from __future__ import annotations

import re
from typing import Dict, List, Tuple

import pytest

import coinfolio
from coinfolio import _ffi, errors
from conftest import REPO

HEADER = REPO / "include" / "coinfolio.h"


def header_statuses() -> Dict[str, Tuple[int, str]]:
    """``#define CF_NAME N /**< "code" …`` lines of the header: macro → (number, code string)."""
    text = HEADER.read_text(encoding="utf-8")
    found = re.findall(r'#define\s+(CF_[A-Z_]+)\s+(-?\d+)\s*/\*\*<\s*"([a-z_]+)"', text)
    return {macro: (int(number), code) for macro, number, code in found}


def header_abi_version() -> int:
    match = re.search(r"#define\s+CF_ABI_VERSION\s+(\d+)", HEADER.read_text(encoding="utf-8"))
    assert match, "CF_ABI_VERSION is defined in include/coinfolio.h"
    return int(match.group(1))


def test_status_table_is_the_headers() -> None:
    declared = header_statuses()
    assert len(declared) >= 11 and declared["CF_OK"] == (0, "ok"), declared
    binding = {errors.CF_OK: "ok"}
    binding.update({cls.STATUS: cls.CODE for cls in errors._BY_STATUS.values()})
    header = dict(declared.values())
    missing = {number: code for number, code in header.items() if binding.get(number) != code}
    assert not missing, (
        f"include/coinfolio.h has statuses {missing} that coinfolio/errors.py does not: add a "
        "CoinfolioError subclass with STATUS and CODE for each, listed in _BY_STATUS"
    )
    assert binding == header, f"coinfolio/errors.py has statuses the header lacks: {set(binding) - set(header)}"


def test_each_status_raises_its_class() -> None:
    for macro, (number, code) in header_statuses().items():
        if number == errors.CF_OK:
            continue
        error = errors.error_for_status(number)
        assert (error.status, error.code, error.STATUS, error.CODE) == (number, code, number, code), macro
    assert isinstance(errors.error_for_status(1), coinfolio.InvalidArgument)
    assert isinstance(errors.error_for_status(10), coinfolio.InternalError)


def test_abi_version_is_the_headers() -> None:
    assert _ffi.ABI_VERSION == coinfolio.ABI_VERSION == header_abi_version() == 1
    assert coinfolio.abi_version() == header_abi_version()


def header_reasons() -> List[Tuple[str, str, str]]:
    """``#define CF_REASON_NAME "value" /**< when */`` lines of the header, in order."""
    text = HEADER.read_text(encoding="utf-8")
    return re.findall(r'#define\s+(CF_REASON_[A-Z0-9_]+)\s+"([a-z0-9_]+)"\s*/\*\*<\s*(.*?)\s*\*/', text)


def test_reasons_are_the_headers() -> None:
    declared = header_reasons()
    assert len(declared) >= 20, "the header's CF_REASON_* list did not parse"
    assert [reason.value for reason in errors.Reason] == [value for _, value, _ in declared], (
        "coinfolio.Reason, in order, is the header's CF_REASON_* list: add each new value to both"
    )
    for macro, value, when in declared:
        assert macro == "CF_REASON_" + value.upper()
        assert errors.Reason[value.upper()].value == value, macro
        assert when.startswith("CF_"), f"{macro} says with which status it comes, first"


def header_detail_keys() -> List[Tuple[str, str, str]]:
    """``#define CF_DETAIL_NAME "key" /**< what it holds */`` lines of the header, in order."""
    text = HEADER.read_text(encoding="utf-8")
    return re.findall(r'#define\s+(CF_DETAIL_[A-Z0-9_]+)\s+"([a-z0-9_]+)"\s*/\*\*<\s*(.*?)\s*\*/', text)


def test_detail_keys_are_the_headers() -> None:
    declared = header_detail_keys()
    assert len(declared) >= 30, "the header's CF_DETAIL_* list did not parse"
    assert [key.value for key in errors.DetailKey] == [key for _, key, _ in declared], (
        "coinfolio.DetailKey, in order, is the header's CF_DETAIL_* list: add each new key to both"
    )
    for macro, key, holds in declared:
        assert macro == "CF_DETAIL_" + key.upper()
        assert errors.DetailKey[key.upper()].value == key, macro
        assert holds, f"{macro} says what it holds"


def test_details_the_library_gives_use_listed_keys(tmp_path) -> None:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        coinfolio.decode_global("[1,]")
    listed = {key.value for key in errors.DetailKey}
    assert caught.value.details[errors.DetailKey.OFFSET.value] == 3
    assert set(caught.value.details) <= listed


def test_a_reason_reaches_python_as_a_reason(tmp_path) -> None:
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        coinfolio.decode_global("[1,]")
    assert caught.value.reason is coinfolio.Reason.MALFORMED_JSON
    assert caught.value.details["reason"] == "malformed_json" == coinfolio.Reason.MALFORMED_JSON
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        coinfolio.Store(f"file:{tmp_path}/x.sqlite")
    assert caught.value.reason is coinfolio.Reason.SQLITE_URI
    assert errors.error_for_status(8, details={"reason": "not-a-reason"}).reason is None
    assert errors.error_for_status(8).reason is None

