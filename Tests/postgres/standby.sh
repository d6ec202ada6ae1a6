#!/usr/bin/env bash
# A streaming hot standby of the throwaway cluster (cluster.sh) for the read_database tests (SPEC
# §20): `pg_basebackup -R` copies the running primary, and the copy replays its WAL on another
# free loopback port, answering reads. A physical replication slot keeps on the primary the WAL
# the standby has not received yet (the suites write a lot; without it the primary recycles
# segments the standby still needs, and the standby stops replaying).
#   standby.sh start DIR     makes DIR/standby from the cluster in DIR and starts it; prints its URL
#   standby.sh stop DIR      stops it (never fails): reads must fail over to the primary
#   standby.sh restart DIR   starts it again on the same port (after stop; nothing when it runs)
# Run as root, the server runs as the `postgres` user, as cluster.sh's does.
set -euo pipefail
cmd=${1:?usage: standby.sh start|stop|restart DIR}
dir=${2:?usage: standby.sh start|stop|restart DIR}
. "$(dirname "$0")/common.sh"
start_server() {
  if ! run "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w -t 60 \
      -o "-p $(cat "$dir/standby.port") -k $dir -c listen_addresses=127.0.0.1 -c hot_standby=on -c max_connections=200" \
      start >/dev/null; then
    cat "$dir/standby.log" >&2; exit 1
  fi
}
case "$cmd" in
start)
  primary=$(sed -n 4p "$dir/data/postmaster.pid")
  if ! PGPASSWORD=$password run "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary" -U coinfolio -D "$dir/standby" \
      -R -X stream -C -S coinfolio_standby --checkpoint=fast >"$dir/basebackup.log" 2>&1; then
    cat "$dir/basebackup.log" >&2; exit 1
  fi
  python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])' > "$dir/standby.port"
  start_server
  echo "postgresql://coinfolio:$password@127.0.0.1:$(cat "$dir/standby.port")/coinfolio"
  ;;
restart)
  if ! run "$bin/pg_ctl" -D "$dir/standby" status >/dev/null 2>&1; then start_server; fi
  ;;
stop)
  run "$bin/pg_ctl" -D "$dir/standby" -m fast stop >/dev/null 2>&1 || true
  ;;
*)
  echo "usage: standby.sh start|stop|restart DIR" >&2; exit 2
  ;;
esac
