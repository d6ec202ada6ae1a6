/*
 * postgres_bench.c — Coinfolio on PostgreSQL (SPEC §13, §14). Every figure is a ratio against an
 * anchor measured in the same process, the two calls interleaved round by round. Prints Markdown
 * rows for BENCHMARKS.md.
 *
 *   postgres_bench URL BUILD_DIR [set_holding|processes|snapshot]
 *
 * URL is a PostgreSQL server's (bench/Makefile starts a throwaway cluster with
 * Tests/postgres/with-cluster.sh); BUILD_DIR holds generate.py's markets-250.json. A section
 * name runs that section alone (all three without one).
 */
#define _POSIX_C_SOURCE 200809L
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench_support.h"
#include "coinfolio.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void quiet(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

static void check_result(PGresult *result, PGconn *connection, const char *what) {
    ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        fprintf(stderr, "%s failed: %s\n", what, PQerrorMessage(connection));
        exit(1);
    }
    PQclear(result);
}

static cf_store *open_store(const char *database, const char *owner) {
    char config[4096], *error = NULL;
    cf_store *store = NULL;
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"owner\":\"%s\"}", database, owner);
    check(cf_store_open_v2(config, &store, &error), error, "cf_store_open_v2");
    return store;
}

static cf_engine *open_engine(const char *database, const char *owner) {
    char config[4096], *error = NULL;
    cf_engine *engine = NULL;
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"owner\":\"%s\"}", database, owner);
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    return engine;
}

/* ---- durable set_holding: cf_store_set_holding vs the same SQL through libpq ---------------- */

/* What cf_store_set_holding sends on PostgreSQL (LedgerStore.setHolding and write, schema step 5):
 * in one READ COMMITTED transaction, the owner's ledger advisory lock, the owner's change count,
 * the portfolio's row and one transfer of the difference (a decrease also reads the entries after
 * now, none here); the coins' positions are kept in memory, here in `held`. The anchor sends the
 * same statements, prepared once (doubles: the arithmetic is not what is measured). */
static double held_by_coin[500];

static void anchor_set_holding(PGconn *connection, const char *owner, const char *coin, double target, long long now_ms) {
    const char *values[10];
    char amount[64], timestamp[32];
    PGresult *result;
    double *held = &held_by_coin[strtol(coin + 5, NULL, 10) % 500];

    check_result(PQexec(connection, "BEGIN"), connection, "begin");
    values[0] = owner;
    check_result(PQexecPrepared(connection, "lock", 1, values, NULL, NULL, 0), connection, "lock");
    check_result(PQexecPrepared(connection, "count", 1, values, NULL, NULL, 0), connection, "count");
    values[0] = "main";
    values[1] = owner;
    result = PQexecPrepared(connection, "portfolio", 2, values, NULL, NULL, 0);
    if (PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) == 0) {
        PQclear(result);
        result = PQexecPrepared(connection, "create_portfolio", 2, values, NULL, NULL, 0);
    }
    check_result(result, connection, "portfolio");
    if (*held != target) {
        snprintf(amount, sizeof amount, "%.17g", target > *held ? target - *held : *held - target);
        snprintf(timestamp, sizeof timestamp, "%lld", now_ms);
        values[0] = "main";
        values[1] = coin;
        values[2] = target > *held ? "transfer_in" : "transfer_out";
        values[3] = amount;
        values[4] = NULL;
        values[5] = "0";
        values[6] = timestamp;
        values[7] = "set_holding";
        values[8] = NULL;
        values[9] = owner;
        check_result(PQexecPrepared(connection, "transfer", 10, values, NULL, NULL, 0), connection, "transfer");
        *held = target;
    }
    check_result(PQexec(connection, "COMMIT"), connection, "commit");
}

