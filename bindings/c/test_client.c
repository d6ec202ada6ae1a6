#define _POSIX_C_SOURCE 200809L
/* test_client.c — the CoinGecko client (SPEC §5) against the loopback server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* ------------------------------------------------------------------ helpers shared with engine */

json_t *api_config(int max_retries, int timeout_ms) {
    return json_pack("{s:s, s:i, s:i, s:i}", "base_url", server_base_url(), "max_retries",
                     max_retries, "timeout_ms", timeout_ms, "max_retry_wait_s", 60);
}

cf_client *open_client(json_t *config) {
    char *text = json_dumps(config, JSON_COMPACT), *err = SENTINEL;
    cf_client *client = (cf_client *)SENTINEL;
    int status = cf_client_open(text, &client, &err);
    json_decref(config);
    free(text);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    CHECK(err == NULL);
    return client;
}

cf_engine *open_engine(json_t *config) {
    char *text, *err = SENTINEL;
    tf_place_database(config);
    text = json_dumps(config, JSON_COMPACT);
    cf_engine *engine = (cf_engine *)SENTINEL;
    int status = cf_engine_open(text, &engine, &err);
    json_decref(config);
    free(text);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    CHECK(err == NULL);
    return engine;
}

int queue_fault(const char *path, int status, int times, json_t *headers, const char *body) {
    json_t *spec = json_pack("{s:s, s:i, s:i}", "path", path, "status", status, "times", times);
    if (headers)
        json_object_set_new(spec, "headers", headers);
    if (body)
        json_object_set_new(spec, "body", json_string(body));
    return server_fault(spec);
}

/* The first logged request with this path, or NULL (borrowed from log). */
json_t *logged_request(json_t *log, const char *path, int nth) {
    json_t *requests = json_object_get(log, "requests"), *entry;
    size_t i;
    json_array_foreach(requests, i, entry) {
        const char *p = json_str(entry, "path");
        if (p && strcmp(p, path) == 0 && nth-- == 0)
            return entry;
    }
    return NULL;
}

double detail_number(const char *err, int status, const char *key) {
    json_t *object = CHECK_ERROR_JSON(err, status);
    double value = json_num(json_object_get(object, "details"), key);
    json_decref(object);
    return value;
}

char *detail_string(const char *err, int status, const char *key) {
    json_t *object = CHECK_ERROR_JSON(err, status);
    const char *value = json_str(json_object_get(object, "details"), key);
    char *copy = value ? strdup(value) : NULL;
    json_decref(object);
    return copy;
}

static int fixture_coin_count(void) {
    size_t length = 0;
    char *body = read_file(fmt_path("%s/Tests/fixtures/coingecko/markets.json", tf_repo_root),
                           &length);
    json_t *raw = json_parse_raw(body, length);
    int count = (int)json_array_size(raw);
    json_decref(raw);
    free(body);
    return count;
}

#define QUERY_IS(request, key, expected)                                                       \
    CHECK_STR(json_str(json_object_get((request), "query"), (key)), (expected))

/* ------------------------------------------------------------------ tests */

