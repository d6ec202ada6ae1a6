"""coinfolio-cli performance and realized (SPEC §19) through the real CLI: SPEC §19's UK example
as a table and as CSV, the tax-free column, the performance summary with its missing days and
its SVG, bad options."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import cli_binary


@pytest.fixture
def cli(tmp_path):
    """Runs coinfolio-cli offline with a fresh database and NO_COLOR (these commands send nothing)."""
    binary = cli_binary()
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL="http://127.0.0.1:9")
    env.pop("COINFOLIO_API_KEY", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(binary), "--offline", *args], env=env, capture_output=True, text=True, timeout=60)

    return run


@pytest.fixture
def uk_example(cli):
    for args in (
        ("buy", "token", "1000", "--price", "4", "--fee", "150", "--at", "2024-01-01"),
        ("sell", "token", "700", "--price", "4.80", "--fee", "100", "--at", "2024-03-01"),
        ("buy", "token", "100", "--price", "4.50", "--at", "2024-03-10"),
    ):
        assert cli(*args).returncode == 0
    return cli


def test_realized_uk_table_and_csv(uk_example):
    result = uk_example("realized", "--method", "uk")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["DISPOSED", "COIN", "AMOUNT", "ACQUIRED", "DAYS", "TERM", "PROCEEDS", "COST", "GAIN"]
    assert lines[1].split() == ["2024-03-01", "token", "100", "2024-03-10", "0", "short", "$465.71", "$450.00", "$15.71"]
    assert lines[2].split() == ["2024-03-01", "token", "600", "2024-01-01", "60", "short", "$2,794.29", "$2,490.00", "$304.29"]
    assert lines[3].startswith("Gain: $320.00")
    csv = uk_example("realized", "--method", "uk", "--csv", "--year", "2024")
    assert csv.returncode == 0, csv.stderr
    rows = csv.stdout.splitlines()  # CRLF, read back as lines by text mode
    assert rows[0] == "description,acquired,disposed,proceeds,cost,gain,term"
    assert rows[1].startswith("100 token,2024-03-10,2024-03-01,465.714285714285714285714285714285714")
    assert rows[2].startswith("600 token,2024-01-01,2024-03-01,2794.28571428571428571428571428571428")
    assert json.loads(uk_example("--json", "realized", "--method", "uk").stdout)["totals"]["gain"] == 320
    assert "nothing was sold in 2023" in uk_example("realized", "--year", "2023").stdout


def test_realized_tax_free_column(cli):
    assert cli("buy", "bitcoin", "2", "--price", "100", "--at", "2020-02-29").returncode == 0
    assert cli("sell", "bitcoin", "1", "--price", "150", "--at", "2021-02-28").returncode == 0
    assert cli("sell", "bitcoin", "1", "--price", "150", "--at", "2021-03-01").returncode == 0
    result = cli("realized", "--tax-free-after", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[-1] == "TAX-FREE"
    assert lines[1].split()[-2:] == ["$50.00", "no"]
    assert lines[1].split()[5] == "short" and lines[2].split()[5] == "long"
    assert lines[2].split()[-1] == "yes"
    assert "Taxable: $50.00" in lines[3]


def test_performance_summary_missing_days_and_svg(uk_example, tmp_path):
    svg = tmp_path / "value.svg"
    result = uk_example("performance", "--range", "2024-01-01..2024-03-15", "--benchmark", "bitcoin", "--svg", str(svg))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "main" in out and "2024-01-01T00:00:00Z → 2024-03-15T00:00:00Z" in out
    assert "Net flows    +$1,340.00" in out, out
    assert "End value    n/a" in out and "TWR          n/a" in out
    assert "no stored price on" in out
    assert "Fill a day: price COIN --at DAY (stores CoinGecko's points of that day) or set-price COIN PRICE --at DAY" in out
    assert svg.read_text().startswith("<svg") or "<svg" in svg.read_text()[:200]
    answer = json.loads(uk_example("--json", "performance", "--range", "2024-01-01..2024-03-15").stdout)
    assert answer["net_flows"] == 1340 and answer["coverage"] < 1 and answer["missing"]


def test_performance_missing_days_filled_by_manual_prices(uk_example):
    """The hint's second way: a manual price of each missing UTC day (SPEC §17's rule, step 1)
    prices it. 400 tokens held (1000 − 700 + 100) at 4.60 and 4.80 → 1,840 and 1,920; no flow between."""
    short = ("performance", "--range", "2024-03-11..2024-03-13")
    before = json.loads(uk_example("--json", *short).stdout)
    assert before["coverage"] == 0
    assert [day["date"] for day in before["missing"]] == ["2024-03-11", "2024-03-12", "2024-03-13"]
    for day, price in (("2024-03-11", "4.60"), ("2024-03-12", "4.70"), ("2024-03-13", "4.80")):
        assert uk_example("set-price", "token", price, "--at", day).returncode == 0
    after = json.loads(uk_example("--json", *short).stdout)
    assert after["coverage"] == 1 and after["missing"] == []
    assert (after["start_value"], after["end_value"], after["gain"]) == (1840, 1920, 80)
    assert "Fill a day" not in uk_example(*short).stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("performance", "--range", "2y"), "--range must be 24h, 7d, 30d, 90d, 1y, ytd, max or FROM..TO"),
        (("performance", "--range", "2024-02-01..2024-01-01"), "range.to must come after range.from"),
        (("performance", "--range", "soon.."), "range.from must be RFC 3339"),
        (("performance", "--benchmark", "a/b"), "coin id may not contain \"/\""),
        (("realized", "--method", "fofi"), "--method must be fifo, lifo, hifo, lofo, average or uk"),
        (("realized", "--year", "nineteen"), "--year needs a whole number"),
        (("realized", "--year", "1969"), "year must be 1970…9998"),
    ],
)
def test_bad_options_say_what_is_wrong(cli, args, message):
    result = cli(*args)
    assert result.returncode == 2
    assert message in result.stderr


def test_an_option_the_command_does_not_read_is_refused(uk_example):
    """`sell … --dry-run` wrote the sale and `pnl --year` reported every year: an option a command
    does not read is bad usage (exit 2) and nothing is written."""
    before = uk_example("export").stdout
    for args, message in (
        (("sell", "token", "1", "--price", "5", "--dry-run"), "sell does not take --dry-run"),
        (("buy", "token", "1", "--price", "5", "--method", "lifo"), "buy does not take --method"),
        (("pnl", "--year", "2024"), "pnl does not take --year"),
    ):
        result = uk_example(*args)
        assert result.returncode == 2, result
        assert message in result.stderr
    assert uk_example("export").stdout == before
    # A value that looks like an option is a value; --help still answers.
    assert uk_example("buy", "token", "1", "--price", "5", "--note", "--dry-run", "--at", "2024-04-01").returncode == 0
    assert uk_example("buy", "--price", "5", "--help").stdout.startswith("usage:")


def test_an_option_given_twice_or_outside_its_form_is_refused(uk_example, tmp_path):
    """`buy … --price 5 --price 6` recorded 6 and `portfolio --svg FILE` (without --history) wrote
    no file, both with exit 0: an option that is not `--symbol` given twice (or one ticker given
    two coins), or one a command takes only in another form, is bad usage (exit 2) and nothing
    is written."""
    before = uk_example("export").stdout
    svg = tmp_path / "value.svg"
    for args, message in (
        (("buy", "token", "1", "--price", "5", "--price", "6"), "--price is given twice"),
        (("sell", "token", "1", "--price", "5", "--note", "a", "--note", "b"), "--note is given twice"),
        (("portfolio", "--svg", str(svg)), "portfolio takes --svg only with --history"),
        (("import", "x.csv", "--symbol", "BOND=barnbridge", "--symbol", "BOND=bond"), "--symbol BOND is given twice"),
    ):
        result = uk_example(*args)
        assert result.returncode == 2, result
        assert message in result.stderr
    assert uk_example("export").stdout == before
    assert not svg.exists()
    # --symbol repeats; --svg with --history is the chart's form.
    assert uk_example("portfolio", "--history", "--svg", str(svg)).returncode == 0
    assert svg.exists()


def test_realized_totals_are_over_the_rows_whose_gain_is_known(cli):
    """The CLI's totals line covers the same rows as its gain (gain = proceeds − cost); a breaker
    found Cost counting a sale at a pending price ("Gain $1.00, Proceeds $4.00, Cost $8.00")."""
    for args in (
        ("buy", "bitcoin", "1", "--price", "5", "--at", "2024-01-01"),
        ("sell", "bitcoin", "1", "--at", "2024-01-02"),  # pending price: gain unknown
        ("buy", "ethereum", "2", "--price", "3", "--at", "2024-01-01"),
        ("sell", "ethereum", "1", "--price", "4", "--at", "2024-01-02"),
    ):
        assert cli(*args).returncode == 0
    text = cli("--offline", "realized").stdout
    assert "Gain: $1.00  short term $1.00, long term $0.00  Proceeds: $4.00  Cost: $3.00" in text
    assert "50.00% of the rows have no known gain" in text
    # pnl: ethereum's realized P&L is known, bitcoin's is not: the known part, never n/a.
    assert "Realized: $1.00 (part unknown)" in cli("--offline", "pnl").stdout


def test_a_coin_sold_at_price_zero_is_known_in_the_realized_total(cli):
    """A coin bought and sold at price 0 realizes a known 0 (coverage 1): the total is its $0.00
    "(part unknown)" beside a sale at a pending price, not n/a (a breaker's finding)."""
    for args in (
        ("buy", "bitcoin", "1", "--price", "5", "--at", "2024-01-01"),
        ("sell", "bitcoin", "1", "--at", "2024-01-02"),
        ("buy", "ethereum", "2", "--price", "0", "--at", "2024-01-01"),
        ("sell", "ethereum", "1", "--price", "0", "--at", "2024-01-02"),
    ):
        assert cli(*args).returncode == 0
    assert "Realized: $0.00 (part unknown)" in cli("--offline", "pnl").stdout


def test_an_attached_value_is_the_same_option(uk_example):
    """`--price=5` is `--price 5` (getopt_long's attached form, which a breaker found refused as
    an unknown option); the value keeps any later `=`; a switch with a value, an unknown name and
    an attached value given twice are refused (exit 2) and nothing is written."""
    before = uk_example("export", "--json").stdout
    for args, message in (
        (("pnl", "--json=yes"), "--json takes no value"),
        (("pnl", "--nope=1"), "unknown option --nope"),
        (("realized", "--tax-free-after=-1"), '--tax-free-after needs a whole number of 0 or more, not "-1"'),
        (("buy", "token", "1", "--price=5", "--price", "6"), "--price is given twice"),
    ):
        result = uk_example(*args)
        assert result.returncode == 2, result
        assert message in result.stderr
    assert uk_example("export", "--json").stdout == before
    attached = uk_example("buy", "token", "2", "--price=7.5", "--note=a=b", "--at=2024-05-01", "--json")
    assert attached.returncode == 0, attached.stderr
    added = json.loads(attached.stdout)
    assert (added["amount"], added["price"], added["note"], added["timestamp"]) == (2, 7.5, "a=b", "2024-05-01T00:00:00Z")
    # After `--`, an operand that looks like an option is left as written.
    assert "unknown option" not in uk_example("search", "--", "--x=1").stderr
    # The argument after an option that takes a value is that value as written, never split (a
    # breaker's finding: `--note --qty=2` became the note "--qty" and an amount of 2).
    noted = uk_example("buy", "token", "3", "--price", "1", "--note", "--qty=2", "--json")
    assert noted.returncode == 0, noted.stderr
    assert (json.loads(noted.stdout)["amount"], json.loads(noted.stdout)["note"]) == (3, "--qty=2")
    assert uk_example("buy", "token", "--price", "1", "--note", "--qty=2").returncode == 2  # no amount
    assert "unknown option --=portfolios" in uk_example("--=portfolios").stderr
