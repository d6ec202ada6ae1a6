/* test_postgres.c — SPEC §13 through the ABI: owners (both backends), cf_store_open_v2, and on
 * the PostgreSQL cluster the password kept out of every error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

static const char *const password = "pw-Zebra-7781-quokka";

/* cf_store_open_v2 with {"database": database, "owner": owner}; NULL on failure (counted). */
static cf_store *open_owned(const char *database, const char *owner) {
    json_t *config = json_pack("{s:s, s:s}", "database", database, "owner", owner);
    char *text = json_dumps(config, JSON_COMPACT), *err = SENTINEL;
    cf_store *store = (cf_store *)SENTINEL;
    int status = cf_store_open_v2(text, &store, &err);
    free(text);
    json_decref(config);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    CHECK(err == NULL);
    return store;
}

static cf_engine *owned_engine(const char *database, const char *owner) {
    return open_engine(json_pack("{s:s, s:s, s:{s:s, s:i}}", "database", database, "owner", owner, "api",
                                 "base_url", fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                                 "max_retries", 0));
}

/* The holdings JSON text of a store (caller frees), or NULL. */
static char *holdings_text(cf_store *store) {
    char *out = SENTINEL, *err = SENTINEL;
    if (!CHECK_STATUS(cf_store_holdings(store, &out, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    return out;
}

void test_store_two_owners_never_see_each_others_rows(void) {
    const char *shared = tf_shared_database("owners.db");
    char database[4096], alice_owner[4200], bob_owner[4200], *text;
    cf_store *alice, *bob;
    snprintf(database, sizeof database, "%s", shared);
    snprintf(alice_owner, sizeof alice_owner, "alice %s", tf_temp_dir);
    snprintf(bob_owner, sizeof bob_owner, "bob'; DELETE FROM holding; -- %s", tf_temp_dir);
    alice = open_owned(database, alice_owner);
    bob = open_owned(database, bob_owner);
    if (alice == NULL || bob == NULL) {
        cf_store_close(alice);
        cf_store_close(bob);
        return;
    }
    CHECK_INT(cf_store_set_holding(alice, "bitcoin", 0.5, NULL), CF_OK);
    CHECK_INT(cf_store_set_holding(bob, "bitcoin", 7, NULL), CF_OK);
    CHECK_INT(cf_store_set_holding(bob, "ethereum", 2, NULL), CF_OK);
    CHECK_INT(cf_store_set_holding(bob, "bitcoin", 0, NULL), CF_OK);
    text = holdings_text(alice);
    CHECK_STR(text, "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":0.5}]}");
    free_out(text);
    text = holdings_text(bob);
    CHECK_STR(text, "{\"holdings\":[{\"coin_id\":\"ethereum\",\"amount\":2}]}");
    free_out(text);
    cf_store_close(alice);
    cf_store_close(bob);
}

void test_engine_two_owners_never_see_each_others_snapshots(void) {
    const char *shared = tf_shared_database("owners-engine.db");
    char database[4096], alice_owner[4200], bob_owner[4200], *out = SENTINEL, *err = SENTINEL;
    cf_engine *alice, *bob;
    json_t *p;
    snprintf(database, sizeof database, "%s", shared);
    snprintf(alice_owner, sizeof alice_owner, "alice engine %s", tf_temp_dir);
    snprintf(bob_owner, sizeof bob_owner, "bob engine %s", tf_temp_dir);
    alice = owned_engine(database, alice_owner);
    bob = owned_engine(database, bob_owner);
    if (alice == NULL || bob == NULL) {
        cf_engine_close(alice);
        cf_engine_close(bob);
        return;
    }
    CHECK_INT(cf_engine_load(alice, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":100}]",
                             NULL, NULL),
              CF_OK);
    CHECK_INT(cf_engine_set_holding(alice, "bitcoin", 2, NULL), CF_OK);
    CHECK_STATUS(cf_engine_coins(bob, NULL, &out, &err), CF_NO_DATA, err);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_portfolio(bob, NULL, &out, &err), CF_OK, err);
    p = PARSE_JSON(out);
    CHECK_INT(json_array_size(json_object_get(p, "coins")), 0);
    json_decref(p);
    free_out(out);
    cf_engine_close(bob);
    /* A new engine of bob's restores nothing; a new one of alice's restores hers. */
    bob = owned_engine(database, bob_owner);
    out = SENTINEL;
    err = SENTINEL;
    if (bob != NULL) {
        CHECK_STATUS(cf_engine_coins(bob, NULL, &out, &err), CF_NO_DATA, err);
        free_out(err);
        cf_engine_close(bob);
    }
    cf_engine_close(alice);
    alice = owned_engine(database, alice_owner);
    if (alice != NULL) {
        out = SENTINEL;
        err = SENTINEL;
        CHECK_STATUS(cf_engine_portfolio(alice, NULL, &out, &err), CF_OK, err);
        p = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(p, "total_value"), 200, 0);
        json_decref(p);
        free_out(out);
        cf_engine_close(alice);
    }
}

