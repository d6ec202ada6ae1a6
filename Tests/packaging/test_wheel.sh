#!/bin/sh
# The Python package, as a user without a Swift toolchain installs it. bindings/python/build_wheel.sh
# builds the wheel (`python -m build --wheel`, reusing an existing release build of libcoinfolio)
# and grafts the Swift runtime into it with `auditwheel repair`; the wheel is installed into a
# fresh venv. Then:
#   1. the wheel holds the library, py.typed and exactly the toolchain's runtime libraries, and
#      keeps the tag py3-none-linux_<arch>;
#   2. on the installed copy, every RPATH/RUNPATH is $ORIGIN-relative and (`ldd`, no
#      LD_LIBRARY_PATH) every library resolves inside the package or to a file of a Debian package;
#   3. with the toolchain's folder made invisible (a tmpfs over it in a private mount namespace,
#      `unshare`), from a folder outside the repository and with no COINFOLIO_LIBRARY nor
#      LD_LIBRARY_PATH: `import coinfolio` loads the bundled library, every Swift runtime library
#      the process maps comes from the package, Foundation's locale-pinned formatting answers, and
#      the example refreshes from the loopback server (URLSession, FoundationNetworking over libcurl).
#      Where unshare cannot hide the folder (no user namespaces), this step says so and runs with the
#      toolchain visible, still checking /proc/self/maps; COINFOLIO_REQUIRE_HIDDEN_TOOLCHAIN=1 (CI)
#      makes that a failure;
#   4. COINFOLIO_LIBRARY still overrides, and mypy --strict sees the installed types (py.typed);
#   5. an installed package whose library cannot load (a missing dependency) raises ImportError
#      naming the missing library, and loads no other copy.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-python3}
swift=${SWIFT:-swift}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COINFOLIO_LIBRARY LD_LIBRARY_PATH

wheel=$(PYTHON=$python SWIFT=$swift "$repo/bindings/python/build_wheel.sh" "$tmp/dist")
runtime=$("$swift" -print-target-info | "$python" -c \
    "import json, sys; print(json.load(sys.stdin)['paths']['runtimeLibraryPaths'][0])")
runtime=$(cd "$runtime" && pwd -P)
# The folder to hide: the toolchain (…/usr of …/usr/lib/swift/linux), unless that is the
# system's own /usr, where only the runtime folder is hidden.
toolchain=$(cd "$runtime/../../.." && pwd -P)
case $toolchain in /usr | /) toolchain=$runtime ;; esac

# 1. What the wheel holds.
"$python" - "$wheel" "$runtime" <<'PY'
import os, platform, re, sys, zipfile
wheel, runtime = sys.argv[1], sys.argv[2]
names = set(zipfile.ZipFile(wheel).namelist())
fail = lambda message: sys.exit(f"test_wheel: {os.path.basename(wheel)}: {message}")
missing = {"coinfolio/libcoinfolio.so", "coinfolio/py.typed"} - names
if missing:
    fail(f"lacks {sorted(missing)}")
tag = f"py3-none-linux_{platform.machine()}"
if not os.path.basename(wheel).endswith(f"-{tag}.whl"):
    fail(f"is not tagged {tag}")
metadata = zipfile.ZipFile(wheel).read("coinfolio-0.1.0.dist-info/WHEEL").decode()
if re.findall(r"^Tag: (.*)$", metadata, re.M) != [tag]:
    fail(f"its WHEEL says {metadata!r}, expected the one tag {tag}")
# auditwheel names each grafted library <name>-<8 hex>.so after the toolchain's <name>.so.
grafted = sorted(n for n in names if n.startswith("coinfolio.libs/") and not n.endswith("/"))
originals = {re.sub(r"-[0-9a-f]{8}(\.so)", r"\1", os.path.basename(n)) for n in grafted}
foreign = sorted(n for n in originals if not os.path.isfile(os.path.join(runtime, n)))
if foreign:
    fail(f"grafts libraries that are not the toolchain's runtime ({runtime}): {foreign}")
needed = {"libswiftCore.so", "libswift_Concurrency.so", "libFoundation.so", "libFoundationEssentials.so",
          "libFoundationInternationalization.so", "libFoundationNetworking.so", "lib_FoundationICU.so",
          "libdispatch.so", "libBlocksRuntime.so"}
if needed - originals:
    fail(f"lacks the runtime libraries {sorted(needed - originals)}")
