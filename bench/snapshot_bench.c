/*
 * snapshot_bench.c — benchmarks of the saved snapshot and the holdings writes (issue 11):
 * opening an engine on a 15k-coin saved snapshot, one batch of 1,000 holdings, and set_holding
 * with 10,000 holdings held. Every figure is a ratio against an anchor measured in the same
 * process, product and anchor calls alternating (A/B interleaved). Prints Markdown rows.
 *
 *   snapshot_bench prepare DB MARKETS.json HOLDINGS.txt   save a snapshot and 1,000 holdings
 *   snapshot_bench open DB MARKETS.json                    engine open vs decoding the body
 *   snapshot_bench open-rss DB                             peak RSS growth of one open
 *   snapshot_bench writes BUILD_DIR                        batch and set_holding vs raw SQLite
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "bench_support.h"
#include "coinfolio.h"

static double clock_s(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static double wall_s(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu_s(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }
/* User-mode CPU only: the kernel's share of a durable commit (the fsync) is the same work on
 * both sides and would hide what the library itself costs. */
static double user_s(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6;
}

static void check_sql(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s failed: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void row(const char *name, double ours, const char *unit, const char *anchor_name, double anchor, const char *note) {
    double scale = strcmp(unit, "µs") == 0 ? 1e6 : 1e3;
    printf("| %s | %.3f %s | %s | %.3f %s | %.3g× | %s |\n", name, ours * scale, unit, anchor_name, anchor * scale, unit,
           ours / anchor, note);
}

static char *engine_config(const char *database) {
    static char config[4352];
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"api\":{\"base_url\":\"http://127.0.0.1:9/api/v3\"}}", database);
    return config;
}

/* ---- prepare ------------------------------------------------------------------------------ */
static void prepare(const char *database, const char *markets_path, const char *holdings_path) {
    size_t size;
    char *body = read_file(markets_path, &size), *ids = read_file(holdings_path, &size), *error = NULL, *line;
    cf_engine *engine = NULL;
    json_t *batch = json_array();
    char *text;
    int n = 0;
    remove(database);
    check(cf_engine_open(engine_config(database), &engine, &error), error, "cf_engine_open");
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    for (line = strtok(ids, "\n"); line; line = strtok(NULL, "\n"), n++)
        json_array_append_new(batch, json_pack("{s:s, s:f}", "coin_id", line, "amount", 1.0 + n / 7.0));
    text = json_dumps(json_pack("{s:o}", "holdings", batch), JSON_COMPACT);
    check(cf_engine_set_holdings(engine, text, &error), error, "cf_engine_set_holdings");
    free(text);
    cf_engine_close(engine);
    free(body);
    free(ids);
}

/* ---- open ------------------------------------------------------------------------------- */
/* Engine open on the saved snapshot (what every CLI command does) against decoding the same
 * coins' JSON body with jansson (what opening cost when the snapshot was saved as a body).
 * CPU time is the figure (this machine's two cores are shared, so wall time waits for others);
 * wall time is in the note. */
static void bench_open(const char *database, const char *markets_path) {
    enum { ROUNDS = 15 };
    double ours[ROUNDS], anchor[ROUNDS], ours_wall[ROUNDS];
    size_t size;
    char *body = read_file(markets_path, &size), *error = NULL, note[256];
    struct stat info;
    int r;
    for (r = 0; r < ROUNDS; r++) {
        double start = wall_s(), start_cpu = cpu_s();
        cf_engine *engine = NULL;
        json_t *decoded;
        check(cf_engine_open(engine_config(database), &engine, &error), error, "cf_engine_open");
        ours_wall[r] = wall_s() - start;
        ours[r] = cpu_s() - start_cpu;
        cf_engine_close(engine);
        start_cpu = cpu_s();
        decoded = json_loadb(body, size, 0, NULL);
        anchor[r] = cpu_s() - start_cpu;
        json_decref(decoded);
    }
    stat(database, &info);
    snprintf(note, sizeof note, "target ≤ 20 ms; CPU time; wall %.1f ms; database %.1f MB (sparklines included), JSON body %.1f MB",
             median(ours_wall, ROUNDS) * 1e3, info.st_size / 1e6, size / 1e6);
    row("snapshot: engine open, 15,000-coin saved snapshot", median(ours, ROUNDS), "ms",
        "jansson `json_loadb` of the same coins' body", median(anchor, ROUNDS), note);
    free(body);
}