static void bench_set_holding(const char *url) {
    enum { rounds = 15, writes = 60 };
    double ours[rounds], anchor[rounds];
    char id[64];
    cf_store *store;
    PGconn *connection;
    int r, i, n = 0;
    char *error = NULL;

    store = open_store(url, "bench-set-holding"); /* creates the schema */
    connection = PQconnectdb(url);
    if (PQstatus(connection) != CONNECTION_OK) { fprintf(stderr, "%s", PQerrorMessage(connection)); exit(1); }
    /* The statements anchor_set_holding sends, prepared once; durable (fsync=on,
     * synchronous_commit=on), text parameters, as our connection sends them. */
    check_result(PQprepare(connection, "lock", "SELECT pg_advisory_xact_lock(1667656807, hashtext($1))", 1, NULL), connection,
                 "prepare lock");
    check_result(PQprepare(connection, "portfolio", "SELECT vs_currency FROM portfolio WHERE name = $1 AND owner = $2", 2, NULL),
                 connection, "prepare portfolio");
    check_result(PQprepare(connection, "create_portfolio",
                           "INSERT INTO portfolio (owner, name, vs_currency) VALUES ($2, $1, NULL)", 2, NULL),
                 connection, "prepare create_portfolio");
    check_result(PQprepare(connection, "count",
                           "INSERT INTO ledger_change (owner, counter) VALUES ($1, 1) "
                           "ON CONFLICT (owner) DO UPDATE SET counter = ledger_change.counter + 1 RETURNING counter",
                           1, NULL),
                 connection, "prepare count");
    check_result(PQprepare(connection, "transfer",
                           "INSERT INTO ledger_transaction (portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, "
                           "external_id, owner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
                           10, NULL),
                 connection, "prepare transfer");
    for (r = 0; r < rounds; r++) {
        double start = now_s();
        for (i = 0; i < writes; i++) {
            snprintf(id, sizeof id, "coin-%d", n % 500);
            anchor_set_holding(connection, "bench-libpq", id, 1.0 + n++, (long long)(time(NULL)) * 1000);
        }
        anchor[r] = (now_s() - start) / writes;
        start = now_s();
        for (i = 0; i < writes; i++) {
            snprintf(id, sizeof id, "coin-%d", n % 500);
            check(cf_store_set_holding(store, id, 1.0 + n++, &error), error, "cf_store_set_holding");
        }
        ours[r] = (now_s() - start) / writes;
    }
    PQfinish(connection);
    cf_store_close(store);
    {
        double o = median(ours, rounds), a = median(anchor, rounds);
        printf("| postgres: durable `cf_store_set_holding` | %.3f ms | libpq C, same work (owner lock, change count, "
               "portfolio, transfer; positions in memory) in one transaction, prepared | %.3f ms | %.3g× | "
               "%d rounds of %d, A/B interleaved; %.0f writes/s ours; target ≤ 1.2× |\n",
               o * 1e3, a * 1e3, o / a, rounds, writes, 1.0 / o);
    }
}

