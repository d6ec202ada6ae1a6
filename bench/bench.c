/*
 * bench.c — Coinfolio's C benchmarks. Every figure is a ratio against an anchor measured in the
 * same process, the two calls interleaved (A then B, B then A, round after round), with absolute
 * times beside it. Prints Markdown rows for BENCHMARKS.md.
 *
 *   bench run BUILD_DIR        ingest, scaling, query, store and abi sections
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

/* anchors.cpp: simdjson On-Demand extracting every field and every sparkline point. */
void anchor_simdjson_prepare(const char *body, size_t length);
size_t anchor_simdjson_extract(void);

/* CPU time of the calling thread by default (every call measured runs on it): on a shared,
 * oversubscribed machine wall time mostly measures the scheduler. BENCH_WALL=1 switches to
 * CLOCK_MONOTONIC. */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_s(void) {
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data;
    long length;
    if (!f) {
        fprintf(stderr, "bench: cannot open %s (run `make bench`, which writes the inputs first)\n", path);
        exit(1);
    }
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

static double median(double *samples, int count) {
    qsort(samples, (size_t)count, sizeof(double), compare_doubles);
    return samples[count / 2];
}

#define MAX_ROUNDS 64

/* Medians of seconds per call of A and B, interleaved: each round runs `per_round` calls of A
 * then of B, or B then A on odd rounds, so drift and noise fall on both alike. */
#define INTERLEAVED(a_result, b_result, rounds, per_round, a_body, b_body)              \
    do {                                                                                 \
        double a_[MAX_ROUNDS], b_[MAX_ROUNDS];                                           \
        int r_, i_;                                                                      \
        for (r_ = 0; r_ < (rounds); r_++) {                                              \
            int first_ = 0;                                                              \
            for (first_ = 0; first_ < 2; first_++) {                                     \
                double start_ = now_s();                                                 \
                if ((first_ == 0) == (r_ % 2 == 0)) {                                    \
                    for (i_ = 0; i_ < (per_round); i_++) { a_body; }                    \
                    a_[r_] = (now_s() - start_) / (per_round);                           \
                } else {                                                                 \
                    for (i_ = 0; i_ < (per_round); i_++) { b_body; }                    \
                    b_[r_] = (now_s() - start_) / (per_round);                           \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        (a_result) = median(a_, (rounds));                                               \
        (b_result) = median(b_, (rounds));                                               \
    } while (0)

static void row(const char *name, double ours, const char *anchor_name, double anchor, const char *note) {
    printf("| %s | %.3f ms | %s | %.3f ms | %.3g× | %s |\n", name, ours * 1e3, anchor_name, anchor * 1e3, ours / anchor, note);
}

static cf_engine *loaded_engine(const char *body) {
    char *error = NULL;
    cf_engine *engine = NULL;
    check(cf_engine_open("{\"database\":\":memory:\"}", &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    return engine;
}

/* ---- ingest ------------------------------------------------------------------------------- */
static void bench_ingest(const char *dir) {
    char path[4096], note[256];
    size_t size;
    char *body, *error = NULL;
    cf_engine *engine;
    double ours, jansson, ours2, simd;
    volatile size_t sink = 0;
    snprintf(path, sizeof path, "%s/markets-250.json", dir);
    body = read_file(path, &size);
    engine = loaded_engine(body);
    anchor_simdjson_prepare(body, size);
    INTERLEAVED(ours, jansson, 31, 2, check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load"),
                { json_t *v = json_loadb(body, size, 0, NULL); json_decref(v); });
    snprintf(note, sizeof note, "1.3 MB recorded body; %.0f MB/s ours, %.0f MB/s jansson; target ≤ 0.15×", size / 1e6 / ours,
             size / 1e6 / jansson);
    row("ingest: `cf_engine_load` of /coins/markets (250 coins)", ours, "jansson `json_loadb`", jansson, note);
    INTERLEAVED(ours2, simd, 31, 2, check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load"),
                sink += anchor_simdjson_extract());
    snprintf(note, sizeof note, "anchor parses all 41,581 sparkline points, ours none (lazy); %.0f MB/s simdjson; target ≤ 2×",
             size / 1e6 / simd);
    row("ingest: `cf_engine_load` of /coins/markets (250 coins)", ours2, "simdjson On-Demand, every field", simd, note);
    cf_engine_close(engine);
    free(body);
}

/* Ingest at 1k / 15k / 100k coins against the simdjson anchor. */
static void bench_scaling(const char *dir) {
    static const struct { const char *file, *label; int rounds; } inputs[] = {
        {"markets-1k.json", "1,000 coins, sparklines", 15},
        {"markets-15k.json", "15,000 coins, sparklines", 5},
        {"markets-100k.json", "100,000 coins, no sparklines", 3},
    };
    size_t k;
    for (k = 0; k < sizeof inputs / sizeof inputs[0]; k++) {
        char path[4096], name[256], note[256];
        size_t size;
        char *body, *error = NULL;
        cf_engine *engine;
        double ours, simd;
        volatile size_t sink = 0;
        snprintf(path, sizeof path, "%s/%s", dir, inputs[k].file);
        body = read_file(path, &size);
        engine = loaded_engine(body);
        anchor_simdjson_prepare(body, size);
        INTERLEAVED(ours, simd, inputs[k].rounds, 1, check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load"),
                    sink += anchor_simdjson_extract());
        snprintf(name, sizeof name, "ingest scaling: `cf_engine_load`, %s", inputs[k].label);
        snprintf(note, sizeof note, "%.0f MB body; %.0f MB/s ours", size / 1e6, size / 1e6 / ours);
        row(name, ours, "simdjson On-Demand, every field", simd, note);
        cf_engine_close(engine);
        free(body);
    }
}

/* ---- query -------------------------------------------------------------------------------- */
/* The indexed SQLite anchor: the same market rows in a table with an index on rank, the same
 * holdings, and the same three queries as SQL. It returns rows, not JSON (generous to it). */
typedef struct {
    sqlite3 *db;
    sqlite3_stmt *coins, *portfolio, *statistics;
} anchor_db;

static void anchor_db_open(anchor_db *a, json_t *coins, char **ids, double *amounts, size_t holdings) {
    sqlite3_stmt *insert;
    size_t i;
    sqlite3_open(":memory:", &a->db);
    sqlite3_exec(a->db,
                 "CREATE TABLE coin (id TEXT PRIMARY KEY, name TEXT, symbol TEXT, haystack TEXT, rank_key INTEGER, price REAL,"
                 " change REAL) WITHOUT ROWID; CREATE INDEX coin_rank ON coin (rank_key, id);"
                 "CREATE TABLE holding (coin_id TEXT PRIMARY KEY, amount REAL) WITHOUT ROWID; BEGIN;",
                 NULL, NULL, NULL);
    sqlite3_prepare_v2(a->db, "INSERT OR REPLACE INTO coin VALUES (?1, ?2, ?3, lower(?2 || char(0) || ?3 || char(0) || ?1), ?4, ?5, ?6)",
                       -1, &insert, NULL);
    for (i = 0; i < json_array_size(coins); i++) {
        json_t *c = json_array_get(coins, i);
        json_t *rank = json_object_get(c, "market_cap_rank");
        sqlite3_bind_text(insert, 1, json_string_value(json_object_get(c, "id")), -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, json_string_value(json_object_get(c, "name")), -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 3, json_string_value(json_object_get(c, "symbol")), -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 4, json_is_number(rank) ? (sqlite3_int64)json_number_value(rank) : 1000000000);
        sqlite3_bind_double(insert, 5, json_number_value(json_object_get(c, "current_price")));
        sqlite3_bind_double(insert, 6, json_number_value(json_object_get(c, "price_change_percentage_24h")));
        sqlite3_step(insert);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_prepare_v2(a->db, "INSERT OR REPLACE INTO holding VALUES (?1, ?2)", -1, &insert, NULL);
    for (i = 0; i < holdings; i++) {
        sqlite3_bind_text(insert, 1, ids[i], -1, SQLITE_STATIC);
        sqlite3_bind_double(insert, 2, amounts[i]);
        sqlite3_step(insert);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL);
    sqlite3_prepare_v2(a->db,
                       "SELECT id, name, symbol, price, rank_key FROM coin INDEXED BY coin_rank WHERE instr(haystack, 'eth') > 0"
                       " ORDER BY rank_key, id LIMIT 50",
                       -1, &a->coins, NULL);
    sqlite3_prepare_v2(a->db,
                       "SELECT h.coin_id, h.amount, c.name, c.symbol, c.price, h.amount * c.price AS value FROM holding h"
                       " LEFT JOIN coin c ON c.id = h.coin_id ORDER BY value DESC, h.coin_id",
                       -1, &a->portfolio, NULL);
    sqlite3_prepare_v2(a->db,
                       "SELECT sum(h.amount * c.price), sum(h.amount * c.price / (1 + coalesce(c.change, 0) / 100)) FROM holding h"
                       " JOIN coin c ON c.id = h.coin_id",
                       -1, &a->statistics, NULL);
}

static double anchor_run(sqlite3_stmt *stmt) {
    double sink = 0;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        int c, columns = sqlite3_column_count(stmt);
        for (c = 0; c < columns; c++) {
            if (sqlite3_column_type(stmt, c) == SQLITE_TEXT) sink += (double)sqlite3_column_bytes(stmt, c);
            else sink += sqlite3_column_double(stmt, c);
        }
    }
    sqlite3_reset(stmt);
    return sink;
}

static void anchor_db_close(anchor_db *a) {
    sqlite3_finalize(a->coins);
    sqlite3_finalize(a->portfolio);
    sqlite3_finalize(a->statistics);
    sqlite3_close(a->db);
}

/* One query setup: `markets` coins with the holdings of `holdings_file`. */
static void bench_query_case(const char *dir, const char *markets, const char *holdings_file, const char *label, int coins_too) {
    char path[4096], name[256], note[256];
    size_t size, held_size, held = 0, cap = 16;
    char *body, *ids_text, *error = NULL, *out = NULL, *line;
    char **ids = malloc(cap * sizeof *ids);
    double *amounts = malloc(cap * sizeof *amounts);
    double ours, anchor, sink = 0;
    cf_engine *engine;
    json_t *coins;
    anchor_db a;
    snprintf(path, sizeof path, "%s/%s", dir, markets);
    body = read_file(path, &size);
    snprintf(path, sizeof path, "%s/%s", dir, holdings_file);
    ids_text = read_file(path, &held_size);
    engine = loaded_engine(body);
    for (line = strtok(ids_text, "\n"); line; line = strtok(NULL, "\n")) {
        if (held == cap) {
            cap *= 2;
            ids = realloc(ids, cap * sizeof *ids);
            amounts = realloc(amounts, cap * sizeof *amounts);
        }
        ids[held] = line;
        amounts[held] = 1.0 + (double)held / 7.0;
        check(cf_engine_set_holding(engine, line, amounts[held], &error), error, "cf_engine_set_holding");
        held++;
    }
    coins = json_loads(body, 0, NULL);
    anchor_db_open(&a, coins, ids, amounts, held);
    json_decref(coins);

    if (coins_too) {
        INTERLEAVED(ours, anchor, 21, 20,
                    {
                        check(cf_engine_coins(engine, "{\"search\":\"eth\",\"limit\":50,\"sparkline\":false}", &out, &error), error, "coins");
                        cf_string_free(out);
                    },
                    sink += anchor_run(a.coins));
        snprintf(name, sizeof name, "query: `cf_engine_coins` (%s, search \"eth\", limit 50, no sparkline)", label);
        row(name, ours, "indexed SQLite query (rows)", anchor, "target < 1 ms");
    }
    INTERLEAVED(ours, anchor, 21, 5,
                {
                    check(cf_engine_portfolio(engine, "{\"sparkline\":false}", &out, &error), error, "portfolio");
                    cf_string_free(out);
                },
                sink += anchor_run(a.portfolio));
    snprintf(name, sizeof name, "query: `cf_engine_portfolio` (%s, %zu holdings, no sparkline)", label, held);
    snprintf(note, sizeof note, "ours is the JSON answer of %zu coins; target < 1 ms", held);
    row(name, ours, "indexed SQLite join (rows)", anchor, note);
    INTERLEAVED(ours, anchor, 21, 20,
                {
                    check(cf_engine_statistics(engine, &out, &error), error, "statistics");
                    cf_string_free(out);
                },
                sink += anchor_run(a.statistics));
    snprintf(name, sizeof name, "query: `cf_engine_statistics` (%s, %zu holdings)", label, held);
    row(name, ours, "indexed SQLite sums", anchor, "target < 1 ms");
    if (coins_too && held == 1000) {
        /* Each held coin's sparkline parsed on demand (they stay undecoded in the snapshot). */
        INTERLEAVED(ours, anchor, 21, 5,
                    {
                        check(cf_engine_portfolio_history(engine, NULL, &out, &error), error, "portfolio_history");
                        cf_string_free(out);
                    },
                    sink += anchor_run(a.portfolio));
        snprintf(name, sizeof name, "chart: `cf_engine_portfolio_history` (%s, %zu holdings, sparklines of 18–169 points)", label, held);
        row(name, ours, "indexed SQLite join (rows)", anchor, "target < 5 ms; no request");
    }
    if (sink == 42) puts("");
    anchor_db_close(&a);
    cf_engine_close(engine);
    free(body);
    free(ids_text);
    free(ids);
    free(amounts);
}

static void bench_query(const char *dir) {
    bench_query_case(dir, "markets-15k.json", "holdings-15k-10.txt", "15,000 coins", 0);
    bench_query_case(dir, "markets-15k.json", "holdings-15k-1k.txt", "15,000 coins", 1);
    bench_query_case(dir, "markets-15k.json", "holdings-15k-10k.txt", "15,000 coins", 0);
    bench_query_case(dir, "markets-1k.json", "holdings-1k-1k.txt", "1,000 coins", 1);
    bench_query_case(dir, "markets-100k.json", "holdings-100k-1k.txt", "100,000 coins", 1);
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
    INTERLEAVED(ours, anchor, 21, 5,
                {
                    char *answer = NULL;
                    check(cf_engine_chart(engine, "bitcoin", "{\"days\":365}", &answer, &error), error, "cf_engine_chart");
                    check(cf_chart_svg(answer, "{\"width\":1200,\"height\":600}", &svg, &error), error, "cf_chart_svg");
                    cf_string_free(answer);
                    cf_string_free(svg);
                },
                {
                    json_t *v = json_loadb(out, length, 0, NULL);
                    json_decref(v);
                });
    cf_string_free(out);
    snprintf(note, sizeof note, "target < 5 ms; cached chart (summary + %.0f KB of JSON) then its SVG", length / 1e3);
    row("chart: summary + SVG of 8,760 points (`cf_engine_chart` cached + `cf_chart_svg`)", ours,
        "jansson `json_loadb` of the chart JSON", anchor, note);
    cf_engine_close(engine);
}

/* ---- store -------------------------------------------------------------------------------- */
static void bench_store(const char *dir) {
    char path[4096], id[64], note[160];
    char *error = NULL;
    cf_store *store = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *upsert = NULL;
    double ours, anchor;
    int n = 0, m = 0;
    clockid_t saved_clock;

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
    snprintf(path, sizeof path, "%s/store-coinfolio.sqlite", dir);
    remove(path);
    check(cf_store_open(path, &store, &error), error, "cf_store_open");
    /* A durable write waits for fsync: wall time here, not CPU time. */
    saved_clock = bench_clock;
    bench_clock = CLOCK_MONOTONIC;
    INTERLEAVED(ours, anchor, 15, 20,
                {
                    snprintf(id, sizeof id, "coin-%d", n % 500);
                    check(cf_store_set_holding(store, id, 1.0 + n++, &error), error, "cf_store_set_holding");
                },
                {
                    snprintf(id, sizeof id, "coin-%d", m % 500);
                    sqlite3_bind_text(upsert, 1, id, -1, SQLITE_TRANSIENT);
                    sqlite3_bind_double(upsert, 2, 1.0 + m++);
                    sqlite3_bind_text(upsert, 3, "default", -1, SQLITE_STATIC);
                    if (sqlite3_step(upsert) != SQLITE_DONE) { fprintf(stderr, "raw upsert failed\n"); exit(1); }
                    sqlite3_reset(upsert);
                });
    bench_clock = saved_clock;
    sqlite3_finalize(upsert);
    sqlite3_close(db);
    cf_store_close(store);
    snprintf(note, sizeof note, "durable (WAL, synchronous=FULL), writes interleaved, wall time; %.0f writes/s ours", 1.0 / ours);
    row("store: `cf_store_set_holding`", ours, "sqlite3 C, same SQL and pragmas", anchor, note);
}

/* ---- abi ---------------------------------------------------------------------------------- */
static void bench_abi(void) {
    char buffer[64];
    double ours, anchor;
    volatile size_t sink = 0;
    INTERLEAVED(ours, anchor, 11, 20000,
                {
                    char *s = cf_format_currency(1234.56, 2, 2, "usd");
                    sink += strlen(s);
                    cf_string_free(s);
                },
                {
                    snprintf(buffer, sizeof buffer, "%.2f", 1234.56);
                    sink += strlen(buffer);
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
    printf("| memory: peak RSS growth ingesting 15,000 coins | %.1f MB | JSON body | %.1f MB | %.2f× | RSS %.1f → %.1f MB; target ≤ 1.5× |\n",
           (after - before) / 1024.0, size / 1e6, (after - before) * 1024.0 / size, before / 1024.0, after / 1024.0);
    cf_engine_close(engine);
    free(body);
}

int main(int argc, char **argv) {
    if (getenv("BENCH_WALL") && strcmp(getenv("BENCH_WALL"), "1") == 0) bench_clock = CLOCK_MONOTONIC;
    if (argc == 3 && strcmp(argv[1], "memory") == 0) {
        bench_memory(argv[2]);
        return 0;
    }
    if (argc < 3 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: bench run BUILD_DIR [section…] | bench memory FILE.json\n");
        return 2;
    }
    {
        int all = argc == 3, k;
        const char *dir = argv[2];
        for (k = 3; k <= argc; k++) {
            const char *section = k < argc ? argv[k] : NULL;
            if (!all && !section) break;
            if (all || strcmp(section, "ingest") == 0) bench_ingest(dir);
            if (all || strcmp(section, "scaling") == 0) bench_scaling(dir);
            if (all || strcmp(section, "query") == 0) bench_query(dir);
            if (all || strcmp(section, "chart") == 0) bench_chart();
            if (all || strcmp(section, "store") == 0) bench_store(dir);
            if (all || strcmp(section, "abi") == 0) bench_abi();
            if (all) break;
        }
    }
    return 0;
}
