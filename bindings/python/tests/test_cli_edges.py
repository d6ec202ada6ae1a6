"""coinfolio-cli, issue 31: unknown changes, outside text made safe for a terminal, private files."""
from __future__ import annotations

import os
import re
import subprocess
from typing import Callable, List

import pytest
from conftest import cli_binary

Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def cli(server, tmp_path) -> Run:
    """Runs coinfolio-cli with a fresh database, the loopback server and NO_COLOR."""
    binary = cli_binary()
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url)
    env.pop("COINFOLIO_API_KEY", None)

    def run(*args: str, **overrides: str) -> "subprocess.CompletedProcess[str]":
        return subprocess.run([str(binary), *args], env={**env, **overrides}, capture_output=True, text=True, timeout=60)

    return run


def cells(output: str, symbol: str) -> List[str]:
    """The cells of the table row whose SYMBOL column is `symbol` (columns are 2+ spaces apart)."""
    for line in output.splitlines():
        row = re.split(r"\s{2,}", line.strip())
        if symbol in row[:2]:
            return row
    raise AssertionError(f"no row for {symbol} in:\n{output}")


def test_an_unknown_24h_change_is_a_dash(cli: Run) -> None:
    home = cli("home", "--limit", "20")
    assert home.returncode == 0, home.stderr
    assert cells(home.stdout, "CUSDT")[-1] == "-", "compound-usdt's price_change_percentage_24h is null"
    assert cells(home.stdout, "BTC")[-2] == "+2.15%"
    assert cli("set", "compound-usdt", "3").returncode == 0
    portfolio = cli("portfolio")
    assert portfolio.returncode == 0, portfolio.stderr
    assert cells(portfolio.stdout, "CUSDT") == ["CUSDT", "cUSDT", "3", "no price", "-"]
