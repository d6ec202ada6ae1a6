"""`make demo`: coinfolio-cli against the loopback CoinGecko server and the committed fixtures,
in a temporary database, so the tracker can be seen without network access or an API key."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    cli = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[1] / ".build" / "debug" / "coinfolio-cli")
    server = subprocess.Popen([sys.executable, str(HERE / "coingecko_server.py"), "--port", "0", "--exit-on-stdin-eof"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip().split("=", 1)[1]
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, COINFOLIO_BASE_URL=f"http://127.0.0.1:{port}/api/v3",
                       COINFOLIO_DB=str(Path(folder) / "demo.sqlite"))
            for args in (["set", "bitcoin", "0.5"], ["set", "ethereum", "2"], ["home", "--limit", "10"],
                         ["portfolio"], ["detail", "bitcoin"]):
                print(f"$ coinfolio-cli {' '.join(args)}", flush=True)
                if subprocess.run([cli, *args], env=env).returncode != 0:
                    return 1
                print(flush=True)
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
