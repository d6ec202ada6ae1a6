# Sourced by cluster.sh, standby.sh and pgbouncer.sh: what the three share.
# shellcheck shell=bash

# Debian's PostgreSQL server binaries (the newest installed major version); empty when none.
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

# A server started here outlives the script: it must not inherit the caller's descriptors (a
# test runner waiting for a pipe to close would wait for the server).
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

# Runs a command as the `postgres` user when the script runs as root, else as the caller.
run() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# The cluster's password. Distinctive on purpose: tests assert that it never appears in any message.
password="pw-Zebra-7781-quokka"
