/*
 * bench.c — Coinfolio's C benchmarks. Every figure is a ratio against an anchor measured in the
 * same process, with absolute times beside it. Prints Markdown rows for BENCHMARKS.md.
 *
 *   bench run BUILD_DIR        ingest, query, store and abi sections
 *   bench memory FILE.json     peak RSS while ingesting FILE (run in a fresh process)
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "coinfolio.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data;
    long length;
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    length = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)length + 1);
    if (!data || fread(data, 1, (size_t)length, f) != (size_t)length) { perror(path); exit(1); }
    data[length] = '\0';
    fclose(f);
    *size = (size_t)length;
    return data;
}

static void check(int status, char *error, const char *what) {
    if (status != CF_OK) {
        fprintf(stderr, "%s failed: %s\n", what, error ? error : "?");
        exit(1);
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median seconds per call of `body` over `rounds` rounds of `per_round` calls. */
#define MEDIAN_OF(result, rounds, per_round, body)                       \
    do {                                                                 \
        double samples_[rounds];                                         \
        int r_, i_;                                                      \
        for (r_ = 0; r_ < (rounds); r_++) {                              \
            double start_ = now_s();                                     \
            for (i_ = 0; i_ < (per_round); i_++) { body; }               \
            samples_[r_] = (now_s() - start_) / (per_round);             \
        }                                                                \
        qsort(samples_, (rounds), sizeof(double), compare_doubles);      \
        (result) = samples_[(rounds) / 2];                               \
    } while (0)

static void row(const char *name, double ours, const char *anchor_name, double anchor, const char *note) {
    printf("| %s | %.3f ms | %s | %.3f ms | %.3g× | %s |\n", name, ours * 1e3, anchor_name, anchor * 1e3, ours / anchor, note);
}

