/* test_bad_input.c — bad input at every entry point gets a clear status, a well-formed error
 * object, a NULL output, and changes nothing (SPEC §7, §9). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* The input a loop is trying, printed with failures ("" outside loops). */
static char input_note[160];

static void note_input(const char *input) {
    size_t used = (size_t)snprintf(input_note, sizeof input_note, " with input \"");
    for (; *input && used < sizeof input_note - 8; input++) {
        unsigned char c = (unsigned char)*input;
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            used += (size_t)snprintf(input_note + used, sizeof input_note - used, "\\x%02x", c);
        else
            input_note[used++] = (char)c;
    }
    snprintf(input_note + used, sizeof input_note - used, "\"");
}

/* Checks a failed call: the status, the error object, and that out_json was reset to NULL. */
static void expect_fail(int status, int expected, char **out_ptr, char **err_ptr,
                        const char *file, int line, const char *call) {
    json_t *error;
    char *err = *err_ptr;
    int has_out = out_ptr != NULL;
    char *out = has_out ? *out_ptr : NULL;
    tf_check(status == expected, file, line, "%s%s returns %s (got %d %s; error %s)", call,
             input_note, status_code_name(expected), status, status_code_name(status),
             (err && err != SENTINEL) ? err : "none");
    if (has_out)
        tf_check(out == NULL, file, line, "%s%s leaves out_json NULL", call, input_note);
    error = tf_check_error_json(err, expected, file, line);
    json_decref(error);
    free_out(err);
    *err_ptr = NULL;
    input_note[0] = '\0';
}

