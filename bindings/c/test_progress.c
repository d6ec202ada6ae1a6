/* test_progress.c — progress of long work (SPEC §15): cf_engine_set_progress over a refresh of
 * several pages against the loopback server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* What the progress function saw: each report as text, and the user pointer it was given. */
struct progress_log {
    json_t *reports; /* array of the parsed reports */
    int wrong_user;
};

static void record_progress(const char *progress_json, void *user) {
    struct progress_log *log = user;
    json_error_t error;
    json_t *report = json_loads(progress_json, 0, &error);
    json_array_append_new(log->reports, report ? report : json_string("unparsable"));
}

static void count_calls(const char *progress_json, void *user) {
    (void)progress_json;
    ++*(int *)user;
}

/* A /coins/markets universe of `count` small coins, ranked 1…count. */
static char *universe(int count) {
    json_t *coins = json_array();
    char *text;
    int n;
    for (n = 1; n <= count; n++) {
        char id[32], symbol[32], name[32];
        snprintf(id, sizeof id, "coin-%04d", n);
        snprintf(symbol, sizeof symbol, "c%d", n);
        snprintf(name, sizeof name, "Coin %d", n);
        json_array_append_new(coins, json_pack("{s:s, s:s, s:s, s:f, s:i}", "id", id, "symbol",
                                               symbol, "name", name, "current_price", 1.0,
                                               "market_cap_rank", n));
    }
    text = json_dumps(coins, JSON_COMPACT);
    json_decref(coins);
    return text;
}

static cf_engine *paged_engine(int coin_limit) {
    return open_engine(json_pack("{s:s, s:i, s:o}", "database", ":memory:", "coin_limit",
                                 coin_limit, "api", api_config(0, 5000)));
}

static void check_report(json_t *reports, size_t index, const char *phase, int done, int total) {
    json_t *report = json_array_get(reports, index);
    CHECK_STR(json_str(report, "phase"), phase);
    CHECK_INT((int)json_integer_value(json_object_get(report, "done")), done);
    CHECK_INT((int)json_integer_value(json_object_get(report, "total")), total);
    CHECK_INT((int)json_object_size(report), 3);
}

void test_progress_five_page_refresh_reports_every_page(void) {
    struct progress_log log = {json_array(), 0};
    cf_engine *engine;
    char *body, *out = SENTINEL, *err = SENTINEL;
    int status, page;
    REQUIRE_SERVER();
    server_reset();
    body = universe(1250);
    server_route(json_pack("{s:s, s:s}", "path", "/api/v3/coins/markets", "body", body));
    free(body);
    engine = paged_engine(1250);
    if (engine != NULL) {
        status = cf_engine_set_progress(engine, record_progress, &log, &err);
        CHECK_STATUS(status, CF_OK, err);
        CHECK(err == NULL);
        err = SENTINEL;
        status = cf_engine_refresh(engine, &out, &err);
        CHECK_STATUS(status, CF_OK, err);
        free_out(out);
        free_out(err);
        CHECK_INT((int)json_array_size(log.reports), 8);
        for (page = 0; page <= 5; page++)
            check_report(log.reports, (size_t)page, "markets", page, 5);
        check_report(log.reports, 6, "global", 0, 1);
        check_report(log.reports, 7, "global", 1, 1);
        cf_engine_close(engine);
    }
    json_decref(log.reports);
    server_reset();
}

void test_progress_null_function_turns_it_off(void) {
    cf_engine *engine;
    char *out = SENTINEL, *err = SENTINEL;
    int calls = 0;
    REQUIRE_SERVER();
    server_reset();
    engine = paged_engine(10);
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_set_progress(engine, count_calls, &calls, &err), CF_OK, err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);
    CHECK_INT(calls, 4); /* markets 0/1, 1/1; global 0/1, 1/1 */
    out = SENTINEL;
    err = SENTINEL;
    CHECK_STATUS(cf_engine_set_progress(engine, NULL, &calls, &err), CF_OK, err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);
    CHECK_INT(calls, 4);
    cf_engine_close(engine);
}

void test_progress_null_engine_is_invalid_argument(void) {
    char *err = SENTINEL;
    int status = cf_engine_set_progress(NULL, count_calls, NULL, &err);
    CHECK_STATUS(status, CF_INVALID_ARGUMENT, err);
    json_decref(CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT));
    free_out(err);
    CHECK_INT(cf_engine_set_progress(NULL, NULL, NULL, NULL), CF_INVALID_ARGUMENT);
}

/* A progress function that, at the start of the /global request, calls refresh_prices,
 * refresh and load on the engine it is reporting for, and records each status and reason. */
struct nested_calls {
    cf_engine *engine;
    int statuses[3];
    char reasons[3][32];
    int calls;
};

static void call_back_in(const char *progress_json, void *user) {
    struct nested_calls *nested = user;
    char *out = NULL, *err = NULL;
    const char *reason;
    int which;
    if (strstr(progress_json, "\"phase\":\"global\",\"done\":0") == NULL || nested->calls > 0)
        return;
    for (which = 0; which < 3; which++) {
        json_t *error;
        out = NULL;
        err = NULL;
        if (which == 0)
            nested->statuses[0] = cf_engine_refresh_prices(nested->engine, &out, &err);
        else if (which == 1)
            nested->statuses[1] = cf_engine_refresh(nested->engine, &out, &err);
        else
            nested->statuses[2] = cf_engine_load(
                nested->engine, "[{\"id\":\"x\",\"symbol\":\"x\",\"name\":\"X\"}]", NULL, &err);
        error = err ? json_parse_raw(err, strlen(err)) : NULL;
        reason = json_str(json_object_get(error, "details"), "reason");
        snprintf(nested->reasons[which], sizeof nested->reasons[which], "%s", reason ? reason : "none");
        json_decref(error);
        free_out(out);
        free_out(err);
    }
    nested->calls++;
}

/* Before: the nested calls stopped the process ("Recursive call to lock Mutex"). */
void test_progress_nested_refresh_work_is_refused_not_a_crash(void) {
    struct nested_calls nested;
    char *out = SENTINEL, *err = SENTINEL;
    int which;
    REQUIRE_SERVER();
    server_reset();
    memset(&nested, 0, sizeof nested);
    nested.engine = paged_engine(10);
    if (nested.engine == NULL)
        return;
    CHECK_STATUS(cf_engine_set_progress(nested.engine, call_back_in, &nested, &err), CF_OK, err);
    err = SENTINEL;
    CHECK_STATUS(cf_engine_refresh(nested.engine, &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);
    CHECK_INT(nested.calls, 1);
    for (which = 0; which < 3; which++) {
        CHECK_INT(nested.statuses[which], CF_INVALID_ARGUMENT);
        CHECK_STR(nested.reasons[which], "reentrant");
    }
    cf_engine_close(nested.engine);
}