print(f"test_wheel: {os.path.basename(wheel)} ({os.path.getsize(wheel) / 1e6:.1f} MB) grafts "
      f"{len(grafted)} runtime libraries from {runtime}")
PY

"$python" -m venv "$tmp/venv"
venv_python=$tmp/venv/bin/python
"$venv_python" -m pip install --quiet --disable-pip-version-check "$wheel"
site=$("$venv_python" -c "import sysconfig; print(sysconfig.get_path('platlib'))")

# 2. The installed copy's dynamic section and what the loader makes of it.
"$python" - "$site" "$toolchain" <<'PY'
import glob, os, re, subprocess, sys
site, toolchain = sys.argv[1], sys.argv[2]
package, libs = os.path.join(site, "coinfolio"), os.path.join(site, "coinfolio.libs")
files = [os.path.join(package, "libcoinfolio.so")] + sorted(glob.glob(os.path.join(libs, "*.so")))
environment = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
problems, system = [], {}
for file in files:
    dynamic = subprocess.run(["readelf", "-d", file], capture_output=True, text=True, check=True).stdout
    for kind, paths in re.findall(r"\((RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[(.*)\]", dynamic):
        for path in paths.split(":"):
            if not path.startswith("$ORIGIN"):
                problems.append(f"{file}: {kind} {path} is not inside the package")
    listing = subprocess.run(["ldd", file], capture_output=True, text=True, check=True, env=environment).stdout
    for name, path in re.findall(r"^\s*(\S+) => (.*?)(?: \(0x[0-9a-f]+\))?$", listing, re.M):
        real = os.path.realpath(path) if path != "not found" else path
        if path == "not found":
            problems.append(f"{file}: {name} is not found")
        elif real.startswith(toolchain + "/"):
            problems.append(f"{file}: {name} resolves into the toolchain ({path})")
        elif not real.startswith(os.path.realpath(libs) + "/"):
            system.setdefault(path, []).append(os.path.basename(file))
# Every library from outside the package is a file some Debian package installed (dpkg knows
# merged-/usr files under either prefix).
candidates = {path: {path, re.sub(r"^/usr/", "/", path), "/usr" + path} for path in system}
query = subprocess.run(["dpkg-query", "-S", *sorted(set().union(*candidates.values()))],
                       capture_output=True, text=True)
owned = {line.split(": ", 1)[1] for line in query.stdout.splitlines() if ": " in line}
for path, users in sorted(system.items()):
    if not candidates[path] & owned:
        problems.append(f"{path} (needed by {sorted(set(users))}) belongs to no Debian package")
if problems:
    sys.exit("test_wheel: the installed library does not stand on its own:\n  " + "\n  ".join(problems))
print(f"test_wheel: {len(files)} installed libraries: every RPATH is $ORIGIN-relative; ldd resolves "
      f"each dependency inside the package or to one of {len(system)} Debian system libraries")
PY

# 3. Import and example with the toolchain invisible.
cat > "$tmp/check_import.py" <<'PY'
import os, sys
from pathlib import Path

import coinfolio

toolchain = sys.argv[1]
package = Path(coinfolio.__file__).resolve().parent
assert Path(coinfolio.library_path).resolve() == package / "libcoinfolio.so", coinfolio.library_path
assert (package / "py.typed").is_file(), "py.typed ships with the package"
# Foundation with the grafted ICU: the locale-pinned formatting of SPEC §3 and issue 10.
assert coinfolio.format_currency(1234.56) == "$1,234.56"
assert coinfolio.format_value(123400, "jpy") == "¥123,400"
assert coinfolio.format_value(1.2346, "kwd") == "KWD 1.235"
runtime = ("libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime")
mapped = {line.split(None, 5)[5] for line in open("/proc/self/maps") if len(line.split(None, 5)) == 6}
swift = sorted(path for path in mapped if os.path.basename(path).startswith(runtime))
libs = str(package.parent / "coinfolio.libs") + "/"
outside = [path for path in swift if not path.startswith(libs)]
assert swift and not outside, f"Swift runtime mapped from outside the package: {outside}"
assert not [path for path in mapped if path.startswith(toolchain + "/")], "a toolchain file is mapped"
print(f"test_wheel: import coinfolio loads {coinfolio.library_path} and {len(swift)} runtime libraries from {libs}")
PY
mkdir "$tmp/elsewhere"
cat > "$tmp/run.sh" <<'SH2'
set -eu
toolchain=$1 venv_python=$2 repo=$3 tmp=$4
cd "$tmp/elsewhere"
"$venv_python" "$tmp/check_import.py" "$toolchain"
python3 "$repo/Tests/server/with_server.py" "$venv_python" "$repo/bindings/python/examples/portfolio.py" > out.txt
grep -q 'Market Cap: \$2.58Tr' out.txt || { echo "test_wheel: unexpected example output:" >&2; cat out.txt >&2; exit 1; }
SH2
# The tmpfs hides the folder in this namespace only; the check that it is hidden runs inside.
hide="mount -t tmpfs coinfolio-hidden-toolchain \"\$0\" && test ! -e \"\$0/lib/swift\" && test ! -e \"$runtime/libswiftCore.so\" && exec \"\$@\""
# root may unshare a mount namespace; anyone else needs a user namespace (--map-root-user).
namespace=
for flags in "--mount" "--mount --map-root-user"; do
    # shellcheck disable=SC2086
    if unshare $flags sh -c "$hide" "$toolchain" true 2>/dev/null; then namespace=$flags; break; fi
