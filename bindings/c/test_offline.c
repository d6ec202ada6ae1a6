/* test_offline.c — SPEC §10 "Offline truth" (issue 18) and batch writes (issue 11) through the
 * C ABI: the data's own time, a snapshot per vs_currency, honest totals, saved details,
 * cf_engine_coin_statistics, cf_*_set_holdings and a database written by 0.1.0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* ------------------------------------------------------------------ helpers */

/* An engine whose client can only be refused (answers come from the database). */
static cf_engine *offline_engine(const char *database, const char *vs_currency) {
    return open_engine(json_pack("{s:s, s:s, s:{s:s, s:i, s:i}}", "database", database,
                                 "vs_currency", vs_currency, "api", "base_url",
                                 fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                                 "max_retries", 0, "timeout_ms", 2000));
}

static cf_engine *online_engine(const char *database, int detail_ttl_s) {
    return open_engine(json_pack("{s:s, s:i, s:o}", "database", database, "detail_ttl_s",
                                 detail_ttl_s, "api", api_config(0, 5000)));
}

static json_t *json_call(int status, char *out, char *err, const char *file, int line) {
    json_t *value = NULL;
    if (tf_check_status(status, CF_OK, &err, file, line, "call")) {
        tf_check(err == NULL, file, line, "out_error is NULL on success");
        value = tf_parse_json(out, file, line);
    }
    free_out(out);
    free_out(err);
    return value;
}

static json_t *coins_of(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_coins(engine, "{\"limit\":1}", &out, &err);
    return json_call(status, out, err, __FILE__, __LINE__);
}

static json_t *portfolio_of(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_portfolio(engine, "{\"sparkline\":false}", &out, &err);
    return json_call(status, out, err, __FILE__, __LINE__);
}

static json_t *detail_of(cf_engine *engine, const char *id) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_coin_detail(engine, id, &out, &err);
    return json_call(status, out, err, __FILE__, __LINE__);
}

static json_t *statistics_of(cf_engine *engine, const char *id) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_coin_statistics(engine, id, &out, &err);
    return json_call(status, out, err, __FILE__, __LINE__);
}

/* The status of a call that must fail, with its error object checked; returns details. */
static json_t *expect_error(int status, char *out, char *err, int expected, const char *file,
                            int line) {
    json_t *error, *details = NULL;
    tf_check_status(status, expected, &err, file, line, "failing call");
    tf_check(out == NULL, file, line, "out_json stays NULL on failure");
    error = tf_check_error_json(err, expected, file, line);
    if (error)
        details = json_incref(json_object_get(error, "details"));
    json_decref(error);
    free_out(err);
    return details;
}

static char *fixture(const char *name) {
    char *body = read_file(fmt_path("%s/Tests/fixtures/coingecko/%s", tf_repo_root, name), NULL);
    tf_check(body != NULL, __FILE__, __LINE__, "fixture %s is readable", name);
    return body;
}

static int load_fixture(cf_engine *engine, int with_global) {
    char *markets = fixture("markets.json"), *global = with_global ? fixture("global.json") : NULL;
    char *err = SENTINEL;
    int status = markets ? cf_engine_load(engine, markets, global, &err) : CF_INTERNAL;
    CHECK_STATUS(status, CF_OK, err);
    free_out(err);
    free(markets);
    free(global);
    return status;
}

static void set_one(cf_engine *engine, const char *id, double amount) {
    char *err = SENTINEL;
    CHECK_STATUS(cf_engine_set_holding(engine, id, amount, &err), CF_OK, err);
    free_out(err);
}

/* ------------------------------------------------------------------ as_of, fetched_at, stale */

void test_offline_as_of_is_the_data_time_not_the_load_time(void) {
    cf_engine *engine = offline_engine(":memory:", "usd");
    json_t *listing;
    char *err = SENTINEL;
    if (engine == NULL || load_fixture(engine, 0) != CF_OK) {
        cf_engine_close(engine);
        return;
    }
    listing = coins_of(engine);
    CHECK_STR(json_str(listing, "as_of"), "2024-12-19T10:44:55Z");
    CHECK(json_str(listing, "fetched_at") != NULL && strcmp(json_str(listing, "fetched_at"), "2025") > 0);
    CHECK(json_is_true(json_object_get(listing, "stale"))); /* a loaded old body is stale at once */
    json_decref(listing);
    /* /global's updated_at wins when newer. */
    {
        char *markets = fixture("markets.json");
        CHECK_STATUS(cf_engine_load(engine, markets, "{\"data\":{\"updated_at\":1734608695}}", &err),
                     CF_OK, err);
        free_out(err);
        free(markets);
    }
    listing = coins_of(engine);
    CHECK_STR(json_str(listing, "as_of"), "2024-12-19T11:44:55Z");
    json_decref(listing);
    cf_engine_close(engine);
}

