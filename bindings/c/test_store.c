/* test_store.c — the portfolio store (SPEC §4): a real SQLite file in a temporary folder, or in
 * the PostgreSQL pass the test cluster with an owner per test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

static cf_store *open_store(const char *path) {
    cf_store *store = (cf_store *)SENTINEL;
    char *err = SENTINEL;
    int status;
    if (tf_postgres_pass()) {
        json_t *config = json_pack("{s:s}", "database", path);
        char *text;
        tf_place_database(config);
        text = json_dumps(config, JSON_COMPACT);
        status = cf_store_open_v2(text, &store, &err);
        free(text);
        json_decref(config);
    } else {
        status = cf_store_open(path, &store, &err);
    }
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    CHECK(err == NULL);
    CHECK(store != NULL && store != (cf_store *)SENTINEL);
    return store;
}

/* The holdings array (caller json_decref()s), or NULL. */
static json_t *holdings(cf_store *store) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *value = NULL, *list;
    if (CHECK_STATUS(cf_store_holdings(store, &out, &err), CF_OK, err)) {
        CHECK(err == NULL);
        value = PARSE_JSON(out);
    }
    free_out(out);
    free_out(err);
    list = json_incref(json_object_get(value, "holdings"));
    CHECK(json_is_array(list));
    json_decref(value);
    return list;
}

/* The amount held of id, or NAN when there is no row. */
static double amount_of(cf_store *store, const char *id) {
    json_t *list = holdings(store), *row;
    double amount = NAN;
    size_t i;
    json_array_foreach(list, i, row) {
        const char *coin_id = json_str(row, "coin_id");
        if (coin_id && strcmp(coin_id, id) == 0)
            amount = json_num(row, "amount");
    }
    json_decref(list);
    return amount;
}

