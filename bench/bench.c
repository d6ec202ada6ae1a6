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
static void bench_store(const char *dir) {
    char path[4096], id[64];
    char *error = NULL;
    cf_store *store = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *upsert = NULL;
    double ours, anchor;
    int n = 0;
    const int writes = 300;

    snprintf(path, sizeof path, "%s/store-raw.sqlite", dir);
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "sqlite3_open failed\n"); exit(1); }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                     "CREATE TABLE holding (owner TEXT NOT NULL, coin_id TEXT NOT NULL, amount REAL NOT NULL CHECK (amount > 0),"
                     " PRIMARY KEY (owner, coin_id)) WITHOUT ROWID;",
                 NULL, NULL, NULL);
    sqlite3_prepare_v2(db, "INSERT INTO holding (owner, coin_id, amount) VALUES (?3, ?1, ?2) ON CONFLICT (owner, coin_id) DO UPDATE SET amount = excluded.amount",
                       -1, &upsert, NULL);
    MEDIAN_OF(anchor, 5, writes, {
        snprintf(id, sizeof id, "coin-%d", n % 500);
        sqlite3_bind_text(upsert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(upsert, 2, 1.0 + n++);
        sqlite3_bind_text(upsert, 3, "default", -1, SQLITE_STATIC);
        if (sqlite3_step(upsert) != SQLITE_DONE) { fprintf(stderr, "raw upsert failed\n"); exit(1); }
        sqlite3_reset(upsert);
    });
    sqlite3_finalize(upsert);
    sqlite3_close(db);

    snprintf(path, sizeof path, "%s/store-coinfolio.sqlite", dir);
    remove(path);
    check(cf_store_open(path, &store, &error), error, "cf_store_open");
    n = 0;
    MEDIAN_OF(ours, 5, writes, {
        snprintf(id, sizeof id, "coin-%d", n % 500);
        check(cf_store_set_holding(store, id, 1.0 + n++, &error), error, "cf_store_set_holding");
    });
    cf_store_close(store);
    {
        char note[128];
        snprintf(note, sizeof note, "durable (WAL, synchronous=FULL); %.0f writes/s ours; target ≤ 1.2×", 1.0 / ours);
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
    bench_abi();
    return 0;
}