done
if [ -n "$namespace" ]; then
    # shellcheck disable=SC2086
    unshare $namespace sh -c "$hide" "$toolchain" sh "$tmp/run.sh" "$toolchain" "$venv_python" "$repo" "$tmp"
    echo "test_wheel: import and example ran with $toolchain hidden (tmpfs in a private mount namespace), no COINFOLIO_LIBRARY, no LD_LIBRARY_PATH"
elif [ "${COINFOLIO_REQUIRE_HIDDEN_TOOLCHAIN:-}" = 1 ]; then
    echo "test_wheel: cannot hide $toolchain (unshare --mount failed, with and without --map-root-user) and COINFOLIO_REQUIRE_HIDDEN_TOOLCHAIN=1" >&2
    exit 1
else
    echo "test_wheel: NOT PROVEN without the toolchain: unshare cannot hide $toolchain here (no user namespaces);" \
        "running with it visible, the maps check still shows no runtime library is loaded from it"
    sh "$tmp/run.sh" "$toolchain" "$venv_python" "$repo" "$tmp"
fi
cd "$tmp/elsewhere"

# 4. COINFOLIO_LIBRARY still wins over the bundled copy (here: the release build, which loads the
# toolchain's runtime; the bundled copy cannot be moved out of its package, its runtime stays behind).
override=$repo/.build/release/libcoinfolio.so
COINFOLIO_LIBRARY=$override "$venv_python" -c \
    "import coinfolio, sys; sys.exit(0 if coinfolio.library_path == sys.argv[1] else 1)" "$override"
echo "test_wheel: the installed package works from $tmp/elsewhere with no environment variable"

# 5. An installed package whose library cannot load (here: patched to need a library no system
# has, as a machine without libpq5 would) fails naming that library, and loads no other copy,
# although a working one sits where the old loader looked (<venv>/lib/.build/{release,debug},
# "the repository" three folders above the package) and the system has the toolchain.
"$python" -m venv "$tmp/broken"
"$tmp/broken/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
broken=$("$tmp/broken/bin/python" -c "import sysconfig; print(sysconfig.get_path('platlib'))")/coinfolio/libcoinfolio.so
patchelf --add-needed libcoinfolio-test-missing.so.1 "$broken"
for kind in release debug; do mkdir -p "$tmp/broken/lib/.build/$kind" && cp "$override" "$tmp/broken/lib/.build/$kind/"; done
if "$tmp/broken/bin/python" -c "import coinfolio; print(coinfolio.library_path)" > broken.txt 2>&1; then
    echo "test_wheel: a package whose library cannot load imported anyway: $(cat broken.txt)" >&2; exit 1
fi
grep -q "ImportError: coinfolio: cannot load the package's own library $broken: libcoinfolio-test-missing.so.1: cannot open shared object file" broken.txt || {
    echo "test_wheel: the import error does not name the missing library:" >&2; cat broken.txt >&2; exit 1
}
COINFOLIO_LIBRARY=$override "$tmp/broken/bin/python" -c \
    "import coinfolio, sys; sys.exit(0 if coinfolio.library_path == sys.argv[1] else 1)" "$override"
echo "test_wheel: a package whose library cannot load says which library is missing and loads no other copy"

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
