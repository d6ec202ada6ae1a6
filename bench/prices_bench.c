/*
 * prices_bench.c — benchmarks of prices in the past (SPEC §17): cf_engine_price_at answered from
 * stored points, against the same indexed lookup through sqlite3 in C on the same file, and
 * cf_engine_fill_prices of 10,000 pending rows from stored points, against the same lookups and
 * updates through sqlite3 in C. Every
 * figure is a ratio against an anchor measured in the same process, the two alternating (A/B
 * interleaved), medians of the calling thread's CPU time. Prints Markdown rows.
 *
 *   prices_bench BUILD_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "coinfolio.h"

#define COINS 10
#define DAYS 365
#define DAY_MS 86400000LL
#define HOUR_MS 3600000LL
/* 2025-01-01T00:00:00Z: the first stored day. */
#define FIRST_DAY_MS 1735689600000LL

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void check_sql(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s failed: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void row(const char *name, double ours, const char *anchor_name, double anchor, const char *note) {
    printf("| %s | %.4f ms | %s | %.4f ms | %.3g× | %s |\n", name, ours * 1e3, anchor_name, anchor * 1e3, ours / anchor, note);
}

/* The RFC 3339 text of t_ms (UTC, whole seconds) into text. */
static void rfc3339(long long t_ms, char *text, size_t size) {
    time_t seconds = (time_t)(t_ms / 1000);
    struct tm utc;
    gmtime_r(&seconds, &utc);
    strftime(text, size, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

/* An engine on a fresh SQLite file (its schema made by the library), then a year of points of
 * COINS coins in usd written into its price_point table by sqlite3 in C: hourly (at hh:02, as
 * CoinGecko's: 87,600 points) or daily (at 00:00 UTC, as CoinGecko gives a range over 90 days,
 * so as a year-long fill stores them: 3,650). The engine never reaches a server (base_url is a
 * closed port). */
static cf_engine *engine_with_points(const char *path, int hourly, sqlite3 **out_db) {
    char config[4352], *error = NULL, coin[32];
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL;
    int c, h;
    remove(path);
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"api\":{\"base_url\":\"http://127.0.0.1:9/api/v3\",\"max_retries\":0}}", path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check_sql(sqlite3_open(path, &db), db, "sqlite3_open");
    check_sql(sqlite3_exec(db, "PRAGMA journal_mode = WAL; BEGIN", NULL, NULL, NULL), db, "BEGIN");
    check_sql(sqlite3_prepare_v2(db, "INSERT INTO price_point (coin_id, vs_currency, t_ms, price) VALUES (?1, 'usd', ?2, ?3)", -1,
                                 &insert, NULL),
              db, "prepare");
    for (c = 0; c < COINS; c++) {
        snprintf(coin, sizeof coin, "coin-%d", c);
        for (h = 0; h < DAYS * 24; h += hourly ? 1 : 24) {
            sqlite3_bind_text(insert, 1, coin, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(insert, 2, FIRST_DAY_MS + h * HOUR_MS + (hourly ? 120000 : 0));
            sqlite3_bind_double(insert, 3, 100.0 + c + h * 0.01);
            check_sql(sqlite3_step(insert), db, "INSERT");
            sqlite3_reset(insert);
        }
    }
    sqlite3_finalize(insert);
    check_sql(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "COMMIT");
    *out_db = db;
    return engine;
}

/* ---- price_at ------------------------------------------------------------------------------ */
/* cf_engine_price_at of a time with a stored point at or before it that day (the common case):
 * the query's JSON read and checked, the owner's manual points looked up (none), the stored point
 * looked up, the answer written. The anchor is the stored-point lookup alone through sqlite3 in
 * C on the same file: the same SELECT on the same index, one row read. */
static void bench_price_at(const char *dir) {
    char path[4096], query[160], when[32], coin[32], note[256];
    char *error = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *lookup = NULL;
    cf_engine *engine;
    double ours, anchor;
    volatile double sink = 0;
    int n = 0, m = 0;
    snprintf(path, sizeof path, "%s/prices.sqlite", dir);
    engine = engine_with_points(path, 1, &db);
    check_sql(sqlite3_prepare_v2(db,
                                 "SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = ?2 AND t_ms >= ?3 "
                                 "AND t_ms <= ?4 ORDER BY t_ms DESC LIMIT 1",
                                 -1, &lookup, NULL),
              db, "prepare");
    INTERLEAVED(ours, anchor, 21, 400,
                {
                    long long t = FIRST_DAY_MS + (long long)(n % DAYS) * DAY_MS + (n % 23 + 1) * HOUR_MS;
                    char *answer = NULL;
                    rfc3339(t, when, sizeof when);
                    snprintf(query, sizeof query, "{\"coin_id\":\"coin-%d\",\"timestamp\":\"%s\"}", n % COINS, when);
                    check(cf_engine_price_at(engine, query, &answer, &error), error, "cf_engine_price_at");
                    sink += (double)strlen(answer);
                    cf_string_free(answer);
                    n++;
                },
                {
                    long long t = FIRST_DAY_MS + (long long)(m % DAYS) * DAY_MS + (m % 23 + 1) * HOUR_MS;
                    snprintf(coin, sizeof coin, "coin-%d", m % COINS);
                    sqlite3_bind_text(lookup, 1, coin, -1, SQLITE_TRANSIENT);
                    sqlite3_bind_text(lookup, 2, "usd", -1, SQLITE_STATIC);
                    sqlite3_bind_int64(lookup, 3, t - t % DAY_MS);
                    sqlite3_bind_int64(lookup, 4, t);
                    if (sqlite3_step(lookup) == SQLITE_ROW) sink += sqlite3_column_double(lookup, 1);
                    sqlite3_reset(lookup);
                    m++;
                });
    (void)sink;
    sqlite3_finalize(lookup);
    snprintf(note, sizeof note,
             "target < 0.05 ms; %d coins × a year of hourly points (87,600) stored; SQLite file; JSON in and out, the manual "
             "points looked up too",
             COINS);
    row("prices: `cf_engine_price_at` from stored points", ours, "the same indexed SELECT through sqlite3 in C", anchor, note);
    cf_engine_close(engine);
    sqlite3_close(db);
}

/* ---- fill_prices -------------------------------------------------------------------------- */
#define PENDING_ROWS 10000

/* Marks every row of the ledger pending again (untimed, between rounds). */
static void reset_pending(sqlite3 *db) {
    check_sql(sqlite3_exec(db, "UPDATE ledger_transaction SET price = NULL, price_source = 'pending', price_at = NULL", NULL, NULL,
                           NULL),
              db, "reset");
}

/* cf_engine_fill_prices of 10,000 pending staking rewards (10 coins, one row every ~53 minutes
 * over the stored year), every price found among the stored points, so no request: the pending
 * rows read, the points of each coin read once, each row priced by the rule, every row written in
 * one durable transaction, the answer written. The anchor does the same through sqlite3 in C on
 * the same file: the pending rows selected, one indexed SELECT of the point at or before each row,
 * and the 10,000 UPDATEs in one transaction. Between rounds the rows are made pending again,
 * untimed. */
static void bench_fill(const char *dir, int hourly) {
    char path[4096], note[256], coin[32], price[64];
    char *error = NULL, *out = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL, *pending = NULL, *lookup = NULL, *after = NULL, *update = NULL;
    cf_engine *engine;
    double ours[MAX_ROUNDS], anchor[MAX_ROUNDS], start;
    int r, i, rounds = 11;
    snprintf(path, sizeof path, "%s/prices-fill-%s.sqlite", dir, hourly ? "hourly" : "daily");
    engine = engine_with_points(path, hourly, &db);
    check_sql(sqlite3_exec(db, "INSERT INTO portfolio (owner, name, vs_currency) VALUES ('default', 'main', NULL) "
                               "ON CONFLICT DO NOTHING; BEGIN",
                           NULL, NULL, NULL),
              db, "portfolio");
    check_sql(sqlite3_prepare_v2(db,
                                 "INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, "
                                 "timestamp_ms, note, income_type, price_source) VALUES ('default', 'main', ?1, 'income', '1', "
                                 "NULL, '0', ?2, '', 'staking', 'pending')",
                                 -1, &insert, NULL),
              db, "prepare insert");
    for (i = 0; i < PENDING_ROWS; i++) {
        snprintf(coin, sizeof coin, "coin-%d", i % COINS);
        sqlite3_bind_text(insert, 1, coin, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(insert, 2, FIRST_DAY_MS + (long long)i * (DAYS * DAY_MS / PENDING_ROWS) + 30 * 60000LL);
        check_sql(sqlite3_step(insert), db, "INSERT");
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    check_sql(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "COMMIT");
    check_sql(sqlite3_prepare_v2(db,
                                 "SELECT id, coin_id, timestamp_ms FROM ledger_transaction WHERE owner = 'default' AND "
                                 "price_source = 'pending' ORDER BY id",
                                 -1, &pending, NULL),
              db, "prepare pending");
    check_sql(sqlite3_prepare_v2(db,
                                 "SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = 'usd' AND t_ms >= ?2 "
                                 "AND t_ms <= ?3 ORDER BY t_ms DESC LIMIT 1",
                                 -1, &lookup, NULL),
              db, "prepare lookup");
    check_sql(sqlite3_prepare_v2(db,
                                 "SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = 'usd' AND t_ms > ?2 "
                                 "AND t_ms < ?3 ORDER BY t_ms LIMIT 1",
                                 -1, &after, NULL),
              db, "prepare after");
    check_sql(sqlite3_prepare_v2(db,
                                 "UPDATE ledger_transaction SET price = ?1, price_source = 'coingecko', price_at = ?2 "
                                 "WHERE id = ?3 AND owner = 'default' AND price_source = 'pending'",
                                 -1, &update, NULL),
              db, "prepare update");
    for (r = 0; r < rounds; r++) {
        int first;
        for (first = 0; first < 2; first++) {
            reset_pending(db);
            start = now_s();
            if ((first == 0) == (r % 2 == 0)) {
                json_t *answer;
                check(cf_engine_fill_prices(engine, "{\"max_requests\":0}", &out, &error), error, "cf_engine_fill_prices");
                ours[r] = now_s() - start;
                answer = json_loads(out, 0, NULL);
                if (json_integer_value(json_object_get(answer, "filled")) != PENDING_ROWS ||
                    json_integer_value(json_object_get(answer, "requests")) != 0) {
                    fprintf(stderr, "prices_bench: the fill did not price every row from stored points: %.200s\n", out);
                    exit(1);
                }
                json_decref(answer);
                cf_string_free(out);
            } else {
                int filled = 0;
                check_sql(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "BEGIN");
                while (sqlite3_step(pending) == SQLITE_ROW) {
                    long long id = sqlite3_column_int64(pending, 0), t = sqlite3_column_int64(pending, 2);
                    sqlite3_stmt *found = lookup;
                    sqlite3_bind_text(lookup, 1, (const char *)sqlite3_column_text(pending, 1), -1, SQLITE_TRANSIENT);
                    sqlite3_bind_int64(lookup, 2, t - t % DAY_MS);
                    sqlite3_bind_int64(lookup, 3, t);
                    if (sqlite3_step(lookup) != SQLITE_ROW) { /* no point since midnight: the first after, that day */
                        found = after;
                        sqlite3_bind_text(after, 1, (const char *)sqlite3_column_text(pending, 1), -1, SQLITE_TRANSIENT);
                        sqlite3_bind_int64(after, 2, t);
                        sqlite3_bind_int64(after, 3, t - t % DAY_MS + DAY_MS);
                        sqlite3_step(after);
                    }
                    if (sqlite3_stmt_busy(found) && sqlite3_data_count(found) > 0) {
                        snprintf(price, sizeof price, "%.17g", sqlite3_column_double(found, 1));
                        sqlite3_bind_text(update, 1, price, -1, SQLITE_TRANSIENT);
                        sqlite3_bind_int64(update, 2, sqlite3_column_int64(found, 0));
                        sqlite3_bind_int64(update, 3, id);
                        check_sql(sqlite3_step(update), db, "UPDATE");
                        sqlite3_reset(update);
                        filled++;
                    }
                    sqlite3_reset(lookup);
                    sqlite3_reset(after);
                }
                sqlite3_reset(pending);
                check_sql(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "COMMIT");
                anchor[r] = now_s() - start;
                if (filled != PENDING_ROWS) {
                    fprintf(stderr, "prices_bench: the anchor priced %d rows\n", filled);
                    exit(1);
                }
            }
        }
    }
    sqlite3_finalize(pending);
    sqlite3_finalize(lookup);
    sqlite3_finalize(after);
    sqlite3_finalize(update);
    snprintf(note, sizeof note,
             "target < 100 ms; %d pending rows over %d coins, every price among %s stored points (no request); one durable "
             "transaction (WAL, synchronous=FULL); CPU time",
             PENDING_ROWS, COINS, hourly ? "87,600 hourly" : "3,650 daily (what a year-long fill stores)");
    row(hourly ? "prices: `cf_engine_fill_prices` of 10,000 pending rows, a year of hourly points stored"
               : "prices: `cf_engine_fill_prices` of 10,000 pending rows from stored points",
        median(ours, rounds), "the same lookups and UPDATEs through sqlite3 in C", median(anchor, rounds), note);
    cf_engine_close(engine);
    sqlite3_close(db);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: prices_bench BUILD_DIR\n");
        return 2;
    }
    (void)read_file;
    bench_price_at(argv[1]);
    bench_fill(argv[1], 0);
    bench_fill(argv[1], 1);
    return 0;
}
