/*
 * service_bench.c — issue 28's load benchmark (SPEC §20): many owners on one PostgreSQL, served
 * through Debian's pgbouncer in transaction pooling mode. bench/service_report.py runs its steps
 * on the throwaway cluster Tests/postgres/with-cluster.sh starts and writes the section of
 * BENCHMARKS.md; each step prints Markdown rows (or, for refresh, one line of counts).
 *
 *   service_bench seed URL BUILD_DIR OWNERS
 *       the shared 250-coin snapshot (cf_engine_load of the recorded body), 20 template owners of
 *       20 transactions each written through cf_engine_add_transaction, copied in SQL to OWNERS
 *       owners (every owner-scoped table); prints the storage rows
 *   service_bench load URL OWNERS PROCESSES SECONDS cold|warm
 *       PROCESSES client processes serving random owners' portfolio and pnl for SECONDS; cold:
 *       each request opens the owner's engine, asks, closes it; warm: each process keeps 50
 *       engines open (its own owners) and asks them at random. The anchor, interleaved request
 *       by request in the same process: libpq on the same URL reading the owner's portfolio and
 *       ledger rows (the rows both answers are computed from)
 *   service_bench refresh URL BASE_URL OWNERS PROCESSES VS_CURRENCY
 *       every owner's engine (refresh_max_age_s 3600) refreshes VS_CURRENCY once, PROCESSES at a
 *       time; prints "owners=N fetched=F seconds=S" (the requests are counted on the server)
 *   service_bench prepare URL OWNERS BUILD_DIR
 *       named statements (the default) against prepare=false on the same direct connection URL,
 *       interleaved: a cold request (open, portfolio, pnl, close), a durable add_transaction and
 *       the shared snapshot's save (cf_engine_load of the recorded body)
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench_support.h"
#include "coinfolio.h"

enum { templates = 20, template_transactions = 20, warm_engines = 50, max_samples = 200000 };

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static PGconn *connect_or_exit(const char *url) {
    PGconn *connection = PQconnectdb(url);
    if (PQstatus(connection) != CONNECTION_OK) {
        fprintf(stderr, "service_bench: %s", PQerrorMessage(connection));
        exit(1);
    }
    return connection;
}

/* Runs sql (no parameters, unnamed) and returns its result; exits on failure. */
static PGresult *query(PGconn *connection, const char *sql) {
    PGresult *result = PQexecParams(connection, sql, 0, NULL, NULL, NULL, NULL, 0);
    ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        fprintf(stderr, "service_bench: %s failed: %s\n", sql, PQerrorMessage(connection));
        exit(1);
    }
    return result;
}

static double number(PGconn *connection, const char *sql) {
    PGresult *result = query(connection, sql);
    double value = strtod(PQgetvalue(result, 0, 0), NULL);
    PQclear(result);
    return value;
}

static cf_engine *open_engine(const char *url, const char *owner, const char *extra) {
    char config[4096], *error = NULL;
    cf_engine *engine = NULL;
    snprintf(config, sizeof config, "{\"database\":\"%s\",\"owner\":\"%s\"%s%s}", url, owner, extra ? "," : "",
             extra ? extra : "");
    check(cf_engine_open(config, &engine, &error), error, "cf_engine_open");
    return engine;
}

static void owner_name(char *out, size_t size, int n) { snprintf(out, size, "svc-%05d", n); }

/* ---- seed ------------------------------------------------------------------------------- */

