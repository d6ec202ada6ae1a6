#define _POSIX_C_SOURCE 200809L
/* test_harden.c — issues 17 and 19 through the C ABI: strict JSON with the byte offset, files
 * created owner-only, the key kept where it belongs, bounded calls, remembered Retry-After and
 * error classes (issue 10 items 8 and 9). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "test_support.h"
#include "tests.h"

static void check_malformed(int status, char *err, const char *reason, int offset, const char *input) {
    char *got;
    tf_check(status == CF_INVALID_ARGUMENT, __FILE__, __LINE__, "%s is refused (status %d)", input, status);
    got = detail_string(err, CF_INVALID_ARGUMENT, "reason");
    tf_check(got && strcmp(got, reason) == 0, __FILE__, __LINE__, "%s: reason %s (got %s)", input, reason,
             got ? got : "none");
    free(got);
    CHECK_DOUBLE(detail_number(err, CF_INVALID_ARGUMENT, "offset"), offset, 0);
}

void test_strict_json_at_every_entry_point(void) {
    char *out = SENTINEL, *err = SENTINEL;
    cf_client *client = (cf_client *)SENTINEL;
    cf_engine *engine = NULL;
    int status;

    status = cf_decode_markets("[01]", &out, &err);
    check_malformed(status, err, "malformed_json", 1, "[01]");
    CHECK(out == NULL);
    free_out(err);

    status = cf_decode_markets("[\"a\tb\"]", &out, &err);
    check_malformed(status, err, "malformed_json", 3, "a raw TAB in a string");
    free_out(err);

    status = cf_decode_markets("[{\"id\":\"a\",\"symbol\":\"b\",\"name\":\"c\",\"current_price\":1.}]", &out, &err);
    check_malformed(status, err, "malformed_json", 51, "1.");
    free_out(err);

    status = cf_decode_global("{\"data\":{\"markets\":-}}", &out, &err);
    check_malformed(status, err, "malformed_json", 19, "-");
    free_out(err);

    status = cf_decode_coin_detail("[\"\\x\"]", &out, &err);
    check_malformed(status, err, "malformed_json", 2, "\\x");
    free_out(err);

    status = cf_client_open("{\"x\":-}", &client, &err);
    check_malformed(status, err, "malformed_json", 5, "{\"x\":-} as a client config");
    CHECK(client == NULL);
    free_out(err);

    status = cf_client_open("{\"api_key\":\"\\ud800\"}", &client, &err);
    check_malformed(status, err, "lone_surrogate", 12, "a lone surrogate in a config");
    free_out(err);

    status = cf_engine_open("{\"coin_limit\":1e400}", &engine, &err);
    check_malformed(status, err, "number_out_of_range", 14, "1e400 in a config");
    free_out(err);

    engine = open_engine(NULL);
    if (engine == NULL)
        return;
    status = cf_engine_coins(engine, "{\"limit\":01}", &out, &err);
    check_malformed(status, err, "malformed_json", 9, "a query");
    free_out(err);
    status = cf_engine_load(engine, "[1,]", NULL, &err);
    check_malformed(status, err, "malformed_json", 3, "a markets body");
    free_out(err);
    cf_engine_close(engine);
}

static int file_mode(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0)
        return -1;
    return (int)(info.st_mode & 0777);
}

void test_created_database_files_are_owner_only(void) {
    const char *store_path = temp_path("private-store.sqlite");
    const char *engine_path;
    char paths[3][4200];
    cf_store *store = NULL;
    cf_engine *engine = NULL;
    char *err = SENTINEL;
    json_t *config;
    int i;
    mode_t saved = umask(022);

    if (CHECK_STATUS(cf_store_open(store_path, &store, &err), CF_OK, err)) {
        CHECK_STATUS(cf_store_set_holding(store, "bitcoin", 0.5, &err), CF_OK, err);
        snprintf(paths[0], sizeof paths[0], "%s", store_path);
        snprintf(paths[1], sizeof paths[1], "%s-wal", store_path);
        snprintf(paths[2], sizeof paths[2], "%s-shm", store_path);
        for (i = 0; i < 3; i++)
            tf_check(file_mode(paths[i]) == 0600, __FILE__, __LINE__, "%s is 0600 (mode %o)", paths[i],
                     (unsigned)file_mode(paths[i]));
        cf_store_close(store);
    }

    engine_path = temp_path("private-engine.sqlite");
    config = json_pack("{s:s}", "database", engine_path);
    engine = open_engine(config);
    if (engine != NULL) {
        CHECK_STATUS(cf_engine_set_holding(engine, "bitcoin", 1, &err), CF_OK, err);
        snprintf(paths[0], sizeof paths[0], "%s", engine_path);
        snprintf(paths[1], sizeof paths[1], "%s-wal", engine_path);
        snprintf(paths[2], sizeof paths[2], "%s-shm", engine_path);
        for (i = 0; i < 3; i++)
            tf_check(file_mode(paths[i]) == 0600, __FILE__, __LINE__, "%s is 0600 (mode %o)", paths[i],
                     (unsigned)file_mode(paths[i]));
        cf_engine_close(engine);
    }
    umask(saved);
}

/* Issue 31 finding 8: a dangling symbolic link at the database path has its target created 0600,
 * not 0644 with the umask's mode. */
