#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (cluster.sh) started for it, and stops the
# cluster afterwards whatever happens (trap). Exports for the command:
#   COINFOLIO_TEST_POSTGRES_URL   postgresql://coinfolio:PASSWORD@127.0.0.1:PORT/coinfolio
#   COINFOLIO_TEST_POSTGRES_DIR   the cluster's folder (for cluster.sh restart)
# When the cluster cannot be started the run fails: a skipped backend is not a pass.
#   with-cluster.sh make test-swift test-c …
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/coinfolio-pg.XXXXXX")
cleanup() { "$here/cluster.sh" stop "$dir" || true; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! url=$("$here/cluster.sh" start "$dir"); then
  echo "with-cluster.sh: PostgreSQL could not be started; the PostgreSQL suites cannot run" >&2
  exit 1
fi
export COINFOLIO_TEST_POSTGRES_URL=$url COINFOLIO_TEST_POSTGRES_DIR=$dir
echo "with-cluster.sh: PostgreSQL cluster on ${url%%:*}://…@${url##*@}" >&2
"$@"
