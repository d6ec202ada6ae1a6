#!/usr/bin/env python3
"""Runs a command with the loopback CoinGecko server up: COINFOLIO_BASE_URL points at it.

    python3 Tests/server/with_server.py COMMAND [ARG…]

Starts Tests/server/coingecko_server.py on a free 127.0.0.1 port with the committed fixtures,
runs COMMAND with COINFOLIO_BASE_URL=http://127.0.0.1:<port>/api/v3 in its environment, stops
the server and exits with the command's status. For the packaging checks (installed C example,
wheel, Swift consumer) that need a CoinGecko without the network.
"""

import os
import subprocess
import sys
from pathlib import Path

SERVER = Path(__file__).resolve().parent / "coingecko_server.py"


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    server = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--exit-on-stdin-eof"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        line = server.stdout.readline().decode("ascii", "replace").strip()
        if not line.startswith("PORT="):
            print(f"with_server.py: the server printed {line!r}, expected PORT=<n>", file=sys.stderr)
            return 1
        env = dict(os.environ, COINFOLIO_BASE_URL=f"http://127.0.0.1:{line[5:]}/api/v3")
        return subprocess.run(sys.argv[1:], env=env).returncode
    finally:
        server.stdin.close()
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