void test_dangling_link_target_is_created_owner_only(void) {
    char target[4200], link[4200];
    cf_store *store = NULL;
    char *err = SENTINEL;
    mode_t saved = umask(022);
    snprintf(target, sizeof target, "%s", temp_path("link-target.sqlite"));
    snprintf(link, sizeof link, "%s", temp_path("link.sqlite"));
    if (!CHECK(symlink(target, link) == 0) || !CHECK(file_mode(target) == -1)) {
        umask(saved);
        return;
    }
    if (CHECK_STATUS(cf_store_open(link, &store, &err), CF_OK, err)) {
        CHECK_STATUS(cf_store_set_holding(store, "bitcoin", 0.5, &err), CF_OK, err);
        tf_check(file_mode(target) == 0600, __FILE__, __LINE__, "%s is 0600 (mode %o)", target,
                 (unsigned)file_mode(target));
        cf_store_close(store);
    }
    umask(saved);
}

/* The longest run of consecutive characters of key (ignoring ASCII case) inside text. */
static size_t longest_key_run(const char *key, const char *text) {
    size_t best = 0, i, j, n, klen = strlen(key), tlen = text ? strlen(text) : 0;
    for (i = 0; i < tlen; i++)
        for (j = 0; j < klen; j++) {
            for (n = 0; i + n < tlen && j + n < klen; n++) {
                char a = text[i + n], b = key[j + n];
                if (a >= 'A' && a <= 'Z')
                    a = (char)(a - 'A' + 'a');
                if (b >= 'A' && b <= 'Z')
                    b = (char)(b - 'A' + 'a');
                if (a != b)
                    break;
            }
            if (n > best)
                best = n;
        }
    return best;
}

void test_client_key_only_to_a_loopback_address(void) {
    static const char *const refused[] = {
        "http://127.0.0.1.attacker.example/api/v3",
        "http://localhost.attacker.example/api/v3",
        "http://127.attacker.example/api/v3",
    };
    static const char *const accepted[] = {"http://127.0.0.1:9/api/v3", "http://[::1]:9/api/v3", "http://localhost:9/api/v3"};
    size_t i;
    for (i = 0; i < 3; i++) {
        json_t *config = json_pack("{s:s, s:s, s:s}", "base_url", refused[i], "plan", "demo", "api_key", "CG-abcdefghijklmnop");
        char *text = json_dumps(config, JSON_COMPACT), *err = SENTINEL;
        cf_client *client = (cf_client *)SENTINEL;
        tf_check(cf_client_open(text, &client, &err) == CF_INVALID_ARGUMENT, __FILE__, __LINE__, "%s is refused with a key",
                 refused[i]);
        CHECK(client == NULL);
        free_out(err);
        free(text);
        json_decref(config);
    }
    for (i = 0; i < 3; i++) {
        cf_client *client =
            open_client(json_pack("{s:s, s:s, s:s}", "base_url", accepted[i], "plan", "demo", "api_key", "CG-abcdefghijklmnop"));
        CHECK(client != NULL);
        cf_client_close(client);
    }
}

void test_client_errors_never_hold_six_key_characters(void) {
    static const char *const key = "CG-Zq8WvT3nRk5YhLmP2sXa";
    static const char *const bodies[] = {
        "{\"status\":{\"error_code\":10002,\"error_message\":\"Invalid API key: CG-Zq8WvT3nRk5...\"}}",
        "{\"status\":{\"error_code\":10002,\"error_message\":\"invalid key 'cg-zq8wvt3nrk5yhlmp2sxa'\"}}",
        "{\"status\":{\"error_code\":10002,\"error_message\":\"key=Zq8WvT3nRk5YhLmP2sXa&x=1\"}}",
        "{\"status\":{\"error_code\":10002,\"error_message\":\"The key ending in RkYhLmP2sXa was revoked\"}}",
    };
    size_t i;
    REQUIRE_SERVER();
    for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        json_t *config = api_config(0, 5000);
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL;
        server_reset();
        json_object_set_new(config, "plan", json_string("demo"));
        json_object_set_new(config, "api_key", json_string(key));
        queue_fault("/api/v3/global", 401, 1, NULL, bodies[i]);
        client = open_client(config);
        if (client == NULL)
            continue;
        CHECK_STATUS(cf_client_global(client, &out, &err), CF_UNAUTHORIZED, err);
        tf_check(longest_key_run(key, err) < 6, __FILE__, __LINE__, "no 6 key characters in %s", err ? err : "");
        free_out(out);
        free_out(err);
        cf_client_close(client);
    }
}

