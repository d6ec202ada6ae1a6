#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (cluster.sh) started for it, a streaming hot
# standby of it (standby.sh) and Debian's pgbouncer in transaction pooling mode in front of it
# (pgbouncer.sh), and stops all three afterwards whatever happens (trap). Exports for the command:
#   COINFOLIO_TEST_POSTGRES_URL   postgresql://coinfolio:PASSWORD@127.0.0.1:PORT/coinfolio
#   COINFOLIO_TEST_POSTGRES_DIR   the cluster's folder (for cluster.sh restart, standby.sh stop/restart)
#   COINFOLIO_TEST_STANDBY_URL    the hot standby (read_database), another loopback port
#   COINFOLIO_TEST_PGBOUNCER_URL  the cluster through pgbouncer (every database of it)
# When any of them cannot be started the run fails: a skipped backend is not a pass.
#   with-cluster.sh make test-swift test-c …
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/coinfolio-pg.XXXXXX")
cleanup() {
  "$here/pgbouncer.sh" stop "$dir" || true
  "$here/standby.sh" stop "$dir" || true
  "$here/cluster.sh" stop "$dir" || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! url=$("$here/cluster.sh" start "$dir"); then
  echo "with-cluster.sh: PostgreSQL could not be started; the PostgreSQL suites cannot run" >&2
  exit 1
fi
if ! standby=$("$here/standby.sh" start "$dir"); then
  echo "with-cluster.sh: the hot standby could not be started; the read_database tests cannot run" >&2
  exit 1
fi
if ! pooled=$("$here/pgbouncer.sh" start "$dir"); then
  echo "with-cluster.sh: pgbouncer could not be started; the pass through it cannot run" >&2
  exit 1
fi
export COINFOLIO_TEST_POSTGRES_URL=$url COINFOLIO_TEST_POSTGRES_DIR=$dir
export COINFOLIO_TEST_STANDBY_URL=$standby COINFOLIO_TEST_PGBOUNCER_URL=$pooled
echo "with-cluster.sh: PostgreSQL cluster on ${url%%:*}://…@${url##*@}, standby on …@${standby##*@}," \
  "pgbouncer on …@${pooled##*@}" >&2
"$@"