/* Template t holds 10 coins of the snapshot, each bought then partly sold: 20 transactions. */
static void write_template(const char *url, int t, json_t *coins) {
    char owner[32], transaction[512], *out = NULL, *error = NULL;
    size_t count = json_array_size(coins);
    cf_engine *engine;
    int k;
    snprintf(owner, sizeof owner, "svc-t%02d", t);
    engine = open_engine(url, owner, NULL);
    for (k = 0; k < template_transactions / 2; k++) {
        const char *coin = json_string_value(json_object_get(json_array_get(coins, (size_t)(t * 7 + k * 13) % count), "id"));
        snprintf(transaction, sizeof transaction,
                 "{\"coin_id\":\"%s\",\"kind\":\"buy\",\"amount\":\"%d.5\",\"price\":\"%d.25\",\"fee\":\"0.1\","
                 "\"timestamp\":\"2024-01-%02dT10:00:00Z\"}",
                 coin, k + 1, 10 + t + k, k + 1);
        check(cf_engine_add_transaction(engine, transaction, &out, &error), error, "template buy");
        cf_string_free(out);
        snprintf(transaction, sizeof transaction,
                 "{\"coin_id\":\"%s\",\"kind\":\"sell\",\"amount\":\"%d.2\",\"price\":\"%d.75\",\"fee\":\"0.1\","
                 "\"timestamp\":\"2024-06-%02dT10:00:00Z\"}",
                 coin, k, 12 + t + k, k + 1);
        check(cf_engine_add_transaction(engine, transaction, &out, &error), error, "template sell");
        cf_string_free(out);
    }
    cf_engine_close(engine);
}

/* The answer of pnl without its volatile keys, to compare a copied owner with its template. */
static char *pnl_of(const char *url, const char *owner) {
    char *out = NULL, *error = NULL;
    cf_engine *engine = open_engine(url, owner, NULL);
    check(cf_engine_pnl(engine, NULL, &out, &error), error, "cf_engine_pnl");
    cf_engine_close(engine);
    return out;
}

static void seed(const char *url, const char *build, int owners) {
    char path[4096], sql[8192], *body, *error = NULL;
    json_t *coins;
    cf_engine *engine;
    PGconn *connection;
    PGresult *tables;
    double start, copy_seconds, ledger_bytes, market_bytes, snapshot_bytes, t_bytes;
    int t, i;

    snprintf(path, sizeof path, "%s/markets-250.json", build);
    body = read_file(path, NULL);
    coins = json_loads(body, 0, NULL);
    if (!json_is_array(coins) || json_array_size(coins) < 200) { fprintf(stderr, "service_bench: %s is no markets body\n", path); exit(1); }
    engine = open_engine(url, "svc-seed", NULL);
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
    cf_engine_close(engine);
    free(body);
    for (t = 0; t < templates; t++) write_template(url, t, coins);
    json_decref(coins);

    /* Copy each template's rows to the owners: every table with an owner column, every column
     * but the ones a sequence fills (ledger_transaction.id). */
    connection = connect_or_exit(url);
    tables = query(connection,
                   "SELECT c.table_name, string_agg(c.column_name, ',' ORDER BY c.ordinal_position) "
                   "FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.column_name <> 'owner' "
                   "AND coalesce(c.column_default, '') NOT LIKE 'nextval%' AND c.is_identity = 'NO' AND c.table_name IN "
                   "(SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'owner') "
                   "GROUP BY c.table_name ORDER BY c.table_name");
    start = now_s();
    for (i = 0; i < PQntuples(tables); i++) {
        const char *table = PQgetvalue(tables, i, 0), *columns = PQgetvalue(tables, i, 1);
        PGresult *done;
        snprintf(sql, sizeof sql,
                 "INSERT INTO %s (owner, %s) SELECT 'svc-' || lpad(n::text, 5, '0'), %s FROM %s "
                 "JOIN generate_series(0, %d) n ON %s.owner = 'svc-t' || lpad((n %% %d)::text, 2, '0') ORDER BY n",
                 table, columns, columns, table, owners - 1, table, templates);
        done = query(connection, sql);
        PQclear(done);
    }
    PQclear(query(connection, "VACUUM ANALYZE"));
    copy_seconds = now_s() - start;

    /* Every copy answers as its template does. */
    for (i = 0; i < owners; i += owners / 7 + 1) {
        char owner[32], template[32], *ours, *theirs;
        owner_name(owner, sizeof owner, i);
        snprintf(template, sizeof template, "svc-t%02d", i % templates);
        ours = pnl_of(url, owner);
        theirs = pnl_of(url, template);
        if (strcmp(ours, theirs) != 0) { fprintf(stderr, "service_bench: %s answers pnl unlike %s\n", owner, template); exit(1); }
        cf_string_free(ours);
        cf_string_free(theirs);
    }

    /* Storage: the owners' rows (tables and indexes) against the shared market data. */
    snprintf(sql, sizeof sql,
             "SELECT coalesce(sum(pg_total_relation_size(quote_ident(table_name))), 0) FROM information_schema.columns "
             "WHERE table_schema = current_schema() AND column_name = 'owner'");
    ledger_bytes = number(connection, sql);
    market_bytes = number(connection,
                          "SELECT pg_total_relation_size('snapshot') + pg_total_relation_size('snapshot_sparkline') "
                          "+ pg_total_relation_size('coin_detail')");
    snapshot_bytes = number(connection,
                            "SELECT (SELECT sum(octet_length(coins)) FROM snapshot) + "
                            "(SELECT coalesce(sum(octet_length(points)), 0) FROM snapshot_sparkline)");
    t_bytes = number(connection, "SELECT count(*) FROM ledger_transaction");
    PQclear(tables);
    PQfinish(connection);
    {
        double owners_total = owners + templates + 1;
        double per_owner = ledger_bytes / owners_total + market_bytes / owners_total;
        double before = ledger_bytes / owners_total + market_bytes; /* each owner its own market copy (schema before step 10) */
        printf("| service: storage per owner, %d owners × %d transactions | %.1f KB | one market copy per owner (before SPEC §20): "
               "its ledger + one snapshot | %.1f KB | %.3g× | ledger rows and indexes %.2f MB in all (%.0f transactions), "
               "shared market data %.2f MB once (the snapshot's compact coins and sparklines %.2f MB); seeded through "
               "the API for 20 owners, copied in SQL to the rest in %.1f s; target ≤ 0.05× |\n",
               owners, template_transactions, per_owner / 1e3, before / 1e3, per_owner / before, ledger_bytes / 1e6, t_bytes,
               market_bytes / 1e6, snapshot_bytes / 1e6, copy_seconds);
    }
}