void test_offline_live_refresh_is_fresh(void) {
    cf_engine *engine;
    json_t *result;
    REQUIRE_SERVER();
    server_reset();
    server_live();
    engine = online_engine(":memory:", 600);
    if (engine == NULL)
        return;
    {
        char *out = SENTINEL, *err = SENTINEL;
        int status = cf_engine_refresh(engine, &out, &err);
        result = json_call(status, out, err, __FILE__, __LINE__);
    }
    CHECK(json_is_false(json_object_get(result, "stale")));
    CHECK(json_is_string(json_object_get(result, "fetched_at")));
    json_decref(result);
    cf_engine_close(engine);
    server_reset();
}

/* ------------------------------------------------------------------ per-currency snapshots */

void test_offline_snapshots_are_kept_per_currency(void) {
    char path[4096];
    cf_engine *usd, *jpy;
    json_t *listing, *p, *details;
    char *out = SENTINEL, *err = SENTINEL;
    int status;
    snprintf(path, sizeof path, "%s", temp_path("currencies.db"));
    usd = offline_engine(path, "usd");
    if (usd == NULL)
        return;
    load_fixture(usd, 1);
    set_one(usd, "bitcoin", 0.5);
    cf_engine_close(usd);

    jpy = offline_engine(path, "jpy");
    if (jpy == NULL)
        return;
    status = cf_engine_coins(jpy, NULL, &out, &err);
    details = expect_error(status, out, err, CF_NO_DATA, __FILE__, __LINE__);
    CHECK_STR(json_str(details, "vs_currency"), "jpy");
    json_decref(details);
    p = portfolio_of(jpy);
    CHECK(json_is_null(json_object_get(p, "total_value"))); /* unknown, never 0 */
    CHECK_DOUBLE(json_num(p, "unpriced_holdings"), 1, 0);
    CHECK(json_is_null(json_object_get(p, "fetched_at")));
    json_decref(p);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_load(jpy,
                                "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\","
                                "\"current_price\":14800000}]",
                                NULL, &err),
                 CF_OK, err);
    free_out(err);
    cf_engine_close(jpy);

    usd = offline_engine(path, "usd");
    if (usd == NULL)
        return;
    listing = coins_of(usd);
    CHECK_DOUBLE(json_num(json_array_get(json_object_get(listing, "coins"), 0), "current_price"),
                 57000.123, 0);
    CHECK_DOUBLE(json_num(listing, "total"), 12, 0);
    json_decref(listing);
    cf_engine_close(usd);
    jpy = offline_engine(path, "jpy");
    if (jpy == NULL)
        return;
    listing = coins_of(jpy);
    CHECK_DOUBLE(json_num(json_array_get(json_object_get(listing, "coins"), 0), "current_price"),
                 14800000, 0);
    json_decref(listing);
    cf_engine_close(jpy);
}