static char *holdings_text(cf_store *store) {
    json_t *list = holdings(store);
    char *text = json_dumps(list, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(list);
    return text;
}

static int set(cf_store *store, const char *id, double amount) {
    char *err = SENTINEL;
    int status = cf_store_set_holding(store, id, amount, &err);
    if (status == CF_OK)
        CHECK(err == NULL);
    else
        json_decref(CHECK_ERROR_JSON(err, status));
    free_out(err);
    return status;
}

void test_store_insert_update_delete(void) {
    cf_store *store = open_store(temp_path("holdings.db"));
    json_t *list;
    if (store == NULL)
        return;
    list = holdings(store);
    CHECK_INT(json_array_size(list), 0);
    json_decref(list);

    CHECK_INT(set(store, "bitcoin", 0.5), CF_OK);
    CHECK_DOUBLE(amount_of(store, "bitcoin"), 0.5, 0);
    CHECK_INT(set(store, "bitcoin", 0.75), CF_OK); /* update */
    CHECK_DOUBLE(amount_of(store, "bitcoin"), 0.75, 0);
    CHECK_INT(set(store, "ethereum", 2), CF_OK);
    list = holdings(store);
    CHECK_INT(json_array_size(list), 2);
    json_decref(list);

    CHECK_INT(set(store, "bitcoin", 0), CF_OK); /* zero deletes */
    CHECK(isnan(amount_of(store, "bitcoin")));
    CHECK_INT(set(store, "ethereum", -1), CF_OK); /* negative deletes */
    CHECK(isnan(amount_of(store, "ethereum")));
    list = holdings(store);
    CHECK_INT(json_array_size(list), 0);
    json_decref(list);
    cf_store_close(store);
}

void test_store_zero_or_negative_amount_never_inserts(void) {
    cf_store *store = open_store(temp_path("zero.db"));
    json_t *list;
    if (store == NULL)
        return;
    CHECK_INT(set(store, "dogecoin", 0), CF_OK);
    CHECK_INT(set(store, "tether", -5), CF_OK);
    CHECK_INT(set(store, "solana", -0.0), CF_OK);
    list = holdings(store);
    CHECK_INT(json_array_size(list), 0);
    json_decref(list);
    cf_store_close(store);
}

void test_store_rejects_bad_amounts_and_ids_writing_nothing(void) {
    static const char *const bad_ids[] = {"", "a/b", ".", "..", "\x01", "\xff", "/", "bit\tcoin"};
    cf_store *store = open_store(temp_path("bad.db"));
    char *before, *after, *id129;
    size_t i;
    if (store == NULL)
        return;
    CHECK_INT(set(store, "bitcoin", 1), CF_OK);
    before = holdings_text(store);

    CHECK_INT(set(store, "bitcoin", NAN), CF_INVALID_ARGUMENT);
    CHECK_INT(set(store, "bitcoin", INFINITY), CF_INVALID_ARGUMENT);
    CHECK_INT(set(store, "bitcoin", -INFINITY), CF_INVALID_ARGUMENT);
    CHECK_INT(set(store, "ethereum", NAN), CF_INVALID_ARGUMENT);
    for (i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++)
        tf_check(set(store, bad_ids[i], 1) == CF_INVALID_ARGUMENT, __FILE__, __LINE__,
                 "bad id #%zu is an invalid argument", i);
    id129 = malloc(130);
    memset(id129, 'x', 129);
    id129[129] = '\0';
    CHECK_INT(set(store, id129, 1), CF_INVALID_ARGUMENT);
    id129[128] = '\0'; /* 128 bytes is the longest id */
    after = holdings_text(store);
    CHECK_STR(after, before);
    CHECK_INT(set(store, id129, 1), CF_OK);
    CHECK_DOUBLE(amount_of(store, id129), 1, 0);
    free(id129);
    free(before);
    free(after);
    cf_store_close(store);
}

void test_store_sql_looking_ids_are_stored_literally(void) {
    /* Lower case: holding ids with upper-case letters are refused (SPEC §10). */
    static const char *const ids[] = {"x'); drop table holdings;--", "a\"b", "bitcoin?x=1",
                                      "%2e%2e", "1move token", "boringdao-[old]", "hive_dollar",
                                      "caf\xc3\xa9"};
    cf_store *store = open_store(temp_path("sql.db"));
    size_t i;
    if (store == NULL)
        return;
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
        CHECK_INT(set(store, ids[i], (double)(i + 1)), CF_OK);
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
        tf_check(amount_of(store, ids[i]) == (double)(i + 1), __FILE__, __LINE__,
                 "id \"%s\" round-trips with amount %zu", ids[i], i + 1);
    CHECK_INT(set(store, "bitcoin", 1), CF_OK); /* the table is still there */
    CHECK_DOUBLE(amount_of(store, "bitcoin"), 1, 0);
    cf_store_close(store);
}

void test_store_amounts_round_trip_exactly(void) {
    static const double amounts[] = {0.1, 0.3, 1e-12, 123456789.123456789, 4.2e17, 1e-18};
    /* The ledger keeps exact decimals with 18 fraction digits up to 8.5e19 units (SPEC §12). */
    static const double refused[] = {2.2250738585072014e-308, 1e-19, 1.7976931348623157e308};
    cf_store *store = open_store(temp_path("exact.db"));
    size_t i;
    if (store == NULL)
        return;
    for (i = 0; i < sizeof amounts / sizeof amounts[0]; i++) {
        char id[32];
        snprintf(id, sizeof id, "coin-%zu", i);
        CHECK_INT(set(store, id, amounts[i]), CF_OK);
        tf_check(amount_of(store, id) == amounts[i], __FILE__, __LINE__,
                 "amount %.17g round-trips exactly (got %.17g)", amounts[i],
                 amount_of(store, id));
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
        CHECK_INT(set(store, "refused", refused[i]), CF_INVALID_ARGUMENT);
    cf_store_close(store);
}

void test_store_persists_across_close_and_reopen(void) {
    const char *path = temp_path("persist.db");
    char saved[4096];
    cf_store *store = open_store(path);
    if (store == NULL)
        return;
    snprintf(saved, sizeof saved, "%s", path);
    CHECK_INT(set(store, "bitcoin", 0.1), CF_OK);
    CHECK_INT(set(store, "ethereum", 2.5), CF_OK);
    CHECK_INT(set(store, "ethereum", 3.5), CF_OK);
    CHECK_INT(set(store, "dogecoin", 100), CF_OK);
    CHECK_INT(set(store, "dogecoin", 0), CF_OK);
    cf_store_close(store);

    store = open_store(saved);
    if (store == NULL)
        return;
    CHECK_DOUBLE(amount_of(store, "bitcoin"), 0.1, 0);
    CHECK_DOUBLE(amount_of(store, "ethereum"), 3.5, 0);
    CHECK(isnan(amount_of(store, "dogecoin")));
    cf_store_close(store);
}

void test_store_holdings_sorted_by_coin_id(void) {
    static const char *const ids[] = {"zcash", "bitcoin", "bitcoin-", "\xc3\xa4-coin", "1move token",
                                      "aave", "_x"};
    cf_store *store = open_store(temp_path("sorted.db"));
    json_t *list, *row;
    const char *previous = NULL;
    size_t i;
    if (store == NULL)
        return;
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
        CHECK_INT(set(store, ids[i], 1), CF_OK);
    list = holdings(store);
    CHECK_INT(json_array_size(list), sizeof ids / sizeof ids[0]);
    json_array_foreach(list, i, row) {
        const char *id = json_str(row, "coin_id");
        CHECK(id != NULL);
        CHECK(json_is_number(json_object_get(row, "amount")));
        if (previous && id)
            tf_check(strcmp(previous, id) < 0, __FILE__, __LINE__,
                     "\"%s\" sorts before \"%s\" (bytewise)", previous, id);
        previous = id;
    }
    json_decref(list);
    cf_store_close(store);
}

void test_store_directory_path_is_store_error(void) {
    cf_store *store = (cf_store *)SENTINEL;
    char *err = SENTINEL;
    int status = cf_store_open(tf_temp_dir, &store, &err);
    CHECK_STATUS(status, CF_STORE, err);
    CHECK(store == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_STORE));
    free_out(err);
    if (store != NULL && store != (cf_store *)SENTINEL)
        cf_store_close(store);
}

void test_store_file_that_is_not_a_database_is_store_error(void) {
    const char *path = temp_path("not-a-database.db");
    char saved[4096], *before, *after;
    cf_store *store = (cf_store *)SENTINEL;
    char *err = SENTINEL;
    FILE *f = fopen(path, "w");
    int i, status;
    snprintf(saved, sizeof saved, "%s", path);
    if (!CHECK(f != NULL))
        return;
    for (i = 0; i < 200; i++)
        fputs("this is a text file, not an SQLite database\n", f);
    fclose(f);
    before = read_file(saved, NULL);

    status = cf_store_open(saved, &store, &err);
    CHECK_STATUS(status, CF_STORE, err);
    CHECK(store == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_STORE));
    free_out(err);
    if (store != NULL && store != (cf_store *)SENTINEL)
        cf_store_close(store);
    after = read_file(saved, NULL);
    CHECK(before && after && strcmp(before, after) == 0); /* the file is left alone */
    free(before);
    free(after);
}

void test_store_memory_database(void) {
    cf_store *store = open_store(":memory:");
    if (store == NULL)
        return;
    CHECK_INT(set(store, "bitcoin", 0.5), CF_OK);
    CHECK_DOUBLE(amount_of(store, "bitcoin"), 0.5, 0);
    cf_store_close(store);
}