/* ---- ingest ------------------------------------------------------------------------------- */
static void bench_ingest(const char *dir) {
    char path[4096], note[256];
    size_t size;
    char *body, *error = NULL;
    cf_engine *engine = NULL;
    double ours, anchor;
    snprintf(path, sizeof path, "%s/markets-250.json", dir);
    body = read_file(path, &size);
    check(cf_engine_open("{\"database\":\":memory:\"}", &engine, &error), error, "cf_engine_open");
    MEDIAN_OF(anchor, 15, 2, { json_t *v = json_loadb(body, size, 0, NULL); json_decref(v); });
    MEDIAN_OF(ours, 15, 2, { check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load"); });
    snprintf(note, sizeof note, "%.1f MB body; %.0f MB/s ours, %.0f MB/s jansson", size / 1e6, size / 1e6 / ours, size / 1e6 / anchor);
    row("ingest: `cf_engine_load` of /coins/markets (250 coins)", ours, "jansson `json_loadb`", anchor, note);
    cf_engine_close(engine);
    free(body);
}

/* ---- query -------------------------------------------------------------------------------- */
/* The seed app's portfolio: for each coin, a linear first(where:) over the holdings. */
static double seed_portfolio(json_t *coins, char **ids, double *amounts, size_t holdings) {
    double total = 0;
    size_t i, h;
    for (i = 0; i < json_array_size(coins); i++) {
        json_t *coin = json_array_get(coins, i);
        const char *id = json_string_value(json_object_get(coin, "id"));
        for (h = 0; h < holdings; h++) {
            if (strcmp(ids[h], id) == 0) {
                total += amounts[h] * json_number_value(json_object_get(coin, "current_price"));
                break;
            }
        }
    }
    return total;
}

static void bench_query(const char *dir) {
    char path[4096];
    size_t size, held = 0;
    char *body, *ids_text, *error = NULL, *out = NULL, *line;
    char *ids[1000];
    double amounts[1000], ours, anchor, sink = 0;
    cf_engine *engine = NULL;
    json_t *coins;
    snprintf(path, sizeof path, "%s/markets-15k.json", dir);
    body = read_file(path, &size);
    snprintf(path, sizeof path, "%s/holdings-1k.txt", dir);
    ids_text = read_file(path, &size);
    check(cf_engine_open("{\"database\":\":memory:\"}", &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    for (line = strtok(ids_text, "\n"); line && held < 1000; line = strtok(NULL, "\n")) {
        ids[held] = line;
        amounts[held] = 1.0 + (double)held / 7.0;
        check(cf_engine_set_holding(engine, line, amounts[held], &error), error, "cf_engine_set_holding");
        held++;
    }
    coins = json_loads(body, 0, NULL);

    MEDIAN_OF(anchor, 11, 3, { sink += seed_portfolio(coins, ids, amounts, held); });
    MEDIAN_OF(ours, 21, 20, {
        check(cf_engine_coins(engine, "{\"search\":\"eth\",\"limit\":50,\"sparkline\":false}", &out, &error), error, "coins");
        cf_string_free(out);
    });
    row("query: `cf_engine_coins` (15,000 coins, search \"eth\", limit 50, no sparkline)", ours,
        "seed portfolio join (15,000 × 1,000 linear)", anchor, "target < 1 ms");
    MEDIAN_OF(ours, 21, 5, {
        check(cf_engine_portfolio(engine, "{\"sparkline\":false}", &out, &error), error, "portfolio");
        cf_string_free(out);
    });
    row("query: `cf_engine_portfolio` (1,000 holdings, no sparkline)", ours, "seed portfolio join (15,000 × 1,000 linear)", anchor,
        "target < 1 ms; JSON of 1,000 coins");
    MEDIAN_OF(ours, 21, 20, {
        check(cf_engine_statistics(engine, &out, &error), error, "statistics");
        cf_string_free(out);
    });
    row("query: `cf_engine_statistics` (1,000 holdings)", ours, "seed portfolio join (15,000 × 1,000 linear)", anchor, "target < 1 ms");
    MEDIAN_OF(ours, 21, 5, {
        check(cf_engine_portfolio_history(engine, NULL, &out, &error), error, "portfolio_history");
        cf_string_free(out);
    });
    row("chart: `cf_engine_portfolio_history` (1,000 holdings, sparklines of 18–169 points)", ours,
        "seed portfolio join (15,000 × 1,000 linear)", anchor, "target < 5 ms; no request");
    if (sink == 42) puts("");
    json_decref(coins);
    cf_engine_close(engine);
    free(body);
    free(ids_text);
}

/* ---- ledger ------------------------------------------------------------------------------- */
/* The ledger's tables, as Coinfolio's schema 2 creates them (Sources/Coinfolio/Store/LedgerStore.swift). */
static const char *const ledger_schema =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    "CREATE TABLE portfolio (name TEXT PRIMARY KEY NOT NULL, vs_currency TEXT) WITHOUT ROWID;"
    "CREATE TABLE ledger_transaction (id INTEGER PRIMARY KEY, portfolio TEXT NOT NULL,"
    " coin_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('buy', 'sell', 'transfer_in', 'transfer_out')),"
    " amount TEXT NOT NULL, price TEXT, fee TEXT NOT NULL, timestamp_ms INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '',"
    " external_id TEXT);"
    "CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (portfolio, external_id) WHERE external_id IS NOT NULL;"
    "CREATE INDEX ledger_order ON ledger_transaction (portfolio, coin_id, timestamp_ms, id);"
    "INSERT INTO portfolio (name, vs_currency) VALUES ('main', NULL);";

static const char *const ledger_insert =
    "INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

static sqlite3 *raw_ledger(const char *path) {
    sqlite3 *db = NULL;
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, ledger_schema, NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "raw ledger: %s\n", db ? sqlite3_errmsg(db) : "open failed");
        exit(1);
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

static void step_done(sqlite3 *db, sqlite3_stmt *statement) {
    int rc = sqlite3_step(statement);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) { fprintf(stderr, "raw ledger: %s\n", sqlite3_errmsg(db)); exit(1); }
    sqlite3_reset(statement);
}

/* The anchor of the import: the generated CSV (no quotes) split by hand and inserted with the
 * same statement in one durable transaction. */
static void raw_import(sqlite3 *db, char *csv) {
    sqlite3_stmt *insert = NULL;
    char *line, *save = NULL;
    int first = 1;
    sqlite3_prepare_v2(db, ledger_insert, -1, &insert, NULL);
    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *field[9], *p = line;
        int n = 0;
        if (first) { first = 0; continue; }
        while (n < 9) { field[n++] = p; p = strchr(p, ','); if (!p) break; *p++ = '\0'; }
        sqlite3_bind_text(insert, 1, field[1], -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, field[2], -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 3, field[3], -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 4, field[4], -1, SQLITE_STATIC);
        if (field[5][0]) sqlite3_bind_text(insert, 5, field[5], -1, SQLITE_STATIC); else sqlite3_bind_null(insert, 5);
        sqlite3_bind_text(insert, 6, field[6][0] ? field[6] : "0", -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 7, 1704067200000LL);
        sqlite3_bind_text(insert, 8, field[7], -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 9, field[8], -1, SQLITE_STATIC);
        step_done(db, insert);
    }
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_finalize(insert);
}

static void bench_ledger(const char *dir) {
    char path[4096], raw_path[4096], note[256], json[4200];
    size_t size, markets_size;
    char *csv, *copy, *markets, *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db;
    sqlite3_stmt *select = NULL, *check_portfolio = NULL, *insert = NULL;
    double ours, anchor, start, cold;
    int n = 0, round;
    double import_ours[3], import_anchor[3], add_ours[5], add_anchor[5];
    volatile double sink = 0;

    snprintf(path, sizeof path, "%s/ledger-100k.csv", dir);
    csv = read_file(path, &size);
    snprintf(path, sizeof path, "%s/ledger-markets.json", dir);
    markets = read_file(path, &markets_size);
    snprintf(raw_path, sizeof raw_path, "%s/ledger-raw.sqlite", dir);
    snprintf(path, sizeof path, "{\"database\":\"%s/ledger.sqlite\"}", dir);

    /* Import, interleaved with the anchor, three times each on fresh files. */
    for (round = 0; round < 3; round++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/ledger.sqlite", dir);
        remove(file);
        check(cf_engine_open(path, &engine, &error), error, "cf_engine_open");
        start = now_s();
        check(cf_engine_import_csv(engine, csv, &out, &error), error, "cf_engine_import_csv");
        import_ours[round] = now_s() - start;
        cf_string_free(out);
        cf_engine_close(engine);
        db = raw_ledger(raw_path);
        copy = malloc(size + 1);
        memcpy(copy, csv, size + 1);
        start = now_s();
        raw_import(db, copy);
        import_anchor[round] = now_s() - start;
        free(copy);
        sqlite3_close(db);
    }
    qsort(import_ours, 3, sizeof(double), compare_doubles);
    qsort(import_anchor, 3, sizeof(double), compare_doubles);
    snprintf(note, sizeof note, "%.1f MB, 100,000 rows, one durable transaction; target < 2 s", size / 1e6);
    row("ledger: `cf_engine_import_csv` (100,000 rows)", import_ours[1], "sqlite3 C: same INSERTs, one transaction", import_anchor[1], note);

    /* pnl over the imported ledger: 100,000 transactions, 1,000 coins, priced. */
    check(cf_engine_open(path, &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, markets, NULL, &error), error, "cf_engine_load");
    start = now_s();
    check(cf_engine_pnl(engine, NULL, &out, &error), error, "cf_engine_pnl");
    cold = now_s() - start;
    cf_string_free(out);
    db = NULL;
    sqlite3_open(raw_path, &db);
    sqlite3_prepare_v2(db, "SELECT coin_id, id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction"
                           " WHERE portfolio = 'main' ORDER BY coin_id, timestamp_ms, id", -1, &select, NULL);
    MEDIAN_OF(anchor, 11, 3, {
        while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
        sqlite3_reset(select);
    });
    sqlite3_finalize(select);
    sqlite3_close(db);
    MEDIAN_OF(ours, 11, 3, {
        check(cf_engine_pnl(engine, "{\"method\":\"fifo\"}", &out, &error), error, "cf_engine_pnl");
        cf_string_free(out);
    });
    snprintf(note, sizeof note, "fifo, ledger cached; the first call after opening (reads and parses every row) %.1f ms; target < 50 ms", cold * 1e3);
    row("ledger: `cf_engine_pnl` (100,000 transactions, 1,000 coins)", ours, "sqlite3 C: SELECT the same rows", anchor, note);
    MEDIAN_OF(ours, 11, 3, {
        check(cf_engine_pnl(engine, "{\"method\":\"average\"}", &out, &error), error, "cf_engine_pnl");
        cf_string_free(out);
    });
    row("ledger: `cf_engine_pnl` average (100,000 transactions, 1,000 coins)", ours, "sqlite3 C: SELECT the same rows", anchor, "ledger cached; target < 50 ms");
    cf_engine_close(engine);

    /* add_transaction against the same SQL: BEGIN IMMEDIATE, the portfolio check, the INSERT, COMMIT. */
    db = raw_ledger(raw_path);
    sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = ?1", -1, &check_portfolio, NULL);
    sqlite3_prepare_v2(db, ledger_insert, -1, &insert, NULL);
    snprintf(path, sizeof path, "%s/ledger-add.sqlite", dir);
    remove(path);
    snprintf(json, sizeof json, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(json, &engine, &error), error, "cf_engine_open");
    for (round = 0; round < 5; round++) {
        double a, o;
        MEDIAN_OF(a, 3, 60, {
            char amount[32];
            snprintf(amount, sizeof amount, "0.%d", 1 + n % 9);
            sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
            sqlite3_bind_text(check_portfolio, 1, "main", -1, SQLITE_STATIC);
            step_done(db, check_portfolio);
            sqlite3_bind_text(insert, 1, "main", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 2, "bitcoin", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 3, "buy", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 4, amount, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(insert, 5, "60000.5", -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 6, "1.25", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 7, 1704067200000LL + n);
            sqlite3_bind_text(insert, 8, "", -1, SQLITE_STATIC);
            sqlite3_bind_null(insert, 9);
            step_done(db, insert);
            sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
            n++;
        });
        MEDIAN_OF(o, 3, 60, {
            snprintf(json, sizeof json,
                     "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":0.%d,\"price\":60000.5,\"fee\":1.25,"
                     "\"timestamp\":\"2024-01-01T00:00:00Z\"}", 1 + n % 9);
            check(cf_engine_add_transaction(engine, json, &out, &error), error, "cf_engine_add_transaction");
            cf_string_free(out);
            n++;
        });
        add_ours[round] = o;
        add_anchor[round] = a;
    }
    /* The round with the median ratio. */
    {
        double ratios[5];
        int i;
        for (i = 0; i < 5; i++) ratios[i] = add_ours[i] / add_anchor[i];
        qsort(ratios, 5, sizeof(double), compare_doubles);
        for (i = 0; i < 5; i++)
            if (add_ours[i] / add_anchor[i] == ratios[2]) { ours = add_ours[i]; anchor = add_anchor[i]; }
    }
    sqlite3_finalize(check_portfolio);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    cf_engine_close(engine);
    snprintf(note, sizeof note, "durable buys (WAL, synchronous=FULL), JSON in and out; median ratio of 5 interleaved rounds; target ≤ 1.1×");
    row("ledger: `cf_engine_add_transaction`", ours, "sqlite3 C, same SQL and pragmas", anchor, note);
    (void)sink;
    free(csv);
    free(markets);
}

/* ---- chart -------------------------------------------------------------------------------- */
/* Summary + SVG of a one-year hourly chart: cf_engine_chart answered from its cache (sorting,
 * summary, JSON) then cf_chart_svg of that answer, against jansson parsing the same answer. */
static void bench_chart(void) {
    const char *base_url = getenv("COINFOLIO_BENCH_BASE_URL");
    char config[512], note[256], *error = NULL, *out = NULL, *svg = NULL;
    cf_engine *engine = NULL;
    double ours, anchor;
    size_t points, length;
    json_t *chart;
    if (base_url == NULL) {
        fprintf(stderr, "bench: COINFOLIO_BENCH_BASE_URL (the loopback server of the chart fixtures) is not set\n");
        exit(1);
    }
    snprintf(config, sizeof config,
             "{\"database\":\":memory:\",\"chart_ttl_s\":86400,\"api\":{\"base_url\":\"%s\",\"plan\":\"public\"}}", base_url);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_chart(engine, "bitcoin", "{\"days\":365}", &out, &error), error, "cf_engine_chart");
    chart = json_loads(out, 0, NULL);
    points = json_array_size(json_object_get(chart, "points"));
    json_decref(chart);
    length = strlen(out);
    if (points != 8760) { fprintf(stderr, "bench: the chart has %zu points, not 8,760\n", points); exit(1); }
    MEDIAN_OF(anchor, 21, 5, { json_t *v = json_loadb(out, length, 0, NULL); json_decref(v); });
    cf_string_free(out);
    MEDIAN_OF(ours, 21, 5, {
        check(cf_engine_chart(engine, "bitcoin", "{\"days\":365}", &out, &error), error, "cf_engine_chart");
        check(cf_chart_svg(out, "{\"width\":1200,\"height\":600}", &svg, &error), error, "cf_chart_svg");
        cf_string_free(out);
        cf_string_free(svg);
    });
    snprintf(note, sizeof note, "target < 5 ms; cached chart (summary + %.0f KB of JSON) then its SVG", length / 1e3);
    row("chart: summary + SVG of 8,760 points (`cf_engine_chart` cached + `cf_chart_svg`)", ours,
        "jansson `json_loadb` of the chart JSON", anchor, note);
    cf_engine_close(engine);
}

/* ---- store -------------------------------------------------------------------------------- */
/* set_holding records a transfer of the difference in the ledger (schema 2): the anchor runs the
 * same SQL through sqlite3 — BEGIN IMMEDIATE, the portfolio check, the coin's rows, the INSERT,
 * COMMIT — with the same pragmas. */
static void bench_store(const char *dir) {
    char path[4096], id[64], amount[32];
    char *error = NULL;
    cf_store *store = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *portfolio = NULL, *rows = NULL, *insert = NULL;
    double ours, anchor, round_ours[5], round_anchor[5];
    int n = 0, m = 0, round;
    const int writes = 60;

    snprintf(path, sizeof path, "%s/store-raw.sqlite", dir);
    db = raw_ledger(path);
    sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = ?1", -1, &portfolio, NULL);
    sqlite3_prepare_v2(db, "SELECT id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction"
                           " WHERE portfolio = ?1 AND coin_id = ?2 ORDER BY timestamp_ms, id", -1, &rows, NULL);
    sqlite3_prepare_v2(db, ledger_insert, -1, &insert, NULL);
    snprintf(path, sizeof path, "%s/store-coinfolio.sqlite", dir);
    remove(path);
    check(cf_store_open(path, &store, &error), error, "cf_store_open");
    for (round = 0; round < 5; round++) {
    MEDIAN_OF(round_anchor[round], 1, writes, {
        snprintf(id, sizeof id, "coin-%d", n % 500);
        snprintf(amount, sizeof amount, "%d", 1 + n++);
        sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        sqlite3_bind_text(portfolio, 1, "main", -1, SQLITE_STATIC);
        step_done(db, portfolio);
        sqlite3_bind_text(rows, 1, "main", -1, SQLITE_STATIC);
        sqlite3_bind_text(rows, 2, id, -1, SQLITE_TRANSIENT);
        while (sqlite3_step(rows) == SQLITE_ROW) {}
        sqlite3_reset(rows);
        sqlite3_bind_text(insert, 1, "main", -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 3, "transfer_in", -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 4, amount, -1, SQLITE_TRANSIENT);
        sqlite3_bind_null(insert, 5);
        sqlite3_bind_text(insert, 6, "0", -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 7, 1704067200000LL + n);
        sqlite3_bind_text(insert, 8, "set_holding", -1, SQLITE_STATIC);
        sqlite3_bind_null(insert, 9);
        step_done(db, insert);
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    });
    MEDIAN_OF(round_ours[round], 1, writes, {
        snprintf(id, sizeof id, "coin-%d", m % 500);
        check(cf_store_set_holding(store, id, 1.0 + m++, &error), error, "cf_store_set_holding");
    });
    }
    sqlite3_finalize(portfolio);
    sqlite3_finalize(rows);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    cf_store_close(store);
    qsort(round_ours, 5, sizeof(double), compare_doubles);
    qsort(round_anchor, 5, sizeof(double), compare_doubles);
    ours = round_ours[2];
    anchor = round_anchor[2];
    {
        char note[160];
        snprintf(note, sizeof note, "durable (WAL, synchronous=FULL), a ledger transfer; medians of 5 interleaved rounds; %.0f writes/s ours; target ≤ 1.2×", 1.0 / ours);
        row("store: `cf_store_set_holding`", ours, "sqlite3 C, same SQL and pragmas", anchor, note);
    }
}

/* ---- abi ---------------------------------------------------------------------------------- */
static void bench_abi(void) {
    char buffer[64];
    double ours, anchor;
    volatile size_t sink = 0;
    MEDIAN_OF(anchor, 11, 20000, { snprintf(buffer, sizeof buffer, "%.2f", 1234.56); sink += strlen(buffer); });
    MEDIAN_OF(ours, 11, 20000, {
        char *s = cf_format_currency(1234.56, 2, 2, "usd");
        sink += strlen(s);
        cf_string_free(s);
    });
    printf("| abi: `cf_format_currency` from C | %.3f µs | `snprintf(\"%%.2f\")` | %.3f µs | %.1f× | one call, string freed |\n",
           ours * 1e6, anchor * 1e6, ours / anchor);
    (void)sink;
}

/* ---- memory ------------------------------------------------------------------------------- */
static long peak_rss_kb(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

static void bench_memory(const char *file) {
    size_t size;
    char *body = read_file(file, &size), *error = NULL;
    cf_engine *engine = NULL;
    long before, after;
    check(cf_engine_open("{\"database\":\":memory:\"}", &engine, &error), error, "cf_engine_open");
    before = peak_rss_kb();
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    after = peak_rss_kb();
    printf("| memory: peak RSS growth ingesting 15,000 coins | %.1f MB | JSON body | %.1f MB | %.2f× | RSS %.1f → %.1f MB |\n",
           (after - before) / 1024.0, size / 1e6, (after - before) * 1024.0 / size, before / 1024.0, after / 1024.0);
    cf_engine_close(engine);
    free(body);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "memory") == 0) {
        bench_memory(argv[2]);
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: bench run BUILD_DIR | bench memory FILE.json\n");
        return 2;
    }
    bench_ingest(argv[2]);
    bench_query(argv[2]);
    bench_chart();
    bench_store(argv[2]);
    bench_ledger(argv[2]);
    bench_abi();
    return 0;
}
