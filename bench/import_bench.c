/*
 * import_bench.c — SPEC §22's import target: cf_engine_import of a 100,000-row Binance statement
 * and of a 100,000-row Coinbase v4 file (bench/generate.py), each against the same ledger rows
 * inserted by plain sqlite3 calls in one transaction.
 *
 *   import_bench BUILD_DIR
 *
 * The anchor's rows are the ones our import wrote, read back from its database (not timed), and
 * its table and indexes are copied from that database's own schema, so both write exactly the
 * same thing: one durable transaction (WAL, synchronous=FULL, the 64 MiB page cache our import
 * sets: Database.withLargeWriteCache), every row through a prepared INSERT whose id comes from
 * sqlite3_last_insert_rowid, as ours on SQLite (no RETURNING: Database.insertedID), and the
 * owner's change counter. Wall time (the commit's fsync is part of the work), median of three
 * rounds, ours and the anchor alternating. Prints Markdown rows.
 */
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "coinfolio.h"

#define ROUNDS 3
#include "ledger_rows.h"

/* One file: ours (a fresh database each round) and the anchor, alternating. */
static void bench_file(const char *dir, const char *file, const char *label) {
    char path[4096], ours_path[4096], raw_path[4096], config[4300], note[512];
    double ours[ROUNDS], cpu[ROUNDS], anchor[ROUNDS], anchor_cpu[ROUNDS];
    char *data, *out = NULL, *error = NULL;
    size_t size;
    ledger_rows rows = {NULL, 0};
    int round;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    data = read_file(path, &size);
    snprintf(ours_path, sizeof ours_path, "%s/import-ours.sqlite", dir);
    snprintf(raw_path, sizeof raw_path, "%s/import-raw.sqlite", dir);
    snprintf(config, sizeof config, "{\"database\":\"%s\"}", ours_path);
    for (round = 0; round < ROUNDS; round++) {
        int pass;
        for (pass = 0; pass < 2; pass++) {
            /* Ours first in even rounds, the anchor first in odd ones (after round 0 has made the rows). */
            if ((pass == 0) == (round % 2 == 0)) {
                cf_engine *engine = NULL;
                double start, cpu_start;
                char wal[4200];
                remove(ours_path);
                snprintf(wal, sizeof wal, "%s-wal", ours_path);
                remove(wal);
                check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
                cpu_start = seconds(CLOCK_THREAD_CPUTIME_ID);
                start = seconds(CLOCK_MONOTONIC);
                check(cf_engine_import(engine, NULL, data, &out, &error), error, "cf_engine_import");
                ours[round] = seconds(CLOCK_MONOTONIC) - start;
                cpu[round] = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
                cf_string_free(out);
                cf_engine_close(engine);
                if (rows.cells == NULL) rows = read_rows(ours_path);
            } else {
                sqlite3 *db = raw_database(ours_path, raw_path);
                anchor[round] = raw_insert(db, &rows, &anchor_cpu[round]);
                sqlite3_close(db);
            }
        }
    }
    snprintf(note, sizeof note,
             "%.1f MB, 100,000 rows → %zu transactions, one durable transaction, wall time; CPU %.2f s ours, %.2f s the "
             "anchor's (%.2f×); target < 2 s and ≤ 1.5×",
             size / 1e6, rows.rows, median(cpu, ROUNDS), median(anchor_cpu, ROUNDS), median(cpu, ROUNDS) / median(anchor_cpu, ROUNDS));
    {
        double o = median(ours, ROUNDS), a = median(anchor, ROUNDS);
        printf("| import: `cf_engine_import`, %s | %.3f ms | sqlite3 C: the same %zu rows, one transaction | %.3f ms | %.3g× | %s |\n",
               label, o * 1e3, rows.rows, a * 1e3, o / a, note);
    }
    free(data);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: import_bench BUILD_DIR\n");
        return 2;
    }
    bench_file(argv[1], "import-binance-statement-100k.csv", "Binance statement (100,000 rows)");
    bench_file(argv[1], "import-coinbase-v4-100k.csv", "Coinbase v4 (100,000 rows)");
    return 0;
}