/* ---- load -------------------------------------------------------------------------------- */

enum { phase_portfolio, phase_pnl, phase_request, phase_anchor_portfolio, phase_anchor_ledger, phase_anchor, phase_open, phase_connect, phases };

struct samples {
    int count;
    double seconds[phases][max_samples / 16];
};

static const char *anchor_sql[2] = {
    "SELECT name, vs_currency FROM portfolio WHERE owner = $1",
    "SELECT * FROM ledger_transaction WHERE owner = $1 ORDER BY portfolio, timestamp_ms, id",
};

static void anchor_request(PGconn *connection, const char *owner, double *portfolio, double *ledger) {
    const char *values[1] = {owner};
    double start = now_s();
    int q;
    for (q = 0; q < 2; q++) {
        PGresult *result = PQexecParams(connection, anchor_sql[q], 1, NULL, values, NULL, NULL, 0);
        if (PQresultStatus(result) != PGRES_TUPLES_OK || PQntuples(result) == 0) {
            fprintf(stderr, "service_bench: anchor: %s\n", PQerrorMessage(connection));
            exit(1);
        }
        PQclear(result);
        if (q == 0) *portfolio = now_s() - start;
    }
    *ledger = now_s() - start - *portfolio;
}

/* A bare libpq connection to the same URL, opened and closed: what an engine's open starts with. */
static void connect_anchor(const char *url, double *seconds) {
    double start = now_s();
    PQfinish(connect_or_exit(url));
    *seconds = now_s() - start;
}

static void ask(cf_engine *engine, double *portfolio, double *pnl) {
    char *out = NULL, *error = NULL;
    double start = now_s();
    check(cf_engine_portfolio(engine, NULL, &out, &error), error, "cf_engine_portfolio");
    *portfolio = now_s() - start;
    cf_string_free(out);
    start = now_s();
    check(cf_engine_pnl(engine, NULL, &out, &error), error, "cf_engine_pnl");
    *pnl = now_s() - start;
    cf_string_free(out);
}

