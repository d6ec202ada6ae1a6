/* test_shared_market.c — many owners on one service (SPEC §20) through the ABI, on SQLite and on
 * PostgreSQL (directly and through pgbouncer): one snapshot for every owner, refresh_max_age_s and
 * "fetched", engines refreshing at once on threads sending one set of requests (counted on the
 * loopback server), the version check, owners who never see each other's ledgers, read_database
 * with the cluster's streaming standby, and the URL option prepare=false. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "test_support.h"
#include "tests.h"

/* tf_shared_database's answer kept for the test (it lives in a rotating buffer that fmt_path reuses). */
static const char *kept_database(const char *stem) {
    static char kept[4096];
    snprintf(kept, sizeof kept, "%s", tf_shared_database(stem));
    return kept;
}

/* An engine of `owner` on `database` over the loopback server; max_age is refresh_max_age_s. */
static cf_engine *shared_engine(const char *database, const char *owner, double max_age) {
    return open_engine(json_pack("{s:s, s:s, s:f, s:o}", "database", database, "owner", owner, "refresh_max_age_s", max_age,
                                 "api", api_config(0, 5000)));
}

/* The parsed answer of a refresh, or NULL (a failed check). */
static json_t *refreshed(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer = NULL;
    if (CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_OK, err))
        answer = PARSE_JSON(out);
    free_out(out);
    free_out(err);
    return answer;
}

