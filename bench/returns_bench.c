/*
 * returns_bench.c — SPEC §19's measured targets (§22), each against an anchor run in the same
 * process, calls interleaved: cf_engine_realized over 100,000 disposals (< 100 ms) and
 * cf_engine_performance over five years of daily price points of 100 coins (< 50 ms), both
 * without a request, the ledger cached. Prints markdown table rows.
 *
 *     returns_bench BUILD_DIR     (BUILD_DIR holds realized-200k.csv from generate.py)
 */
#define _POSIX_C_SOURCE 200809L
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void row(const char *name, double ours, const char *anchor_name, double anchor, const char *note) {
    printf("| %s | %.3f ms | %s | %.3f ms | %.3g× | %s |\n", name, ours * 1e3, anchor_name, anchor * 1e3, ours / anchor, note);
}

/* realized over 100,000 disposals (fifo and uk), against reading the same rows in C. */
static void bench_realized(const char *dir) {
    char path[4096], config[4200], note[256];
    char *csv, *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    double ours, anchor, start, cold;
    volatile double sink = 0;
    size_t size, answer = 0;

    snprintf(path, sizeof path, "%s/realized-200k.csv", dir);
    csv = read_file(path, &size);
    snprintf(path, sizeof path, "%s/realized.sqlite", dir);
    remove(path);
    snprintf(config, sizeof config, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_import_csv(engine, csv, &out, &error), error, "cf_engine_import_csv");
    cf_string_free(out);
    start = now_s();
    check(cf_engine_realized(engine, NULL, &out, &error), error, "cf_engine_realized");
    cold = now_s() - start;
    answer = strlen(out);
    cf_string_free(out);
    sqlite3_open(path, &db);
    sqlite3_prepare_v2(db, "SELECT coin_id, id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction"
                           " WHERE portfolio = 'main' AND owner = 'default' ORDER BY timestamp_ms, id", -1, &select, NULL);
    INTERLEAVED(ours, anchor, 11, 2,
                {
                    check(cf_engine_realized(engine, "{\"method\":\"fifo\"}", &out, &error), error, "cf_engine_realized");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    snprintf(note, sizeof note,
             "fifo, 200,000 transactions of 100 coins, the rows as JSON (%.1f MB), ledger cached (the first call %.0f ms); "
             "target < 100 ms", answer / 1e6, cold * 1e3);
    row("returns: `cf_engine_realized` (100,000 disposals)", ours, "sqlite3 C: SELECT the same rows", anchor, note);
    INTERLEAVED(ours, anchor, 11, 2,
                {
                    check(cf_engine_realized(engine, "{\"method\":\"uk\"}", &out, &error), error, "cf_engine_realized");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    row("returns: `cf_engine_realized` uk (100,000 disposals)", ours, "sqlite3 C: SELECT the same rows", anchor,
        "UK share pooling (same day, 30 days, Section 104 pool); target < 100 ms");
    sqlite3_finalize(select);
    sqlite3_close(db);
    cf_engine_close(engine);
    free(csv);
    (void)sink;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: returns_bench BUILD_DIR\n");
        return 2;
    }
    bench_realized(argv[1]);
    return 0;
}
