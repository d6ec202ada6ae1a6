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
 * sets: Database.withLargeWriteCache), every row through a prepared INSERT … RETURNING id, and
 * the owner's change counter. Wall time (the commit's fsync is part of
 * the work), median of three rounds, ours and the anchor alternating. Prints Markdown rows.
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
/* Columns of ledger_transaction the anchor copies (every one but id). */
#define COLUMNS "owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, group_id, income_type, " \
                "fee_coin_id, fee_price, price_source, price_at, original_price, price_currency"
#define COLUMN_COUNT 18

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sql_check(sqlite3 *db, int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "import_bench: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

/* The ledger rows of a database: COLUMN_COUNT values each (NULL or text), in id order. */
typedef struct {
    char **cells;
    size_t rows;
} ledger_rows;

static ledger_rows read_rows(const char *path) {
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    ledger_rows out = {NULL, 0};
    size_t capacity = 0;
    sql_check(db, sqlite3_open(path, &db), "open ours");
    sql_check(db, sqlite3_prepare_v2(db, "SELECT " COLUMNS " FROM ledger_transaction ORDER BY id", -1, &select, NULL), "select");
    while (sqlite3_step(select) == SQLITE_ROW) {
        int c;
        if (out.rows == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            out.cells = realloc(out.cells, capacity * COLUMN_COUNT * sizeof(char *));
        }
        for (c = 0; c < COLUMN_COUNT; c++) {
            const unsigned char *text = sqlite3_column_text(select, c);
            out.cells[out.rows * COLUMN_COUNT + (size_t)c] = text ? strdup((const char *)text) : NULL;
        }
        out.rows++;
    }
    sqlite3_finalize(select);
    sqlite3_close(db);
    return out;
}

/* A new SQLite file with the ledger's tables and indexes as our database has them. */
static sqlite3 *raw_database(const char *ours, const char *path) {
    sqlite3 *source = NULL, *db = NULL;
    sqlite3_stmt *schema = NULL;
    remove(path);
    sql_check(source, sqlite3_open(ours, &source), "open ours");
    sql_check(db, sqlite3_open(path, &db), "open raw");
    sql_check(db, sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-65536;", NULL, NULL, NULL),
              "pragmas");
    sql_check(source, sqlite3_prepare_v2(source,
                                         "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN"
                                         " ('ledger_transaction', 'ledger_change', 'portfolio') ORDER BY type DESC",
                                         -1, &schema, NULL),
              "schema");
    while (sqlite3_step(schema) == SQLITE_ROW)
        sql_check(db, sqlite3_exec(db, (const char *)sqlite3_column_text(schema, 0), NULL, NULL, NULL), "create");
    sqlite3_finalize(schema);
    sqlite3_close(source);
    return db;
}

/* The anchor: every row inserted in one durable transaction, and the change counter. */
static double raw_insert(sqlite3 *db, const ledger_rows *rows, double *cpu) {
    sqlite3_stmt *insert = NULL;
    size_t r;
    double start = seconds(CLOCK_MONOTONIC), cpu_start = seconds(CLOCK_THREAD_CPUTIME_ID);
    sql_check(db,
              sqlite3_prepare_v2(db,
                                 "INSERT INTO ledger_transaction (" COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                                 " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) RETURNING id",
                                 -1, &insert, NULL),
              "prepare");
    sql_check(db, sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
    sql_check(db, sqlite3_exec(db, "INSERT INTO ledger_change (owner, counter) VALUES ('default', 1)", NULL, NULL, NULL), "count");
    for (r = 0; r < rows->rows; r++) {
        int c;
        for (c = 0; c < COLUMN_COUNT; c++) {
            const char *cell = rows->cells[r * COLUMN_COUNT + (size_t)c];
            if (c == 7 || c == 15) { /* timestamp_ms, price_at */
                if (cell) sqlite3_bind_int64(insert, c + 1, strtoll(cell, NULL, 10));
                else sqlite3_bind_null(insert, c + 1);
            } else if (cell) {
                sqlite3_bind_text(insert, c + 1, cell, -1, SQLITE_STATIC);
            } else {
                sqlite3_bind_null(insert, c + 1);
            }
        }
        sql_check(db, sqlite3_step(insert), "insert");
        sqlite3_reset(insert);
    }
    sql_check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
    sqlite3_finalize(insert);
    *cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
    return seconds(CLOCK_MONOTONIC) - start;
}

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
