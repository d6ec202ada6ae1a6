"""The example hosts run and print the statistics; the header and the library agree."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import coinfolio
from conftest import PACKAGE_ROOT, REPO, child_env
from test_charts import svg_check


def test_python_example_prints_statistics_and_portfolio(server, tmp_path):
    chart = tmp_path / "week.svg"
    env = dict(child_env(), COINFOLIO_BASE_URL=server.base_url, COINFOLIO_DB=":memory:",
               COINFOLIO_CHART_SVG=str(chart))
    result = subprocess.run([sys.executable, str(PACKAGE_ROOT / "examples" / "portfolio.py")],
                            env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"Week: {chart} (170 hourly points, " in result.stdout
    assert svg_check.check(chart)["colours"]["#16c784"]["count"] > 100
    assert "Market Cap: $2.58Tr (+1.20%)" in result.stdout
    assert "Portfolio Value: $28,500.06" in result.stdout
    assert "Total: $28,500.06" in result.stdout


def test_c_example_prints_statistics_and_portfolio(server, tmp_path):
    example = REPO / "bindings" / "c" / "build" / "example"
    if not example.exists():
        pytest.skip("bindings/c/build/example is not built: run `make`")
    chart = tmp_path / "bitcoin.svg"
    env = dict(os.environ, COINFOLIO_BASE_URL=server.base_url, COINFOLIO_DB=str(tmp_path / "example.sqlite"),
               COINFOLIO_CHART_SVG=str(chart))
    result = subprocess.run([str(example)], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"Chart: {chart} ($103,500.75, 3.50% over 7 days)" in result.stdout
    report = svg_check.check(chart)
    assert report["texts"][0] == "Bitcoin, 7 days"
    assert report["colours"]["#16c784"]["count"] > 100
    assert "Market Cap: $2.58Tr" in result.stdout
    assert "$28,500.06" in result.stdout


def _check_exports() -> ModuleType:
    """Tests/packaging/check_exports.py, the one comparison of the header with the exports."""
    path = REPO / "Tests" / "packaging" / "check_exports.py"
    spec = importlib.util.spec_from_file_location("check_exports", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_header_declares_exactly_the_exported_symbols():
    """Both ways and exactly: every function of the header is exported, and nothing else is (no
    Swift symbol, no linker symbol): `nm -D --defined-only` lists the header's functions."""
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not installed")
    check = _check_exports()
    declared = check.declared_functions((REPO / "include" / "coinfolio.h").read_text(encoding="utf-8"))
    exported = check.exported_symbols(coinfolio.library_path)
    assert "cf_abi_version" in declared and "cf_progress_fn" not in declared
    assert exported == declared, "\n".join(check.differences(exported, declared))
