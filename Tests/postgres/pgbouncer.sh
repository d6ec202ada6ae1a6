#!/usr/bin/env bash
# Debian's pgbouncer (1.18) in transaction pooling mode in front of the throwaway cluster
# (cluster.sh), on a free loopback port, for the suites' pass through a connection pooler (SPEC
# §20): every database of the cluster is reachable through it ("*"), with the cluster's user
# and password (scram-sha-256 on both sides).
#   pgbouncer.sh start DIR   starts it for the cluster in DIR; prints its URL
#   pgbouncer.sh stop DIR    stops it (never fails)
# pgbouncer refuses to run as root: run as root, it runs as the `postgres` user.
set -euo pipefail
cmd=${1:?usage: pgbouncer.sh start|stop DIR}
dir=${2:?usage: pgbouncer.sh start|stop DIR}
. "$(dirname "$0")/common.sh"
case "$cmd" in
start)
  if ! command -v pgbouncer >/dev/null; then
    echo "pgbouncer.sh: pgbouncer not found (apt-get install pgbouncer)" >&2; exit 1
  fi
  primary=$(sed -n 4p "$dir/data/postmaster.pid")
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  printf '"coinfolio" "%s"\n' "$password" > "$dir/pgbouncer.users"
  cat > "$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$primary
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/pgbouncer.users
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 40
max_db_connections = 120
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pgbouncer.users" "$dir/pgbouncer.ini"; fi
  chmod 600 "$dir/pgbouncer.users"
  if ! run pgbouncer -d "$dir/pgbouncer.ini" >"$dir/pgbouncer.start.log" 2>&1; then
    cat "$dir/pgbouncer.start.log" "$dir/pgbouncer.log" >&2 2>/dev/null; exit 1
  fi
  # Ready when it accepts a connection.
  for _ in $(seq 1 100); do
    if python3 -c "import socket,sys;socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "postgresql://coinfolio:$password@127.0.0.1:$port/coinfolio"
  ;;
stop)
  if [ -f "$dir/pgbouncer.pid" ]; then kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true; fi
  ;;
*)
  echo "usage: pgbouncer.sh start|stop DIR" >&2; exit 2
  ;;
esac
