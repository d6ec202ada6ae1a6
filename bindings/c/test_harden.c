#define _POSIX_C_SOURCE 200809L
/* test_harden.c — issues 17 and 19 through the C ABI: strict JSON with the byte offset, files
 * created owner-only, the key kept where it belongs, bounded calls, remembered Retry-After and
 * error classes (issue 10 items 8 and 9). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "test_support.h"
#include "tests.h"

/* err's details[key] as a number (NAN when absent); err must be an error of `status`. */
static double detail_number(const char *err, int status, const char *key) {
    json_t *object = CHECK_ERROR_JSON(err, status);
    double value = json_num(json_object_get(object, "details"), key);
    json_decref(object);
    return value;
}

/* err's details[key] as a malloc()ed string (NULL when absent). */
static char *detail_string(const char *err, int status, const char *key) {
    json_t *object = CHECK_ERROR_JSON(err, status);
    const char *value = json_str(json_object_get(object, "details"), key);
    char *copy = value ? strdup(value) : NULL;
    json_decref(object);
    return copy;
}

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
