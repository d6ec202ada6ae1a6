/*
 * test_prices.c — SPEC §17 through the C ABI: cf_client_market_chart_range against the loopback
 * server's range route (Tests/server/PROTOCOL.md: ethereum is worth 110 + 1 usd per hour of the
 * day, UTC; hourly points at hh:02:00, daily ones at 00:00:00).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_support.h"
#include "tests.h"

/* 00:00 UTC `days` days before today, in UNIX seconds. */
static long long day_start(int days) {
    long long now = (long long)time(NULL);
    return (now / 86400 - days) * 86400;
}

void test_client_market_chart_range_hourly_points_and_query(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    char *out = SENTINEL, *err = SENTINEL;
    long long day = day_start(10);
    const char *request = fmt_path("{\"vs_currency\":\"usd\",\"from\":%lld,\"to\":%lld}", day, day + 86400);
    int status = cf_client_market_chart_range(client, "ethereum", request, &out, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        json_t *prices = json_object_get(chart, "prices");
        CHECK_INT(json_array_size(prices), 24);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(prices, 0), 0)), (double)(day + 120) * 1000, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(prices, 0), 1)), 110, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(prices, 23), 1)), 133, 0);
        json_decref(chart);
    }
    free_out(out);
    json_t *log = server_log();
    json_t *query = json_object_get(logged_request(log, "/api/v3/coins/ethereum/market_chart/range", 0), "query");
    CHECK_STR(json_str(query, "from"), fmt_path("%lld", day));
    CHECK_STR(json_str(query, "to"), fmt_path("%lld", day + 86400));
    CHECK_STR(json_str(query, "vs_currency"), "usd");
    CHECK_STR(json_str(query, "precision"), "full");
    json_decref(log);
    CHECK_INT(server_endpoint_count("market_chart_range"), 1);

    /* RFC 3339 text is sent as UNIX seconds. */
    out = SENTINEL;
    server_reset();
    status = cf_client_market_chart_range(client, "bitcoin",
                                          "{\"vs_currency\":\"eur\",\"from\":\"2026-11-01\",\"to\":\"2026-11-01T00:30:00.5+00:00\"}",
                                          &out, &err);
    /* 2026-11-01 lies within the plan's year only while the machine's clock says 2027-10 or earlier. */
    if (status == CF_OK)
        free_out(out);
    else
        free_out(err);
    log = server_log();
    query = json_object_get(logged_request(log, "/api/v3/coins/bitcoin/market_chart/range", 0), "query");
    CHECK_STR(json_str(query, "from"), "1793491200");
    CHECK_STR(json_str(query, "to"), "1793493001");
    json_decref(log);
    cf_client_close(client);
}

void test_client_market_chart_range_plan_limit_and_unknown_coin(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    char *out = SENTINEL, *err = SENTINEL;
    long long old = day_start(400);
    int status = cf_client_market_chart_range(client, "ethereum",
                                              fmt_path("{\"from\":%lld,\"to\":%lld}", old, old + 86400), &out, &err);
    CHECK_STATUS(status, CF_UNAUTHORIZED, err);
    CHECK(out == NULL);
    json_t *error = CHECK_ERROR_JSON(err, CF_UNAUTHORIZED);
    CHECK_DOUBLE(json_num(json_object_get(error, "details"), "error_code"), 10012, 0);
    json_decref(error);
    free_out(err);

    long long day = day_start(5);
    status = cf_client_market_chart_range(client, "no-such-coin", fmt_path("{\"from\":%lld,\"to\":%lld}", day, day + 60),
                                          &out, &err);
    CHECK_STATUS(status, CF_NOT_FOUND, err);
    free_out(err);
    status = cf_client_market_chart_range(client, "boringdao-[old]", fmt_path("{\"from\":%lld,\"to\":%lld}", day, day + 86400),
                                          &out, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(chart, "prices")), 0);
        json_decref(chart);
        free_out(out);
    }
    cf_client_close(client);
}

void test_client_market_chart_range_refuses_bad_input_unsent(void) {
    static const char *bad[] = {
        "{\"from\":-1,\"to\":10}",          "{\"from\":10,\"to\":253402300800}", "{\"from\":20,\"to\":10}",
        "{\"from\":1.5,\"to\":10}",         "{\"from\":\"yesterday\",\"to\":10}", "{\"to\":10}",
        "{\"from\":10}",                    "{\"from\":true,\"to\":10}",          "{\"from\":1e400,\"to\":10}",
        "{\"from\":10,\"to\":20,\"vs_currency\":\"u$d\"}", "[]",                  "{",
        "",
    };
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    char *out = SENTINEL, *err = SENTINEL;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_STATUS(cf_client_market_chart_range(client, "ethereum", bad[i], &out, &err), CF_INVALID_ARGUMENT, err);
        CHECK(out == NULL);
        free_out(err);
    }
    CHECK_STATUS(cf_client_market_chart_range(client, "a/b", "{\"from\":1,\"to\":2}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_client_market_chart_range(client, "ethereum", NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_client_market_chart_range(client, NULL, "{\"from\":1,\"to\":2}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_client_market_chart_range(NULL, "ethereum", "{\"from\":1,\"to\":2}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_client_market_chart_range(client, "ethereum", "{\"from\":1,\"to\":2}", NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_INT(server_endpoint_count("market_chart_range"), 0);
    cf_client_close(client);
}