void test_offline_portfolio_carries_unpriced_holdings(void) {
    cf_engine *engine = offline_engine(":memory:", "usd");
    json_t *p;
    if (engine == NULL || load_fixture(engine, 0) != CF_OK) {
        cf_engine_close(engine);
        return;
    }
    set_one(engine, "bitcoin", 0.5);
    set_one(engine, "not-a-listed-coin", 10);
    p = portfolio_of(engine);
    CHECK_DOUBLE(json_num(p, "total_value"), 28500.0615, 1e-9);
    CHECK_DOUBLE(json_num(p, "unpriced_holdings"), 1, 0);
    json_decref(p);
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ statistics and details */

void test_offline_coin_statistics_from_the_snapshot_alone(void) {
    cf_engine *engine = offline_engine(":memory:", "usd");
    json_t *s, *details;
    char *out = SENTINEL, *err = SENTINEL;
    int status;
    if (engine == NULL)
        return;
    status = cf_engine_coin_statistics(engine, "bitcoin", &out, &err);
    json_decref(expect_error(status, out, err, CF_NO_DATA, __FILE__, __LINE__));
    if (load_fixture(engine, 1) != CF_OK) {
        cf_engine_close(engine);
        return;
    }
    s = statistics_of(engine, "bitcoin");
    CHECK_INT(json_object_size(s), 3);
    CHECK_STR(json_str(json_object_get(s, "coin"), "id"), "bitcoin");
    CHECK_STR(json_str(json_array_get(json_object_get(s, "overview"), 0), "title"), "Current Price");
    CHECK_STR(json_str(json_array_get(json_object_get(s, "overview"), 0), "value"), "$57,000.123");
    CHECK_STR(json_str(json_array_get(json_object_get(s, "additional"), 4), "title"), "Block Time");
    CHECK_STR(json_str(json_array_get(json_object_get(s, "additional"), 4), "value"), "n/a");
    CHECK(json_object_get(s, "detail") == NULL);
    json_decref(s);
    out = SENTINEL, err = SENTINEL;
    status = cf_engine_coin_statistics(engine, "not-a-listed-coin", &out, &err);
    details = expect_error(status, out, err, CF_NOT_FOUND, __FILE__, __LINE__);
    CHECK_STR(json_str(details, "coin_id"), "not-a-listed-coin");
    json_decref(details);
    out = SENTINEL, err = SENTINEL;
    status = cf_engine_coin_statistics(engine, "a/b", &out, &err);
    json_decref(expect_error(status, out, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__));
    out = SENTINEL, err = SENTINEL;
    status = cf_engine_coin_statistics(engine, NULL, &out, &err);
    json_decref(expect_error(status, out, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__));
    out = SENTINEL, err = SENTINEL;
    status = cf_engine_coin_statistics(NULL, "bitcoin", &out, &err);
    json_decref(expect_error(status, out, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__));
    err = SENTINEL;
    CHECK_INT(cf_engine_coin_statistics(engine, "bitcoin", NULL, &err), CF_INVALID_ARGUMENT);
    free_out(err);
    cf_engine_close(engine);
}

void test_offline_saved_detail_and_stale_fallback(void) {
    char path[4096];
    cf_engine *engine;
    json_t *first, *again, *offline;
    char as_of[64] = "";
    REQUIRE_SERVER();
    server_reset();
    snprintf(path, sizeof path, "%s", temp_path("details.db"));
    engine = online_engine(path, 0);
    if (engine == NULL)
        return;
    first = detail_of(engine, "bitcoin");
    CHECK(json_is_false(json_object_get(first, "stale")));
    if (json_str(first, "as_of"))
        snprintf(as_of, sizeof as_of, "%s", json_str(first, "as_of"));
    queue_fault("/api/v3/coins/bitcoin", 500, 1, NULL, "oops");
    again = detail_of(engine, "bitcoin");
    CHECK(json_is_true(json_object_get(again, "stale")));
    CHECK_STR(json_str(again, "as_of"), as_of);
    CHECK_STR(json_str(json_object_get(again, "detail"), "hashing_algorithm"), "SHA-256");
    json_decref(first);
    json_decref(again);
    cf_engine_close(engine);

    /* A later engine, offline, within the TTL: the saved detail, no request. */
    engine = offline_engine(path, "usd");
    if (engine == NULL)
        return;
    offline = detail_of(engine, "bitcoin");
    CHECK(json_is_false(json_object_get(offline, "stale")));
    CHECK_STR(json_str(offline, "as_of"), as_of);
    json_decref(offline);
    cf_engine_close(engine);
    server_reset();
}

/* ------------------------------------------------------------------ batch writes */

void test_store_set_holdings_all_or_nothing(void) {
    cf_store *store = NULL;
    char *err = SENTINEL, *out = SENTINEL;
    json_t *holdings, *details;
    int status;
    CHECK_STATUS(cf_store_open(temp_path("batch.db"), &store, &err), CF_OK, err);
    free_out(err);
    if (store == NULL)
        return;
    err = SENTINEL;
    CHECK_STATUS(cf_store_set_holding(store, "dogecoin", 100, &err), CF_OK, err);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_store_set_holdings(store,
                                       "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":0.5},"
                                       "{\"coin_id\":\"ethereum\",\"amount\":2.25},"
                                       "{\"coin_id\":\"dogecoin\",\"amount\":0}]}",
                                       &err),
                 CF_OK, err);
    CHECK(err == NULL);
    free_out(err);
    err = SENTINEL;
    status = cf_store_set_holdings(store,
                                   "{\"holdings\":[{\"coin_id\":\"tether\",\"amount\":1},"
                                   "{\"coin_id\":\"solana\",\"amount\":2},"
                                   "{\"coin_id\":\"a/b\",\"amount\":1}]}",
                                   &err);
    details = expect_error(status, NULL, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__);
    CHECK_DOUBLE(json_num(details, "index"), 2, 0);
    CHECK_STR(json_str(details, "coin_id"), "a/b");
    json_decref(details);
    err = SENTINEL;
    status = cf_store_set_holdings(store,
                                   "{\"holdings\":[{\"coin_id\":\"tether\",\"amount\":1},"
                                   "{\"coin_id\":\"tether\",\"amount\":2}]}",
                                   &err);
    details = expect_error(status, NULL, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__);
    CHECK_DOUBLE(json_num(details, "index"), 1, 0);
    json_decref(details);
    {
        const char *bad[] = {"", "[", "{}", "{\"holdings\":{}}",
                             "{\"holdings\":[{\"coin_id\":\"tether\"}]}",
                             "{\"holdings\":[{\"coin_id\":\"tether\",\"amount\":\"1\"}]}"};
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            err = SENTINEL;
            status = cf_store_set_holdings(store, bad[i], &err);
            json_decref(expect_error(status, NULL, err, CF_INVALID_ARGUMENT, __FILE__, __LINE__));
        }
    }
    err = SENTINEL;
    CHECK_INT(cf_store_set_holdings(store, NULL, &err), CF_INVALID_ARGUMENT);
    free_out(err);
    err = SENTINEL;
    CHECK_INT(cf_store_set_holdings(NULL, "{\"holdings\":[]}", &err), CF_INVALID_ARGUMENT);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_store_holdings(store, &out, &err), CF_OK, err);
    holdings = PARSE_JSON(out);
    free_out(out);
    free_out(err);
    {
        char *text = json_dumps(holdings, JSON_COMPACT);
        CHECK_STR(text, "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":0.5},"
                        "{\"coin_id\":\"ethereum\",\"amount\":2.25}]}");
        free(text);
    }
    json_decref(holdings);
    cf_store_close(store);
}

