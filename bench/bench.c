/*
 * bench.c — Coinfolio's C benchmarks. Every figure is a ratio against an anchor measured in the
 * same process, the two calls interleaved (A then B, B then A, round after round), with absolute
 * times beside it. Prints Markdown rows for BENCHMARKS.md.
 *
 *   bench run BUILD_DIR [section…]   every section (ingest, scaling, query, chart, refresh, store,
 *                              ledger, ledger-history, trade, abi), or the ones named
 *   bench memory FILE.json [DATABASE]   peak RSS while ingesting FILE (run in a fresh process) into
 *                              an engine on :memory:, or on the SQLite file DATABASE
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_support.h"
#include "coinfolio.h"
#include "ledger_rows.h"

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

static void row(const char *name, double ours, const char *anchor_name, double anchor, const char *note) {
    printf("| %s | %.3f ms | %s | %.3f ms | %.3g× | %s |\n", name, ours * 1e3, anchor_name, anchor * 1e3, ours / anchor, note);
}

/* Removes a SQLite file and its -wal and -shm. */
static void remove_sqlite(const char *path) {
    char side[4200];
    remove(path);
    snprintf(side, sizeof side, "%s-wal", path); remove(side);
    snprintf(side, sizeof side, "%s-shm", path); remove(side);
}