/* `call` must pass &out and &err. */
#define EXPECT_FAIL(expected, call)                                                            \
    do {                                                                                       \
        int tf_status_;                                                                        \
        out = SENTINEL;                                                                        \
        err = SENTINEL;                                                                        \
        tf_status_ = (call);                                                                   \
        expect_fail(tf_status_, (expected), &out, &err, __FILE__, __LINE__, #call);            \
        free_out(out);                                                                         \
    } while (0)

/* For calls without out_json; `call` must pass &err. */
#define EXPECT_FAIL_NO_OUT(expected, call)                                                     \
    do {                                                                                       \
        int tf_status_;                                                                        \
        err = SENTINEL;                                                                        \
        tf_status_ = (call);                                                                   \
        expect_fail(tf_status_, (expected), NULL, &err, __FILE__, __LINE__, #call);            \
    } while (0)

/* A call that must fail cleanly with out_error NULL (no crash is the test). */
#define EXPECT_STATUS_NO_ERROR_OUT(expected, call)                                             \
    do {                                                                                       \
        int tf_status_ = (call);                                                               \
        tf_check(tf_status_ == (expected), __FILE__, __LINE__,                                 \
                 "%s returns %s with out_error NULL (got %d)", #call,                          \
                 status_code_name(expected), tf_status_);                                      \
    } while (0)

/* Strings that are not JSON objects a function can use, with the status each must give. */
static const char *const malformed_json[] = {
    "",                        /* empty */
    "\xff\xfe",                /* invalid UTF-8 */
    "{\"id\":\"bitcoin\",",    /* truncated */
    "[{\"id\":\"bitcoin\"",    /* truncated */
    "{\"a\":\"\xff\"}",        /* invalid UTF-8 inside a string */
    "not json at all",
};
#define MALFORMED_COUNT (sizeof malformed_json / sizeof malformed_json[0])

static const char *const bad_ids[] = {"", "a/b", ".", "..", "\x01", "\xff", "bit\ncoin",
                                      "bitcoin\x7f"};
#define BAD_ID_COUNT (sizeof bad_ids / sizeof bad_ids[0])

/* "[[[[…]]]]" or "{"a":{"a":…1…}}" nested `depth` deep; closed or not. malloc()ed. */
static char *deep_nesting(size_t depth, int objects, int closed) {
    size_t open_length = objects ? 5 : 1, length = depth * open_length + 1 + (closed ? depth : 0);
    char *text = malloc(length + 1), *p = text;
    size_t i;
    for (i = 0; i < depth; i++) {
        memcpy(p, objects ? "{\"a\":" : "[", open_length);
        p += open_length;
    }
    *p++ = '1';
    if (closed)
        for (i = 0; i < depth; i++)
            *p++ = objects ? '}' : ']';
    *p = '\0';
    return text;
}

static char *long_id(size_t length) {
    char *id = malloc(length + 1);
    memset(id, 'a', length);
    id[length] = '\0';
    return id;
}

/* A status that is "clear" for a deeply nested input: OK, invalid argument or decode, with a
 * well-formed error object or output. */
static void expect_clear_status(int status, char **out_ptr, char **err_ptr, const char *what) {
    char *out = *out_ptr, *err = *err_ptr;
    tf_check(status == CF_OK || status == CF_INVALID_ARGUMENT || status == CF_DECODE, __FILE__,
             __LINE__, "%s gives a clear status (got %d %s)", what, status,
             status_code_name(status));
    if (status == CF_OK) {
        json_t *value = PARSE_JSON(out);
        json_decref(value);
    } else {
        json_decref(CHECK_ERROR_JSON(err, status));
        tf_check(out == NULL, __FILE__, __LINE__, "%s leaves out_json NULL", what);
    }
    free_out(out);
    free_out(err);
}

void test_decode_rejects_null_and_malformed_input(void) {
    char *out, *err;
    size_t i;
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_markets(NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_global(NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_coin_detail(NULL, &out, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_decode_markets("[]", NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_decode_global("{\"data\":{}}", NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT,
                       cf_decode_coin_detail("{\"id\":\"a\",\"symbol\":\"a\",\"name\":\"A\"}",
                                             NULL, &err));
    EXPECT_STATUS_NO_ERROR_OUT(CF_INVALID_ARGUMENT, cf_decode_markets(NULL, NULL, NULL));
    out = SENTINEL;
    EXPECT_STATUS_NO_ERROR_OUT(CF_INVALID_ARGUMENT, cf_decode_markets("", &out, NULL));
    CHECK(out == NULL);
    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_markets(malformed_json[i], &out, &err));
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_global(malformed_json[i], &out, &err));
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_coin_detail(malformed_json[i], &out, &err));
    }
}

void test_decode_rejects_wrong_shapes(void) {
    char *out, *err;
    EXPECT_FAIL(CF_DECODE, cf_decode_markets("{}", &out, &err));
    EXPECT_FAIL(CF_DECODE,
                cf_decode_markets("{\"status\":{\"error_code\":429,\"error_message\":\"limit\"}}",
                                  &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_markets("\"bitcoin\"", &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_markets("42", &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_global("[]", &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_coin_detail("[]", &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_coin_detail("{}", &out, &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_coin_detail("{\"id\":\"bitcoin\",\"symbol\":\"btc\"}", &out,
                                                 &err));
    EXPECT_FAIL(CF_DECODE, cf_decode_coin_detail("{\"error\":\"coin not found\"}", &out, &err));
}

void test_decode_survives_deep_nesting(void) {
    char *out, *err;
    char *arrays = deep_nesting(100000, 0, 1), *objects = deep_nesting(100000, 1, 1);
    char *open_arrays = deep_nesting(100000, 0, 0);
    char *inside = malloc(strlen(arrays) + 64);
    sprintf(inside, "{\"data\":%s}", arrays);

    out = SENTINEL, err = SENTINEL;
    expect_clear_status(cf_decode_markets(arrays, &out, &err), &out, &err, "markets 100000 [");
    out = SENTINEL, err = SENTINEL;
    expect_clear_status(cf_decode_global(objects, &out, &err), &out, &err, "global 100000 {");
    out = SENTINEL, err = SENTINEL;
    expect_clear_status(cf_decode_global(inside, &out, &err), &out, &err, "global data 100000 [");
    out = SENTINEL, err = SENTINEL;
    expect_clear_status(cf_decode_coin_detail(objects, &out, &err), &out, &err, "detail 100000 {");
    /* Unclosed nesting is malformed JSON. */
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_decode_markets(open_arrays, &out, &err));
    free(arrays);
    free(objects);
    free(open_arrays);
    free(inside);
}

void test_decode_huge_markets_body(void) {
    const size_t count = 50000;
    size_t i, capacity = count * 64 + 16, used = 0;
    char *body = malloc(capacity), *out = NULL, *err = NULL;
    json_t *decoded;
    used += (size_t)sprintf(body, "[");
    for (i = 0; i < count; i++)
        used += (size_t)snprintf(body + used, capacity - used,
                                 "%s{\"id\":\"coin-%zu\",\"symbol\":\"c\",\"name\":\"Coin\"}",
                                 i ? "," : "", i);
    sprintf(body + used, "]");
    if (CHECK_STATUS(cf_decode_markets(body, &out, &err), CF_OK, err)) {
        decoded = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(decoded, "coins")), count);
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    free(body);
}

void test_decode_lone_surrogate_is_clean(void) {
    char *out = SENTINEL, *err = SENTINEL;
    expect_clear_status(
        cf_decode_markets("[{\"id\":\"x\",\"symbol\":\"x\",\"name\":\"\\ud800\"}]", &out, &err),
        &out, &err, "a lone surrogate escape in a name");
}

void test_store_rejects_null_arguments(void) {
    char *out, *err;
    int status;
    cf_store *store = (cf_store *)SENTINEL;
    const char *path = temp_path("null-args.db");

    err = SENTINEL;
    status = cf_store_open(NULL, &store, &err);
    expect_fail(status, CF_INVALID_ARGUMENT, NULL, &err, __FILE__, __LINE__,
                "cf_store_open(NULL, …)");
    CHECK(store == NULL);
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_open(path, NULL, &err));
    store = (cf_store *)SENTINEL;
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_open("\xff\xfe", &store, &err));
    CHECK(store == NULL);
    /* An SQLite URI (break3): SQLite would open another file, created with the umask's mode. */
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_open("file::memory:", &store, &err));
    CHECK(store == NULL);
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_open_v2("{\"database\":\"file:x.sqlite?mode=rwc\"}", &store, &err));
    CHECK(store == NULL);
    if (store != (cf_store *)SENTINEL)
        cf_store_close(store);
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_set_holding(NULL, "bitcoin", 1, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_store_holdings(NULL, &out, &err));
    EXPECT_STATUS_NO_ERROR_OUT(CF_INVALID_ARGUMENT, cf_store_set_holding(NULL, "x", 1, NULL));

    store = NULL;
    err = NULL;
    if (!CHECK_STATUS(cf_store_open(path, &store, &err), CF_OK, err))
        return;
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_set_holding(store, NULL, 1, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_store_holdings(store, NULL, &err));
    cf_store_close(store);
}

/* A client whose base URL refuses connections: an invalid argument must be caught before any
 * request (a request would give CF_NETWORK instead). */
static cf_client *offline_client(void) {
    cf_client *client = NULL;
    char *err = NULL;
    char config[256];
    snprintf(config, sizeof config,
             "{\"base_url\":\"http://127.0.0.1:%d/api/v3\",\"max_retries\":0,\"timeout_ms\":2000}",
             refused_port());
    if (!CHECK_STATUS(cf_client_open(config, &client, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    return client;
}

void test_client_rejects_bad_arguments(void) {
    static const char *const bad_configs[] = {
        "[]", "{\"plan\":\"gold\"}", "{\"timeout_ms\":-1}", "{\"max_retries\":-1}",
        "{\"plan\":\"pro\"}", "{\"plan\":\"demo\"}", "{\"base_url\":\"not a url\"}",
        "{\"base_url\":42}", "{\"timeout_ms\":\"fast\"}", "{\"plan\":\"demo\",\"api_key\":7}"};
    static const char *const bad_requests[] = {
        "[]",
        "{\"per_page\":0}",
        "{\"per_page\":251}",
        "{\"per_page\":\"ten\"}",
        "{\"ids\":\"bitcoin\"}",
        "{\"ids\":[\"a/b\"]}",
        "{\"ids\":[\"..\"]}",
        "{\"ids\":[42]}",
        "{\"vs_currency\":\"us d\"}",
        "{\"sparkline\":\"yes\"}"};
    char *out, *err;
    cf_client *client = (cf_client *)SENTINEL;
    size_t i;
    int status;

    err = SENTINEL;
    status = cf_client_open("{}", NULL, &err);
    expect_fail(status, CF_INVALID_ARGUMENT, NULL, &err, __FILE__, __LINE__,
                "cf_client_open(…, NULL, …)");
    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        client = (cf_client *)SENTINEL;
        EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_client_open(malformed_json[i], &client, &err));
        CHECK(client == NULL);
        if (client != (cf_client *)SENTINEL)
            cf_client_close(client);
    }
    for (i = 0; i < sizeof bad_configs / sizeof bad_configs[0]; i++) {
        client = (cf_client *)SENTINEL;
        err = SENTINEL;
        status = cf_client_open(bad_configs[i], &client, &err);
        expect_fail(status, CF_INVALID_ARGUMENT, NULL, &err, __FILE__, __LINE__, bad_configs[i]);
        CHECK(client == NULL);
        if (client != (cf_client *)SENTINEL)
            cf_client_close(client);
    }

    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_markets(NULL, NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_global(NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_coin_detail(NULL, "bitcoin", &out, &err));

    client = offline_client();
    if (client == NULL)
        return;
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_client_markets(client, NULL, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_client_global(client, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_client_coin_detail(client, "bitcoin", NULL, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_coin_detail(client, NULL, &out, &err));
    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_markets(client, malformed_json[i], &out, &err));
    }
    for (i = 0; i < sizeof bad_requests / sizeof bad_requests[0]; i++) {
        out = SENTINEL;
        err = SENTINEL;
        status = cf_client_markets(client, bad_requests[i], &out, &err);
        expect_fail(status, CF_INVALID_ARGUMENT, &out, &err, __FILE__, __LINE__, bad_requests[i]);
        free_out(out);
    }
    for (i = 0; i < BAD_ID_COUNT; i++)
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_coin_detail(client, bad_ids[i], &out, &err));
    {
        char *id = long_id(129);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_client_coin_detail(client, id, &out, &err));
        free(id);
    }
    cf_client_close(client);
}

static cf_engine *open_offline_engine(void) {
    cf_engine *engine = NULL;
    char *err = NULL;
    char config[256];
    snprintf(config, sizeof config,
             "{\"database\":\":memory:\",\"api\":{\"base_url\":\"http://127.0.0.1:%d/api/v3\","
             "\"max_retries\":0,\"timeout_ms\":2000}}",
             refused_port());
    if (!CHECK_STATUS(cf_engine_open(config, &engine, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    return engine;
}

void test_engine_open_rejects_bad_config(void) {
    static const char *const bad_configs[] = {
        "[]",
        "{\"database\":5}",
        "{\"coin_limit\":0}",
        "{\"coin_limit\":5001}",
        "{\"coin_limit\":\"all\"}",
        "{\"detail_ttl_s\":-1}",
        "{\"vs_currency\":\"us d\"}",
        "{\"api\":\"x\"}",
        "{\"api\":{\"plan\":\"gold\"}}",
        "{\"api\":{\"timeout_ms\":-5}}"};
    cf_engine *engine;
    char *err;
    size_t i;
    int status;
    err = SENTINEL;
    status = cf_engine_open("{\"database\":\":memory:\"}", NULL, &err);
    expect_fail(status, CF_INVALID_ARGUMENT, NULL, &err, __FILE__, __LINE__,
                "cf_engine_open(…, NULL, …)");
    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        engine = (cf_engine *)SENTINEL;
        EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_open(malformed_json[i], &engine, &err));
        CHECK(engine == NULL);
        if (engine != (cf_engine *)SENTINEL)
            cf_engine_close(engine);
    }
    for (i = 0; i < sizeof bad_configs / sizeof bad_configs[0]; i++) {
        engine = (cf_engine *)SENTINEL;
        err = SENTINEL;
        status = cf_engine_open(bad_configs[i], &engine, &err);
        expect_fail(status, CF_INVALID_ARGUMENT, NULL, &err, __FILE__, __LINE__, bad_configs[i]);
        CHECK(engine == NULL);
        if (engine != NULL && engine != (cf_engine *)SENTINEL)
            cf_engine_close(engine);
    }
    {
        /* A config nested 100000 deep under an unknown key: clear status, no crash. */
        char *deep = deep_nesting(100000, 0, 1);
        char *config = malloc(strlen(deep) + 64);
        int status;
        sprintf(config, "{\"database\":\":memory:\",\"x\":%s}", deep);
        engine = NULL;
        err = NULL;
        status = cf_engine_open(config, &engine, &err);
        CHECK(status == CF_OK || status == CF_INVALID_ARGUMENT);
        if (status != CF_OK)
            json_decref(CHECK_ERROR_JSON(err, status));
        free_out(err);
        cf_engine_close(engine);
        free(deep);
        free(config);
    }
}

void test_engine_rejects_null_arguments(void) {
    char *out, *err;
    cf_engine *engine;
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_refresh(NULL, &out, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_load(NULL, "[]", NULL, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_coins(NULL, NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_portfolio(NULL, NULL, &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_statistics(NULL, &out, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(NULL, "bitcoin", 1, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_coin_detail(NULL, "bitcoin", &out, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_metrics(NULL, &out, &err));
    EXPECT_STATUS_NO_ERROR_OUT(CF_INVALID_ARGUMENT, cf_engine_metrics(NULL, NULL, NULL));

    engine = open_offline_engine();
    if (engine == NULL)
        return;
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_refresh(engine, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_load(engine, NULL, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_coins(engine, NULL, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_portfolio(engine, NULL, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_statistics(engine, NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(engine, NULL, 1, &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_coin_detail(engine, NULL, &out, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT,
                       cf_engine_coin_detail(engine, "bitcoin", NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_metrics(engine, NULL, &err));
    EXPECT_STATUS_NO_ERROR_OUT(CF_INVALID_ARGUMENT, cf_engine_statistics(engine, NULL, NULL));
    cf_engine_close(engine);
}

static int coins_total(cf_engine *engine) {
    char *out = NULL, *err = NULL;
    int total = -1;
    if (cf_engine_coins(engine, NULL, &out, &err) == CF_OK) {
        json_t *value = PARSE_JSON(out);
        total = (int)json_num(value, "total");
        json_decref(value);
    }
    free_out(out);
    free_out(err);
    return total;
}

void test_engine_bad_input_changes_nothing(void) {
    static const char *const bad_queries[] = {
        "[]",           "{\"sort\":\"bogus\"}", "{\"limit\":-1}", "{\"offset\":-1}",
        "{\"limit\":\"ten\"}", "{\"search\":5}", "{\"sort\":7}"};
    char *out, *err;
    size_t i;
    int before, status;
    cf_engine *engine = open_offline_engine();
    const char *two_coins = "[{\"id\":\"aaa\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":1},"
                            "{\"id\":\"bbb\",\"symbol\":\"b\",\"name\":\"B\",\"current_price\":2}]";
    if (engine == NULL)
        return;

    /* Failed loads before any snapshot: still no data. */
    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT,
                           cf_engine_load(engine, malformed_json[i], NULL, &err));
    }
    EXPECT_FAIL_NO_OUT(CF_DECODE, cf_engine_load(engine, "{}", NULL, &err));
    EXPECT_FAIL(CF_NO_DATA, cf_engine_statistics(engine, &out, &err));

    if (!CHECK_STATUS(cf_engine_load(engine, two_coins, NULL, &err), CF_OK, err))
        free_out(err);
    before = coins_total(engine);
    CHECK_INT(before, 2);

    /* Failed loads after one: the snapshot is unchanged. */
    EXPECT_FAIL_NO_OUT(CF_DECODE, cf_engine_load(engine, "{}", NULL, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_load(engine, "[]", "[]", &err)); /* no coin */
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_load(engine, "[]", "{", &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_load(engine, "[]", "\xff\xfe", &err));
    CHECK_INT(coins_total(engine), before);

    for (i = 0; i < MALFORMED_COUNT; i++) {
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_coins(engine, malformed_json[i], &out, &err));
        note_input(malformed_json[i]);
        EXPECT_FAIL(CF_INVALID_ARGUMENT,
                    cf_engine_portfolio(engine, malformed_json[i], &out, &err));
    }
    for (i = 0; i < sizeof bad_queries / sizeof bad_queries[0]; i++) {
        out = SENTINEL;
        err = SENTINEL;
        status = cf_engine_coins(engine, bad_queries[i], &out, &err);
        expect_fail(status, CF_INVALID_ARGUMENT, &out, &err, __FILE__, __LINE__, bad_queries[i]);
        free_out(out);
    }
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_portfolio(engine, "{\"sort\":\"bogus\"}", &out,
                                                         &err));
    EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_portfolio(engine, "[]", &out, &err));

    /* Bad holdings write nothing. */
    for (i = 0; i < BAD_ID_COUNT; i++) {
        EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(engine, bad_ids[i], 1, &err));
        EXPECT_FAIL(CF_INVALID_ARGUMENT, cf_engine_coin_detail(engine, bad_ids[i], &out, &err));
    }
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(engine, "aaa", NAN, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(engine, "aaa", INFINITY, &err));
    EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT,
                       cf_engine_set_holding(engine, "aaa", -INFINITY, &err));
    {
        char *id = long_id(129);
        EXPECT_FAIL_NO_OUT(CF_INVALID_ARGUMENT, cf_engine_set_holding(engine, id, 1, &err));
        free(id);
    }
    out = NULL;
    err = NULL;
    if (CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *portfolio = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(portfolio, "coins")), 0);
        json_decref(portfolio);
    }
    free_out(out);
    free_out(err);
    cf_engine_close(engine);
}