/* The peak resident set of this process image in kB (VmHWM). Not getrusage's ru_maxrss: after
 * fork + exec that keeps the parent's peak (here the Python report, hundreds of MB). */
static long peak_rss_kb(void) {
    char line[256];
    long kb = -1;
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    while (fgets(line, sizeof line, status))
        if (strncmp(line, "VmHWM:", 6) == 0) kb = strtol(line + 6, NULL, 10);
    fclose(status);
    return kb;
}

/* Peak RSS growth of opening the engine once (run in a fresh process). */
static void bench_open_rss(const char *database) {
    struct stat info;
    long before, after;
    char *error = NULL, *out = NULL;
    cf_engine *engine = NULL;
    before = peak_rss_kb();
    check(cf_engine_open(engine_config(database), &engine, &error), error, "cf_engine_open");
    check(cf_engine_coins(engine, "{\"limit\":20}", &out, &error), error, "cf_engine_coins");
    cf_string_free(out);
    after = peak_rss_kb();
    stat(database, &info);
    printf("| snapshot: peak RSS growth of engine open + first page (15,000 coins) | %.1f MB | saved snapshot on disk | %.1f MB | "
           "%.2f× | target ≤ 1.2×; VmHWM %.1f → %.1f MB |\n",
           (after - before) / 1024.0, info.st_size / 1e6, (after - before) * 1024.0 / info.st_size, before / 1024.0,
           after / 1024.0);
    cf_engine_close(engine);
}

/* ---- writes ------------------------------------------------------------------------------- */
static sqlite3 *raw_store(const char *path) {
    sqlite3 *db = NULL;
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "sqlite3_open failed\n"); exit(1); }
    sqlite3_busy_timeout(db, 5000);
    check_sql(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                               "CREATE TABLE holding (coin_id TEXT PRIMARY KEY NOT NULL, amount REAL NOT NULL CHECK (amount > 0)) WITHOUT ROWID;",
                           NULL, NULL, NULL),
              db, "raw schema");
    return db;
}

static const char *upsert_sql =
    "INSERT INTO holding (coin_id, amount) VALUES (?1, ?2) ON CONFLICT (coin_id) DO UPDATE SET amount = excluded.amount";

static void raw_upsert(sqlite3 *db, sqlite3_stmt *upsert, const char *id, double amount) {
    sqlite3_bind_text(upsert, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(upsert, 2, amount);
    check_sql(sqlite3_step(upsert), db, "raw upsert");
    sqlite3_reset(upsert);
}

/* The ledger's tables as our database at `ours` has them, in a new file at `path`, with the
 * default owner's portfolio "main". */
static sqlite3 *ledger_copy(const char *ours, const char *path) {
    sqlite3 *source = NULL, *db = NULL;
    sqlite3_stmt *schema = NULL;
    remove(path);
    check_sql(sqlite3_open(ours, &source), source, "open ours");
    check_sql(sqlite3_open(path, &db), db, "open raw");
    sqlite3_busy_timeout(db, 5000);
    check_sql(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, NULL), db, "pragmas");
    check_sql(sqlite3_prepare_v2(source,
                                 "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN"
                                 " ('ledger_transaction', 'ledger_change', 'portfolio') ORDER BY type DESC",
                                 -1, &schema, NULL),
              source, "schema");
    while (sqlite3_step(schema) == SQLITE_ROW)
        check_sql(sqlite3_exec(db, (const char *)sqlite3_column_text(schema, 0), NULL, NULL, NULL), db, "create");
    sqlite3_finalize(schema);
    sqlite3_close(source);
    check_sql(sqlite3_exec(db, "INSERT INTO portfolio (owner, name, vs_currency) VALUES ('default', 'main', NULL)", NULL, NULL, NULL),
              db, "portfolio");
    return db;
}

/* The row a holding's change writes (LedgerStore+HoldingTransfers.swift). */
static const char *transfer_sql =
    "INSERT INTO ledger_transaction (owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id)"
    " VALUES ('default', 'main', ?1, 'transfer_in', ?2, NULL, '0', ?3, 'set_holding', NULL)";

