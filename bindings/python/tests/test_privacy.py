"""Issue 19: a portfolio is private. Files Coinfolio creates are 0600 and the CLI's data folder
0700 under the usual umask 022; a key can come from a file instead of the command line."""
from __future__ import annotations

import os
import stat
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

import coinfolio
from conftest import cli_binary


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_store_creates_owner_only_files(tmp_path: Path, umask_022: None) -> None:
    path = tmp_path / "portfolio.sqlite"
    with coinfolio.Store(path) as store:
        store.set_holding("bitcoin", 0.5)
        assert _mode(path) == 0o600
        assert _mode(Path(f"{path}-wal")) == 0o600
        assert _mode(Path(f"{path}-shm")) == 0o600


def test_engine_creates_owner_only_files(tmp_path: Path, umask_022: None) -> None:
    path = tmp_path / "engine.sqlite"
    with coinfolio.Engine(database=str(path)) as engine:
        engine.set_holding("bitcoin", 1)
        assert _mode(path) == 0o600
        assert _mode(Path(f"{path}-wal")) == 0o600
        assert _mode(Path(f"{path}-shm")) == 0o600


def test_an_sqlite_uri_is_refused_not_opened_with_the_umasks_mode(
    tmp_path: Path, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by break3: "file:secret.sqlite" opened secret.sqlite created 0644, beside an empty
    # "file:secret.sqlite"; "file::memory:" was an in-memory database nobody reads back.
    monkeypatch.chdir(tmp_path)
    for database in ("file:secret.sqlite", "file:secret.sqlite?mode=rwc", "file::memory:"):
        with pytest.raises(coinfolio.InvalidArgument) as refused:
            coinfolio.Engine(database=database)
        assert refused.value.details["reason"] == "sqlite_uri"
        with pytest.raises(coinfolio.InvalidArgument):
            coinfolio.Store(database)
    assert sorted(os.listdir(tmp_path)) == []
    with coinfolio.Store("./file:secret.sqlite") as store:  # a file of that name
        store.set_holding("bitcoin", 1)
    assert _mode(tmp_path / "file:secret.sqlite") == 0o600


def test_an_existing_file_keeps_its_mode(tmp_path: Path, umask_022: None) -> None:
    path = tmp_path / "shared.sqlite"
    path.touch(mode=0o640)
    os.chmod(path, 0o640)
    with coinfolio.Store(path) as store:
        store.set_holding("bitcoin", 0.5)
    assert _mode(path) == 0o640


def _run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(cli_binary()), *args], env=env, capture_output=True, text=True, timeout=60, umask=0o022)


def test_cli_default_database_folder_is_0700_and_files_0600(server, tmp_path: Path) -> None:
    data_home = tmp_path / "xdg"
    env = dict(os.environ, NO_COLOR="1", XDG_DATA_HOME=str(data_home), COINFOLIO_BASE_URL=server.base_url)
    for name in ("COINFOLIO_DB", "COINFOLIO_API_KEY"):
        env.pop(name, None)
    folder = data_home / "coinfolio"
    database = folder / "portfolio.sqlite"
    # A slow /coins/markets keeps the CLI (and its -wal and -shm files) alive while we look.
    server.fault(path="/api/v3/coins/markets", delay_ms=3000)
    process = subprocess.Popen([str(cli_binary()), "home"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, umask=0o022)
    try:
        deadline = time.monotonic() + 30
        while not Path(f"{database}-shm").exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _mode(data_home) == 0o700
        assert _mode(folder) == 0o700
        assert _mode(database) == 0o600
        assert _mode(Path(f"{database}-wal")) == 0o600
        assert _mode(Path(f"{database}-shm")) == 0o600
    finally:
        process.communicate(timeout=60)
    assert process.returncode == 0


def test_cli_keeps_the_mode_of_an_existing_folder(tmp_path: Path) -> None:
    data_home = tmp_path / "xdg"
    (data_home / "coinfolio").mkdir(parents=True)
    os.chmod(data_home / "coinfolio", 0o750)
    env = dict(os.environ, NO_COLOR="1", XDG_DATA_HOME=str(data_home))
    env.pop("COINFOLIO_DB", None)
    assert _run_cli(["--offline", "set", "bitcoin", "0.5"], env).returncode == 0
    assert _mode(data_home / "coinfolio") == 0o750


def _key_file(tmp_path: Path, mode: int) -> Path:
    path = tmp_path / "coingecko.key"
    path.write_text("  CG-file-key-0123456789  \nsecond line is ignored\n")
    os.chmod(path, mode)
    return path


def test_cli_reads_the_key_from_a_file(server, tmp_path: Path) -> None:
    key_file = _key_file(tmp_path, 0o600)
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url)
    env.pop("COINFOLIO_API_KEY", None)
    result = _run_cli(["--api-key-file", str(key_file), "--plan", "demo", "home"], env)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    sent = {entry["headers"].get("x-cg-demo-api-key") for entry in server.log()}
    assert sent == {"CG-file-key-0123456789"}


def test_cli_warns_about_a_group_readable_key_file(server, tmp_path: Path) -> None:
    key_file = _key_file(tmp_path, 0o640)
    env = dict(os.environ, NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url)
    env.pop("COINFOLIO_API_KEY", None)
    result = _run_cli(["--api-key-file", str(key_file), "--plan", "demo", "home"], env)
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "readable by others" in line]
    assert warnings == [f"coinfolio-cli: warning: the API key file {key_file} is readable by others (mode 640); run chmod 600 {key_file}"]
    assert "CG-file-key" not in result.stderr + result.stdout


def test_cli_help_says_why_a_key_file_beats_the_command_line() -> None:
    result = subprocess.run([str(cli_binary()), "--help"], capture_output=True, text=True, timeout=60)
    assert "--api-key-file PATH" in result.stdout
    assert "process list" in result.stdout and "shell history" in result.stdout
