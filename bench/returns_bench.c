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

/* performance over five years of daily points (at 00:00 UTC, as a long range's fill stores them)
 * of 100 coins written into price_point by sqlite3 in C, a buy of each coin each quarter: every
 * coin's points read once and priced at each day's 00:00 (1,827 points). The anchor reads the same
 * points through sqlite3 in C (one SELECT per coin on the same index, every row's price). */
#define PERF_COINS 100
#define PERF_DAYS 1826
#define DAY_MS 86400000LL
#define PERF_FIRST_MS 1577836800000LL /* 2020-01-01T00:00:00Z */
static void bench_performance(const char *dir) {
    char path[4096], config[4352], json[256], when[32], coin[32], note[256], options[128];
    char *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL, *select = NULL;
    double ours, anchor, start, cold;
    volatile double sink = 0;
    int c, d;
    snprintf(path, sizeof path, "%s/performance.sqlite", dir);
    remove(path);
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"api\":{\"base_url\":\"http://127.0.0.1:9/api/v3\",\"max_retries\":0}}",
             path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    sqlite3_open(path, &db);
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; BEGIN", NULL, NULL, NULL);
    sqlite3_prepare_v2(db, "INSERT INTO price_point (coin_id, vs_currency, t_ms, price) VALUES (?1, 'usd', ?2, ?3)", -1, &insert,
                       NULL);
    for (c = 0; c < PERF_COINS; c++) {
        snprintf(coin, sizeof coin, "coin-%d", c);
        for (d = 0; d <= PERF_DAYS; d++) {
            sqlite3_bind_text(insert, 1, coin, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(insert, 2, PERF_FIRST_MS + d * DAY_MS);
            sqlite3_bind_double(insert, 3, 100.0 + c + d * 0.05);
            if (sqlite3_step(insert) != SQLITE_DONE) {
                fprintf(stderr, "INSERT failed: %s\n", sqlite3_errmsg(db));
                exit(1);
            }
            sqlite3_reset(insert);
        }
    }
    sqlite3_finalize(insert);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    for (c = 0; c < PERF_COINS; c++) {
        for (d = 0; d < PERF_DAYS; d += 91) {
            time_t t = (time_t)((PERF_FIRST_MS + d * DAY_MS) / 1000 + 12 * 3600);
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
            snprintf(json, sizeof json, "{\"coin_id\":\"coin-%d\",\"kind\":\"buy\",\"amount\":1,\"price\":%d,\"timestamp\":\"%s\"}",
                     c, 100 + c, when);
            check(cf_engine_add_transaction(engine, json, &out, &error), error, "cf_engine_add_transaction");
            cf_string_free(out);
        }
    }
    snprintf(options, sizeof options, "{\"range\":{\"from\":\"2020-01-01\",\"to\":\"2024-12-31\"},\"benchmark\":\"coin-0\"}");
    start = now_s();
    check(cf_engine_performance(engine, options, &out, &error), error, "cf_engine_performance");
    cold = now_s() - start;
    if (strstr(out, "\"coverage\":1,") == NULL) {
        fprintf(stderr, "cf_engine_performance: not every point priced: %.300s\n", out);
        exit(1);
    }
    cf_string_free(out);
    sqlite3_prepare_v2(db, "SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = 'usd' AND t_ms >= ?2 AND t_ms <= ?3"
                           " ORDER BY t_ms", -1, &select, NULL);
    INTERLEAVED(ours, anchor, 11, 2,
                {
                    check(cf_engine_performance(engine, options, &out, &error), error, "cf_engine_performance");
                    cf_string_free(out);
                },
                {
                    for (c = 0; c < PERF_COINS; c++) {
                        snprintf(coin, sizeof coin, "coin-%d", c);
                        sqlite3_bind_text(select, 1, coin, -1, SQLITE_TRANSIENT);
                        sqlite3_bind_int64(select, 2, PERF_FIRST_MS);
                        sqlite3_bind_int64(select, 3, PERF_FIRST_MS + (PERF_DAYS + 1) * DAY_MS - 1);
                        while (sqlite3_step(select) == SQLITE_ROW) sink += sqlite3_column_double(select, 1);
                        sqlite3_reset(select);
                    }
                });
    snprintf(note, sizeof note,
             "%d coins × 5 years of daily points (%d) stored, a buy each quarter (2,100 rows), benchmark coin; SQLite file; "
             "each coin's points kept while the database is unchanged, the first call (reading them) %.0f ms; target < 50 ms",
             PERF_COINS, PERF_COINS * (PERF_DAYS + 1), cold * 1e3);
    row("returns: `cf_engine_performance` (5 years, 100 coins)", ours, "sqlite3 C: SELECT the same points", anchor, note);
    sqlite3_finalize(select);
    sqlite3_close(db);
    cf_engine_close(engine);
    (void)sink;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: returns_bench BUILD_DIR\n");
        return 2;
    }
    bench_realized(argv[1]);
    bench_performance(argv[1]);
    return 0;
}
