"""coinfolio-cli chart with hostile CoinGecko bodies and odd terminals: no input stops the CLI."""

from __future__ import annotations

import json

from test_cli import cli  # noqa: F401  (the fixture)


def test_times_at_the_ends_of_a_double_draw_instead_of_crashing(cli, server):  # noqa: F811
    # Before: the span of the times was infinite, a dot's column NaN, and Int(NaN) stopped the
    # CLI with "Illegal instruction".
    server.route(path="/api/v3/coins/bitcoin/market_chart", body=json.dumps({"prices": [[-1.7e308, 1], [1.7e308, 2]]}))
    result = cli("chart", "bitcoin", COLUMNS="30", LANG="C", LC_ALL="", LC_CTYPE="")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "bitcoin, 7 days"
    assert lines[1] == "$2.00 |                      *"
    assert lines[12] == "$1.00 | *"
    assert lines[13] == "        n/a                n/a"
    assert "Change +$1.00 +100.00%" in lines


def test_terminal_widths_from_1_to_10000_keep_the_dates_under_the_plot(cli):  # noqa: F811
    # Before: at COLUMNS=1 the plot was 22 columns wide (labels and the 8-column minimum) but the
    # dates below it 47 ("2024-12-12 10:40 2024-12-12 15:40").
    narrow = cli("chart", "bitcoin", COLUMNS="1", LANG="C", LC_ALL="", LC_CTYPE="")
    assert narrow.returncode == 0, narrow.stderr
    lines = narrow.stdout.splitlines()
    assert lines[1] == "$103,500.75 |        *"
    assert lines[13] == "              2024-12-12"
    for columns, widest in (("10000", 500), ("-5", 80), ("abc", 80), ("40", 40)):
        result = cli("chart", "bitcoin", COLUMNS=columns, LANG="C", LC_ALL="", LC_CTYPE="")
        assert result.returncode == 0, result.stderr
        assert max(len(line) for line in result.stdout.splitlines()[1:14]) <= widest, columns


def test_an_svg_that_cannot_be_written_is_one_line_and_status_2(cli, tmp_path):  # noqa: F811
    result = cli("chart", "bitcoin", "--svg", str(tmp_path / "no-such-folder" / "x.svg"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"coinfolio-cli: cannot write {tmp_path / 'no-such-folder' / 'x.svg'}: ")
    assert len(result.stderr.splitlines()) == 1
    assert result.stdout == ""