void test_client_markets_default_query(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log, *request, *headers;
    REQUIRE_SERVER();
    server_reset();
    client = open_client(api_config(0, 5000));
    if (client == NULL)
        return;
    if (CHECK_STATUS(cf_client_markets(client, NULL, &out, &err), CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK(err == NULL);
        CHECK_INT(json_array_size(json_object_get(decoded, "coins")), fixture_coin_count());
        CHECK(json_is_array(json_object_get(decoded, "skipped")));
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);

    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/markets"), 1);
    request = logged_request(log, "/api/v3/coins/markets", 0);
    QUERY_IS(request, "vs_currency", "usd");
    QUERY_IS(request, "order", "market_cap_desc");
    QUERY_IS(request, "per_page", "250");
    QUERY_IS(request, "page", "1");
    QUERY_IS(request, "sparkline", "true");
    QUERY_IS(request, "price_change_percentage", "24h");
    headers = json_object_get(request, "headers");
    CHECK(json_object_get(headers, "x-cg-demo-api-key") == NULL); /* public plan: no key */
    CHECK(json_object_get(headers, "x-cg-pro-api-key") == NULL);
    json_decref(log);
    cf_client_close(client);
}

void test_client_markets_ids_and_options(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log, *request;
    REQUIRE_SERVER();
    server_reset();
    client = open_client(api_config(0, 5000));
    if (client == NULL)
        return;
    if (CHECK_STATUS(cf_client_markets(client,
                                       "{\"ids\":[\"bitcoin\",\"1move token\"],\"vs_currency\":"
                                       "\"eur\",\"per_page\":5,\"sparkline\":false}",
                                       &out, &err),
                     CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(decoded, "coins")), 2);
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    log = server_log();
    request = logged_request(log, "/api/v3/coins/markets", 0);
    QUERY_IS(request, "ids", "bitcoin,1move token");
    QUERY_IS(request, "vs_currency", "eur");
    QUERY_IS(request, "per_page", "250"); /* with ids every id is asked for: per_page is ignored */
    QUERY_IS(request, "sparkline", "false");
    json_decref(log);
    cf_client_close(client);
}

void test_client_plan_keys_go_in_their_headers(void) {
    static const char *const plans[] = {"demo", "pro"};
    static const char *const headers[] = {"x-cg-demo-api-key", "x-cg-pro-api-key"};
    size_t i;
    REQUIRE_SERVER();
    for (i = 0; i < 2; i++) {
        json_t *config = api_config(0, 5000), *log, *request;
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL;
        server_reset();
        json_object_set_new(config, "plan", json_string(plans[i]));
        json_object_set_new(config, "api_key", json_string("key-for-test-42"));
        client = open_client(config);
        if (client == NULL)
            continue;
        CHECK_STATUS(cf_client_global(client, &out, &err), CF_OK, err);
        free_out(out);
        free_out(err);
        log = server_log();
        request = logged_request(log, "/api/v3/global", 0);
        CHECK_STR(json_str(json_object_get(request, "headers"), headers[i]), "key-for-test-42");
        CHECK(json_object_get(json_object_get(request, "headers"), headers[1 - i]) == NULL);
        json_decref(log);
        cf_client_close(client);
    }
}

void test_client_retries_429_after_retry_after(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 429, 1, json_pack("{s:s}", "Retry-After", "1"),
                "{\"status\":{\"error_code\":429,\"error_message\":\"You've exceeded the Rate "
                "Limit\"}}");
    client = open_client(api_config(2, 5000));
    if (client == NULL)
        return;
    if (CHECK_STATUS(cf_client_global(client, &out, &err), CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK(json_is_object(json_object_get(decoded, "market_data")));
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 2);
    json_decref(log);
    cf_client_close(client);
}

void test_client_long_retry_after_is_rate_limited_at_once(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 429, 3, json_pack("{s:s}", "Retry-After", "119"), NULL);
    client = open_client(api_config(2, 5000)); /* max_retry_wait_s 60 < 119 */
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_RATE_LIMITED, err);
    CHECK(out == NULL);
    CHECK_DOUBLE(detail_number(err, CF_RATE_LIMITED, "retry_after_s"), 119, 0);
    free_out(out);
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 1); /* no waiting, no retry */
    json_decref(log);
    cf_client_close(client);
}

void test_client_503_html_retries_then_http_error(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 503, 3, json_pack("{s:s}", "Content-Type", "text/html"),
                "<html><head><title>503 Service Temporarily Unavailable</title></head>"
                "<body><center><h1>503 Service Temporarily Unavailable</h1></center></body>"
                "</html>");
    client = open_client(api_config(2, 5000));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_HTTP, err);
    CHECK(out == NULL);
    CHECK_DOUBLE(detail_number(err, CF_HTTP, "http_status"), 503, 0);
    free_out(out);
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 3); /* 1 + max_retries 2 */
    json_decref(log);
    cf_client_close(client);
}

