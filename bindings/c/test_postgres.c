/* test_postgres.c — SPEC §13 through the ABI: owners (both backends), cf_store_open_v2, and on
 * the PostgreSQL cluster the password kept out of every error and database_timeout (a lock held
 * by another libpq connection). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

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

/* Market data is one per database (SPEC §20): a snapshot one owner loads answers every owner, while
 * each owner's portfolio stays its own. */
void test_engine_two_owners_share_the_snapshot_never_the_portfolio(void) {
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
    CHECK_STATUS(cf_engine_coins(bob, NULL, &out, &err), CF_NO_DATA, err);
    free_out(err);
    err = SENTINEL;
    CHECK_INT(cf_engine_load(alice, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":100}]",
                             NULL, NULL),
              CF_OK);
    CHECK_INT(cf_engine_set_holding(alice, "bitcoin", 2, NULL), CF_OK);
    CHECK_STATUS(cf_engine_portfolio(bob, NULL, &out, &err), CF_OK, err);
    p = PARSE_JSON(out);
    CHECK_INT(json_array_size(json_object_get(p, "coins")), 0);
    json_decref(p);
    free_out(out);
    cf_engine_close(bob);
    /* A new engine of bob's answers from the shared snapshot at once; a new one of alice's has her holding. */
    bob = owned_engine(database, bob_owner);
    out = SENTINEL;
    err = SENTINEL;
    if (bob != NULL) {
        CHECK_STATUS(cf_engine_coins(bob, NULL, &out, &err), CF_OK, err);
        p = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(p, "total"), 1, 0);
        json_decref(p);
        free_out(out);
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

/* The saved sparklines read back exactly, by every owner: the shared snapshot's (SPEC §20). */
void test_engine_saved_sparklines_read_back_exactly_by_every_owner(void) {
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
    cf_engine_close(alice);
    cf_engine_close(bob);
    /* A new engine of bob's reads alice's points exactly (answers write -0.0 as 0). */
    bob = owned_engine(database, bob_owner);
    if (bob != NULL) {
        points = first_sparkline(bob, &answer);
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
        CHECK_INT(cf_engine_load(bob, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":7}]",
                                 NULL, NULL),
                  CF_OK);
        cf_engine_close(bob);
    }
    /* bob's load replaced it for alice too: a coin without any. */
    alice = owned_engine(database, alice_owner);
    if (alice != NULL) {
        points = first_sparkline(alice, &answer);
        CHECK(points == NULL);
        json_decref(answer);
        cf_engine_close(alice);
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
    /* The server refuses it, or pgbouncer, which checks it first (the pass through it). */
    CHECK(err != NULL && (strstr(err, "password authentication failed") != NULL ||
                          (getenv("COINFOLIO_TEST_THROUGH_PGBOUNCER") != NULL && strstr(err, "SASL authentication failed") != NULL)));
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

/* Fails when `text` holds `password`, one of its runs of 4 or more letters or digits (ASCII), or
 * the URL's user part ("//coinfolio"). */
static void check_nothing_of(const char *password, const char *text, const char *file, int line) {
    char piece[256];
    size_t start = 0, length = strlen(password);
    tf_check(text != NULL && strstr(text, password) == NULL, file, line, "the password %s is not in %s", password,
             text ? text : "(null)");
    tf_check(text != NULL && strstr(text, "//coinfolio") == NULL, file, line, "no user part in %s", text ? text : "(null)");
    while (text != NULL && start < length) {
        size_t end = start;
        while (end < length && ((password[end] >= 'a' && password[end] <= 'z') || (password[end] >= 'A' && password[end] <= 'Z') ||
                                (password[end] >= '0' && password[end] <= '9')))
            end++;
        if (end - start >= 4 && end - start < sizeof piece) {
            memcpy(piece, password + start, end - start);
            piece[end - start] = '\0';
            tf_check(strstr(text, piece) == NULL, file, line, "%s (of the password) is not in %s", piece, text);
        }
        start = end + 1;
    }
}

/* break-it finding 1: a password holding '@ / ? % # :' or non-ASCII letters never appears in an
 * error (nor the user part); the URL is shown as postgresql://…@host. */
void test_store_postgres_password_with_delimiters_never_in_errors(void) {
    static const char *const passwords[] = {
        "S3cret@Pa55?w0rd", "?start/slash@end", "Zebra#Quokka", "Zebra%Quokka", "Zebra:Quokka", "Zebra?Quokka",
        "@ZebraQuokka", "ZebraQuokka/", "%ZebraQuokka", "Z\xc3\xa9" "bra\xe2\x82\xac" "Qu\xc3\xb6kka", "Z@e/b?r%a#Q:u\xc3\xb6kka"};
    const char *url = tf_postgres_url(), *host;
    size_t i;
    if (url == NULL || (host = strrchr(url, '@')) == NULL)
        return;
    for (i = 0; i < sizeof passwords / sizeof passwords[0]; i++) {
        char location[4096], shown[4200], *err = SENTINEL;
        cf_store *store = (cf_store *)SENTINEL;
        cf_engine *engine = (cf_engine *)SENTINEL;
        json_t *config, *error;
        char *text;
        int status;
        snprintf(location, sizeof location, "postgresql://coinfolio:%s%s", passwords[i], host);
        snprintf(shown, sizeof shown, "postgresql://\xe2\x80\xa6%s", host);
        CHECK_STATUS(cf_store_open(location, &store, &err), CF_STORE, err);
        CHECK(store == NULL);
        error = CHECK_ERROR_JSON(err, CF_STORE);
        check_nothing_of(passwords[i], err, __FILE__, __LINE__);
        CHECK(err != NULL && strstr(err, shown) != NULL);
        json_decref(error);
        free_out(err);
        config = json_pack("{s:s}", "database", location);
        text = json_dumps(config, JSON_COMPACT);
        err = SENTINEL;
        status = cf_engine_open(text, &engine, &err);
        CHECK_STATUS(status, CF_STORE, err);
        check_nothing_of(passwords[i], err, __FILE__, __LINE__);
        free_out(err);
        free(text);
        json_decref(config);
    }
}

/* break-it finding 1: a database string holding "://" that is no supported URL is
 * CF_INVALID_ARGUMENT (details.reason "unsupported_url"), never a SQLite path: no file is made. */
void test_store_unsupported_url_is_refused_not_a_path(void) {
    static const char *const schemes[] = {"postgresql+psycopg2://", "jdbc:postgresql://", " postgresql://", "mysql://"};
    size_t i;
    for (i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
        char location[512], prefix[256], *err = SENTINEL, *config;
        cf_store *store = (cf_store *)SENTINEL;
        cf_engine *engine = (cf_engine *)SENTINEL;
        json_t *error, *details, *json;
        snprintf(location, sizeof location, "%scoinfolio:Z@e/b?r%%a#Q:Quokka@127.0.0.1:9/coinfolio", schemes[i]);
        snprintf(prefix, sizeof prefix, "database \"%s\xe2\x80\xa6@127.0.0.1:9/coinfolio\" is not a URL", schemes[i]);
        CHECK_STATUS(cf_store_open(location, &store, &err), CF_INVALID_ARGUMENT, err);
        CHECK(store == NULL);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        details = json_object_get(error, "details");
        CHECK_STR(json_str(details, "reason"), "unsupported_url");
        CHECK_STR(json_str(details, "field"), "database");
        CHECK(strncmp(json_str(error, "message"), prefix, strlen(prefix)) == 0);
        check_nothing_of("Quokka", err, __FILE__, __LINE__);
        json_decref(error);
        free_out(err);
        json = json_pack("{s:s}", "database", location);
        config = json_dumps(json, JSON_COMPACT);
        err = SENTINEL;
        CHECK_STATUS(cf_engine_open(config, &engine, &err), CF_INVALID_ARGUMENT, err);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "reason"), "unsupported_url");
        json_decref(error);
        free_out(err);
        free(config);
        json_decref(json);
    }
    /* Nothing named after the strings exists where a SQLite path would have gone. */
    CHECK(access("postgresql+psycopg2:", F_OK) != 0 && access("jdbc:postgresql:", F_OK) != 0 && access("mysql:", F_OK) != 0);
}

/* database_timeout: each bad value is CF_INVALID_ARGUMENT with details.field "database_timeout",
 * from cf_store_open_v2 and cf_engine_open alike. */
void test_store_open_v2_rejects_bad_database_timeouts(void) {
    static const char *const values[] = {"0", "-1", "-0.5", "\"30\"", "true", "[]"};
    char config[256];
    size_t i;
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        cf_store *store = (cf_store *)SENTINEL;
        cf_engine *engine = (cf_engine *)SENTINEL;
        char *err = SENTINEL;
        json_t *error;
        snprintf(config, sizeof config, "{\"database\":\":memory:\",\"database_timeout\":%s}", values[i]);
        tf_check(cf_store_open_v2(config, &store, &err) == CF_INVALID_ARGUMENT, __FILE__, __LINE__,
                 "cf_store_open_v2(%s) is CF_INVALID_ARGUMENT", config);
        CHECK(store == NULL);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "field"), "database_timeout");
        json_decref(error);
        free_out(err);
        err = SENTINEL;
        tf_check(cf_engine_open(config, &engine, &err) == CF_INVALID_ARGUMENT, __FILE__, __LINE__,
                 "cf_engine_open(%s) is CF_INVALID_ARGUMENT", config);
        CHECK(engine == NULL);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "field"), "database_timeout");
        json_decref(error);
        free_out(err);
    }
    {
        cf_store *store = (cf_store *)SENTINEL;
        CHECK_INT(cf_store_open_v2("{\"database\":\":memory:\",\"database_timeout\":0.5}", &store, NULL), CF_OK);
        cf_store_close(store);
    }
}