/* The "total" of a coins answer, -1 on failure. */
static long long coins_total(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    long long total = -1;
    if (CHECK_STATUS(cf_engine_coins(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *answer = PARSE_JSON(out);
        total = (long long)json_num(answer, "total");
        json_decref(answer);
    }
    free_out(out);
    free_out(err);
    return total;
}

/* Past the version check's second (SPEC §20). */
static void wait_past_a_second(void) {
    struct timespec pause = {1, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

/* Requests the loopback server logged so far. */
static int logged_requests(void) {
    json_t *log = server_log();
    int count = (int)json_array_size(json_object_get(log, "requests"));
    json_decref(log);
    return count;
}

void test_engine_shared_second_refresh_within_max_age_sends_nothing(void) {
    const char *database = kept_database("shared-max-age.db");
    cf_engine *alice, *bob;
    json_t *first, *second;
    REQUIRE_SERVER();
    server_reset();
    server_live();
    alice = shared_engine(database, fmt_path("alice %s", tf_temp_dir), 60);
    bob = shared_engine(database, fmt_path("bob %s", tf_temp_dir), 60);
    if (alice == NULL || bob == NULL) {
        cf_engine_close(alice);
        cf_engine_close(bob);
        return;
    }
    first = refreshed(alice);
    CHECK(json_is_true(json_object_get(first, "fetched")));
    CHECK_INT(logged_requests(), 2); /* one markets page and /global */
    second = refreshed(bob);
    CHECK(json_is_false(json_object_get(second, "fetched")));
    CHECK_STR(json_str(second, "fetched_at"), json_str(first, "fetched_at"));
    CHECK_INT(logged_requests(), 2);
    CHECK_INT(coins_total(bob), 12);
    json_decref(first);
    json_decref(second);
    cf_engine_close(alice);
    cf_engine_close(bob);
}

struct refresher {
    cf_engine *engine;
    int status;
    int fetched;
};

static void *refresh_on_thread(void *argument) {
    struct refresher *refresher = argument;
    char *out = NULL, *err = NULL;
    refresher->status = cf_engine_refresh(refresher->engine, &out, &err);
    if (out != NULL) {
        json_t *answer = json_loads(out, 0, NULL);
        refresher->fetched = json_is_true(json_object_get(answer, "fetched"));
        json_decref(answer);
    }
    cf_string_free(out);
    cf_string_free(err);
    return NULL;
}

/* Eight engines (eight owners) refreshing at once on threads, without any max age: the first holds
 * the market lock while its /global answer is held back, the others wait and answer with its
 * snapshot. */
void test_engine_shared_refreshes_at_once_send_one_set_of_requests(void) {
    enum { ENGINES = 8 };
    const char *database = kept_database("shared-at-once.db");
    struct refresher refreshers[ENGINES];
    pthread_t threads[ENGINES];
    json_t *log;
    int i, fetched = 0;
    REQUIRE_SERVER();
    server_reset();
    server_live();
    server_fault(json_pack("{s:s, s:i, s:i}", "path", "/api/v3/global", "times", -1, "delay_ms", 1500));
    for (i = 0; i < ENGINES; i++) {
        refreshers[i].engine = shared_engine(database, fmt_path("owner %d %s", i, tf_temp_dir), 0);
        refreshers[i].status = -1;
        refreshers[i].fetched = 0;
    }
    for (i = 0; i < ENGINES; i++)
        if (refreshers[i].engine != NULL)
            pthread_create(&threads[i], NULL, refresh_on_thread, &refreshers[i]);
    for (i = 0; i < ENGINES; i++) {
        if (refreshers[i].engine == NULL)
            continue;
        pthread_join(threads[i], NULL);
        CHECK_INT(refreshers[i].status, CF_OK);
        fetched += refreshers[i].fetched;
    }
    CHECK_INT(fetched, 1);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/markets"), 1);
    CHECK_INT(server_count(log, "/api/v3/global"), 1);
    json_decref(log);
    for (i = 0; i < ENGINES; i++) {
        if (refreshers[i].engine != NULL)
            CHECK_INT(coins_total(refreshers[i].engine), 12);
        cf_engine_close(refreshers[i].engine);
    }
    server_reset();
}

/* The version check: an engine sees a snapshot another engine saved on its first query at least
 * 1 s after the save. */
void test_engine_shared_snapshot_seen_by_another_engine_on_its_next_query(void) {
    const char *database = kept_database("shared-version.db");
    cf_engine *reader = shared_engine(database, fmt_path("reader %s", tf_temp_dir), 0);
    cf_engine *writer = shared_engine(database, fmt_path("writer %s", tf_temp_dir), 0);
    char *out = SENTINEL, *err = SENTINEL;
    if (reader == NULL || writer == NULL) {
        cf_engine_close(reader);
        cf_engine_close(writer);
        return;
    }
    CHECK_STATUS(cf_engine_coins(reader, NULL, &out, &err), CF_NO_DATA, err);
    free_out(err);
    CHECK_INT(cf_engine_load(writer, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":3}]", NULL,
                             NULL),
              CF_OK);
    wait_past_a_second();
    CHECK_INT(coins_total(reader), 1);
    CHECK_INT(cf_engine_load(writer,
                             "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":3},"
                             "{\"id\":\"ethereum\",\"symbol\":\"eth\",\"name\":\"Ethereum\",\"current_price\":2}]",
                             NULL, NULL),
              CF_OK);
    wait_past_a_second();
    CHECK_INT(coins_total(reader), 2);
    cf_engine_close(reader);
    cf_engine_close(writer);
}

/* Every ledger call stays within its owner's rows while the market is shared. */
void test_engine_shared_owners_never_see_each_others_ledgers(void) {
    const char *database = kept_database("shared-ledgers.db");
    cf_engine *alice = shared_engine(database, fmt_path("alice ledger %s", tf_temp_dir), 0), *bob;
    char *out = SENTINEL, *err = SENTINEL, id[32];
    json_t *answer;
    if (alice == NULL)
        return;
    CHECK_INT(cf_engine_load(alice, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":100}]",
                             NULL, NULL),
              CF_OK);
    bob = shared_engine(database, fmt_path("bob ledger %s", tf_temp_dir), 0);
    if (bob == NULL) {
        cf_engine_close(alice);
        return;
    }
    CHECK_STATUS(cf_engine_add_transaction(
                     alice, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":\"2\",\"price\":\"100\",\"timestamp\":\"2024-01-01\"}",
                     &out, &err),
                 CF_OK, err);
    answer = PARSE_JSON(out);
    snprintf(id, sizeof id, "%s", json_str(answer, "id") ? json_str(answer, "id") : "?");
    json_decref(answer);
    free_out(out);
    CHECK_INT(coins_total(bob), 1); /* the market is shared */
    out = SENTINEL;
    err = SENTINEL;
    CHECK_STATUS(cf_engine_transactions(bob, NULL, &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    CHECK_DOUBLE(json_num(answer, "total"), 0, 0);
    json_decref(answer);
    free_out(out);
    out = SENTINEL;
    CHECK_STATUS(cf_engine_portfolio(bob, NULL, &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    CHECK_INT(json_array_size(json_object_get(answer, "coins")), 0);
    json_decref(answer);
    free_out(out);
    out = SENTINEL;
    CHECK_STATUS(cf_engine_pnl(bob, NULL, &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    CHECK_INT(json_array_size(json_object_get(answer, "coins")), 0);
    json_decref(answer);
    free_out(out);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_delete_transaction(bob, id, &err), CF_NOT_FOUND, err);
    free_out(err);
    out = SENTINEL;
    err = SENTINEL;
    CHECK_STATUS(cf_engine_portfolio(alice, NULL, &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    CHECK_DOUBLE(json_num(answer, "total_value"), 200, 0);
    json_decref(answer);
    free_out(out);
    cf_engine_close(alice);
    cf_engine_close(bob);
}

void test_engine_shared_read_database_beside_sqlite_is_refused(void) {
    const char *path = temp_path("read-database.db");
    char *config = NULL, *err = SENTINEL;
    cf_engine *engine = (cf_engine *)SENTINEL;
    json_t *error, *object = json_pack("{s:s, s:s}", "database", path, "read_database", "postgresql://coinfolio@127.0.0.1:9/x");
    config = json_dumps(object, JSON_COMPACT);
    json_decref(object);
    CHECK_STATUS(cf_engine_open(config, &engine, &err), CF_INVALID_ARGUMENT, err);
    CHECK(engine == NULL);
    error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    CHECK_STR(json_str(json_object_get(error, "details"), "field"), "read_database");
    CHECK(access(path, F_OK) != 0); /* nothing created */
    json_decref(error);
    free_out(err);
    free(config);
}

/* Runs SQL on the standby through a libpq connection of the test's own. */
static int on_standby(const char *sql) {
    PGconn *standby = PQconnectdb(getenv("COINFOLIO_TEST_STANDBY_URL"));
    PGresult *result;
    int ok = CHECK(PQstatus(standby) == CONNECTION_OK);
    if (ok) {
        result = PQexec(standby, sql);
        ok = CHECK(PQresultStatus(result) == PGRES_TUPLES_OK);
        PQclear(result);
    }
    PQfinish(standby);
    return ok;
}

/* With the standby's replay paused a handle that read_database points at it sees its own write at
 * once (read on the primary until the standby replays it); with the standby stopped, reads fail
 * over to the primary. */
void test_engine_shared_read_database_own_writes_and_failover(void) {
    const char *database, *standby = getenv("COINFOLIO_TEST_STANDBY_URL"), *folder = getenv("COINFOLIO_TEST_POSTGRES_DIR");
    cf_engine *engine;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer;
    if (!tf_postgres_pass()) {
        TF_SKIP("the PostgreSQL pass");
        return;
    }
    if (!CHECK(standby != NULL && folder != NULL))
        return;
    database = kept_database("read-database.db");
    engine = open_engine(json_pack("{s:s, s:s, s:s, s:f}", "database", database, "owner", fmt_path("reader %s", tf_temp_dir),
                                   "read_database", standby, "database_timeout", 5.0));
    if (engine == NULL)
        return;
    if (on_standby("SELECT pg_wal_replay_pause()")) {
        CHECK_INT(cf_engine_set_holding(engine, "bitcoin", 1, NULL), CF_OK);
        CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err);
        answer = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(answer, "coins")), 1);
        json_decref(answer);
        free_out(out);
        on_standby("SELECT pg_wal_replay_resume()");
    }
    CHECK_INT(system(fmt_path("'%s/Tests/postgres/standby.sh' stop '%s'", tf_repo_root, folder)), 0);
    CHECK_INT(cf_engine_set_holding(engine, "ethereum", 2, NULL), CF_OK);
    out = SENTINEL;
    err = SENTINEL;
    CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    CHECK_INT(json_array_size(json_object_get(answer, "coins")), 2);
    json_decref(answer);
    free_out(out);
    CHECK_INT(system(fmt_path("'%s/Tests/postgres/standby.sh' restart '%s'", tf_repo_root, folder)), 0);
    cf_engine_close(engine);
}

/* The URL option prepare=false is taken out before libpq sees it, and every call works. */
void test_engine_shared_prepare_false_is_accepted(void) {
    const char *url;
    cf_engine *engine;
    if (!tf_postgres_pass()) {
        TF_SKIP("the PostgreSQL pass");
        return;
    }
    url = kept_database("prepare.db");
    engine = open_engine(json_pack("{s:s, s:s}", "database", fmt_path("%s?prepare=false", url), "owner",
                                   fmt_path("unprepared %s", tf_temp_dir)));
    if (engine == NULL)
        return;
    CHECK_INT(cf_engine_set_holding(engine, "bitcoin", 1, NULL), CF_OK);
    CHECK_INT(cf_engine_set_holding(engine, "bitcoin", 2, NULL), CF_OK);
    CHECK_INT(cf_engine_load(engine, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":5}]", NULL,
                             NULL),
              CF_OK);
    cf_engine_close(engine);
    {
        json_t *object = json_pack("{s:s}", "database", fmt_path("%s?prepare=sometimes", url));
        char *config = json_dumps(object, JSON_COMPACT);
        char *err = SENTINEL;
        json_decref(object);
        engine = (cf_engine *)SENTINEL;
        CHECK_STATUS(cf_engine_open(config, &engine, &err), CF_INVALID_ARGUMENT, err);
        CHECK(engine == NULL);
        free_out(err);
        free(config);
    }
}