void test_client_server_error_then_success_is_retried(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/coins/markets", 500, 1, NULL, "{\"error\":\"Internal Server Error\"}");
    client = open_client(api_config(2, 5000));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_markets(client, NULL, &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/markets"), 2);
    json_decref(log);
    cf_client_close(client);
}

void test_client_client_error_is_not_retried(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 422, 3, NULL, "{\"error\":\"Missing parameter\"}");
    client = open_client(api_config(2, 5000));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_HTTP, err);
    CHECK_DOUBLE(detail_number(err, CF_HTTP, "http_status"), 422, 0);
    free_out(out);
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 1);
    json_decref(log);
    cf_client_close(client);
}

void test_client_slow_body_past_timeout_is_network_error(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *spec;
    REQUIRE_SERVER();
    server_reset();
    spec = json_pack("{s:s, s:i, s:i}", "path", "/api/v3/global", "delay_ms", 3000, "times", 1);
    server_fault(spec);
    client = open_client(api_config(0, 500));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_NETWORK, err);
    CHECK(out == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_NETWORK));
    free_out(out);
    free_out(err);
    cf_client_close(client);
}

void test_client_connection_refused_is_network_error(void) {
    json_t *config = json_pack("{s:s, s:i, s:i}", "base_url",
                               fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                               "max_retries", 1, "timeout_ms", 2000);
    cf_client *client = open_client(config);
    char *out = SENTINEL, *err = SENTINEL;
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_markets(client, NULL, &out, &err), CF_NETWORK, err);
    CHECK(out == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_NETWORK));
    free_out(err);
    cf_client_close(client);
}

void test_client_connection_closed_without_answer_is_network_error(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    REQUIRE_SERVER();
    server_reset();
    server_fault(json_pack("{s:s, s:b, s:i}", "path", "/api/v3/global", "close", 1, "times", -1));
    client = open_client(api_config(0, 3000));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_NETWORK, err);
    json_decref(CHECK_ERROR_JSON(err, CF_NETWORK));
    free_out(out);
    free_out(err);
    cf_client_close(client);
}

void test_client_truncated_or_html_body_is_classified(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    int status;
    REQUIRE_SERVER();
    server_reset();
    server_fault(json_pack("{s:s, s:b, s:i}", "path", "/api/v3/global", "truncate", 1, "times", 1));
    client = open_client(api_config(0, 3000));
    if (client == NULL)
        return;
    status = cf_client_global(client, &out, &err);
    tf_check(status == CF_NETWORK || status == CF_DECODE, __FILE__, __LINE__,
             "a truncated body is a network or decode error (got %d %s)", status,
             status_code_name(status));
    if (status != CF_OK)
        json_decref(CHECK_ERROR_JSON(err, status));
    free_out(out);
    free_out(err);

    out = SENTINEL;
    err = SENTINEL;
    queue_fault("/api/v3/global", 200, 1, json_pack("{s:s}", "Content-Type", "text/html"),
                "<html><body>Just a moment...</body></html>");
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_DECODE, err);
    json_decref(CHECK_ERROR_JSON(err, CF_DECODE));
    free_out(out);
    free_out(err);
    cf_client_close(client);
}

