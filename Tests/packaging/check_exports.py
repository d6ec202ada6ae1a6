#!/usr/bin/env python3
"""libcoinfolio.so exports exactly the functions include/coinfolio.h declares.

    check_exports.py LIBRARY [HEADER]

Compares `nm -D --defined-only LIBRARY` (every defined dynamic symbol, whatever its kind) with
the functions the header declares (comments left out), in both directions, and says what to do
about each difference. Exit status 0 when they are equal, 1 otherwise. The Python suite runs it on
the library it tests (make test: debug); `make check-exports` runs it on the release build.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set

REPO = Path(__file__).resolve().parent.parent.parent
HEADER = REPO / "include" / "coinfolio.h"

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_FUNCTION = re.compile(r"\b(cf_[A-Za-z0-9_]+)\s*\(")


def declared_functions(header_text: str) -> Set[str]:
    """The cf_* functions the header declares: a name followed by "(" outside comments (a
    function pointer type, `(*cf_progress_fn)(…)`, is not one)."""
    return set(_FUNCTION.findall(_COMMENT.sub(" ", header_text)))


def exported_symbols(library: str) -> Set[str]:
    """Every defined dynamic symbol of the library (`nm -D --defined-only`)."""
    nm = shutil.which("nm")
    if nm is None:
        raise FileNotFoundError("nm (binutils) is not installed")
    listing = subprocess.run([nm, "-D", "--defined-only", library], capture_output=True, text=True, check=True)
    return {line.split()[-1] for line in listing.stdout.splitlines() if line.split()}


def differences(exported: Set[str], declared: Set[str]) -> List[str]:
    """One line per difference, each saying what to change; empty when they are equal."""
    lines = []
    extra = sorted(exported - declared)
    for name in (name for name in extra if name.startswith("cf_")):
        lines.append(f"{name} is exported but include/coinfolio.h does not declare it: declare it there "
                     "(with its doc comment), or remove its @_cdecl thunk")
    others = [name for name in extra if not name.startswith("cf_")]
    if others:
        shown = ", ".join(others[:8]) + (f" and {len(others) - 8} more" if len(others) > 8 else "")
        lines.append(f"{len(others)} exported symbols are not cf_* functions ({shown}): the linker version "
                     "script Sources/CoinfolioABI/coinfolio.map (Package.swift) should keep them local")
    for name in sorted(declared - exported):
        lines.append(f"{name} is declared in include/coinfolio.h but not exported: add its "
                     f'@_cdecl("{name}") thunk in Sources/CoinfolioABI')
    return lines


def main(argv: List[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: check_exports.py LIBRARY [HEADER]", file=sys.stderr)
        return 2
    library = argv[1]
    if not Path(library).is_file():
        print(f"check_exports: {library} does not exist: build it first", file=sys.stderr)
        return 1
    header = Path(argv[2]) if len(argv) == 3 else HEADER
    declared = declared_functions(header.read_text(encoding="utf-8"))
    problems = differences(exported_symbols(library), declared)
    for line in problems:
        print(f"check_exports: {line}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_exports: {library} exports exactly the {len(declared)} functions of {header}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
