"""A helper process for the store tests (not a test module).

    python3 holding_writer.py DB PREFIX COUNT

Writes holdings PREFIX-0 … PREFIX-(COUNT-1) with amounts 1, 2, …, and after each set_holding
returns prints "<coin_id> <amount>" to stdout, flushed: every printed line is an acknowledged
write. Prints "done" at the end.
"""

from __future__ import annotations

import sys

import coinfolio
from backend import place


def main() -> None:
    path, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with coinfolio.Store(*place(path, None)) as store:
        for i in range(count):
            coin_id, amount = f"{prefix}-{i}", float(i + 1)
            store.set_holding(coin_id, amount)
            sys.stdout.write(f"{coin_id} {amount!r}\n")
            sys.stdout.flush()
    sys.stdout.write("done\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