/* One durable transaction: the change count, the portfolio check, `count` transfer rows. */
static void raw_transfers(sqlite3 *db, sqlite3_stmt *insert, int count, const char *amount) {
    sqlite3_stmt *portfolio = NULL;
    char id[64];
    struct timespec now;
    int i;
    clock_gettime(CLOCK_REALTIME, &now);
    check_sql(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "begin");
    check_sql(sqlite3_exec(db,
                           "INSERT INTO ledger_change (owner, counter) VALUES ('default', 1)"
                           " ON CONFLICT (owner) DO UPDATE SET counter = ledger_change.counter + 1 RETURNING counter",
                           NULL, NULL, NULL),
              db, "count");
    check_sql(sqlite3_prepare_v2(db, "SELECT vs_currency FROM portfolio WHERE name = 'main' AND owner = 'default'", -1, &portfolio,
                                 NULL),
              db, "prepare portfolio");
    if (sqlite3_step(portfolio) != SQLITE_ROW) { fprintf(stderr, "raw: no portfolio\n"); exit(1); }
    sqlite3_finalize(portfolio);
    for (i = 0; i < count; i++) {
        snprintf(id, sizeof id, "coin-%d", i);
        sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, amount, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 3, (sqlite3_int64)now.tv_sec * 1000 + now.tv_nsec / 1000000);
        check_sql(sqlite3_step(insert), db, "raw transfer");
        sqlite3_reset(insert);
    }
    check_sql(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
}