/* ---- 8 processes × 500 writes on one owner ------------------------------------------------ */
static void bench_processes(const char *url) {
    enum { processes = 8, writes = 500 };
    pid_t children[processes];
    char owner[64], *out = NULL, *error = NULL;
    double start, elapsed;
    int p, i, failed = 0, found = 0, wrong = 0;
    cf_store *store;
    json_t *root, *row;
    size_t index;

    snprintf(owner, sizeof owner, "bench-processes-%ld", (long)getpid());
    cf_store_close(open_store(url, owner)); /* schema in place before the race */
    start = now_s();
    for (p = 0; p < processes; p++) {
        children[p] = fork();
        if (children[p] == 0) {
            char id[64];
            cf_store *mine = open_store(url, owner);
            for (i = 0; i < writes; i++) {
                snprintf(id, sizeof id, "p%d-%d", p, i);
                if (cf_store_set_holding(mine, id, i + 1.0, &error) != CF_OK) {
                    fprintf(stderr, "writer %d: %s\n", p, error);
                    _exit(1);
                }
            }
            cf_store_close(mine);
            _exit(0);
        }
    }
    for (p = 0; p < processes; p++) {
        int status = 0;
        waitpid(children[p], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
    }
    elapsed = now_s() - start;
    store = open_store(url, owner);
    check(cf_store_holdings(store, &out, &error), error, "cf_store_holdings");
    root = json_loads(out, 0, NULL);
    json_array_foreach(json_object_get(root, "holdings"), index, row) {
        const char *id = json_string_value(json_object_get(row, "coin_id"));
        int writer, n;
        found++;
        if (!id || sscanf(id, "p%d-%d", &writer, &n) != 2 || json_number_value(json_object_get(row, "amount")) != n + 1.0)
            wrong++;
    }
    json_decref(root);
    cf_string_free(out);
    cf_store_close(store);
    printf("| postgres: %d processes × %d `cf_store_set_holding`, one owner | %.0f ms | — | — | — | "
           "%d of %d rows present, %d wrong, %d writers failed: %d lost; %.0f writes/s together |\n",
           processes, writes, elapsed * 1e3, found, processes * writes, wrong, failed, processes * writes - found,
           processes * writes / elapsed);
    if (found != processes * writes || wrong || failed) {
        fprintf(stderr, "writes were lost\n");
        exit(1);
    }
}

/* ---- one refresh's snapshot save: PostgreSQL vs SQLite ------------------------------------ */
static void bench_snapshot(const char *url, const char *dir) {
    enum { rounds = 21 };
    double on_postgres[rounds], on_sqlite[rounds], in_memory[rounds], raw[rounds], stored_coins, stored_sparklines;
    char path[4096], *body, *error = NULL;
    cf_engine *postgres, *sqlite, *memory;
    PGconn *connection;
    int r, length;
    const int binary = 1;

    snprintf(path, sizeof path, "%s/markets-250.json", dir);
    body = read_file(path, NULL);
    length = (int)strlen(body);
    /* The floor: the same bytes upserted through libpq into a table of the same shape. */
    connection = PQconnectdb(url);
    if (PQstatus(connection) != CONNECTION_OK) { fprintf(stderr, "%s", PQerrorMessage(connection)); exit(1); }
    PQsetNoticeProcessor(connection, quiet, NULL);
    check_result(PQexec(connection, "DROP TABLE IF EXISTS bench_body; CREATE TABLE bench_body (owner TEXT PRIMARY KEY, body BYTEA NOT NULL);"
                                    "ALTER TABLE bench_body ALTER COLUMN body SET STORAGE EXTERNAL"),
                 connection, "create bench_body");
    check_result(PQprepare(connection, "body", "INSERT INTO bench_body VALUES ('x', $1) ON CONFLICT (owner) DO UPDATE SET body = excluded.body",
                           1, NULL),
                 connection, "prepare body");
    snprintf(path, sizeof path, "%s/snapshot-bench.sqlite", dir);
    remove(path);
    postgres = open_engine(url, "bench-snapshot");
    sqlite = open_engine(path, "bench-snapshot");
    memory = open_engine(":memory:", "bench-snapshot");
    for (r = 0; r < rounds; r++) {
        double start = now_s();
        check(cf_engine_load(sqlite, body, NULL, &error), error, "load sqlite");
        on_sqlite[r] = now_s() - start;
        start = now_s();
        check(cf_engine_load(postgres, body, NULL, &error), error, "load postgres");
        on_postgres[r] = now_s() - start;
        start = now_s();
        check(cf_engine_load(memory, body, NULL, &error), error, "load memory");
        in_memory[r] = now_s() - start;
        start = now_s();
        {
            const char *values[1] = {body};
            check_result(PQexecPrepared(connection, "body", 1, values, &length, &binary, 0), connection, "raw body upsert");
        }
        raw[r] = now_s() - start;
    }
    /* What the save stores on the server: the compact coins and the sparkline rows (since schema step 10
     * one snapshot per vs_currency, shared by every owner: SPEC §20). */
    {
        PGresult *sizes = PQexec(connection,
                                 "SELECT octet_length(s.coins), (SELECT sum(octet_length(p.points)) FROM snapshot_sparkline p "
                                 "WHERE p.snapshot_id = s.id) FROM snapshot s WHERE s.vs_currency = 'usd'");
        if (PQresultStatus(sizes) != PGRES_TUPLES_OK || PQntuples(sizes) != 1) check_result(sizes, connection, "stored sizes");
        stored_coins = strtod(PQgetvalue(sizes, 0, 0), NULL);
        stored_sparklines = strtod(PQgetvalue(sizes, 0, 1), NULL);
        PQclear(sizes);
    }
    PQfinish(connection);
    cf_engine_close(postgres);
    cf_engine_close(sqlite);
    cf_engine_close(memory);
    free(body);
    {
        double p = median(on_postgres, rounds), s = median(on_sqlite, rounds), m = median(in_memory, rounds);
        double floor = median(raw, rounds);
        printf("| postgres: `cf_engine_load` of 250 coins (decode + snapshot save) | %.3f ms | same on a SQLite file | %.3f ms | %.3g× | "
               "A/B interleaved; the save alone (minus the same load on `:memory:`, %.3f ms): %.3f ms vs %.3f ms = %.3g×; target ≤ 2× |\n",
               p * 1e3, s * 1e3, p / s, m * 1e3, (p - m) * 1e3, (s - m) * 1e3, (s - m) > 0 ? (p - m) / (s - m) : 0.0);
        printf("| postgres: the snapshot save alone (load minus load on `:memory:`) | %.3f ms | libpq C: the same %.1f MB body upserted as one bytea | %.3f ms | %.3g× | "
               "the anchor is what keeping the body as it came would cost the server; the save stores %.2f MB (compact coins "
               "%.2f MB, 250 packed sparkline rows %.2f MB) |\n",
               (p - m) * 1e3, length / 1e6, floor * 1e3, (p - m) / floor, (stored_coins + stored_sparklines) / 1e6,
               stored_coins / 1e6, stored_sparklines / 1e6);
    }
}

int main(int argc, char **argv) {
    const char *only = argc == 4 ? argv[3] : NULL;
    if (argc < 3 || argc > 4 ||
        (only && strcmp(only, "set_holding") != 0 && strcmp(only, "processes") != 0 && strcmp(only, "snapshot") != 0)) {
        fprintf(stderr, "usage: postgres_bench URL BUILD_DIR [set_holding|processes|snapshot]\n");
        return 2;
    }
    if (!only || strcmp(only, "set_holding") == 0) bench_set_holding(argv[1]);
    if (!only || strcmp(only, "processes") == 0) bench_processes(argv[1]);
    if (!only || strcmp(only, "snapshot") == 0) bench_snapshot(argv[1], argv[2]);
    return 0;
}
