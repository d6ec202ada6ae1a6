/* test_strict.c — one strict JSON reader through the C ABI (issue 23 §5, issue 31 finding 6):
 * the chart reader (cf_decode_market_chart, cf_chart_svg) and the transaction reader
 * (cf_engine_add_transaction) refuse a lone surrogate, a number beyond ±1.8e308 and nesting past
 * 512 in members they do not read, with the reasons of CF_REASON_*; a key given twice reads as
 * its later member; a leap second in a timestamp is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* Checks that *err_ptr carries details.reason `reason`, then frees it (err_ptr is read after the
 * call: argument evaluation order is unspecified in C). */
static void check_reason_and_free(int status, char **err_ptr, const char *reason, const char *what) {
    json_t *object;
    const char *got;
    char *err = *err_ptr;
    tf_check(status == CF_INVALID_ARGUMENT, __FILE__, __LINE__, "%s: refused (status %d)", what, status);
    object = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    got = json_str(json_object_get(object, "details"), "reason");
    tf_check(got != NULL && strcmp(got, reason) == 0, __FILE__, __LINE__, "%s: reason %s (got %s)", what, reason,
             got ? got : "none");
    CHECK(json_is_number(json_object_get(json_object_get(object, "details"), "offset")));
    json_decref(object);
    free_out(err);
}

/* "{" prefix, then 513 nested arrays, then suffix. */
static char *too_deep(const char *prefix, const char *suffix) {
    size_t length = strlen(prefix) + 2 * 513 + strlen(suffix) + 1, at;
    char *text = malloc(length);
    int k;
    if (text == NULL)
        return NULL;
    strcpy(text, prefix);
    at = strlen(prefix);
    for (k = 0; k < 513; k++)
        text[at++] = '[';
    for (k = 0; k < 513; k++)
        text[at++] = ']';
    strcpy(text + at, suffix);
    return text;
}

void test_the_chart_reader_is_strict(void) {
    char *out = SENTINEL, *err = SENTINEL;
    char *deep_body = too_deep("{\"extra\":", ",\"prices\":[[1,2]]}");
    char *deep_chart = too_deep("{\"extra\":", ",\"points\":[[1,2]]}");
    json_t *chart;

    check_reason_and_free(cf_decode_market_chart("{\"note\":\"\\udc00\",\"prices\":[[1,2]]}", &out, &err), &err,
                          CF_REASON_LONE_SURROGATE, "a lone surrogate in a member nobody reads");
    CHECK(out == NULL);
    err = SENTINEL;
    check_reason_and_free(cf_decode_market_chart("{\"note\":1e400,\"prices\":[[1,2]]}", &out, &err), &err,
                          CF_REASON_NUMBER_OUT_OF_RANGE, "1e400 in a member nobody reads");
    err = SENTINEL;
    check_reason_and_free(cf_decode_market_chart("{\"prices\":[[1,-2e308]]}", &out, &err), &err,
                          CF_REASON_NUMBER_OUT_OF_RANGE, "-2e308 as a price");
    err = SENTINEL;
    if (CHECK(deep_body != NULL))
        check_reason_and_free(cf_decode_market_chart(deep_body, &out, &err), &err, CF_REASON_TOO_DEEP, "513 levels");
    err = SENTINEL;
    check_reason_and_free(cf_chart_svg("{\"title\":\"\\ud800\",\"points\":[[1,2]]}", NULL, &out, &err), &err,
                          CF_REASON_LONE_SURROGATE, "a lone surrogate in chart JSON");
    err = SENTINEL;
    check_reason_and_free(cf_chart_svg("{\"points\":[[1,2,1e400]]}", NULL, &out, &err), &err,
                          CF_REASON_NUMBER_OUT_OF_RANGE, "1e400 in a point's third member");
    err = SENTINEL;
    if (CHECK(deep_chart != NULL))
        check_reason_and_free(cf_chart_svg(deep_chart, NULL, &out, &err), &err, CF_REASON_TOO_DEEP, "513 levels of chart");

    /* A key given twice: the later member. */
    err = NULL;
    if (CHECK_STATUS(cf_decode_market_chart("{\"prices\":[[1,1]],\"prices\":[[2,2]]}", &out, &err), CF_OK, err)) {
        chart = PARSE_JSON(out);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(json_object_get(chart, "prices"), 0), 0)), 2, 0);
        json_decref(chart);
        free_out(out);
    }
    free(deep_body);
    free(deep_chart);
}

void test_the_transaction_reader_is_strict(void) {
    cf_engine *engine = open_engine(NULL);
    char *out = SENTINEL, *err = SENTINEL;
    char *deep = too_deep("{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"x\":", "}");
    json_t *stored;
    if (!CHECK(engine != NULL))
        return;
    check_reason_and_free(
        cf_engine_add_transaction(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"x\":1e400}",
                                  &out, &err),
        &err, CF_REASON_NUMBER_OUT_OF_RANGE, "1e400 in an unknown field");
    err = SENTINEL;
    check_reason_and_free(
        cf_engine_add_transaction(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"x\":\"\\udfff\"}",
                                  &out, &err),
        &err, CF_REASON_LONE_SURROGATE, "a lone surrogate in an unknown field");
    err = SENTINEL;
    if (CHECK(deep != NULL))
        check_reason_and_free(cf_engine_add_transaction(engine, deep, &out, &err), &err, CF_REASON_TOO_DEEP, "513 levels");
    err = NULL;
    if (CHECK_STATUS(cf_engine_transactions(engine, NULL, &out, &err), CF_OK, err)) {
        stored = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(stored, "total"), 0, 0); /* nothing written */
        json_decref(stored);
        free_out(out);
    }
    /* The later amount; a leap second reads as the last millisecond of its minute. */
    if (CHECK_STATUS(cf_engine_add_transaction(engine,
                                               "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,"
                                               "\"amount\":\"2.5\",\"timestamp\":\"2016-12-31T15:59:60-08:00\"}",
                                               &out, &err),
                     CF_OK, err)) {
        stored = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(stored, "amount"), 2.5, 0);
        CHECK_STR(json_str(stored, "timestamp"), "2016-12-31T23:59:59.999Z");
        json_decref(stored);
        free_out(out);
    }
    free(deep);
    cf_engine_close(engine);
}