static void client(const char *url, int owners, int processes, int p, double seconds, int warm, struct samples *mine) {
    cf_engine *engines[warm_engines];
    char owners_of[warm_engines][32], owner[32];
    PGconn *connection = connect_or_exit(url);
    double deadline;
    int n, kept = 0;
    srand((unsigned)(getpid() * 2654435761u));
    if (warm) {
        for (n = 0; n < warm_engines && p + n * processes < owners; n++) {
            owner_name(owners_of[n], sizeof owners_of[n], p + n * processes);
            engines[n] = open_engine(url, owners_of[n], NULL);
        }
        kept = n;
        for (n = 0; n < kept; n++) { /* each engine's first answer (its ledger read) before the clock */
            double a, b;
            ask(engines[n], &a, &b);
        }
    }
    deadline = now_s() + seconds;
    for (n = 0; now_s() < deadline && mine->count < max_samples / 16; n++) {
        int i = mine->count, slot = warm ? rand() % kept : 0;
        double start;
        if (warm) snprintf(owner, sizeof owner, "%s", owners_of[slot]);
        else owner_name(owner, sizeof owner, rand() % owners);
        if (n % 2 == 0) anchor_request(connection, owner, &mine->seconds[phase_anchor_portfolio][i], &mine->seconds[phase_anchor_ledger][i]);
        if (!warm && n % 2 == 0) connect_anchor(url, &mine->seconds[phase_connect][i]);
        start = now_s();
        if (warm) {
            ask(engines[slot], &mine->seconds[phase_portfolio][i], &mine->seconds[phase_pnl][i]);
        } else {
            cf_engine *engine = open_engine(url, owner, NULL);
            mine->seconds[phase_open][i] = now_s() - start;
            ask(engine, &mine->seconds[phase_portfolio][i], &mine->seconds[phase_pnl][i]);
            cf_engine_close(engine);
        }
        mine->seconds[phase_request][i] = now_s() - start;
        if (n % 2 == 1) anchor_request(connection, owner, &mine->seconds[phase_anchor_portfolio][i], &mine->seconds[phase_anchor_ledger][i]);
        if (!warm && n % 2 == 1) connect_anchor(url, &mine->seconds[phase_connect][i]);
        mine->seconds[phase_anchor][i] = mine->seconds[phase_anchor_portfolio][i] + mine->seconds[phase_anchor_ledger][i];
        mine->count++;
    }
    for (n = 0; n < kept; n++) cf_engine_close(engines[n]);
    PQfinish(connection);
}