static void bench_writes(const char *dir) {
    enum { ROUNDS = 31, BATCH = 1000, HELD = 10000, CALLS = 200 };
    char path[4096], id[64], *error = NULL, note[256];
    static char batch_json[BATCH * 64 + 32];
    double ours[ROUNDS], anchor[ROUNDS], ours_user[ROUNDS], anchor_user[ROUNDS];
    cf_store *store = NULL;
    sqlite3 *db;
    sqlite3_stmt *upsert = NULL;
    size_t used;
    int r, i, n = 0;

    /* 1,000 holdings in one call against one raw transaction of what the call writes since the
     * ledger (schema step 3): the owner's change count, the portfolio's check and one transfer
     * row per changed holding (1,000 transfer_in rows a round: 1.5, then 1 more each round),
     * in tables made by the same schema (copied from ours). */
    snprintf(path, sizeof path, "%s/batch-coinfolio.sqlite", dir);
    remove(path);
    check(cf_store_open(path, &store, &error), error, "cf_store_open");
    {
        char raw_path[4096];
        snprintf(raw_path, sizeof raw_path, "%s/batch-raw.sqlite", dir);
        db = ledger_copy(path, raw_path);
    }
    check_sql(sqlite3_prepare_v2(db, transfer_sql, -1, &upsert, NULL), db, "prepare");
    for (r = 0; r < ROUNDS; r++) {
        double start;
        used = (size_t)snprintf(batch_json, sizeof batch_json, "{\"holdings\":[");
        for (i = 0; i < BATCH; i++)
            used += (size_t)snprintf(batch_json + used, sizeof batch_json - used, "%s{\"coin_id\":\"coin-%d\",\"amount\":%d.5}",
                                     i ? "," : "", i, r + 1);
        snprintf(batch_json + used, sizeof batch_json - used, "]}");
        start = wall_s();
        check(cf_store_set_holdings(store, batch_json, &error), error, "cf_store_set_holdings");
        ours[r] = wall_s() - start;
        start = wall_s();
        raw_transfers(db, upsert, BATCH, r == 0 ? "1.5" : "1");
        anchor[r] = wall_s() - start;
    }
    row("store: 1,000 holdings in one `cf_store_set_holdings` call", median(ours, ROUNDS), "ms",
        "one raw SQLite transaction: the change count, the portfolio check, the same 1,000 transfer rows", median(anchor, ROUNDS),
        "target ≤ 2×; durable (WAL, synchronous=FULL); ours includes parsing the JSON argument");
    cf_store_close(store);
    sqlite3_finalize(upsert);
    sqlite3_close(db);

    /* set_holding CPU with 10,000 holdings held: one call each, alternating, CPU time only
     * (the fsync wait is the same on both sides and is not CPU). */
    snprintf(path, sizeof path, "%s/held-raw.sqlite", dir);
    db = raw_store(path);
    check_sql(sqlite3_prepare_v2(db, upsert_sql, -1, &upsert, NULL), db, "prepare");
    snprintf(path, sizeof path, "%s/held-coinfolio.sqlite", dir);
    remove(path);
    check(cf_store_open(path, &store, &error), error, "cf_store_open");
    {
        static char held_json[HELD * 48 + 32];
        char *out = NULL;
        used = (size_t)snprintf(held_json, sizeof held_json, "{\"holdings\":[");
        check_sql(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
        for (i = 0; i < HELD; i++) {
            snprintf(id, sizeof id, "coin-%05d", i);
            used += (size_t)snprintf(held_json + used, sizeof held_json - used, "%s{\"coin_id\":\"%s\",\"amount\":1}", i ? "," : "", id);
            raw_upsert(db, upsert, id, 1);
        }
        check_sql(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
        snprintf(held_json + used, sizeof held_json - used, "]}");
        check(cf_store_set_holdings(store, held_json, &error), error, "cf_store_set_holdings");
        check(cf_store_holdings(store, &out, &error), error, "cf_store_holdings"); /* the cache is live */
        cf_string_free(out);
    }
    for (r = 0; r < ROUNDS; r++) {
        double ours_cpu = 0, anchor_cpu = 0, ours_u = 0, anchor_u = 0;
        for (i = 0; i < CALLS; i++, n++) {
            double start, start_user;
            /* Mostly updates, and every fourth call a new id then its removal: the cache's
             * insert and delete paths are timed too. */
            if (n % 4 == 3)
                snprintf(id, sizeof id, "new-%d", n);
            else
                snprintf(id, sizeof id, "coin-%05d", (n * 7919) % HELD);
            start = cpu_s();
            start_user = user_s();
            check(cf_store_set_holding(store, id, 2.0 + n, &error), error, "cf_store_set_holding");
            if (n % 4 == 3) check(cf_store_set_holding(store, id, 0, &error), error, "cf_store_set_holding");
            ours_u += user_s() - start_user;
            ours_cpu += cpu_s() - start;
            start = cpu_s();
            start_user = user_s();
            raw_upsert(db, upsert, id, 2.0 + n);
            if (n % 4 == 3) {
                sqlite3_stmt *remove_stmt = NULL;
                sqlite3_prepare_v2(db, "DELETE FROM holding WHERE coin_id = ?1", -1, &remove_stmt, NULL);
                sqlite3_bind_text(remove_stmt, 1, id, -1, SQLITE_TRANSIENT);
                check_sql(sqlite3_step(remove_stmt), db, "raw delete");
                sqlite3_finalize(remove_stmt);
            }
            anchor_u += user_s() - start_user;
            anchor_cpu += cpu_s() - start;
        }
        ours[r] = ours_cpu / CALLS;
        anchor[r] = anchor_cpu / CALLS;
        ours_user[r] = ours_u / CALLS;
        anchor_user[r] = anchor_u / CALLS;
    }
    {
        double o = median(ours, ROUNDS), a = median(anchor, ROUNDS);
        snprintf(note, sizeof note,
                 "target ≤ 2×; user-mode CPU per call, 10,000 held, 3 updates : 1 insert+delete; with the kernel's "
                 "fsync work: %.1f µs vs %.1f µs (%.2f×)",
                 o * 1e6, a * 1e6, o / a);
    }
    row("store: `cf_store_set_holding` user CPU, 10,000 holdings held", median(ours_user, ROUNDS), "µs",
        "raw SQLite, same SQL and pragmas", median(anchor_user, ROUNDS), note);
    cf_store_close(store);
    sqlite3_finalize(upsert);
    sqlite3_close(db);
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "prepare") == 0) {
        prepare(argv[2], argv[3], argv[4]);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "open") == 0) {
        bench_open(argv[2], argv[3]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "open-rss") == 0) {
        bench_open_rss(argv[2]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "writes") == 0) {
        bench_writes(argv[2]);
        return 0;
    }
    fprintf(stderr, "usage: snapshot_bench prepare DB MARKETS HOLDINGS | open DB MARKETS | open-rss DB | writes DIR\n");
    return 2;
}