void test_engine_set_holdings_in_one_call(void) {
    cf_engine *engine = offline_engine(":memory:", "usd");
    json_t *p;
    char *err = SENTINEL;
    if (engine == NULL || load_fixture(engine, 0) != CF_OK) {
        cf_engine_close(engine);
        return;
    }
    CHECK_STATUS(cf_engine_set_holdings(engine,
                                        "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":0.5},"
                                        "{\"coin_id\":\"not-a-listed-coin\",\"amount\":10}]}",
                                        &err),
                 CF_OK, err);
    free_out(err);
    p = portfolio_of(engine);
    CHECK_INT(json_array_size(json_object_get(p, "coins")), 2);
    CHECK_DOUBLE(json_num(p, "total_value"), 28500.0615, 1e-9);
    CHECK_DOUBLE(json_num(p, "unpriced_holdings"), 1, 0);
    json_decref(p);
    err = SENTINEL;
    CHECK_INT(cf_engine_set_holdings(NULL, "{\"holdings\":[]}", &err), CF_INVALID_ARGUMENT);
    free_out(err);
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ a database of 0.1.0 (SQLite only: a file) */

void test_offline_schema_v1_database_opens_with_holdings_and_snapshot(void) {
    size_t length = 0;
    char *bytes = read_file(fmt_path("%s/Tests/fixtures/store/schema-v1.sqlite", tf_repo_root), &length);
    char path[4096];
    FILE *copy;
    cf_engine *engine;
    json_t *p, *listing;
    if (!CHECK(bytes != NULL))
        return;
    snprintf(path, sizeof path, "%s", temp_path("schema-v1.sqlite"));
    copy = fopen(path, "wb");
    if (!CHECK(copy != NULL)) {
        free(bytes);
        return;
    }
    CHECK(fwrite(bytes, 1, length, copy) == length);
    fclose(copy);
    free(bytes);
    engine = offline_engine(path, "usd");
    if (engine == NULL)
        return;
    p = portfolio_of(engine);
    CHECK_INT(json_array_size(json_object_get(p, "coins")), 4);
    CHECK_DOUBLE(json_num(p, "unpriced_holdings"), 2, 0);
    CHECK_DOUBLE(json_num(p, "total_value"), 0.5 * 57000.123 + 2.25 * 3928.55, 1e-9);
    json_decref(p);
    listing = coins_of(engine);
    CHECK_DOUBLE(json_num(listing, "total"), 12, 0);
    CHECK_STR(json_str(listing, "as_of"), "2024-12-19T10:44:55Z");
    json_decref(listing);
    cf_engine_close(engine);
}
