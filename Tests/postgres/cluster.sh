#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (Debian's postgresql package), owned by an
# unprivileged user, listening on a free loopback port, with a scram-sha-256 password.
#   cluster.sh start DIR     creates and starts it in DIR; prints its URL
#                            (postgresql://coinfolio:PASSWORD@127.0.0.1:PORT/coinfolio)
#   cluster.sh restart DIR   restarts it (same port): tests of reconnecting after a restart
#   cluster.sh stop DIR      stops it (never fails)
# Run as root, the server runs as the `postgres` user the package creates; otherwise as the
# caller. A start that fails prints the server's log and exits non-zero.
set -euo pipefail
cmd=${1:?usage: cluster.sh start|restart|stop DIR}
dir=${2:?usage: cluster.sh start|restart|stop DIR}
. "$(dirname "$0")/common.sh"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "cluster.sh: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
  exit 1
fi
case "$cmd" in
start)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir"
    # The server runs as postgres, which must be able to reach the folder.
    p=$(dirname "$dir"); while [ "$p" != / ]; do chmod o+x "$p"; p=$(dirname "$p"); done
  fi
  printf '%s\n' "$password" > "$dir/pwfile"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pwfile"; fi
  if ! run "$bin/initdb" -D "$dir/data" -U coinfolio --auth=scram-sha-256 --pwfile="$dir/pwfile" \
      --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2; exit 1
  fi
  rm -f "$dir/pwfile"
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  if ! run "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200" start >/dev/null; then
    cat "$dir/server.log" >&2; exit 1
  fi
  PGPASSWORD=$password run "$bin/createdb" -h 127.0.0.1 -p "$port" -U coinfolio coinfolio
  echo "postgresql://coinfolio:$password@127.0.0.1:$port/coinfolio"
  ;;
restart)
  run "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast restart >/dev/null
  ;;
stop)
  run "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  ;;
*)
  echo "usage: cluster.sh start|restart|stop DIR" >&2; exit 2
  ;;
esac
