#!/bin/sh
# The C install, as a user does it: `make install PREFIX=<tmp>`, build bindings/c/example.c
# against the installed copy with pkg-config alone, run it (against the loopback server) from
# another folder, then check that `make uninstall` removes exactly what install wrote.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
make=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

# Something of the user's already under the prefix, which uninstall must leave alone.
mkdir -p "$prefix/lib"
echo "not ours" > "$prefix/lib/unrelated.txt"
before=$(cd "$prefix" && find . | sort)

"$make" -s -C "$repo" install PREFIX="$prefix"

# pkg-config is the only way the build knows where Coinfolio is (jansson: the example's own
# dependency, for reading the JSON answers).
PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs coinfolio jansson)
${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -o "$tmp/example" "$repo/bindings/c/example.c" $flags
ldd "$tmp/example" | grep -q "$prefix/lib/libcoinfolio.so" || {
    echo "test_install: the example does not load $prefix/lib/libcoinfolio.so" >&2
    ldd "$tmp/example" >&2
    exit 1
}
(cd "$tmp" && python3 "$repo/Tests/server/with_server.py" ./example > "$tmp/out.txt")
grep -q 'Market Cap: \$2.58Tr' "$tmp/out.txt" || {
    echo "test_install: unexpected output of the installed example:" >&2
    cat "$tmp/out.txt" >&2
    exit 1
}
"$prefix/bin/coinfolio-cli" version | grep -q "coinfolio-cli "

"$make" -s -C "$repo" uninstall PREFIX="$prefix"
after=$(cd "$prefix" && find . | sort)
if [ "$before" != "$after" ]; then
    echo "test_install: uninstall left a different tree:" >&2
    echo "before:" >&2; echo "$before" >&2
    echo "after:" >&2; echo "$after" >&2
    exit 1
fi
echo "test_install: installed, built with pkg-config, ran, uninstalled cleanly under $prefix"
