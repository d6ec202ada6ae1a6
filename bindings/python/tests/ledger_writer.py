"""A helper process for the ledger tests (not a test module).

    python3 ledger_writer.py add DB COIN COUNT
        Adds COUNT buys of 0.1 COIN at price 1 to the "main" portfolio; after each returns, prints
        "<id>" to stdout, flushed: every printed line is an acknowledged write. Prints "done".
    python3 ledger_writer.py import DB FILE.csv
        Prints "importing", flushed, then imports FILE.csv in one call and prints the summary.
"""

from __future__ import annotations

import json
import sys

import coinfolio


def main() -> None:
    mode, path = sys.argv[1], sys.argv[2]
    with coinfolio.Engine(database=path) as engine:
        if mode == "add":
            coin, count = sys.argv[3], int(sys.argv[4])
            for i in range(count):
                stored = engine.add_transaction(
                    coin, "buy", "0.1", price="1", timestamp=f"2024-01-01T00:00:{i % 60:02d}Z"
                )
                sys.stdout.write(f"{stored['id']}\n")
                sys.stdout.flush()
        else:
            with open(sys.argv[3], encoding="utf-8") as handle:
                text = handle.read()
            sys.stdout.write("importing\n")
            sys.stdout.flush()
            sys.stdout.write(json.dumps(engine.import_csv(text)) + "\n")
    sys.stdout.write("done\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
