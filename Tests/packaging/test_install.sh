#!/bin/sh
# The C install, as a user does it: `make install PREFIX=<tmp>`, build bindings/c/example.c
# against the installed copy with pkg-config alone, run it (against the loopback server) from
# another folder, then check that `make uninstall` removes exactly what install wrote. The prefix
# holds a space, as "Application Support" folders do; a staged install (DESTDIR) is checked too.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
make=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/my prefix"

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
# pkg-config escapes the prefix's space with a backslash: the shell must read the flags as words.
eval "\${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -o \"\$tmp/example\" \"\$repo/bindings/c/example.c\" $flags"
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
# A staged install (packagers): files under DESTDIR, coinfolio.pc naming the final PREFIX.
stage="$tmp/stage dir"
"$make" -s -C "$repo" install DESTDIR="$stage" PREFIX="/opt/coin folio"
test -f "$stage/opt/coin folio/lib/libcoinfolio.so"
test -f "$stage/opt/coin folio/include/coinfolio.h"
grep -qx 'prefix=/opt/coin\\ folio' "$stage/opt/coin folio/lib/pkgconfig/coinfolio.pc" || {
    echo "test_install: coinfolio.pc does not name the escaped final prefix:" >&2
    cat "$stage/opt/coin folio/lib/pkgconfig/coinfolio.pc" >&2
    exit 1
}
"$make" -s -C "$repo" uninstall DESTDIR="$stage" PREFIX="/opt/coin folio"
test -z "$(find "$stage" -type f)" || { echo "test_install: staged uninstall left files" >&2; exit 1; }

echo "test_install: installed, built with pkg-config, ran, uninstalled cleanly under $prefix"
