"""coinfolio-cli, issue 31: unknown changes, outside text made safe for a terminal, private files."""
from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

import pytest
from conftest import REPO, cli_binary

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


# --- Outside text on a terminal (finding 5) ---------------------------------------------------

RETITLE = "\x1b]0;pwned\x07"  # ESC ] 0 ; title BEL: sets the terminal's title
CLEAR = "\x1b[2J"  # ESC [ 2 J: clears the screen
CSI = "\x9b2J"  # the same as one C1 control (U+009B), which some terminals obey


def assert_no_control(result: "subprocess.CompletedProcess[str]") -> None:
    for stream, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        controls = sorted({c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F})
        assert not controls, f"{stream} holds control characters {controls!r}: {text!r}"


def test_a_server_error_message_cannot_retitle_or_clear_the_terminal(cli: Run, server) -> None:
    server.fault(path="/api/v3/coins/markets", times=-1, status=500,
                 body=json.dumps({"error": f"down{RETITLE}{CLEAR}{CSI}now"}))
    result = cli("home")
    assert result.returncode == 1
    assert_no_control(result)
    assert "refresh failed: HTTP 500: down\\u001B]0;pwned\\u0007\\u001B[2J\\u009B2Jnow" in result.stderr


def test_detail_fields_from_the_server_are_made_visible(cli: Run, server) -> None:
    detail = json.loads((REPO / "Tests/fixtures/coingecko/details.json").read_text())["bitcoin"]
    detail["hashing_algorithm"] = f"SHA{RETITLE}-256"
    detail["name"] = f"Bitcoin{CSI}"
    detail["description"]["en"] = f"Line one{CLEAR}\nline two"
    detail["links"]["homepage"] = [f"https://bitcoin.org/{RETITLE}"]
    server.route(path="/api/v3/coins/bitcoin", body=json.dumps(detail))
    result = cli("detail", "bitcoin")
    assert result.returncode == 0, result.stderr
    assert_no_control(result)
    assert "Hashing Algorithm: SHA\\u001B]0;pwned\\u0007-256" in result.stdout
    assert "Bitcoin\\u009B2J" in result.stdout
    assert "Line one\\u001B[2J\nline two" in result.stdout, "a description keeps its line breaks"
    assert "Website: https://bitcoin.org/\\u001B]0;pwned\\u0007" in result.stdout
    as_json = cli("detail", "bitcoin", "--json")
    assert_no_control(as_json)
    assert json.loads(as_json.stdout)["detail"]["name"] == f"Bitcoin{CSI}", "the same JSON value"


def test_coin_names_are_made_visible_in_tables_and_json(cli: Run, server) -> None:
    server.route(path="/api/v3/coins/markets", body=json.dumps(
        [{"id": "evil", "symbol": f"ev{CLEAR}", "name": f"Evil{RETITLE}{CSI}", "current_price": 1,
          "market_cap_rank": 1}]))
    home = cli("home")
    assert home.returncode == 0, home.stderr
    assert_no_control(home)
    assert "Evil\\u001B]0;pwned\\u0007\\u009B2J" in home.stdout
    search = cli("search", "evil", "--json", "--offline")
    assert_no_control(search)
    assert json.loads(search.stdout)["coins"][0]["name"] == f"Evil{RETITLE}{CSI}"


def test_a_csv_cell_echoed_in_an_import_error_is_made_visible(cli: Run, tmp_path) -> None:
    csv = tmp_path / "ledger.csv"
    csv.write_text("timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
                   f"2024-01-01,main,bitcoin,buy,1,\"1{CLEAR}{RETITLE}\",0,,\n")
    result = cli("import", str(csv))
    assert result.returncode == 1
    assert_no_control(result)
    assert '"1\\u001B[2J\\u001B]0;pwned\\u0007" is not a decimal number' in result.stderr


def test_importing_a_file_without_line_ends_is_refused_not_read_into_memory(cli: Run) -> None:
    # /dev/zero never ends and never breaks a line: its one "record" once grew without bound
    # (about 50 MB a second) until the host ran out of memory.
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    result = cli("import", "/dev/zero", "--dry-run")
    assert result.returncode == 1
    assert "line 1" in result.stderr and "longer than 16 MiB" in result.stderr, result.stderr