/* Waits for every child; returns how many did not exit with status 0. */
static int failed_children(const pid_t *children, int count) {
    int p, failed = 0;
    for (p = 0; p < count; p++) {
        int status = 0;
        if (waitpid(children[p], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
    }
    return failed;
}

static double percentile(double *sorted, int count, double p) { return sorted[(int)((count - 1) * p + 0.5)]; }

static void load(const char *url, int owners, int processes, double seconds, int warm) {
    struct samples *all = mmap(NULL, sizeof(struct samples) * (size_t)processes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    static double merged[phases][max_samples];
    pid_t children[64] = {0};
    double start, elapsed;
    int p, k, count = 0, failed = 0;
    if (all == MAP_FAILED || processes > 64) { perror("mmap"); exit(1); }
    memset(all, 0, sizeof(struct samples) * (size_t)processes);
    start = now_s();
    for (p = 0; p < processes; p++) {
        children[p] = fork();
        if (children[p] < 0) { perror("fork"); exit(1); }
        if (children[p] == 0) {
            client(url, owners, processes, p, seconds, warm, &all[p]);
            _exit(0);
        }
    }
    failed = failed_children(children, processes);
    elapsed = now_s() - start;
    if (failed) { fprintf(stderr, "service_bench: %d client processes failed\n", failed); exit(1); }
    for (p = 0; p < processes; p++)
        for (k = 0; k < all[p].count; k++, count++)
            for (int ph = 0; ph < phases; ph++) merged[ph][count] = all[p].seconds[ph][k];
    for (k = 0; k < phases; k++) qsort(merged[k], (size_t)count, sizeof(double), compare_doubles);
    {
        const char *mode = warm ? "engines kept open (50 a process)" : "engine opened per request";
        static const struct { int ours, anchor; const char *name, *anchor_name; } rows[] = {
            {phase_portfolio, phase_anchor_portfolio, "`cf_engine_portfolio`", "the owner's portfolio rows"},
            {phase_pnl, phase_anchor_ledger, "`cf_engine_pnl`", "the owner's ledger rows"},
        };
        for (k = 0; k < 2; k++) {
            double o50 = percentile(merged[rows[k].ours], count, 0.5), o99 = percentile(merged[rows[k].ours], count, 0.99);
            double a50 = percentile(merged[rows[k].anchor], count, 0.5), a99 = percentile(merged[rows[k].anchor], count, 0.99);
            printf("| service: %s p50, %d owners, %d processes through pgbouncer, %s | %.3f ms | libpq on the same URL: "
                   "%s (unnamed statement) | %.3f ms | %.3g× | p99 %.3f ms vs %.3f ms (%.3g×); %d calls in %.0f s, "
                   "interleaved with the anchor; wall time under load; target p99 < 20 ms |\n",
                   rows[k].name, owners, processes, mode, o50 * 1e3, rows[k].anchor_name, a50 * 1e3, o50 / a50,
                   o99 * 1e3, a99 * 1e3, o99 / a99, count, elapsed);
        }
        if (!warm) {
            double o50 = percentile(merged[phase_open], count, 0.5), o99 = percentile(merged[phase_open], count, 0.99);
            double a50 = percentile(merged[phase_connect], count, 0.5), a99 = percentile(merged[phase_connect], count, 0.99);
            printf("| service: `cf_engine_open` p50, %d processes through pgbouncer | %.3f ms | libpq: `PQconnectdb` + "
                   "`PQfinish` on the same URL (SCRAM-SHA-256) | %.3f ms | %.3g× | p99 %.3f ms vs %.3f ms |\n",
                   processes, o50 * 1e3, a50 * 1e3, o50 / a50, o99 * 1e3, a99 * 1e3);
        }
        {
            double o50 = percentile(merged[phase_request], count, 0.5), o99 = percentile(merged[phase_request], count, 0.99);
            double a50 = percentile(merged[phase_anchor], count, 0.5), a99 = percentile(merged[phase_anchor], count, 0.99);
            printf("| service: a request (%s) p50, %d processes | %.3f ms | libpq: both anchor "
                   "queries | %.3f ms | %.3g× | p99 %.3f ms vs %.3f ms; %.0f requests/s together (with the anchor's "
                   "queries between them) |\n",
                   warm ? "`portfolio` and `pnl`" : "open, `portfolio`, `pnl`, close", processes, o50 * 1e3, a50 * 1e3, o50 / a50, o99 * 1e3,
                   a99 * 1e3, count / elapsed);
        }
    }
    munmap(all, sizeof(struct samples) * (size_t)processes);
}

/* ---- refresh ------------------------------------------------------------------------------- */

static void refresh(const char *url, const char *base_url, int owners, int processes, const char *currency) {
    int *fetched = mmap(NULL, sizeof(int) * 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    char extra[1024];
    pid_t children[64] = {0};
    double start = now_s();
    int p, failed = 0, total = 0;
    if (fetched == MAP_FAILED || processes > 64) { perror("mmap"); exit(1); }
    snprintf(extra, sizeof extra, "\"vs_currency\":\"%s\",\"refresh_max_age_s\":3600,\"database_timeout\":120,\"api\":{\"base_url\":\"%s\"}",
             currency, base_url);
    for (p = 0; p < processes; p++) {
        children[p] = fork();
        if (children[p] < 0) { perror("fork"); exit(1); }
        if (children[p] == 0) {
            char owner[32];
            int n;
            fetched[p] = 0;
            for (n = p; n < owners; n += processes) {
                char *out = NULL, *error = NULL;
                cf_engine *engine;
                owner_name(owner, sizeof owner, n);
                engine = open_engine(url, owner, extra);
                check(cf_engine_refresh(engine, &out, &error), error, "cf_engine_refresh");
                if (strstr(out, "\"fetched\":true")) fetched[p]++;
                cf_string_free(out);
                cf_engine_close(engine);
            }
            _exit(0);
        }
    }
    failed = failed_children(children, processes);
    if (failed) { fprintf(stderr, "service_bench: %d refreshing processes failed\n", failed); exit(1); }
    for (p = 0; p < processes; p++) total += fetched[p];
    printf("owners=%d fetched=%d seconds=%.2f\n", owners, total, now_s() - start);
    munmap(fetched, sizeof(int) * 64);
}

/* ---- prepare=false ------------------------------------------------------------------------ */

static void cold_request(const char *url, int owners) {
    char owner[32];
    double a, b;
    cf_engine *engine;
    owner_name(owner, sizeof owner, rand() % owners);
    engine = open_engine(url, owner, NULL);
    ask(engine, &a, &b);
    cf_engine_close(engine);
}

static void add_buy(cf_engine *engine) {
    char *out = NULL, *error = NULL;
    check(cf_engine_add_transaction(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":\"0.01\",\"price\":\"40000\"}", &out, &error),
          error, "cf_engine_add_transaction");
    cf_string_free(out);
}

static void load_body(cf_engine *engine, const char *body) {
    char *error = NULL;
    check(cf_engine_load(engine, body, NULL, &error), error, "cf_engine_load");
}

static void prepare(const char *url, int owners, const char *build) {
    char unprepared[4096], path[4096], *body;
    double named, unnamed, named_write, unnamed_write, named_save, unnamed_save;
    cf_engine *a, *b;
    snprintf(unprepared, sizeof unprepared, "%s%sprepare=false", url, strchr(url, '?') ? "&" : "?");
    srand(28);
    INTERLEAVED(named, unnamed, 31, 20, cold_request(url, owners), cold_request(unprepared, owners));
    printf("| service: a cold request (open, `portfolio`, `pnl`, close), direct connection, `prepare=false` | %.3f ms | "
           "the same with named statements (the default) | %.3f ms | %.3g× | one process, no other load; A/B interleaved, "
           "wall time; what a pooler without prepared statements costs where named ones would be allowed |\n",
           unnamed * 1e3, named * 1e3, unnamed / named);
    a = open_engine(url, "svc-prepare-named", NULL);
    b = open_engine(unprepared, "svc-prepare-unnamed", NULL);
    INTERLEAVED(named_write, unnamed_write, 21, 10, add_buy(a), add_buy(b));
    printf("| service: durable `cf_engine_add_transaction`, direct connection, `prepare=false` | %.3f ms | the same with "
           "named statements | %.3f ms | %.3g× | A/B interleaved, wall time (fsync on); its statements are each sent once "
           "in the transaction, so both send them unnamed |\n",
           unnamed_write * 1e3, named_write * 1e3, unnamed_write / named_write);
    snprintf(path, sizeof path, "%s/markets-250.json", build);
    body = read_file(path, NULL);
    INTERLEAVED(named_save, unnamed_save, 11, 1, load_body(a, body), load_body(b, body));
    free(body);
    cf_engine_close(a);
    cf_engine_close(b);
    printf("| service: `cf_engine_load` of 250 coins (decode + the shared snapshot's save), direct connection, "
           "`prepare=false` | %.3f ms | the same with named statements | %.3f ms | %.3g× | A/B interleaved, wall time; "
           "the save sends one INSERT per sparkline chunk in one transaction: named after its first send, or unnamed "
           "every time |\n",
           unnamed_save * 1e3, named_save * 1e3, unnamed_save / named_save);
}

int main(int argc, char **argv) {
    const char *step = argc > 1 ? argv[1] : "";
    if (strcmp(step, "seed") == 0 && argc == 5) seed(argv[2], argv[3], atoi(argv[4]));
    else if (strcmp(step, "load") == 0 && argc == 7)
        load(argv[2], atoi(argv[3]), atoi(argv[4]), strtod(argv[5], NULL), strcmp(argv[6], "warm") == 0);
    else if (strcmp(step, "refresh") == 0 && argc == 7) refresh(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6]);
    else if (strcmp(step, "prepare") == 0 && argc == 5) prepare(argv[2], atoi(argv[3]), argv[4]);
    else {
        fprintf(stderr, "usage: service_bench seed URL BUILD_DIR OWNERS | load URL OWNERS PROCESSES SECONDS cold|warm | "
                        "refresh URL BASE_URL OWNERS PROCESSES VS_CURRENCY | prepare URL OWNERS BUILD_DIR\n");
        return 2;
    }
    return 0;
}