static cf_engine *loaded_engine(const char *body) {
    char *error = NULL;
    cf_engine *engine = NULL;
    check(cf_engine_open("{\"database\":\":memory:\"}", &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    return engine;
}

/* ---- ingest ------------------------------------------------------------------------------- */
/* The same load into an engine on a SQLite file: decode plus the durable save of the snapshot
 * (compact coins, one row of JSON text per sparkline). An engine on `:memory:` saves nothing (no
 * one could read it back), so the rows above do not show the save; this one does. The anchor is
 * simdjson's full extraction plus the same body written durably as one blob by sqlite3 in C
 * (WAL, synchronous=FULL, one transaction): what parsing and keeping the bytes costs at least. */
static void bench_ingest_file(const char *dir, const char *body, size_t size) {
    char path[4096], raw_path[4096], config[4200], note[256];
    char *error = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *put = NULL;
    double ours, anchor;
    volatile size_t sink = 0;
    snprintf(path, sizeof path, "%s/ingest-file.sqlite", dir);
    snprintf(raw_path, sizeof raw_path, "%s/ingest-raw.sqlite", dir);
    remove(path);
    remove(raw_path);
    snprintf(config, sizeof config, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    if (sqlite3_open(raw_path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                         "CREATE TABLE snapshot (id INTEGER PRIMARY KEY, body BLOB NOT NULL)", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO snapshot (id, body) VALUES (1, ?1)", -1, &put, NULL) != SQLITE_OK) {
        fprintf(stderr, "raw snapshot: %s\n", db ? sqlite3_errmsg(db) : "open failed");
        exit(1);
    }
    INTERLEAVED(ours, anchor, 21, 1, check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load"),
                {
                    sink += anchor_simdjson_extract();
                    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
                    sqlite3_bind_blob(put, 1, body, (int)size, SQLITE_STATIC);
                    if (sqlite3_step(put) != SQLITE_DONE) { fprintf(stderr, "raw snapshot: %s\n", sqlite3_errmsg(db)); exit(1); }
                    sqlite3_reset(put);
                    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
                });
    snprintf(note, sizeof note, "decode + durable save (WAL, synchronous=FULL); ours on `:memory:` is the row above; "
             "%.0f MB/s ours", size / 1e6 / ours);
    row("ingest: `cf_engine_load` of /coins/markets (250 coins) into a SQLite file", ours,
        "simdjson On-Demand, every field + the body as one durable SQLite blob", anchor, note);
    sqlite3_finalize(put);
    sqlite3_close(db);
    cf_engine_close(engine);
    remove_sqlite(path);
    remove_sqlite(raw_path);
    (void)sink;
}

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
    bench_ingest_file(dir, body, size);
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

/* ---- ledger ------------------------------------------------------------------------------- */
/* The ledger's tables, as Coinfolio's schema leaves them today (Sources/Coinfolio/Store/Schema/;
 * compare with `.schema` of a fresh file):
 * the time-ordered index, the groups' index, step 11's index of pending prices and the owners'
 * change counters (positions are kept in memory). */
static const char *const ledger_schema =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    "CREATE TABLE portfolio (owner TEXT NOT NULL, name TEXT NOT NULL, vs_currency TEXT, PRIMARY KEY (owner, name)) WITHOUT ROWID;"
    "CREATE TABLE ledger_transaction (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, portfolio TEXT NOT NULL,"
    " coin_id TEXT NOT NULL,"
    " kind TEXT NOT NULL CHECK (kind = 'buy' OR kind = 'sell' OR kind = 'transfer_in' OR kind = 'transfer_out'"
    " OR kind = 'fee' OR kind = 'income'),"
    " amount TEXT NOT NULL, price TEXT, fee TEXT NOT NULL, timestamp_ms INTEGER NOT NULL, note TEXT,"
    " external_id TEXT, group_id TEXT, income_type TEXT, fee_coin_id TEXT, fee_price TEXT, price_source TEXT,"
    " price_at INTEGER, original_price TEXT, price_currency TEXT);"
    "CREATE UNIQUE INDEX ledger_external_id ON ledger_transaction (owner, portfolio, external_id) WHERE external_id IS NOT NULL;"
    "CREATE INDEX ledger_time ON ledger_transaction (owner, portfolio, timestamp_ms, id, coin_id);"
    "CREATE INDEX ledger_group ON ledger_transaction (owner, group_id) WHERE group_id IS NOT NULL;"
    "CREATE INDEX ledger_pending ON ledger_transaction (owner, portfolio) WHERE price_source = 'pending';"
    "CREATE TABLE ledger_change (owner TEXT PRIMARY KEY NOT NULL, counter INTEGER NOT NULL) WITHOUT ROWID;"
    "INSERT INTO portfolio (owner, name, vs_currency) VALUES ('default', 'main', NULL);";

static const char *const ledger_insert =
    "INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, owner)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'default')";

/* The insert of a row with every column Coinfolio writes (LedgerStore+Transactions.swift). */
static const char *const ledger_insert_all =
    "INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, owner,"
    " group_id, income_type, fee_coin_id, fee_price, price_source, price_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'default', ?10, NULL, NULL, NULL, ?11, NULL)";

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

/* A ledger INSERT as Coinfolio runs one on SQLite (Database.insertedID): no RETURNING (it fills and
 * drops an ephemeral table a row), whether it inserted from sqlite3_changes, the id from
 * sqlite3_last_insert_rowid. */
static volatile sqlite3_int64 inserted_ids;
static void step_insert(sqlite3 *db, sqlite3_stmt *statement) {
    int rc = sqlite3_step(statement);
    if (rc != SQLITE_DONE) { fprintf(stderr, "raw ledger: %s\n", sqlite3_errmsg(db)); exit(1); }
    sqlite3_reset(statement);
    if (sqlite3_changes(db) > 0) inserted_ids += sqlite3_last_insert_rowid(db);
}

/* The owner's change counter, counted by every ledger write (schema step 5). */
static const char *const change_count =
    "INSERT INTO ledger_change (owner, counter) VALUES ('default', 1)"
    " ON CONFLICT (owner) DO UPDATE SET counter = ledger_change.counter + 1 RETURNING counter";

/* How every anchored ledger write of "main" starts: BEGIN IMMEDIATE, the owner's change count, the
 * portfolio check. */
static void raw_write_begin(sqlite3 *db, sqlite3_stmt *count, sqlite3_stmt *check_portfolio) {
    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    step_done(db, count);
    sqlite3_bind_text(check_portfolio, 1, "main", -1, SQLITE_STATIC);
    step_done(db, check_portfolio);
}

static void bench_ledger(const char *dir) {
    char path[4096], raw_path[4096], note[256], json[4200];
    size_t size, markets_size;
    char *csv, *markets, *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db;
    sqlite3_stmt *select = NULL, *check_portfolio = NULL, *insert = NULL, *count = NULL;
    double ours, anchor, start, cold, import_ours[3], import_anchor[3], import_cpu[3], import_anchor_cpu[3];
    ledger_rows written = {NULL, 0};
    int n = 0, m = 0, round;
    volatile double sink = 0;
    clockid_t saved_clock = bench_clock;

    snprintf(path, sizeof path, "%s/ledger-100k.csv", dir);
    csv = read_file(path, &size);
    snprintf(path, sizeof path, "%s/ledger-markets.json", dir);
    markets = read_file(path, &markets_size);
    snprintf(raw_path, sizeof raw_path, "%s/ledger-raw.sqlite", dir);
    snprintf(path, sizeof path, "{\"database\":\"%s/ledger.sqlite\"}", dir);

    /* Import (durable: wall time), interleaved with the anchor, three times each on fresh files. The
     * anchor inserts the rows our import wrote, read back from its database (ledger_rows.h, as
     * import_bench.c does): every column, tables from our schema's SQL, our import's page cache. */
    bench_clock = CLOCK_MONOTONIC;
    for (round = 0; round < 3; round++) {
        int pass;
        for (pass = 0; pass < 2; pass++) {
            /* Ours first in even rounds, the anchor first in odd ones (after round 0 has made the rows). */
            if ((pass == 0) == (round % 2 == 0)) {
                char file[4096], wal[4200];
                struct timespec cpu0, cpu1;
                snprintf(file, sizeof file, "%s/ledger.sqlite", dir);
                remove(file);
                snprintf(wal, sizeof wal, "%s-wal", file);
                remove(wal);
                check(cf_engine_open(path, &engine, &error), error, "cf_engine_open");
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
                start = now_s();
                check(cf_engine_import_csv(engine, csv, &out, &error), error, "cf_engine_import_csv");
                import_ours[round] = now_s() - start;
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
                import_cpu[round] = (double)(cpu1.tv_sec - cpu0.tv_sec) + (double)(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9;
                cf_string_free(out);
                cf_engine_close(engine);
                if (written.cells == NULL) written = read_rows(file);
            } else {
                char file[4096];
                snprintf(file, sizeof file, "%s/ledger.sqlite", dir);
                db = raw_database(file, raw_path);
                import_anchor[round] = raw_insert(db, &written, &import_anchor_cpu[round]);
                sqlite3_close(db);
            }
        }
    }
    snprintf(note, sizeof note,
             "%.1f MB, 100,000 rows → %zu transactions, one durable transaction, wall time; CPU %.2f s ours, %.2f s the anchor's "
             "(%.2f×); target < 2 s and ≤ 1.5×",
             size / 1e6, written.rows, median(import_cpu, 3), median(import_anchor_cpu, 3),
             median(import_cpu, 3) / median(import_anchor_cpu, 3));
    row("ledger: `cf_engine_import_csv` (100,000 rows)", median(import_ours, 3),
        "sqlite3 C: the rows the engine writes, one transaction", median(import_anchor, 3), note);

    /* pnl over the imported ledger: 100,000 transactions, 1,000 coins, priced (CPU time). */
    check(cf_engine_open(path, &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, markets, NULL, &error), error, "cf_engine_load");
    start = now_s();
    check(cf_engine_pnl(engine, NULL, &out, &error), error, "cf_engine_pnl");
    cold = now_s() - start;
    cf_string_free(out);
    bench_clock = saved_clock;
    db = NULL;
    sqlite3_open(raw_path, &db);
    sqlite3_prepare_v2(db, "SELECT coin_id, id, kind, amount, price, fee, timestamp_ms FROM ledger_transaction"
                           " WHERE portfolio = 'main' AND owner = 'default' ORDER BY timestamp_ms, id", -1, &select, NULL);
    INTERLEAVED(ours, anchor, 11, 3,
                {
                    check(cf_engine_pnl(engine, "{\"method\":\"fifo\"}", &out, &error), error, "cf_engine_pnl");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    snprintf(note, sizeof note,
             "fifo, ledger cached; the first call after opening (reads and parses every row) %.1f ms wall; target < 50 ms", cold * 1e3);
    row("ledger: `cf_engine_pnl` (100,000 transactions, 1,000 coins)", ours, "sqlite3 C: SELECT the same rows", anchor, note);
    INTERLEAVED(ours, anchor, 11, 3,
                {
                    check(cf_engine_pnl(engine, "{\"method\":\"average\"}", &out, &error), error, "cf_engine_pnl");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    row("ledger: `cf_engine_pnl` average (100,000 transactions, 1,000 coins)", ours, "sqlite3 C: SELECT the same rows", anchor,
        "ledger cached; target < 50 ms");
    sqlite3_finalize(select);
    sqlite3_close(db);
    cf_engine_close(engine);

    /* add_transaction against the same SQL: BEGIN IMMEDIATE, the owner's change count, the
     * portfolio check, the INSERT, COMMIT (the coin's position is kept in memory). */
    db = raw_ledger(raw_path);
    sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = ?1 AND owner = 'default'", -1, &check_portfolio, NULL);
    sqlite3_prepare_v2(db, ledger_insert, -1, &insert, NULL);
    sqlite3_prepare_v2(db, change_count, -1, &count, NULL);
    snprintf(path, sizeof path, "%s/ledger-add.sqlite", dir);
    remove(path);
    snprintf(json, sizeof json, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(json, &engine, &error), error, "cf_engine_open");
    bench_clock = CLOCK_MONOTONIC;
    INTERLEAVED(ours, anchor, 15, 20,
                {
                    snprintf(json, sizeof json,
                             "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":0.%d,\"price\":60000.5,\"fee\":1.25,"
                             "\"timestamp\":\"2024-01-01T00:00:00Z\"}", 1 + n++ % 9);
                    check(cf_engine_add_transaction(engine, json, &out, &error), error, "cf_engine_add_transaction");
                    cf_string_free(out);
                },
                {
                    char amount[32];
                    snprintf(amount, sizeof amount, "0.%d", 1 + m % 9);
                    raw_write_begin(db, count, check_portfolio);
                    sqlite3_bind_text(insert, 1, "main", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 2, "bitcoin", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 3, "buy", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 4, amount, -1, SQLITE_TRANSIENT);
                    sqlite3_bind_text(insert, 5, "60000.5", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 6, "1.25", -1, SQLITE_STATIC);
                    sqlite3_bind_int64(insert, 7, 1704067200000LL + m++);
                    sqlite3_bind_text(insert, 8, "", -1, SQLITE_STATIC);
                    sqlite3_bind_null(insert, 9);
                    step_insert(db, insert);
                    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
                });
    bench_clock = saved_clock;
    sqlite3_finalize(check_portfolio);
    sqlite3_finalize(insert);
    sqlite3_finalize(count);
    sqlite3_close(db);
    cf_engine_close(engine);
    row("ledger: `cf_engine_add_transaction`", ours, "sqlite3 C, same SQL and pragmas", anchor,
        "durable buys (WAL, synchronous=FULL), JSON in and out; writes interleaved, wall time; target ≤ 1.1×");
    (void)sink;
    free(csv);
    free(markets);
}

/* ---- refresh ------------------------------------------------------------------------------ */
/* A refresh of 1,000 coins (4 pages of 250 with sparklines, and /global) from the loopback server
 * into an engine on :memory:: every row decoded and merged once, then installed. The anchor is
 * what a C host parsing the same rows does at least: jansson reading the 1,000-coin body. The
 * network I/O runs on URLSession's threads; the calling thread's CPU time is the decode, the merge
 * and the install. */
static void bench_refresh(const char *dir) {
    const char *base_url = getenv("COINFOLIO_BENCH_BASE_URL");
    char path[4096], config[4200], *error = NULL, *out = NULL, note[256];
    char *body;
    size_t size;
    cf_engine *engine = NULL;
    double ours, anchor;
    if (!base_url) {
        fprintf(stderr, "bench: COINFOLIO_BENCH_BASE_URL (the loopback server) is not set\n");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/markets-1k.json", dir);
    body = read_file(path, &size);
    snprintf(config, sizeof config,
             "{\"database\":\":memory:\",\"coin_limit\":1000,\"api\":{\"base_url\":\"%s\",\"plan\":\"public\",\"max_retries\":0}}",
             base_url);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_refresh(engine, &out, &error), error, "cf_engine_refresh");
    if (!strstr(out, "\"coins\":1000")) { fprintf(stderr, "bench: the refresh answered %s\n", out); exit(1); }
    cf_string_free(out);
    INTERLEAVED(ours, anchor, 15, 1,
                {
                    check(cf_engine_refresh(engine, &out, &error), error, "cf_engine_refresh");
                    cf_string_free(out);
                },
                {
                    json_t *parsed = json_loadb(body, size, 0, NULL);
                    json_decref(parsed);
                });
    snprintf(note, sizeof note, "4 pages of 250 coins with sparklines (%.1f MB) and /global over loopback HTTP; "
             "every row merged once", size / 1e6);
    row("refresh: `cf_engine_refresh` of 1,000 coins (`:memory:`)", ours, "jansson `json_loadb` of the same 1,000 coins", anchor,
        note);
    cf_engine_close(engine);
    free(body);
}

/* A price update of 1,000 held coins (4 /simple/price requests of 250 ids) on a 15,000-coin
 * snapshot saved in a SQLite file: the held coins' records replaced, the snapshot saved in place.
 * The anchor is what a C host keeping its own prices does at least: jansson reading the same
 * answer, then one durable SQLite transaction of 1,000 price UPDATEs in a 15,000-row table. */
static void bench_refresh_prices(const char *dir) {
    const char *base_url = getenv("COINFOLIO_BENCH_BASE_URL");
    char path[4096], raw_path[4096], config[8400], *error = NULL, *out = NULL, note[256];
    char *markets, *holdings, *answer, *line, *save = NULL;
    size_t answer_size;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *update = NULL, *insert = NULL;
    json_t *parsed;
    double ours, anchor;
    int held = 0;
    if (!base_url) {
        fprintf(stderr, "bench: COINFOLIO_BENCH_BASE_URL (the loopback server) is not set\n");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/markets-15k.json", dir);
    markets = read_file(path, NULL);
    snprintf(path, sizeof path, "%s/holdings-15k-1k.txt", dir);
    holdings = read_file(path, NULL);
    snprintf(path, sizeof path, "%s/simple-price-1k.json", dir);
    answer = read_file(path, &answer_size);
    snprintf(path, sizeof path, "%s/prices-file.sqlite", dir);
    snprintf(raw_path, sizeof raw_path, "%s/prices-raw.sqlite", dir);
    remove_sqlite(path);
    remove_sqlite(raw_path);
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"api\":{\"base_url\":\"%s\",\"plan\":\"public\",\"max_retries\":0}}", path,
             base_url);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, markets, NULL, &error), error, "cf_engine_load");
    if (sqlite3_open(raw_path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                         "CREATE TABLE price (id TEXT PRIMARY KEY, usd REAL, change REAL, updated INTEGER) WITHOUT ROWID",
                     NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO price (id, usd) VALUES (?1, 1)", -1, &insert, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "UPDATE price SET usd = ?2, change = ?3, updated = ?4 WHERE id = ?1", -1, &update, NULL) != SQLITE_OK) {
        fprintf(stderr, "raw prices: %s\n", db ? sqlite3_errmsg(db) : "open failed");
        exit(1);
    }
    {
        /* The anchor's table holds the 15,000 coins, like the snapshot. */
        json_t *coins = json_loads(markets, 0, NULL);
        size_t index;
        json_t *coin;
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        json_array_foreach(coins, index, coin) {
            sqlite3_bind_text(insert, 1, json_string_value(json_object_get(coin, "id")), -1, SQLITE_TRANSIENT);
            sqlite3_step(insert);
            sqlite3_reset(insert);
        }
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        json_decref(coins);
    }
    for (line = strtok_r(holdings, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        check(cf_engine_set_holding(engine, line, 1.0, &error), error, "cf_engine_set_holding");
        held++;
    }
    check(cf_engine_refresh_prices(engine, &out, &error), error, "cf_engine_refresh_prices");
    if (!strstr(out, "\"coins\":1000")) { fprintf(stderr, "bench: refresh_prices answered %s\n", out); exit(1); }
    cf_string_free(out);
    INTERLEAVED(ours, anchor, 15, 1,
                {
                    check(cf_engine_refresh_prices(engine, &out, &error), error, "cf_engine_refresh_prices");
                    cf_string_free(out);
                },
                {
                    const char *id;
                    json_t *quote;
                    parsed = json_loadb(answer, answer_size, 0, NULL);
                    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
                    json_object_foreach(parsed, id, quote) {
                        sqlite3_bind_text(update, 1, id, -1, SQLITE_STATIC);
                        sqlite3_bind_double(update, 2, json_number_value(json_object_get(quote, "usd")));
                        sqlite3_bind_double(update, 3, json_number_value(json_object_get(quote, "usd_24h_change")));
                        sqlite3_bind_int64(update, 4, json_integer_value(json_object_get(quote, "last_updated_at")));
                        if (sqlite3_step(update) != SQLITE_DONE) { fprintf(stderr, "raw prices: %s\n", sqlite3_errmsg(db)); exit(1); }
                        sqlite3_reset(update);
                    }
                    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
                    json_decref(parsed);
                });
    snprintf(note, sizeof note, "%d held of 15,000 coins: 4 /simple/price requests over loopback HTTP, the snapshot saved "
             "durably (WAL, synchronous=FULL)", held);
    row("refresh: `cf_engine_refresh_prices`, 1,000 held coins of a 15,000-coin snapshot in a SQLite file", ours,
        "jansson `json_loadb` of the same answer + one durable SQLite transaction of 1,000 UPDATEs", anchor, note);
    sqlite3_finalize(insert);
    sqlite3_finalize(update);
    sqlite3_close(db);
    cf_engine_close(engine);
    remove_sqlite(path);
    remove_sqlite(raw_path);
    free(markets);
    free(holdings);
    free(answer);
}

/* ---- ledger histories (SPEC §16) ---------------------------------------------------------- */
/* pnl over 100,000 transactions, about 10 % of them fee rows and 5 % move legs between two
 * portfolios (bench/generate.py, ledger-history.csv), the ledger cached. */
static void bench_ledger_history(const char *dir) {
    char path[4096], config[4200], note[256];
    size_t size, markets_size;
    char *csv, *markets, *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    double ours, anchor, start, cold;
    volatile double sink = 0;
    long long rows = 0, fee_rows = 0, move_rows = 0;

    snprintf(path, sizeof path, "%s/ledger-history.csv", dir);
    csv = read_file(path, &size);
    snprintf(path, sizeof path, "%s/ledger-markets.json", dir);
    markets = read_file(path, &markets_size);
    snprintf(path, sizeof path, "%s/ledger-history.sqlite", dir);
    remove(path);
    snprintf(config, sizeof config, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_create_portfolio(engine, "{\"name\":\"cold\"}", &error), error, "cf_engine_create_portfolio");
    check(cf_engine_import_csv(engine, csv, &out, &error), error, "cf_engine_import_csv");
    cf_string_free(out);
    check(cf_engine_load(engine, markets, NULL, &error), error, "cf_engine_load");
    sqlite3_open(path, &db);
    sqlite3_prepare_v2(db, "SELECT count(*), sum(kind = 'fee'), sum(group_id IS NOT NULL AND kind LIKE 'transfer%') FROM ledger_transaction",
                       -1, &select, NULL);
    if (sqlite3_step(select) == SQLITE_ROW) {
        rows = sqlite3_column_int64(select, 0);
        fee_rows = sqlite3_column_int64(select, 1);
        move_rows = sqlite3_column_int64(select, 2);
    }
    sqlite3_finalize(select);
    start = now_s();
    check(cf_engine_pnl(engine, NULL, &out, &error), error, "cf_engine_pnl");
    cold = now_s() - start;
    cf_string_free(out);
    sqlite3_prepare_v2(db, "SELECT coin_id, id, kind, amount, price, fee, timestamp_ms, group_id, fee_coin_id FROM ledger_transaction"
                           " WHERE owner = 'default' ORDER BY timestamp_ms, id", -1, &select, NULL);
    INTERLEAVED(ours, anchor, 11, 3,
                {
                    check(cf_engine_pnl(engine, "{\"method\":\"fifo\"}", &out, &error), error, "cf_engine_pnl");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    snprintf(note, sizeof note,
             "%lld rows: %lld fee rows, %lld move legs; fifo, ledger cached (the first call %.1f ms wall); target < 50 ms",
             rows, fee_rows, move_rows, cold * 1e3);
    row("ledger: `cf_engine_pnl` with fees in coins and moves", ours, "sqlite3 C: SELECT every row of both portfolios", anchor, note);
    INTERLEAVED(ours, anchor, 11, 3,
                {
                    check(cf_engine_pnl(engine, "{\"method\":\"hifo\"}", &out, &error), error, "cf_engine_pnl");
                    cf_string_free(out);
                },
                {
                    while (sqlite3_step(select) == SQLITE_ROW) sink += atof((const char *)sqlite3_column_text(select, 3));
                    sqlite3_reset(select);
                });
    row("ledger: `cf_engine_pnl` hifo, fees in coins and moves", ours, "sqlite3 C: SELECT every row of both portfolios", anchor,
        "ledger cached; target < 50 ms");
    sqlite3_finalize(select);
    sqlite3_close(db);
    cf_engine_close(engine);

    (void)sink;
    free(csv);
    free(markets);
}

/* ---- add_trade (SPEC §16, issue 24) ------------------------------------------------------- */
/* Counts the xSync calls and the bytes written of every SQLite file the process opens while it is the default VFS: the
 * engine's connections go through the same libsqlite3, so the add_trade row can show that both
 * sides make the same durable writes. The files stay the real VFS's; only xSync and xWrite are
 * wrapped. */
static sqlite3_vfs counting_vfs, *real_vfs;
static long sync_count, write_bytes;
static struct {
    const sqlite3_io_methods *real;
    sqlite3_io_methods counted;
} io_methods[8];
static int io_methods_count;

static int counted_sync(sqlite3_file *file, int flags) {
    int i;
    sync_count++;
    for (i = 0; i < io_methods_count; i++)
        if (file->pMethods == &io_methods[i].counted) return io_methods[i].real->xSync(file, flags);
    return SQLITE_IOERR_FSYNC;
}

static int counted_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    int i;
    write_bytes += amount;
    for (i = 0; i < io_methods_count; i++)
        if (file->pMethods == &io_methods[i].counted) return io_methods[i].real->xWrite(file, data, amount, offset);
    return SQLITE_IOERR_WRITE;
}

static int counted_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *out_flags) {
    int rc = real_vfs->xOpen(real_vfs, name, file, flags, out_flags), i;
    (void)vfs;
    if (rc != SQLITE_OK || file->pMethods == NULL) return rc;
    for (i = 0; i < io_methods_count && io_methods[i].real != file->pMethods; i++) {}
    if (i == io_methods_count) {
        if (i == 8) return rc; /* not counted: shows as fewer syncs, never as a failure */
        io_methods[i].real = file->pMethods;
        io_methods[i].counted = *file->pMethods;
        io_methods[i].counted.xSync = counted_sync;
        io_methods[i].counted.xWrite = counted_write;
        io_methods_count++;
    }
    file->pMethods = &io_methods[i].counted;
    return rc;
}

static void count_syncs(int on) {
    if (on) {
        real_vfs = sqlite3_vfs_find(NULL);
        counting_vfs = *real_vfs;
        counting_vfs.zName = "bench-counting";
        counting_vfs.xOpen = counted_open;
        sqlite3_vfs_register(&counting_vfs, 1);
    } else {
        sqlite3_vfs_register(real_vfs, 1);
        sqlite3_vfs_unregister(&counting_vfs);
    }
}

static double clock_s(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The value below which `share` (0…1) of the samples lie (sorts them in place). */
static double quantile(double *samples, int count, double share) {
    qsort(samples, (size_t)count, sizeof(double), compare_doubles);
    return samples[(int)(share * (count - 1) + 0.5)];
}

/* add_trade (a sell and a buy of one group) against the same SQL in C on its own file: BEGIN
 * IMMEDIATE, the owner's change count, the portfolio check, two INSERTs with their group id,
 * COMMIT; WAL, synchronous=FULL on both. Each call waits for the disk (two fsyncs), whose time
 * varies far more than the calls' own work, and a WAL checkpoint now and then adds more to one
 * call: so the calls go in pairs (ours then the anchor's, the anchor's then ours on the next
 * pair), the row gives the median of the pairs' ratios of wall time (a slow disk moment or a
 * checkpoint spoils one pair, not the figure), and beside it each side's CPU time and xSync
 * calls per call, counted in the process: the same durable work on both sides. */
#ifndef TRADE_PAIRS
#define TRADE_WARMUP 20
#define TRADE_PAIRS 401
#endif
static void bench_add_trade(const char *dir) {
    char path[4096], config[4200], json[512], note[512], sent[32], received[32], group[40];
    char *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *check_portfolio = NULL, *insert = NULL, *count = NULL;
    static double ours_wall[TRADE_PAIRS], anchor_wall[TRADE_PAIRS], ratio[TRADE_PAIRS], ours_cpu[TRADE_PAIRS],
        anchor_cpu[TRADE_PAIRS], cpu_ratio[TRADE_PAIRS];
    long ours_syncs = 0, anchor_syncs = 0, ours_bytes = 0, anchor_bytes = 0;
    int n = 0, m = 0, pair, side;

    count_syncs(1);
    snprintf(path, sizeof path, "%s/ledger-trade-raw.sqlite", dir);
    remove_sqlite(path);
    db = raw_ledger(path);
    sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = ?1 AND owner = 'default'", -1, &check_portfolio, NULL);
    sqlite3_prepare_v2(db, ledger_insert_all, -1, &insert, NULL);
    sqlite3_prepare_v2(db, change_count, -1, &count, NULL);
    snprintf(path, sizeof path, "%s/ledger-trade.sqlite", dir);
    remove_sqlite(path);
    snprintf(config, sizeof config, "{\"database\":\"%s\"}", path);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    check(cf_engine_add_transaction(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1000000,\"price\":1,"
                                            "\"timestamp\":\"2020-01-01T00:00:00Z\"}", &out, &error),
          error, "cf_engine_add_transaction");
    cf_string_free(out);
    for (pair = -TRADE_WARMUP; pair < TRADE_PAIRS; pair++) {
        for (side = 0; side < 2; side++) {
            int ours_side = (side == 0) == (pair % 2 == 0);
            long syncs_before = sync_count, bytes_before = write_bytes;
            double wall = clock_s(CLOCK_MONOTONIC), cpu = clock_s(CLOCK_THREAD_CPUTIME_ID);
            if (ours_side) {
                snprintf(json, sizeof json,
                         "{\"timestamp\":\"2024-01-01T00:00:00Z\",\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":0.%d},"
                         "\"received\":{\"coin_id\":\"ethereum\",\"amount\":%d},\"value\":30000.5}", 1 + n % 9, 1 + n % 7);
                n++;
                check(cf_engine_add_trade(engine, json, &out, &error), error, "cf_engine_add_trade");
                cf_string_free(out);
            } else {
                snprintf(sent, sizeof sent, "0.%d", 1 + m % 9);
                snprintf(received, sizeof received, "%d", 1 + m % 7);
                snprintf(group, sizeof group, "%08x-0000-4000-8000-%012x", (unsigned)m, (unsigned)m);
                m++;
                raw_write_begin(db, count, check_portfolio);
                sqlite3_bind_text(insert, 1, "main", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 2, "bitcoin", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 3, "sell", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 4, sent, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(insert, 5, "300005", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 6, "0", -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert, 7, 1704067200000LL);
                sqlite3_bind_text(insert, 8, "", -1, SQLITE_STATIC);
                sqlite3_bind_null(insert, 9);
                sqlite3_bind_text(insert, 10, group, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(insert, 11, "user", -1, SQLITE_STATIC);
                step_insert(db, insert);
                sqlite3_bind_text(insert, 2, "ethereum", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 3, "buy", -1, SQLITE_STATIC);
                sqlite3_bind_text(insert, 4, received, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(insert, 5, "30000.5", -1, SQLITE_STATIC);
                step_insert(db, insert);
                sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
            }
            cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu;
            wall = clock_s(CLOCK_MONOTONIC) - wall;
            if (pair < 0) continue;
            if (ours_side) {
                ours_wall[pair] = wall;
                ours_cpu[pair] = cpu;
                ours_syncs += sync_count - syncs_before;
                ours_bytes += write_bytes - bytes_before;
            } else {
                anchor_wall[pair] = wall;
                anchor_cpu[pair] = cpu;
                anchor_syncs += sync_count - syncs_before;
                anchor_bytes += write_bytes - bytes_before;
            }
        }
        if (pair < 0) continue;
        ratio[pair] = ours_wall[pair] / anchor_wall[pair];
        cpu_ratio[pair] = ours_cpu[pair] / anchor_cpu[pair];
    }
    sqlite3_finalize(check_portfolio);
    sqlite3_finalize(insert);
    sqlite3_finalize(count);
    sqlite3_close(db);
    cf_engine_close(engine);
    count_syncs(0);
    {
        double r25 = quantile(ratio, TRADE_PAIRS, 0.25), r75 = quantile(ratio, TRADE_PAIRS, 0.75);
        double r50 = quantile(ratio, TRADE_PAIRS, 0.5), rmax = quantile(ratio, TRADE_PAIRS, 1.0);
        double c50 = quantile(cpu_ratio, TRADE_PAIRS, 0.5);
        snprintf(note, sizeof note,
                 "durable trades (WAL, synchronous=FULL), JSON in and out; median of %d per-pair wall-time ratios "
                 "(p25 %.2f×, p75 %.2f×, max %.2f×), each side's median beside it; per call xSync %.2f and %.2f, bytes written "
                 "%.0f and %.0f (ours, anchor); target ≤ 1.2×",
                 TRADE_PAIRS, r25, r75, rmax, (double)ours_syncs / TRADE_PAIRS, (double)anchor_syncs / TRADE_PAIRS,
                 (double)ours_bytes / TRADE_PAIRS, (double)anchor_bytes / TRADE_PAIRS);
        printf("| ledger: `cf_engine_add_trade` | %.3f ms | sqlite3 C, the same two INSERTs and pragmas | %.3f ms | %.3g× | %s |\n",
               median(ours_wall, TRADE_PAIRS) * 1e3, median(anchor_wall, TRADE_PAIRS) * 1e3, r50, note);
        snprintf(note, sizeof note, "the same calls' CPU time (the work besides waiting for the disk): median of per-pair ratios");
        printf("| ledger: `cf_engine_add_trade`, CPU time | %.3f ms | sqlite3 C, the same two INSERTs and pragmas | %.3f ms | %.3g× | %s |\n",
               median(ours_cpu, TRADE_PAIRS) * 1e3, median(anchor_cpu, TRADE_PAIRS) * 1e3, c50, note);
    }
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
/* set_holding records a transfer of the difference in the ledger (schema 2): the anchor runs the
 * same SQL through sqlite3 — BEGIN IMMEDIATE, the portfolio check, the coin's rows, the INSERT,
 * COMMIT — with the same pragmas. */
static void bench_store(const char *dir) {
    char path[4096], id[64], amount[32], note[200];
    char *error = NULL;
    cf_store *store = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *portfolio = NULL, *count = NULL, *insert = NULL;
    double ours, anchor;
    int n = 0, m = 0;
    clockid_t saved_clock;

    /* set_holding records a transfer of the difference in the ledger (schema step 5: the coin's
     * position kept in memory): the anchor runs the same work through sqlite3 (BEGIN IMMEDIATE,
     * the owner's change count, the portfolio check, the INSERT, COMMIT) with the same pragmas. */
    snprintf(path, sizeof path, "%s/store-raw.sqlite", dir);
    db = raw_ledger(path);
    sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = ?1 AND owner = 'default'", -1, &portfolio, NULL);
    sqlite3_prepare_v2(db, change_count, -1, &count, NULL);
    sqlite3_prepare_v2(db, ledger_insert, -1, &insert, NULL);
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
                    snprintf(amount, sizeof amount, "%d", 1 + m++);
                    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
                    step_done(db, count);
                    sqlite3_bind_text(portfolio, 1, "main", -1, SQLITE_STATIC);
                    step_done(db, portfolio);
                    sqlite3_bind_text(insert, 1, "main", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 2, id, -1, SQLITE_TRANSIENT);
                    sqlite3_bind_text(insert, 3, "transfer_in", -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert, 4, amount, -1, SQLITE_TRANSIENT);
                    sqlite3_bind_null(insert, 5);
                    sqlite3_bind_text(insert, 6, "0", -1, SQLITE_STATIC);
                    sqlite3_bind_int64(insert, 7, 1704067200000LL + m);
                    sqlite3_bind_text(insert, 8, "set_holding", -1, SQLITE_STATIC);
                    sqlite3_bind_null(insert, 9);
                    step_done(db, insert);
                    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
                });
    bench_clock = saved_clock;
    sqlite3_finalize(portfolio);
    sqlite3_finalize(count);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    cf_store_close(store);
    snprintf(note, sizeof note,
             "durable (WAL, synchronous=FULL), a ledger transfer; writes interleaved, wall time; %.0f writes/s ours; target ≤ 1.2×",
             1.0 / ours);
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

/* Peak RSS growth over one cf_engine_load of `file`, in a fresh process: into an engine on
 * `:memory:` (the scenario of issue 11's target), or with `database`, on that SQLite file
 * (removed first), where the load also saves the snapshot durably. */
static void bench_memory(const char *file, const char *database) {
    size_t size;
    char *body = read_file(file, &size), *error = NULL, config[4200];
    cf_engine *engine = NULL;
    long before, after;
    if (database) {
        char side[4200];
        remove(database);
        snprintf(side, sizeof side, "%s-wal", database); remove(side);
        snprintf(side, sizeof side, "%s-shm", database); remove(side);
        snprintf(config, sizeof config, "{\"database\":\"%s\"}", database);
    } else {
        snprintf(config, sizeof config, "{\"database\":\":memory:\"}");
    }
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    before = peak_rss_kb();
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    after = peak_rss_kb();
    if (database)
        printf("| memory: peak RSS growth ingesting 15,000 coins into a SQLite file | %.1f MB | JSON body | %.1f MB | %.2f× | "
               "RSS %.1f → %.1f MB; decode + durable save (SQLite's page cache included) |\n",
               (after - before) / 1024.0, size / 1e6, (after - before) * 1024.0 / size, before / 1024.0, after / 1024.0);
    else
        printf("| memory: peak RSS growth ingesting 15,000 coins | %.1f MB | JSON body | %.1f MB | %.2f× | RSS %.1f → %.1f MB; "
               "engine on `:memory:`; target ≤ 1.5× |\n",
               (after - before) / 1024.0, size / 1e6, (after - before) * 1024.0 / size, before / 1024.0, after / 1024.0);
    cf_engine_close(engine);
    if (database) remove(database);
    free(body);
}

int main(int argc, char **argv) {
    if (getenv("BENCH_WALL") && strcmp(getenv("BENCH_WALL"), "1") == 0) bench_clock = CLOCK_MONOTONIC;
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "memory") == 0) {
        bench_memory(argv[2], argc == 4 ? argv[3] : NULL);
        return 0;
    }
    if (argc < 3 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: bench run BUILD_DIR [section…] | bench memory FILE.json [DATABASE]\n");
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
            if (all || strcmp(section, "refresh") == 0) {
                bench_refresh(dir);
                bench_refresh_prices(dir);
            }
            if (all || strcmp(section, "store") == 0) bench_store(dir);
            if (all || strcmp(section, "ledger") == 0) bench_ledger(dir);
            if (all || strcmp(section, "ledger-history") == 0) bench_ledger_history(dir);
            if (all || strcmp(section, "trade") == 0) bench_add_trade(dir);
            if (all || strcmp(section, "abi") == 0) bench_abi();
            if (all) break;
        }
    }
    return 0;
}
