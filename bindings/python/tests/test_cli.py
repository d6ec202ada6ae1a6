"""coinfolio-cli end to end against the loopback CoinGecko server (issue: the main job)."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest
from conftest import REPO, cli_binary



@pytest.fixture
def cli(server, tmp_path):
    """Runs coinfolio-cli with a fresh database, the loopback server and NO_COLOR."""
    binary = cli_binary()
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url)
    env.pop("COINFOLIO_API_KEY", None)

    def run(*args: str, **overrides: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(binary), *args], env={**env, **overrides}, capture_output=True, text=True, timeout=60)

    return run


def test_home_prints_statistics_and_top_coins(cli):
    result = cli("home", "--limit", "5")
    assert result.returncode == 0, result.stderr
    for expected in ("Market Cap: $2.58Tr +1.20%", "24h Volume: $342.00Bn", "BTC Dominance: 42.50%",
                     "Portfolio Value: $0.00", "Bitcoin", "$57,000.123", "+2.15%"):
        assert expected in result.stdout
    assert "\x1b[" not in result.stdout, "NO_COLOR and a pipe print no colours"
    assert any(ch in result.stdout for ch in "▁▂▃▄▅▆▇█"), "a sparkline of the 7-day prices"


def test_set_then_portfolio_shows_value_and_total(cli):
    assert cli("set", "bitcoin", "0.5").returncode == 0
    assert cli("set", "ethereum", "2").returncode == 0
    result = cli("portfolio")
    assert result.returncode == 0, result.stderr
    assert "$28,500.06" in result.stdout and "$7,857.10" in result.stdout
    assert "Total: $36,357.16" in result.stdout
    assert cli("set", "ethereum", "0").returncode == 0
    assert "Ethereum" not in cli("portfolio").stdout


def test_detail_search_and_json(cli):
    detail = cli("detail", "bitcoin")
    assert detail.returncode == 0, detail.stderr
    for expected in ("Overview", "Current Price: $57,000.123", "Additional Details", "Hashing Algorithm: SHA-256",
                     "Website: https://bitcoin.org"):
        assert expected in detail.stdout
    search = cli("search", "weth")
    assert search.returncode == 0 and "Binance-Peg WETH" in search.stdout and "2 matches" in search.stdout
    listing = json.loads(cli("search", "doge", "--json").stdout)
    assert [c["id"] for c in listing["coins"]] == ["dogecoin", "baby-doge-coin"]


def test_load_then_offline_answers_without_network(cli, tmp_path):
    fixtures = REPO / "Tests" / "fixtures" / "coingecko"
    loaded = cli("load", str(fixtures / "markets.json"), str(fixtures / "global.json"))
    assert loaded.returncode == 0 and "loaded 12 coins" in loaded.stdout
    offline = cli("home", "--offline", COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    assert offline.returncode == 0 and "Market Cap: $2.58Tr" in offline.stdout


def test_network_down_shows_saved_snapshot_as_stale(cli):
    assert cli("home").returncode == 0
    down = cli("home", COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    assert down.returncode == 0
    assert "refresh failed" in down.stderr and "stale as of" in down.stdout


def test_network_down_without_data_says_how_to_get_it(cli):
    result = cli("home", COINFOLIO_BASE_URL="http://127.0.0.1:9/api/v3")
    assert result.returncode == 1
    assert "no usd market data yet" in result.stderr and "load" in result.stderr
    assert "`coinfolio-cli home`" in result.stderr


@pytest.mark.parametrize("args, code, message", [
    (("set", "bitcoin", "lots"), 2, "amount must be a decimal number"),
    # Read exactly: 1e-400 was the double 0 and removed the holding; 22 fraction digits were
    # rounded to 1; 17 significant digits are more than a holding (a double) keeps.
    (("set", "bitcoin", "1e-400"), 2, "amount must be a decimal number"),
    (("set", "bitcoin", "1.0000000000000000000001"), 2, "at most 18 fraction digits"),
    (("set", "bitcoin", "0.30000000000000001"), 2, "more digits than a holding keeps"),
    (("set", "no-such-coin", "1"), 1, "unknown coin"),
    (("detail", "no-such-coin"), 1, "unknown coin"),
    (("--frobnicate",), 2, "unknown option"),
    (("teleport",), 2, "unknown command"),
    (("set", "a/b", "1"), 2, "coin id"),
    (("set", "bitcoin", "0x10"), 2, "amount must be a decimal number"),
    (("set", "bitcoin", "nan"), 2, "amount must be a decimal number"),
    (("load", "/etc/hostname"), 1, "/etc/hostname: malformed JSON"),
    (("--offline", "detail", "bitcoin"), 1, "nothing saved for bitcoin"),
    (("--json", "bogus"), 2, "unknown command"),
])
def test_errors_are_one_line_and_nonzero(cli, args, code, message):
    result = cli(*args)
    assert result.returncode == code, result.stderr
    assert message in result.stderr.splitlines()[0]


@pytest.mark.parametrize("args, code, line", [
    (("detail", "no-such-coin"), 1,
     'coinfolio-cli: unknown coin "no-such-coin": use its CoinGecko id (for example bitcoin, not btc)'),
    (("chart", "no-such-coin"), 1,
     'coinfolio-cli: unknown coin "no-such-coin": use its CoinGecko id (for example bitcoin, not btc)'),
    (("detail", "Bitcoin"), 2,
     'coinfolio-cli: coin id "Bitcoin" has upper-case letters or surrounding spaces, which no CoinGecko id has; '
     'did you mean "bitcoin"?'),
    (("version", "extra"), 2, "coinfolio-cli: version takes no arguments"),
    (("home", "extra"), 2, "coinfolio-cli: home takes no arguments"),
    (("load", "/"), 1, "coinfolio-cli: cannot read /: it is a folder, not a file"),
    (("load", "/nonexistent-coinfolio/markets.json"), 1,
     "coinfolio-cli: cannot read /nonexistent-coinfolio/markets.json: no such file"),
    (("chart", "bitcoin", "--svg", "/nonexistent-coinfolio/btc.svg"), 2,
     "coinfolio-cli: cannot write /nonexistent-coinfolio/btc.svg: there is no folder /nonexistent-coinfolio"),
])
def test_what_a_newcomer_mistypes_gets_a_message_saying_what_to_do(cli, args, code, line):
    result = cli(*args)
    assert result.returncode == code, result.stderr
    assert result.stderr.splitlines() == [line]


def test_a_404_from_a_wrong_base_url_is_not_called_an_unknown_coin(cli, server):
    result = cli("detail", "bitcoin", COINFOLIO_BASE_URL=server.base_url.replace("/api/v3", "/wrong"))
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "coinfolio-cli: not found (HTTP 404): Not Found"


def test_load_reads_a_pipe(cli):
    binary_input = (REPO / "Tests" / "fixtures" / "coingecko" / "markets.json").read_text()
    result = subprocess.run([str(cli_binary()), "--db", ":memory:", "load", "/dev/stdin"], input=binary_input,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "loaded 12 coins\n"


def test_an_offline_engine_creates_no_folder_of_its_own(cli, tmp_path):
    data_home = tmp_path / "xdg"
    data_home.mkdir()
    database = tmp_path / "offline.sqlite"
    result = cli("--offline", "--db", str(database), "portfolio", XDG_DATA_HOME=str(data_home))
    assert result.returncode == 0, result.stderr
    assert list(data_home.iterdir()) == [], "no request was made, so Foundation's cookie folder must not appear"


def test_control_characters_in_market_data_never_reach_the_terminal(cli, tmp_path):
    body = tmp_path / "evil.json"
    body.write_text('[{"id":"evil","symbol":"\\u0007\\u001b[31m","name":"\\u001b[2J evil","current_price":1,"market_cap_rank":1}]')
    assert cli("load", str(body)).returncode == 0
    result = cli("--offline", "home")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil" in result.stdout


# --- Ledger commands (SPEC §12) --------------------------------------------------------------------


def _worked_example(cli) -> None:
    markets = '[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":400}]'
    assert cli("--offline", "buy", "bitcoin", "1", "--price", "100", "--fee", "1", "--at", "2024-01-01").returncode == 0
    assert cli("--offline", "buy", "bitcoin", "1", "--price", "200", "--at", "2024-01-02T00:00:00Z").returncode == 0
    sold = cli("--offline", "sell", "bitcoin", "1.5", "--price", "300", "--fee", "3", "--at", "2024-01-03T02:00:00+02:00")
    assert sold.returncode == 0, sold.stderr
    return markets


def test_buy_sell_pnl_and_transactions(cli, tmp_path):
    markets = _worked_example(cli)
    (tmp_path / "m.json").write_text(markets)
    assert cli("load", str(tmp_path / "m.json")).returncode == 0
    pnl = cli("--offline", "pnl")
    assert pnl.returncode == 0, pnl.stderr
    assert "$246.00" in pnl.stdout and "$100.00" in pnl.stdout
    assert "$221.25" in cli("--offline", "pnl", "--method", "average").stdout
    assert "$196.50" in cli("--offline", "pnl", "--method", "lifo").stdout
    report = json.loads(cli("--offline", "--json", "pnl").stdout)
    assert report["coins"][0]["realized_pnl"] == 246
    listed = cli("--offline", "transactions").stdout
    assert "2024-01-03T00:00:00Z" in listed, "--at with an offset is stored in UTC"
    short = cli("--offline", "sell", "bitcoin", "5", "--price", "1")
    assert short.returncode == 1 and "short by 4.5" in short.stderr
    assert cli("--offline", "buy", "bitcoin", "1,5", "--price", "1").returncode == 2


def test_export_then_import_and_portfolio_option(cli, tmp_path):
    _worked_example(cli)
    exported = tmp_path / "out.csv"
    assert cli("--offline", "export", str(exported)).returncode == 0
    text = exported.read_bytes().decode()
    assert text.startswith(
        "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id\r\n")
    again = cli("import", str(exported))
    assert again.returncode == 0 and "skipped 3" in again.stdout
    moved = tmp_path / "moved.csv"
    moved.write_bytes(text.replace(",main,", ",binance,").encode())
    assert "imported 3" in cli("import", str(moved)).stdout
    assert json.loads(cli("--offline", "--json", "--portfolio", "binance", "transactions").stdout)["total"] == 3
    bad = tmp_path / "bad.csv"
    bad.write_text("timestamp;portfolio;coin_id;kind;amount\n")
    refused = cli("import", str(bad))
    assert refused.returncode == 1 and ";" in refused.stderr and "line 1" in refused.stderr
    # --all: every portfolio's rows in one file, each naming its portfolio; into a fresh
    # database it restores both portfolios (3 rows each), and back into this one it skips all 6.
    everything = tmp_path / "all.csv"
    assert cli("--offline", "export", str(everything), "--all").returncode == 0
    rows = everything.read_bytes().decode().splitlines()[1:]
    assert sorted(row.split(",")[1] for row in rows) == ["binance"] * 3 + ["main"] * 3
    assert "skipped 6" in cli("import", str(everything)).stdout
    # --all with --portfolio would ignore the portfolio: refused (exit 2), no file written.
    both = cli("--offline", "export", str(tmp_path / "both.csv"), "--all", "--portfolio", "binance")
    assert both.returncode == 2 and "--all or --portfolio" in both.stderr
    assert not (tmp_path / "both.csv").exists()
    fresh = {"COINFOLIO_DB": str(tmp_path / "fresh.sqlite")}
    assert "imported 6" in cli("import", str(everything), **fresh).stdout
    for name in ("main", "binance"):
        assert json.loads(cli("--offline", "--json", "--portfolio", name, "transactions", **fresh).stdout)["total"] == 3


IMPORTS = REPO / "Tests" / "fixtures" / "imports"


def test_import_an_exchange_file_dry_run_then_for_real(cli, tmp_path):
    """SPEC §18 from the command line: a dry run prints the rows it would write and writes
    nothing; the import says what it ignored and warned about; a re-import skips everything."""
    sample = str(IMPORTS / "coinbase-v4.csv")
    dry = cli("import", sample, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "dry run of coinbase v4: would import 10 transactions; nothing was written" in dry.stdout
    assert any(" buy " in line and "bitcoin" in line and "$43,000.00" in line for line in dry.stdout.splitlines())
    assert json.loads(cli("--offline", "--json", "transactions").stdout)["total"] == 0
    real = cli("import", sample)
    assert real.returncode == 0, real.stderr
    assert "coinbase v4: imported 10 transactions" in real.stdout
    assert "line 8: a deposit of USD is money, not a coin" in real.stdout
    assert "line 12: Coinbase type \"Retail Staking Transfer\"" in real.stdout
    assert "skipped 10 already there" in cli("import", sample).stdout
    answer = json.loads(cli("--json", "import", str(IMPORTS / "kraken-ledgers-wallet.csv"), "--portfolio", "kraken").stdout)
    assert (answer["format"], answer["variant"], answer["imported"]) == ("kraken", "ledgers_wallet", 5)


def test_import_symbols_and_formats(cli, tmp_path):
    bond = tmp_path / "bond.csv"
    bond.write_text(
        "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,"
        "Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n2024-05-01 00:00 UTC,,,10,BOND,,,20,USD,,,\n")
    refused = cli("import", str(bond))
    assert refused.returncode == 1
    assert "nothing was imported" in refused.stderr and "BOND: no coin of the snapshot has it" in refused.stderr
    assert "--symbol SYMBOL=ID" in refused.stderr
    assert "\\u000A" not in refused.stderr and refused.stderr.count("\n") > 1, "the list's line breaks are kept"
    listed = cli("import", str(bond), "--dry-run")
    assert listed.returncode == 0 and "unknown symbols" in listed.stdout and "BOND" in listed.stdout
    resolved = cli("import", str(bond), "--symbol", "BOND=barnbridge", "--format", "koinly")
    assert resolved.returncode == 0 and "koinly universal: imported 1 transaction" in resolved.stdout
    assert "barnbridge" in cli("--offline", "transactions").stdout
    other = cli("import", str(bond), "--format", "kraken")
    assert other.returncode == 1 and "not one of kraken's" in other.stderr
    assert cli("import", str(bond), "--format", "mtgox").returncode == 2
    assert cli("import", str(bond), "--symbol", "BOND").returncode == 2
    semicolons = tmp_path / "semi.csv"
    semicolons.write_text("Date(UTC);Pair;Side;Price;Executed;Amount;Fee\n")
    split = cli("import", str(semicolons))
    assert split.returncode == 1 and "line 1: the separator must be a comma" in split.stderr


def test_import_draws_a_progress_bar_on_long_files(tmp_path):
    rows = [
        f"cb-{n:05d},2024-01-01 {n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d} UTC,Receive,BTC,0.001,USD,$40000,$40,$40,$0,"
        for n in range(3000)
    ]
    long_file = tmp_path / "long.csv"
    long_file.write_text((IMPORTS / "coinbase-v4.csv").read_text(encoding="utf-8").splitlines()[0] + "\n" + "\n".join(rows) + "\n")
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"))
    result, drawn = stderr_on_a_terminal([str(cli_binary()), "import", str(long_file)], env)
    assert result.returncode == 0
    text = drawn.decode("utf-8")
    assert "import   1000" in text, "rows read, before the total is known"
    assert "import   [####################] 3000/3000" in text
    assert text.endswith("\r\x1b[K")
    assert b"imported 3000 transactions" in result.stdout


def test_trade_move_income_and_fees_in_coins(cli, tmp_path):
    """SPEC §16 from the command line: the BNB fee, the swap, a move, income, hifo."""
    assert cli("buy", "binancecoin", "1", "--price", "300", "--at", "2024-01-01").returncode == 0
    bought = cli("--json", "buy", "bitcoin", "1", "--price", "40000", "--fee", "0.01", "--fee-coin", "binancecoin",
                 "--fee-price", "310", "--at", "2024-01-02")
    assert bought.returncode == 0, bought.stderr
    assert json.loads(bought.stdout)["fee_coin_id"] == "binancecoin"
    swapped = cli("trade", "0.5", "bitcoin", "10", "ethereum", "--value", "30000", "--at", "2024-01-03")
    assert swapped.returncode == 0, swapped.stderr
    assert "sell 0.5 bitcoin at $60,000.00" in swapped.stdout and "buy 10 ethereum at $3,000.00" in swapped.stdout
    assert cli("trade", "0.5", "bitcoin", "10", "usd").returncode == 2, "fiat ↔ coin is a buy or a sell"
    income = cli("income", "ethereum", "0.1", "--type", "staking", "--price", "3000", "--at", "2024-01-04")
    assert income.returncode == 0, income.stderr
    assert cli("income", "ethereum", "0.1").returncode == 2
    assert cli("income", "ethereum", "0.1", "--type", "salary").returncode == 2
    # A portfolio to move to: the README's way.
    assert "no portfolio named \"cold\"" in cli("move", "ethereum", "5", "--from", "main", "--to", "cold").stderr
    created = cli("portfolios", "add", "cold")
    assert created.returncode == 0 and "created portfolio cold (usd)" in created.stdout, created.stderr
    assert cli("portfolios", "add", "cold").returncode == 2, "a name already taken"
    assert cli("portfolios", "remove", "cold").returncode == 2
    assert json.loads(cli("--json", "portfolios").stdout) == {
        "portfolios": [{"name": "cold", "vs_currency": "usd"}, {"name": "main", "vs_currency": "usd"}]}
    moved = cli("move", "ethereum", "5", "--from", "main", "--to", "cold", "--received", "4.9", "--at", "2024-01-05")
    assert moved.returncode == 0, moved.stderr
    assert "4.9 arrived" in moved.stdout
    short = cli("move", "ethereum", "50", "--from", "main", "--to", "cold")
    assert short.returncode == 1 and "short by" in short.stderr
    assert cli("move", "ethereum", "1", "--to", "cold").returncode == 2
    report = json.loads(cli("--offline", "--json", "pnl").stdout)
    btc = next(c for c in report["coins"] if c["coin_id"] == "bitcoin")
    assert btc["fees"] == 3.1 and report["totals"]["income"] == 300
    cold = json.loads(cli("--offline", "--json", "--portfolio", "cold", "pnl", "--method", "hifo").stdout)
    assert next(c for c in cold["coins"] if c["coin_id"] == "ethereum")["cost_basis"] == 15000
    listed = cli("--offline", "transactions").stdout
    assert "0.01 binancecoin" in listed and " fee " in listed


def test_pnl_is_coloured_by_sign_on_a_terminal_unless_no_color(cli, tmp_path):
    import pty

    _worked_example(cli)
    cli("--offline", "buy", "ethereum", "1", "--price", "10", "--at", "2024-01-01")
    cli("--offline", "sell", "ethereum", "1", "--price", "4", "--at", "2024-01-02")

    def on_terminal(**env: str) -> str:
        master, slave = pty.openpty()
        environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        environment.update(COINFOLIO_DB=str(tmp_path / "cli.sqlite"), TERM="xterm", **env)
        process = subprocess.Popen([str(cli_binary()), "--offline", "pnl"], stdout=slave, stderr=slave, env=environment)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
        os.close(master)
        return b"".join(chunks).decode()

    coloured = on_terminal()
    assert "\x1b[32m$246.00\x1b[0m" in coloured  # bitcoin's realized gain in green
    assert "\x1b[31m-$6.00\x1b[0m" in coloured  # ethereum's realized loss in red
    assert "\x1b[" not in on_terminal(NO_COLOR="1")
# --- charts (SPEC §11) ---------------------------------------------------------------------------

BRAILLE = range(0x2801, 0x2900)


def test_chart_draws_braille_in_a_utf8_locale_within_the_width(cli):
    result = cli("chart", "bitcoin", COLUMNS="70", LANG="C.UTF-8", LC_ALL="", LC_CTYPE="")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "bitcoin, 7 days"
    assert any(ord(ch) in BRAILLE for ch in result.stdout)
    assert all(len(line) <= 70 for line in lines), lines
    assert "$103,500.75 ┤" in result.stdout and " $99,500.25 ┤" in result.stdout
    assert "2024-12-12 10:40" in result.stdout and "2024-12-12 15:40" in result.stdout
    assert lines[-5:] == ["First  $100,000.00", "Last   $103,500.75", "Change +$3,500.75 +3.50%",
                          "Low    $99,500.25 at 2024-12-12 13:40", "High   $103,500.75 at 2024-12-12 15:40"]


def test_chart_degrades_to_ascii_without_utf8(cli):
    result = cli("chart", "ethereum", COLUMNS="60", LANG="C", LC_ALL="", LC_CTYPE="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.isascii(), "ASCII only without a UTF-8 locale"
    assert "*" in result.stdout and " | " in result.stdout
    assert "Change -$199.75 -4.99%" in result.stdout.splitlines()


def test_chart_days_beyond_the_plan_are_clamped_and_svg_is_written(cli, server, tmp_path):
    svg = tmp_path / "btc.svg"
    result = cli("chart", "bitcoin", "--days", "400", "--svg", str(svg), LANG="C.UTF-8")
    assert result.returncode == 0, result.stderr
    assert "bitcoin, 365 days (the plan allows 365 days)" in result.stdout
    assert server.requests_to("/coins/bitcoin/market_chart")[0]["query"]["days"] == "365"
    from test_charts import svg_check
    report = svg_check.check(svg)
    assert report["texts"][0] == "bitcoin, 365 days"
    assert report["colours"]["#16c784"]["count"] > 100


def test_chart_json_and_bad_days(cli):
    result = cli("chart", "boringdao-[old]", "--json")
    assert result.returncode == 0, result.stderr
    chart = json.loads(result.stdout)
    assert chart["points"] == [] and chart["summary"]["first"] is None
    assert cli("chart", "bitcoin", "--days", "0").returncode == 2
    assert cli("chart", "no-such-coin").returncode == 1


def test_portfolio_history_charts_the_week(cli, tmp_path):
    assert cli("set", "bitcoin", "0.5").returncode == 0
    assert cli("set", "tether", "100").returncode == 0
    svg = tmp_path / "week.svg"
    result = cli("portfolio", "--history", "--svg", str(svg), COLUMNS="80", LANG="C.UTF-8")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Portfolio, 7 days"
    assert "2024-12-12" in result.stdout and "2024-12-19" in result.stdout
    # Prices as NumberFormat.price prints them (at least 2 decimals; more per its rules).
    assert any(line.startswith("First  $28,397.96") for line in result.stdout.splitlines())
    assert any(line.startswith("Last   $28,600.08") for line in result.stdout.splitlines())
    assert "146 of 170 hours miss the price of some coin" in result.stdout
    assert svg.read_text(encoding="utf-8").startswith("<?xml")
    # --svg: the library's renderer, round ticks from the complete last day, partial hours noted.
    from test_charts import svg_check
    assert svg_check.check(svg)["texts"] == [
        "Portfolio, 7 days", "Dashed: 146 of 170 points miss a holding\u2019s price",
        "$28,800.00", "$28,700.00", "$28,600.00", "$28,500.00", "$28,400.00",
        "2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"]
def stderr_on_a_terminal(command, env):
    """Runs `command` with stderr on a pseudo-terminal (stdout piped): the finished process and
    every byte drawn on the terminal."""
    import pty

    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=terminal, timeout=60)
        os.close(terminal)
        terminal = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        if terminal >= 0:
            os.close(terminal)
        os.close(controller)
    return result, drawn


def test_progress_bar_is_drawn_on_a_terminal_stderr_only(server, tmp_path):
    binary = cli_binary()
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url)
    result, drawn = stderr_on_a_terminal([str(binary), "home", "--limit", "1"], env)
    assert result.returncode == 0
    text = drawn.decode("utf-8")
    assert "markets  [####################] 1/1" in text
    assert "global   [####################] 1/1" in text
    assert text.endswith("\r\x1b[K"), "the bar is cleared before the output"
    assert b"markets" not in result.stdout


def test_no_progress_bar_when_stderr_is_not_a_terminal(cli):
    result = cli("home", "--limit", "1")
    assert result.returncode == 0
    assert result.stderr == ""


def test_help_gives_the_days_the_parser_takes_and_the_plans_limit(cli):
    result = cli("--help")
    assert result.returncode == 0
    assert "(days 1…36500 or max, default 7;" in result.stdout
    assert "the public and demo plans stop at 365)" in result.stdout


def test_a_commands_help_is_its_own_usage(cli):
    """`import --help` (and `help import`) print import's forms and the shared options, not every
    command; `help` of no command is refused."""
    for args in (("import", "--help"), ("import", "file.csv", "-h"), ("help", "import")):
        result = cli(*args)
        assert result.returncode == 0, (args, result.stderr)
        assert list(help_forms(result.stdout)) == ["import"], args
        assert "--symbol SYMBOL=ID" in result.stdout and "--db PATH" in result.stdout
    assert len(help_forms(cli("--help").stdout)) > 10
    result = cli("help", "nothing")
    assert (result.returncode, result.stderr) == (2, 'coinfolio-cli: unknown command "nothing" (see coinfolio-cli --help)\n')


def help_forms(text: str) -> Dict[str, List[str]]:
    """The command lines of ``--help``: command name → its forms (the text after the name)."""
    forms: Dict[str, List[str]] = {}
    section = text.split("commands:\n", 1)[1].split("\noptions:", 1)[0]
    for line in section.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            words = line[2:].split("  ", 1)[0].strip()
            name, _, form = words.partition(" ")
            forms.setdefault(name, []).append(form)
    return forms


def test_json_errors_give_the_error_json_on_stdout(cli, tmp_path):
    """With --json a refusal prints the library's error JSON (the C ABI's out_error) on stdout,
    and the message on stderr as without it."""
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("x,y,z\n1,2,3\n")
    result = cli("--offline", "--json", "import", str(unknown))
    assert result.returncode == 1 and "no format Coinfolio reads" in result.stderr
    error = json.loads(result.stdout)
    assert (error["code"], error["details"]["reason"], error["details"]["header"]) == ("invalid_argument", "unknown_format", ["x", "y", "z"])
    short = cli("--offline", "--json", "sell", "bitcoin", "5", "--price", "1")
    assert short.returncode == 1 and json.loads(short.stdout)["details"]["short_by"] == 5
    nowhere = cli("--offline", "--portfolio", "zzz", "transactions")
    assert nowhere.returncode == 1 and 'no portfolio named "zzz"' in nowhere.stderr, "as pnl says it"
    nowhere = cli("--offline", "--json", "--portfolio", "zzz", "transactions")
    assert nowhere.returncode == 1 and json.loads(nowhere.stdout) == json.loads(cli("--offline", "--json", "--portfolio", "zzz", "pnl").stdout)
    assert json.loads(nowhere.stdout)["details"]["portfolio"] == "zzz"
    assert "no transactions yet" in cli("--offline", "transactions").stdout
    taken = cli("--json", "portfolios", "add", "main")
    assert taken.returncode == 0
    again = cli("--json", "portfolios", "add", "main")
    assert again.returncode == 2 and json.loads(again.stdout)["code"] == "invalid_argument"


def test_income_with_a_pending_price_is_unknown_not_zero(cli):
    """SPEC §16/§17: a pending price makes a figure unknown with its coverage, never 0; the CLI's
    totals lines say so (before, they printed $0.00)."""
    assert cli("income", "ethereum", "0.1", "--type", "staking", "--at", "2024-01-04").returncode == 0
    assert "Income: n/a (price pending)" in cli("--offline", "pnl").stdout
    assert "Income: n/a from 1 transaction, 1 with a pending price (left out)" in cli("--offline", "realized").stdout
    assert cli("income", "ethereum", "0.1", "--type", "staking", "--price", "3000", "--at", "2024-01-05").returncode == 0
    assert "Income: $300.00 (50.00% priced, the rest pending)" in cli("--offline", "pnl").stdout
    assert "Income: $300.00 from 2 transactions, 1 with a pending price (left out)" in cli("--offline", "realized").stdout


def test_a_sale_at_a_pending_price_is_unknown_not_zero(cli):
    """SPEC §17: a sale without a price is pending, so its realized P&L is unknown, never $0.00 (a
    new user's finding: `pnl` printed REALIZED $0.00 and `realized` Gain and Proceeds $0.00). The
    JSON keeps its shapes: realized_pnl 0 over no known unit with realized_coverage 0."""
    assert cli("buy", "bitcoin", "1", "--price", "100", "--at", "2024-01-01").returncode == 0
    assert cli("sell", "bitcoin", "0.5", "--at", "2024-01-02").returncode == 0
    pnl = cli("--offline", "pnl").stdout
    row = next(line for line in pnl.splitlines() if line.startswith("bitcoin"))
    assert row.split()[-1] == "n/a" and "$0.00" not in row, row
    assert "Realized: n/a" in pnl
    coin = json.loads(cli("--offline", "--json", "pnl").stdout)["coins"][0]
    assert (coin["realized_pnl"], coin["realized_coverage"]) == (0, 0)
    realized = cli("--offline", "realized").stdout
    assert "Gain: n/a  short term n/a, long term n/a  Proceeds: n/a  Cost: n/a" in realized  # the row's cost is in the table
    assert "100.00% of the rows have no known gain" in realized
    # A second sale at a price: its part is known, the pending one's is not.
    assert cli("sell", "bitcoin", "0.25", "--price", "300", "--at", "2024-01-03").returncode == 0
    pnl = cli("--offline", "pnl").stdout
    assert "$50.00 (33.33% known)" in pnl and "Realized: $50.00 (part unknown)" in pnl
    assert "Gain: $50.00" in cli("--offline", "realized").stdout


def test_each_commands_usage_is_the_one_help_lists(cli):
    """Each command owns its usage; --help is made from those, so a wrong operand count prints
    the very form --help shows (before, buy and sell left out the --note that --help listed)."""
    forms = help_forms(cli("--help").stdout)
    assert set(forms) == {"home", "portfolio", "chart", "set", "detail", "search", "load", "buy", "sell", "trade", "move",
                          "income", "portfolios", "transactions", "pnl", "performance", "realized", "import", "export", "price",
                          "set-price", "fill-prices", "version"}
    fee = "[--fee F [--fee-coin ID [--fee-price P]]]"
    assert forms["buy"] == [f"COIN AMOUNT [--price P] {fee} [--at TIME] [--note TEXT]"]
    assert forms["sell"] == [f"COIN AMOUNT [--price P] {fee} [--at TIME] [--note TEXT]"]
    assert forms["trade"] == [f"AMOUNT COIN AMOUNT COIN [--value V] {fee} [--at TIME] [--note TEXT]"]
    assert forms["move"] == ["COIN AMOUNT --from P --to Q [--received R] [--at TIME] [--note TEXT]"]
    assert forms["portfolio"] == ["", "--history [--svg FILE]"]
    assert forms["portfolios"] == ["add NAME", ""]
    assert (forms["price"], forms["set-price"], forms["fill-prices"]) == (
        ["COIN [--at TIME]"], ["COIN PRICE|none [--at TIME]"], ["[--max-requests N]"])
    assert forms["pnl"] == ["[--method fifo|lifo|hifo|lofo|average|uk]"]
    assert (forms["performance"], forms["realized"]) == (
        ["[--range 24h|7d|30d|90d|1y|ytd|max|FROM..TO] [--benchmark COIN] [--svg FILE]"],
        ["[--year Y] [--method fifo|lifo|hifo|lofo|average|uk] [--tax-free-after N] [--csv]"])
    assert forms["import"] == ["FILE [--format F] [--dry-run] [--symbol SYMBOL=ID]…"]
    too_many = ["x"] * 5
    for name, (first, *_) in forms.items():
        result = cli(name, *too_many)
        assert result.returncode == 2, name
        expected = f"usage: coinfolio-cli {name} {first}" if first else f"{name} takes no arguments"
        assert expected in result.stderr, (name, result.stderr)


def test_every_option_help_names_is_one_the_parser_takes(cli):
    text = cli("--help").stdout
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text))
    assert {"--price", "--fee", "--fee-coin", "--fee-price", "--value", "--from", "--to", "--received", "--type", "--at", "--note",
            "--method", "--days", "--svg", "--history", "--max-requests", "--range", "--benchmark", "--year",
            "--tax-free-after", "--csv", "--format", "--dry-run", "--symbol", "--db", "--json"} <= named
    for option in sorted(named - {"--help"}):
        result = cli("version", option, "x")
        assert "unknown option" not in result.stderr, option
    assert "unknown option --nope" in cli("version", "--nope").stderr


# --- offline truth (issue 18) ----------------------------------------------------------------

FIXTURES = REPO / "Tests" / "fixtures" / "coingecko"


def test_a_loaded_old_body_shows_its_own_time_and_is_stale(cli):
    assert cli("load", str(FIXTURES / "markets.json"), str(FIXTURES / "global.json")).returncode == 0
    result = cli("--offline", "home", "--limit", "3")
    assert result.returncode == 0, result.stderr
    assert "stale as of 2024-12-19T10:44:55Z" in result.stdout
    loaded = json.loads(cli("--json", "load", str(FIXTURES / "markets.json")).stdout)
    assert loaded["as_of"] == "2024-12-19T10:44:55Z" and loaded["stale"] is True and loaded["fetched_at"] > "2025"


def test_another_currency_without_data_says_so_and_exits_1_when_it_shows_nothing(cli):
    assert cli("load", str(FIXTURES / "markets.json")).returncode == 0
    assert cli("--offline", "set", "bitcoin", "0.5").returncode == 0
    result = cli("--offline", "--vs-currency", "jpy", "portfolio")
    assert result.returncode == 0, "the holdings are still shown"
    assert "Total: n/a" in result.stdout and "¥0" not in result.stdout
    assert "no jpy market data yet" in result.stderr
    assert "`coinfolio-cli --vs-currency jpy home`" in result.stderr
    as_json = cli("--offline", "--vs-currency", "jpy", "--json", "portfolio")
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout)["total_value"] is None
    home = cli("--offline", "--vs-currency", "jpy", "home")
    assert home.returncode == 1 and "no jpy market data yet" in home.stderr
    usd = cli("--offline", "portfolio")
    assert usd.returncode == 0 and "Total: $28,500.06" in usd.stdout, "the usd snapshot is still there"


def test_a_total_says_how_many_holdings_it_leaves_out(cli):
    assert cli("load", str(FIXTURES / "markets.json")).returncode == 0
    assert cli("--offline", "set", "bitcoin", "0.5").returncode == 0
    assert cli("--offline", "set", "not-a-listed-coin", "10").returncode == 0
    result = cli("--offline", "portfolio")
    assert result.returncode == 0, result.stderr
    assert "Total: $28,500.06 (1 holding without a price)" in result.stdout
    assert json.loads(cli("--offline", "--json", "portfolio").stdout)["unpriced_holdings"] == 1
    assert cli("--offline", "set", "0.1-token", "1").returncode == 0
    assert "(2 holdings without a price)" in cli("--offline", "portfolio").stdout


def test_offline_detail_shows_what_it_has_and_says_what_is_missing(cli):
    assert cli("load", str(FIXTURES / "markets.json")).returncode == 0
    result = cli("--offline", "detail", "bitcoin")
    assert result.returncode == 0, result.stderr
    assert "Current Price: $57,000.123 +2.15%" in result.stdout
    assert "no saved description of bitcoin" in result.stdout and "`coinfolio-cli detail bitcoin`" in result.stdout
    statistics = json.loads(cli("--offline", "--json", "detail", "bitcoin").stdout)
    assert set(statistics) == {"coin", "overview", "additional"}
    assert cli("detail", "bitcoin").returncode == 0  # online: fetched and saved
    saved = cli("--offline", "detail", "bitcoin")
    assert saved.returncode == 0 and "Hashing Algorithm: SHA-256" in saved.stdout
    assert "no saved description" not in saved.stdout
    missing = cli("--offline", "detail", "dogecoin-classic")
    assert missing.returncode == 1 and "nothing saved for dogecoin-classic" in missing.stderr


def test_the_issue_total_example_reads_literally(cli, tmp_path):
    markets = tmp_path / "markets.json"
    markets.write_text('[{"id":"usd-coin","symbol":"usdc","name":"USDC","current_price":1,'
                       '"last_updated":"2025-04-01T00:00:00Z"}]')
    assert cli("load", str(markets)).returncode == 0
    assert cli("--offline", "set", "usd-coin", "8811.33").returncode == 0
    assert cli("--offline", "set", "delisted-coin", "3").returncode == 0
    result = cli("--offline", "portfolio")
    assert "Total: $8,811.33 (1 holding without a price)" in result.stdout
    assert "stale as of 2025-04-01T00:00:00Z" in result.stdout


def test_performance_shows_a_short_range_mwr_over_the_range_and_an_empty_range_says_so(cli):
    """Under a year the CLI shows the money-weighted rate over the range first, the yearly rate
    (SPEC §19's mwr) beside it (GIPS: a return for less than a year is not shown annualized
    alone). Worked by hand: 100 in at 1 on 2023-01-01, the price 1.10 thirty days later: over the
    range 110/100 − 1 = 10.00 %; a year 1.1^(365/30) − 1 = 218.87 %. A range over which nothing
    was held draws no flat $0.00 chart."""
    for day in range(1, 31):
        assert cli("set-price", "x", "1", "--at", f"2023-01-{day:02d}").returncode == 0
    assert cli("set-price", "x", "1.1", "--at", "2023-01-31").returncode == 0
    assert cli("buy", "x", "100", "--price", "1", "--at", "2023-01-01").returncode == 0
    month = cli("--offline", "performance", "--range", "2023-01-01..2023-01-31")
    assert month.returncode == 0, month.stderr
    assert "MWR          +10.00% over 30 days (+218.87% a year)" in month.stdout
    assert json.loads(cli("--offline", "--json", "performance", "--range", "2023-01-01..2023-01-31").stdout)["mwr"] == pytest.approx(218.868, abs=1e-3)
    before = cli("--offline", "performance", "--range", "2022-01-01..2022-12-01")
    assert "(nothing held over this range)" in before.stdout and "┤" not in before.stdout


def test_a_pending_rows_fee_is_shown_in_its_own_currency(cli, tmp_path):
    """A price in EUR not converted yet (no stored points) leaves the row pending with its fee
    still in EUR (SPEC §17): the table says €5.00, not $5.00."""
    euro = tmp_path / "euro.csv"
    euro.write_text(
        "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,"
        "Net Worth Amount,Net Worth Currency,Label,Description,TxHash\n2024-01-15 10:00:00,2000,EUR,0.05,BTC,5,EUR,,,,,\n")
    for args in (("import", str(euro), "--dry-run"), ("import", str(euro)), ("--offline", "transactions")):
        result = cli(*args)
        assert result.returncode == 0, result.stderr
        if args[0] == "import" and len(args) == 2:
            continue  # a real import prints no table
        row = next(line for line in result.stdout.splitlines() if " buy " in line)
        assert "pending" in row and "€5.00" in row and "$" not in row, row