def test_notes_are_made_visible_on_a_terminal_and_exported_exactly_through_a_pipe(cli: Run, tmp_path) -> None:
    note = f"cold{CLEAR}wallet"
    assert cli("buy", "bitcoin", "1", "--price", "100", "--at", "2024-01-01", "--note", note).returncode == 0
    listing = cli("transactions")
    assert_no_control(listing)
    assert "cold\\u001B[2Jwallet" in listing.stdout
    piped = cli("export")
    assert note in piped.stdout, "a pipe gets the exact CSV (it imports back unchanged)"
    # On a terminal (a pseudo-terminal here), the same export shows the note made visible.
    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("COINFOLIO_API_KEY",)}
    env.update(NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"))
    process = subprocess.Popen([str(cli_binary()), "export"], stdout=secondary, stderr=subprocess.PIPE, env=env)
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the terminal's other side closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(primary)
    assert process.wait(timeout=60) == 0
    text = seen.decode()
    assert "cold\\u001B[2Jwallet" in text
    assert "\x1b" not in text


# --- Files the CLI writes (finding 8) ---------------------------------------------------------


def test_export_and_svg_files_are_owner_only(cli: Run, tmp_path) -> None:
    assert cli("buy", "bitcoin", "1", "--price", "100", "--at", "2024-01-01").returncode == 0
    previous = os.umask(0o022)
    try:
        exported = cli("export", str(tmp_path / "ledger.csv"))
        chart = cli("chart", "bitcoin", "--svg", str(tmp_path / "btc.svg"))
    finally:
        os.umask(previous)
    assert exported.returncode == 0, exported.stderr
    assert chart.returncode == 0, chart.stderr
    for name in ("ledger.csv", "btc.svg"):
        assert (os.stat(tmp_path / name).st_mode & 0o777) == 0o600, name
    assert (tmp_path / "ledger.csv").read_text().startswith("timestamp,portfolio")
    assert (tmp_path / "btc.svg").read_text().startswith("<svg") or "<svg" in (tmp_path / "btc.svg").read_text()
    # An existing file is rewritten and keeps the mode its owner gave it.
    os.chmod(tmp_path / "ledger.csv", 0o644)
    assert cli("export", str(tmp_path / "ledger.csv")).returncode == 0
    assert (os.stat(tmp_path / "ledger.csv").st_mode & 0o777) == 0o644


def test_a_dangling_link_as_the_database_is_created_owner_only(cli: Run, tmp_path) -> None:
    (tmp_path / "data").mkdir()
    link = tmp_path / "linked.sqlite"
    link.symlink_to(tmp_path / "data" / "real.sqlite")
    previous = os.umask(0o022)
    try:
        result = cli("set", "bitcoin", "1", "--offline", COINFOLIO_DB=str(link))
    finally:
        os.umask(previous)
    assert result.returncode == 0, result.stderr
    assert (os.stat(tmp_path / "data" / "real.sqlite").st_mode & 0o777) == 0o600


def _offline(tmp_path: Path, *args: Union[str, bytes], env: Optional[Dict[str, str]] = None,
             **kwargs: Any) -> "subprocess.CompletedProcess[bytes]":
    environment = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "w.sqlite"), **(env or {}))
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([str(cli_binary()), "--offline", *args], env=environment, timeout=60, **streams)


def test_output_that_cannot_be_written_is_status_1_with_the_reason(tmp_path: Path) -> None:
    """A full disk: `try!` inside FileHandle ended the process (status 132, a backtrace) for
    `realized --csv`; `transactions` and `pnl` exited 0 with the answer lost (a breaker's finding)."""
    assert _offline(tmp_path, "buy", "bitcoin", "1", "--price", "100", "--at", "2024-01-01").returncode == 0
    for args in (("transactions",), ("pnl",), ("realized", "--csv"), ("export",), ("portfolios",)):
        with open("/dev/full", "wb") as full:
            result = _offline(tmp_path, *args, stdout=full, stderr=subprocess.PIPE)
        assert result.returncode == 1, (args, result.stderr)
        assert result.stderr.decode() == "coinfolio-cli: cannot write the output: No space left on device\n", args
    # An error message that cannot be written still gives its status, without a crash.
    with open("/dev/full", "wb") as full:
        assert _offline(tmp_path, "teleport", stdout=subprocess.PIPE, stderr=full).returncode == 2
    # An export file that cannot be written says so; a file it created is not left behind.
    result = _offline(tmp_path, "export", "/dev/full")
    assert result.returncode == 1
    assert result.stderr.decode() == "coinfolio-cli: cannot write /dev/full: No space left on device\n"


def test_arguments_and_variables_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 were replaced by U+FFFD and written: owners `alice\\xfe` and
    `alice\\xff` were one owner (a breaker's finding). Refused, status 2, nothing written."""
    for args in ((b"--owner", b"alice\xfe", b"transactions"), (b"buy", b"bitcoin\xff", b"1", b"--price", b"1"),
                 (b"buy", b"bitcoin", b"1", b"--price", b"1", b"--note", b"caf\xe9")):
        result = _offline(tmp_path, *args)
        assert result.returncode == 2, args
        assert b"is not valid UTF-8" in result.stderr
    result = _offline(tmp_path, "transactions", env={"COINFOLIO_OWNER": os.fsdecode(b"a\xff")})
    assert result.returncode == 2
    assert result.stderr.decode() == "coinfolio-cli: the environment variable COINFOLIO_OWNER is not valid UTF-8\n"
    assert not (tmp_path / "w.sqlite").exists()


def test_the_realized_total_is_unknown_when_no_sale_has_a_known_gain(tmp_path: Path) -> None:
    """A sale of units bought at a pending price has no known gain; a coin that sold nothing
    knows none either: the totals line said `Realized: $0.00 (part unknown)` (a new user's
    finding; README: n/a, never $0.00)."""
    for args in (("buy", "bitcoin", "1", "--at", "2024-01-01"),
                 ("sell", "bitcoin", "0.5", "--price", "50000", "--at", "2024-02-01"),
                 ("buy", "ethereum", "1", "--price", "2000", "--at", "2024-01-01")):
        assert _offline(tmp_path, *args).returncode == 0
    result = _offline(tmp_path, "pnl")
    assert result.returncode == 0, result.stderr
    assert "Realized: n/a  " in result.stdout.decode().splitlines()[-1]
    # Once ethereum sells at a known gain, the total is that gain, part unknown.
    assert _offline(tmp_path, "sell", "ethereum", "0.5", "--price", "2100", "--at", "2024-03-01").returncode == 0
    assert "Realized: $50.00 (part unknown)" in _offline(tmp_path, "pnl").stdout.decode().splitlines()[-1]