void test_client_unauthorized_never_shows_the_key(void) {
    static const char *const key = "SECRET-demo-key-7f3a9c";
    struct {
        int status;
        const char *body;
    } cases[] = {
        {401, "{\"status\":{\"error_code\":10002,\"error_message\":\"API Key Missing\"}}"},
        {400, "{\"error\":{\"status\":{\"error_code\":10011,\"error_message\":\"wrong plan\"}}}"},
        {400, "{\"status\":{\"error_code\":10010,\"error_message\":\"wrong plan\"}}"},
        {401, "<html><body>Unauthorized</body></html>"},
    };
    size_t i;
    REQUIRE_SERVER();
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *config = api_config(2, 5000), *log;
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL;
        int status;
        server_reset();
        json_object_set_new(config, "plan", json_string("demo"));
        json_object_set_new(config, "api_key", json_string(key));
        queue_fault("/api/v3/global", cases[i].status, 3, NULL, cases[i].body);
        client = open_client(config);
        if (client == NULL)
            continue;
        status = cf_client_global(client, &out, &err);
        tf_check(status == CF_UNAUTHORIZED, __FILE__, __LINE__,
                 "HTTP %d %s is unauthorized (got %d; error %s)", cases[i].status, cases[i].body,
                 status, err ? err : "none");
        json_decref(CHECK_ERROR_JSON(err, CF_UNAUTHORIZED));
        tf_check(err == NULL || strstr(err, key) == NULL, __FILE__, __LINE__,
                 "the API key is absent from the error (%s)", err ? err : "");
        log = server_log();
        CHECK_INT(server_count(log, "/api/v3/global"), 1); /* not retried */
        json_decref(log);
        free_out(out);
        free_out(err);
        cf_client_close(client);
    }
}

void test_client_coin_detail_query_and_path_encoding(void) {
    cf_client *client;
    char *out, *err;
    json_t *log, *request, *requests, *entry;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    client = open_client(api_config(0, 5000));
    if (client == NULL)
        return;

    out = SENTINEL, err = SENTINEL;
    if (CHECK_STATUS(cf_client_coin_detail(client, "bitcoin", &out, &err), CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK_STR(json_str(json_object_get(decoded, "detail"), "id"), "bitcoin");
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    log = server_log();
    request = logged_request(log, "/api/v3/coins/bitcoin", 0);
    CHECK(request != NULL);
    QUERY_IS(request, "localization", "false");
    QUERY_IS(request, "tickers", "false");
    QUERY_IS(request, "market_data", "false");
    QUERY_IS(request, "community_data", "false");
    QUERY_IS(request, "developer_data", "false");
    QUERY_IS(request, "sparkline", "false");
    json_decref(log);

    /* Real ids with a space and brackets reach their coin. */
    out = SENTINEL, err = SENTINEL;
    if (CHECK_STATUS(cf_client_coin_detail(client, "1move token", &out, &err), CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK_STR(json_str(json_object_get(decoded, "detail"), "id"), "1move token");
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    out = SENTINEL, err = SENTINEL;
    CHECK_STATUS(cf_client_coin_detail(client, "boringdao-[old]", &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);

    /* An unknown id is not found; '?' and '%' stay inside the one path segment. */
    server_reset();
    out = SENTINEL, err = SENTINEL;
    CHECK_STATUS(cf_client_coin_detail(client, "no-such-coin", &out, &err), CF_NOT_FOUND, err);
    json_decref(CHECK_ERROR_JSON(err, CF_NOT_FOUND));
    free_out(err);
    out = SENTINEL, err = SENTINEL;
    CHECK_STATUS(cf_client_coin_detail(client, "bitcoin?x=1", &out, &err), CF_NOT_FOUND, err);
    free_out(out);
    free_out(err);
    out = SENTINEL, err = SENTINEL;
    CHECK_STATUS(cf_client_coin_detail(client, "%2e%2e", &out, &err), CF_NOT_FOUND, err);
    free_out(out);
    free_out(err);
    log = server_log();
    requests = json_object_get(log, "requests");
    CHECK_INT(json_array_size(requests), 3);
    json_array_foreach(requests, i, entry) {
        const char *path = json_str(entry, "path");
        CHECK(path != NULL && strncmp(path, "/api/v3/coins/", 14) == 0);
        CHECK(path != NULL && strchr(path + 14, '/') == NULL);
        CHECK(json_object_get(json_object_get(entry, "query"), "x") == NULL);
        CHECK(path != NULL && strcmp(path, "/api/v3/coins/markets") != 0 &&
              strcmp(path, "/api/v3/global") != 0);
    }
    CHECK(logged_request(log, "/api/v3/coins/%252e%252e", 0) != NULL);
    json_decref(log);
    cf_client_close(client);
}
