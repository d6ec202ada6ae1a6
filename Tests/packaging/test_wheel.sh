#!/bin/sh
# The Python package, as a user installs it: `python -m build --wheel` (the backend that
# `pip install ./bindings/python` runs too) builds libcoinfolio (release; an existing release
# build is reused) and ships it inside the wheel, which is installed into a fresh venv. Then, from a folder outside the repository and with no COINFOLIO_LIBRARY,
# `import coinfolio` loads the bundled library and the example runs against the loopback server;
# py.typed is installed; COINFOLIO_LIBRARY still overrides.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$python" -m build --wheel --outdir "$tmp/dist" "$repo/bindings/python" > "$tmp/build.log" 2>&1 || {
    cat "$tmp/build.log" >&2
    exit 1
}
rm -rf "$repo/bindings/python/build"  # setuptools' staging folder, not ours to keep
wheel=$(ls "$tmp"/dist/coinfolio-*.whl)
"$python" - "$wheel" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = {"coinfolio/libcoinfolio.so", "coinfolio/py.typed"} - names
sys.exit(f"test_wheel: {sys.argv[1]} lacks {sorted(missing)}" if missing else 0)
PY
"$python" -m venv "$tmp/venv"
venv_python=$tmp/venv/bin/python
"$venv_python" -m pip install --quiet --disable-pip-version-check "$wheel"

mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
unset COINFOLIO_LIBRARY
"$venv_python" - <<'PY'
import os
from pathlib import Path

import coinfolio

package = Path(coinfolio.__file__).resolve().parent
assert Path(coinfolio.library_path).resolve() == package / "libcoinfolio.so", coinfolio.library_path
assert (package / "py.typed").is_file(), "py.typed ships with the package"
assert coinfolio.format_currency(1234.56) == "$1,234.56"
print(f"test_wheel: import coinfolio loads {coinfolio.library_path}")
PY
python3 "$repo/Tests/server/with_server.py" "$venv_python" "$repo/bindings/python/examples/portfolio.py" > out.txt
grep -q 'Market Cap: \$2.58Tr' out.txt || { echo "test_wheel: unexpected example output:" >&2; cat out.txt >&2; exit 1; }

# COINFOLIO_LIBRARY still wins over the bundled copy.
cp "$(ls "$tmp"/venv/lib/python*/site-packages/coinfolio/libcoinfolio.so)" "$tmp/override.so"
COINFOLIO_LIBRARY=$tmp/override.so "$venv_python" -c \
    "import coinfolio, sys; sys.exit(0 if coinfolio.library_path == sys.argv[1] else 1)" "$tmp/override.so"
echo "test_wheel: the installed package works from $tmp/elsewhere with no environment variable"

# A user's type checker sees the installed package's types (py.typed): mypy --strict over a
# consumer passes (an untyped package would fail with import-untyped), and a wrong key fails.
if "$python" -c "import mypy" 2>/dev/null; then
    cat > consumer.py <<'PY'
import coinfolio
from coinfolio.answers import PortfolioCoin


def held(engine: coinfolio.Engine) -> list[PortfolioCoin]:
    return [coin for coin in engine.portfolio()["coins"] if coin["current_holdings"] > 0]
PY
    "$python" -m mypy --strict --no-incremental --python-executable "$venv_python" consumer.py > mypy.txt 2>&1 || {
        echo "test_wheel: mypy --strict over a consumer of the installed package failed:" >&2; cat mypy.txt >&2; exit 1
    }
    sed -i 's/"current_holdings"\] > 0/"holdings"] > 0/' consumer.py
    if "$python" -m mypy --strict --no-incremental --python-executable "$venv_python" consumer.py > mypy.txt 2>&1; then
        echo "test_wheel: mypy accepted a key PortfolioCoin does not have" >&2; exit 1
    fi
    grep -q 'TypedDict "PortfolioCoin" has no key "holdings"' mypy.txt || { cat mypy.txt >&2; exit 1; }
    echo "test_wheel: mypy --strict sees the installed package's types (py.typed)"
else
    echo "test_wheel: mypy is not installed: the installed package's types were not checked"
fi