/* Another writer of owner in the middle of its transaction: a libpq connection of the test's own
 * holding the owner's ledger lock (the lock every ledger write takes first); NULL on failure
 * (counted). Release it with PQfinish (the server rolls its transaction back). */
static PGconn *hold_owner_lock(const char *url, const char *owner) {
    const char *values[1];
    PGresult *result;
    PGconn *holder = PQconnectdb(url);
    if (!CHECK(PQstatus(holder) == CONNECTION_OK)) {
        PQfinish(holder);
        return NULL;
    }
    result = PQexec(holder, "BEGIN");
    CHECK(PQresultStatus(result) == PGRES_COMMAND_OK);
    PQclear(result);
    values[0] = owner;
    result = PQexecParams(holder, "SELECT pg_advisory_xact_lock(1667656807, hashtext($1))", 1, NULL, values, NULL, NULL, 0);
    if (!CHECK(PQresultStatus(result) == PGRES_TUPLES_OK)) {
        PQclear(result);
        PQfinish(holder);
        return NULL;
    }
    PQclear(result);
    return holder;
}

void test_store_postgres_lock_held_elsewhere_times_out(void) {
    const char *url = tf_postgres_url();
    char owner[4200], *err = SENTINEL, *text, *config_text;
    cf_store *store, *reader;
    PGconn *holder;
    json_t *config, *error;
    if (url == NULL)
        return;
    snprintf(owner, sizeof owner, "locked %s", tf_temp_dir);
    config = json_pack("{s:s, s:s, s:f}", "database", url, "owner", owner, "database_timeout", 1.0);
    config_text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    store = (cf_store *)SENTINEL;
    CHECK_STATUS(cf_store_open_v2(config_text, &store, &err), CF_OK, err);
    free(config_text);
    if (store == NULL || store == (cf_store *)SENTINEL)
        return;
    CHECK_INT(cf_store_set_holding(store, "bitcoin", 1, NULL), CF_OK);
    holder = hold_owner_lock(url, owner);
    if (holder != NULL) {
        /* The write waits for the lock, then gives up: CF_STORE, reason "timeout", nothing written. */
        CHECK_STATUS(cf_store_set_holding(store, "bitcoin", 5, &err), CF_STORE, err);
        error = CHECK_ERROR_JSON(err, CF_STORE);
        CHECK_STR(json_str(json_object_get(error, "details"), "reason"), "timeout");
        CHECK(err != NULL && strstr(err, "within 1 s (database_timeout)") != NULL);
        CHECK(err != NULL && strstr(err, "Zebra") == NULL);
        json_decref(error);
        free_out(err);
        reader = open_owned(url, owner);
        if (reader != NULL) {
            text = holdings_text(reader);
            CHECK_STR(text, "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":1}]}");
            free_out(text);
            cf_store_close(reader);
        }
        PQfinish(holder);
    }
    /* The lock released, the next call reconnects and writes. */
    CHECK_INT(cf_store_set_holding(store, "bitcoin", 5, NULL), CF_OK);
    text = holdings_text(store);
    CHECK_STR(text, "{\"holdings\":[{\"coin_id\":\"bitcoin\",\"amount\":5}]}");
    free_out(text);
    cf_store_close(store);
}