void test_client_body_over_max_body_bytes_is_body_too_large(void) {
    json_t *config = api_config(0, 5000);
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL, *reason;
    REQUIRE_SERVER();
    server_reset();
    server_fault(json_pack("{s:s, s:s, s:i}", "path", "/api/v3/global", "body", "{\"data\":{}}", "pad_bytes", 5000));
    json_object_set_new(config, "max_body_bytes", json_integer(1000));
    client = open_client(config);
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_HTTP, err);
    CHECK(out == NULL);
    reason = detail_string(err, CF_HTTP, "reason");
    CHECK_STR(reason, "body_too_large");
    free(reason);
    free_out(err);
    cf_client_close(client);
}

void test_client_hex_retry_after_is_ignored(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 429, 2, json_pack("{s:s}", "Retry-After", "0x10"), NULL);
    client = open_client(api_config(1, 5000));
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_RATE_LIMITED, err);
    CHECK(isnan(detail_number(err, CF_RATE_LIMITED, "retry_after_s")));
    free_out(err);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 2); /* retried after backoff, not 16 s */
    json_decref(log);
    cf_client_close(client);
}

void test_client_remembers_a_long_retry_after(void) {
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *object, *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 429, 1, json_pack("{s:s}", "Retry-After", "119"), NULL);
    client = open_client(api_config(2, 5000)); /* max_retry_wait_s 60 < 119 */
    if (client == NULL)
        return;
    CHECK_STATUS(cf_client_global(client, &out, &err), CF_RATE_LIMITED, err);
    CHECK_DOUBLE(detail_number(err, CF_RATE_LIMITED, "retry_after_s"), 119, 0);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_client_markets(client, NULL, &out, &err), CF_RATE_LIMITED, err);
    CHECK(out == NULL);
    CHECK_DOUBLE(detail_number(err, CF_RATE_LIMITED, "retry_after_s"), 119, 1);
    object = CHECK_ERROR_JSON(err, CF_RATE_LIMITED);
    CHECK(json_is_false(json_object_get(json_object_get(object, "details"), "sent")));
    json_decref(object);
    free_out(err);
    log = server_log();
    CHECK_INT(json_array_size(json_object_get(log, "requests")), 1); /* nothing sent after the 429 */
    json_decref(log);
    cf_client_close(client);
}

void test_engine_metrics_count_suppressed_requests(void) {
    json_t *config = json_pack("{s:s, s:o}", "database", ":memory:", "api", api_config(2, 5000)), *metrics;
    cf_engine *engine;
    char *out = SENTINEL, *err = SENTINEL;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/coins/markets", 429, 1, json_pack("{s:s}", "Retry-After", "119"), NULL);
    engine = open_engine(config);
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_RATE_LIMITED, err);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_RATE_LIMITED, err);
    free_out(err);
    err = SENTINEL;
    if (CHECK_STATUS(cf_engine_metrics(engine, &out, &err), CF_OK, err)) {
        metrics = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(metrics, "suppressed_requests"), 1, 0);
        json_decref(metrics);
    }
    free_out(out);
    cf_engine_close(engine);
}

void test_client_error_classes(void) {
    static const struct {
        int status;
        const char *body;
        int expected;
        double error_code;
    } cases[] = {
        {403, "<html><body><h1>Access denied</h1> Cloudflare</body></html>", CF_HTTP, -1},
        {401, "{\"status\":{\"error_code\":10012,\"error_message\":\"time range\"}}", CF_UNAUTHORIZED, 10012},
        {403, "{\"status\":{\"error_code\":10002,\"error_message\":\"API Key Missing\"}}", CF_UNAUTHORIZED, 10002},
        {400, "{\"status\":{\"error_code\":10099,\"error_message\":\"other\"}}", CF_HTTP, 10099},
    };
    size_t i;
    REQUIRE_SERVER();
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL;
        double code;
        server_reset();
        queue_fault("/api/v3/global", cases[i].status, 1, NULL, cases[i].body);
        client = open_client(api_config(0, 5000));
        if (client == NULL)
            continue;
        tf_check(cf_client_global(client, &out, &err) == cases[i].expected, __FILE__, __LINE__, "HTTP %d %s → status %d (%s)",
                 cases[i].status, cases[i].body, cases[i].expected, err ? err : "");
        CHECK_DOUBLE(detail_number(err, cases[i].expected, "http_status"), cases[i].status, 0);
        code = detail_number(err, cases[i].expected, "error_code");
        if (cases[i].error_code < 0)
            CHECK(isnan(code));
        else
            CHECK_DOUBLE(code, cases[i].error_code, 0);
        free_out(err);
        cf_client_close(client);
    }
}