/* The points of the first coin's sparkline in an engine's coins answer (NULL when it has none); the
 * caller json_decref()s *answer. */
static json_t *first_sparkline(cf_engine *engine, json_t **answer) {
    char *out = SENTINEL, *err = SENTINEL;
    *answer = NULL;
    if (!CHECK_STATUS(cf_engine_coins(engine, "{\"sparkline\":true}", &out, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    *answer = PARSE_JSON(out);
    free_out(out);
    return json_object_get(json_object_get(json_array_get(json_object_get(*answer, "coins"), 0), "sparkline_in_7d"), "price");
}

void test_engine_saved_sparklines_read_back_exactly_per_owner(void) {
    static const double expected[] = {1.5, 0, 0 /* null */, 8.12e-06, 4.2e17, 57000.123, 1.186e-09, 0.30000000000000004, 250};
    const char *shared = tf_shared_database("owners-sparklines.db");
    char database[4096], alice_owner[4200], bob_owner[4200];
    cf_engine *alice, *bob;
    json_t *answer, *points;
    size_t i;
    snprintf(database, sizeof database, "%s", shared);
    snprintf(alice_owner, sizeof alice_owner, "alice sparklines %s", tf_temp_dir);
    snprintf(bob_owner, sizeof bob_owner, "bob sparklines %s", tf_temp_dir);
    alice = owned_engine(database, alice_owner);
    bob = owned_engine(database, bob_owner);
    if (alice == NULL || bob == NULL) {
        cf_engine_close(alice);
        cf_engine_close(bob);
        return;
    }
    CHECK_INT(cf_engine_load(alice,
                             "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":100,"
                             "\"sparkline_in_7d\":{\"price\":[1.5,-0.0,null,8.12e-06,4.2e17,57000.123,1.186e-09,"
                             "0.30000000000000004,250]}}]",
                             NULL, NULL),
              CF_OK);
    CHECK_INT(cf_engine_load(bob, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":7}]", NULL,
                             NULL),
              CF_OK);
    cf_engine_close(alice);
    cf_engine_close(bob);
    /* New engines read the saved snapshots: alice's points exactly (answers write -0.0 as 0), bob's
     * coin without any. */
    alice = owned_engine(database, alice_owner);
    if (alice != NULL) {
        points = first_sparkline(alice, &answer);
        CHECK_INT(json_array_size(points), 9);
        for (i = 0; i < json_array_size(points) && i < 9; i++) {
            json_t *point = json_array_get(points, i);
            if (i == 2) {
                CHECK(json_is_null(point));
            } else {
                CHECK_DOUBLE(json_number_value(point), expected[i], 0);
            }
        }
        json_decref(answer);
        cf_engine_close(alice);
    }
    bob = owned_engine(database, bob_owner);
    if (bob != NULL) {
        points = first_sparkline(bob, &answer);
        CHECK(points == NULL);
        json_decref(answer);
        cf_engine_close(bob);
    }
}

void test_store_open_v2_rejects_bad_config(void) {
    static const char *const configs[] = {"", "[]", "{\"owner\":\"a\"}", "{\"database\":\"\"}",
                                          "{\"database\":\":memory:\",\"owner\":\"\"}",
                                          "{\"database\":\":memory:\",\"owner\":7}",
                                          "{\"database\":\":memory:\",\"owner\":\"a\\u0001b\"}"};
    size_t i;
    for (i = 0; i < sizeof configs / sizeof configs[0]; i++) {
        cf_store *store = (cf_store *)SENTINEL;
        char *err = SENTINEL;
        tf_check(cf_store_open_v2(configs[i], &store, &err) == CF_INVALID_ARGUMENT, __FILE__, __LINE__,
                 "cf_store_open_v2(%s) is CF_INVALID_ARGUMENT", configs[i]);
        CHECK(store == NULL);
        json_decref(CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT));
        free_out(err);
    }
    {
        cf_store *store = (cf_store *)SENTINEL;
        char *err = SENTINEL;
        CHECK_INT(cf_store_open_v2(NULL, &store, &err), CF_INVALID_ARGUMENT);
        free_out(err);
        CHECK_INT(cf_store_open_v2("{\"database\":\":memory:\"}", NULL, NULL), CF_INVALID_ARGUMENT);
    }
}

void test_store_postgres_password_never_in_errors(void) {
    const char *url = tf_postgres_url();
    char wrong[4096], *err = SENTINEL, *at;
    cf_store *store = (cf_store *)SENTINEL;
    cf_engine *engine = (cf_engine *)SENTINEL;
    json_t *config;
    char *text;
    if (url == NULL)
        return;
    CHECK(strstr(url, password) != NULL);
    /* The same URL with another distinctive password. */
    at = strstr(url, password);
    if (at == NULL)
        return;
    snprintf(wrong, sizeof wrong, "%.*sZebra-wrong-password%s", (int)(at - url), url, at + strlen(password));
    config = json_pack("{s:s}", "database", wrong);
    text = json_dumps(config, JSON_COMPACT);
    CHECK_STATUS(cf_store_open_v2(text, &store, &err), CF_STORE, err);
    json_decref(CHECK_ERROR_JSON(err, CF_STORE));
    CHECK(err != NULL && strstr(err, "Zebra") == NULL);
    CHECK(err != NULL && strstr(err, "password authentication failed") != NULL);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_open(text, &engine, &err), CF_STORE, err);
    CHECK(err != NULL && strstr(err, "Zebra") == NULL);
    free_out(err);
    free(text);
    json_decref(config);
    err = SENTINEL;
    CHECK_STATUS(cf_store_open(wrong, &store, &err), CF_STORE, err);
    CHECK(err != NULL && strstr(err, "Zebra") == NULL);
    free_out(err);
}

/* break2: a password with an unencoded '/', '@' or '?' is refused before libpq reads part of it as
 * a host, port or parameter and quotes it; the URL is shown without anything before its last '@'. */
void test_store_postgres_ambiguous_url_refused(void) {
    static const char *const passwords[] = {"Zeb/raQQ", "Zeb@raQQ", "Ze/b?raQQ"};
    const char *url = tf_postgres_url(), *host;
    size_t i;
    if (url == NULL || (host = strchr(url, '@')) == NULL)
        return;
    for (i = 0; i < sizeof passwords / sizeof passwords[0]; i++) {
        char location[4096], expected[4400], *err = SENTINEL;
        cf_store *store = (cf_store *)SENTINEL;
        json_t *error, *details;
        snprintf(location, sizeof location, "postgresql://coinfolio:%s%s", passwords[i], host);
        snprintf(expected, sizeof expected,
                 "cannot open database \"postgresql://\xe2\x80\xa6%s\": its user or password holds an unencoded"
                 " '@', '/' or '?' (percent-encode them: %%40, %%2F, %%3F)",
                 host);
        CHECK_STATUS(cf_store_open(location, &store, &err), CF_STORE, err);
        CHECK(store == NULL);
        error = CHECK_ERROR_JSON(err, CF_STORE);
        CHECK_STR(json_str(error, "message"), expected);
        details = json_object_get(error, "details");
        CHECK_STR(json_str(details, "reason"), "ambiguous_url");
        CHECK(err != NULL && strstr(err, "raQQ") == NULL && strstr(err, "Zeb") == NULL);
        json_decref(error);
        free_out(err);
    }
}
