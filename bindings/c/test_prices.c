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

/* 00:00 UTC `days` days before today, in UNIX seconds. Today is read once per process (each test
 * runs in a child of its own, unless CF_TEST_NO_FORK): a test running across a UTC midnight would
 * otherwise write its rows counting from one day and compute what it expects from the next. */
static long long day_start(int days) {
    static long long today = -1;
    if (today < 0)
        today = (long long)time(NULL) / 86400;
    return (today - days) * 86400;
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

/* Within a day of now CoinGecko gives 5-minute points (the server's at hh:mm:30); baby-doge-coin's
 * 2.6e-13 usd keeps its digits. */
void test_client_market_chart_range_five_minute_points_and_a_tiny_price(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    char *out = SENTINEL, *err = SENTINEL;
    /* an hour ending on a 5-minute mark holds exactly 12 points (:00:30, :05:30, …); one ending at
     * mm:00:30 itself would hold 13, so the end is not left to the clock */
    long long end = (long long)time(NULL) / 300 * 300, day = day_start(3);
    size_t i;
    json_t *point;
    if (CHECK_STATUS(cf_client_market_chart_range(client, "tether", fmt_path("{\"from\":%lld,\"to\":%lld}", end - 3600, end), &out, &err),
                     CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        json_t *prices = json_object_get(chart, "prices");
        CHECK_INT((long long)json_array_size(prices), 12);
        json_array_foreach(prices, i, point) {
            CHECK_INT(((long long)json_number_value(json_array_get(point, 0)) / 1000) % 300, 30);
            CHECK_DOUBLE(json_number_value(json_array_get(point, 1)), 1, 0);
        }
        json_decref(chart);
        free_out(out);
    } else {
        free_out(err);
    }
    out = SENTINEL;
    if (CHECK_STATUS(cf_client_market_chart_range(client, "baby-doge-coin", fmt_path("{\"from\":%lld,\"to\":%lld}", day, day + 3600),
                                                  &out, &err),
                     CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(json_object_get(chart, "prices"), 0), 1)), 2.6e-13, 0);
        json_decref(chart);
        free_out(out);
    } else {
        free_out(err);
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

/* ------------------------------------------------------------------ the engine: price_at, set_price */

/* An engine on a database no other test's price points reach, talking to the loopback server. */
static cf_engine *price_engine(void) {
    const char *database = tf_private_database("prices.sqlite");
    if (database == NULL)
        return NULL;
    return open_engine(json_pack("{s:s, s:s, s:o}", "database", database, "owner", "prices", "api", api_config(0, 5000)));
}

/* The RFC 3339 text of t_ms (UTC, whole seconds). */
static const char *rfc3339(long long t_ms) {
    time_t seconds = (time_t)(t_ms / 1000);
    struct tm utc;
    char text[32];
    gmtime_r(&seconds, &utc);
    strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return fmt_path("%s", text);
}

/* price_at of coin at t_ms; returns the parsed answer (caller json_decref()s) when the status
 * is `expected` and CF_OK, else NULL; for other statuses, *reason gets details.reason (static). */
static json_t *price_at(cf_engine *engine, const char *coin, long long t_ms, int expected, const char **reason) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer = NULL;
    int status = cf_engine_price_at(engine, fmt_path("{\"coin_id\":\"%s\",\"timestamp\":\"%s\"}", coin, rfc3339(t_ms)), &out, &err);
    if (!CHECK_STATUS(status, expected, err)) {
        free_out(err);
        return NULL;
    }
    if (status == CF_OK) {
        answer = PARSE_JSON(out);
        free_out(out);
    } else {
        static char text[64];
        json_t *error = CHECK_ERROR_JSON(err, expected);
        snprintf(text, sizeof text, "%s", json_str(json_object_get(error, "details"), "reason") ? json_str(json_object_get(error, "details"), "reason") : "");
        *reason = text;
        json_decref(error);
        free_out(err);
    }
    return answer;
}

void test_engine_price_at_lookup_order(void) {
    const long long hour = 3600000, minute = 60000;
    long long day = day_start(10) * 1000;
    json_t *answer;
    char *err = SENTINEL;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    /* Nothing stored: one request for the day, then the 12:02 point (110 + 12). */
    answer = price_at(engine, "ethereum", day + 12 * hour + 30 * minute, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 122, 0);
        CHECK_DOUBLE(json_num(answer, "at"), (double)(day + 12 * hour + 2 * minute), 0);
        CHECK_STR(json_str(answer, "source"), "coingecko");
        CHECK_STR(json_str(answer, "vs_currency"), "usd");
        CHECK_STR(json_str(answer, "timestamp"), rfc3339(day + 12 * hour + 30 * minute));
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 1);
    /* Stored: the point at or before 15:00 is 14:02; at 00:01 the first after it, 00:02. */
    answer = price_at(engine, "ethereum", day + 15 * hour, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 124, 0);
        json_decref(answer);
    }
    answer = price_at(engine, "ethereum", day + minute, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 110, 0);
        CHECK_DOUBLE(json_num(answer, "at"), (double)(day + 2 * minute), 0);
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 1);
    /* A manual point of the day wins. */
    CHECK_STATUS(cf_engine_set_price(engine, fmt_path("{\"coin_id\":\"ethereum\",\"timestamp\":\"%s\",\"price\":\"99.125\"}",
                                                      rfc3339(day + 10 * hour)),
                                     &err),
                 CF_OK, err);
    free_out(err);
    answer = price_at(engine, "ethereum", day + 12 * hour, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 99.125, 0);
        CHECK_STR(json_str(answer, "source"), "manual");
        CHECK_DOUBLE(json_num(answer, "at"), (double)(day + 10 * hour), 0);
        json_decref(answer);
    }
    cf_engine_close(engine);
}

/* The snapshot answers within an hour of the coin's last_updated, with at = last_updated; an hour
 * and a minute later the day is fetched (06:02's 110 + 6 is the point at or before 07:01). */
void test_engine_price_at_snapshot_within_the_hour(void) {
    const long long hour = 3600000, minute = 60000;
    long long updated = day_start(3) * 1000 + 6 * hour;
    char *err = SENTINEL;
    json_t *answer;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    const char *body = fmt_path("[{\"id\":\"ethereum\",\"symbol\":\"eth\",\"name\":\"Ethereum\",\"current_price\":3000.5,"
                                "\"last_updated\":\"%s\"}]",
                                rfc3339(updated));
    if (!CHECK_STATUS(cf_engine_load(engine, body, NULL, &err), CF_OK, err)) {
        free_out(err);
        cf_engine_close(engine);
        return;
    }
    answer = price_at(engine, "ethereum", updated + 59 * minute, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 3000.5, 0);
        CHECK_DOUBLE(json_num(answer, "at"), (double)updated, 0);
        CHECK_STR(json_str(answer, "source"), "snapshot");
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 0);
    answer = price_at(engine, "ethereum", updated + hour + minute, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 116, 0);
        CHECK_STR(json_str(answer, "source"), "coingecko");
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 1);
    cf_engine_close(engine);
}

void test_engine_price_at_no_data_reasons(void) {
    const char *reason = NULL;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    price_at(engine, "ethereum", day_start(400) * 1000, CF_NO_DATA, &reason);
    CHECK_STR(reason, "history_limit");
    price_at(engine, "ethereum", ((long long)time(NULL) + 7200) * 1000, CF_NO_DATA, &reason);
    CHECK_STR(reason, "no_point");
    CHECK_INT(server_endpoint_count("market_chart_range"), 0);
    price_at(engine, "no-such-coin", day_start(5) * 1000, CF_NO_DATA, &reason);
    CHECK_STR(reason, "unknown_coin");
    price_at(engine, "boringdao-[old]", day_start(5) * 1000, CF_NO_DATA, &reason);
    CHECK_STR(reason, "no_point");
    queue_fault("/api/v3/coins/tether/market_chart/range", 500, 1, NULL, "{}");
    price_at(engine, "tether", day_start(6) * 1000, CF_HTTP, &reason);
    cf_engine_close(engine);
}

void test_engine_price_bad_input_changes_nothing(void) {
    char when[32];
    char *out = SENTINEL, *err = SENTINEL;
    size_t i;
    json_t *answer;
    snprintf(when, sizeof when, "%s", rfc3339(day_start(4) * 1000));
    /* fmt_path's buffers rotate: each array element is used before too many others are made. */
    const char *query_formats[] = {
        "{\"coin_id\":\"ethereum\",\"timestamp\":\"1969-12-31T23:59:59Z\"}",
        "{\"coin_id\":\"ethereum\",\"timestamp\":\"10000-01-01\"}",
        "{\"coin_id\":\"ethereum\",\"timestamp\":\"%s\",\"vs_currency\":\"xyz\"}",
        "{\"coin_id\":\"a/b\",\"timestamp\":\"%s\"}",
        "{\"coin_id\":\"ethereum\"}",
        "{",
    };
    const char *setting_formats[] = {
        "{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":-1}",
        "{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":\"NaN\"}",
        "{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":1e400}",
        "{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":\"0.0000000000000000001\"}",
        "{\"coin_id\":\"tether\",\"timestamp\":\"1969-12-31\",\"price\":1}",
        "{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":1,\"vs_currency\":\"xyz\"}",
        "{\"coin_id\":\"a/b\",\"timestamp\":\"%s\",\"price\":1}",
    };
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    for (i = 0; i < sizeof query_formats / sizeof query_formats[0]; i++) {
        CHECK_STATUS(cf_engine_price_at(engine, fmt_path(query_formats[i], when), &out, &err), CF_INVALID_ARGUMENT, err);
        CHECK(out == NULL);
        free_out(err);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 0);
    CHECK_STATUS(cf_engine_set_price(engine, fmt_path("{\"coin_id\":\"tether\",\"timestamp\":\"%s\",\"price\":1.5}", when), &err),
                 CF_OK, err);
    for (i = 0; i < sizeof setting_formats / sizeof setting_formats[0]; i++) {
        CHECK_STATUS(cf_engine_set_price(engine, fmt_path(setting_formats[i], when), &err), CF_INVALID_ARGUMENT, err);
        free_out(err);
    }
    CHECK_STATUS(cf_engine_set_price(engine, NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_set_price(NULL, "{}", &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_price_at(engine, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    answer = price_at(engine, "tether", day_start(4) * 1000, CF_OK, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "price"), 1.5, 0);
        json_decref(answer);
    }
    cf_engine_close(engine);
}

void test_engine_manual_current_price_values_a_coin_the_snapshot_lacks(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *token;
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_set_holding(engine, "my-token", 100, &err), CF_OK, err);
    CHECK_STATUS(cf_engine_set_price(engine, "{\"coin_id\":\"my-token\",\"price\":\"0.5\"}", &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        token = json_array_get(json_object_get(answer, "coins"), 0);
        CHECK_STR(json_str(token, "id"), "my-token");
        CHECK_DOUBLE(json_num(token, "current_price"), 0.5, 0);
        CHECK_DOUBLE(json_num(token, "current_holdings_value"), 50, 0);
        CHECK_STR(json_str(token, "price_source"), "manual");
        CHECK_DOUBLE(json_num(answer, "total_value"), 50, 0);
        CHECK_DOUBLE(json_num(answer, "unpriced_holdings"), 0, 0);
        json_decref(answer);
        free_out(out);
    }
    CHECK_STATUS(cf_engine_set_price(engine, "{\"coin_id\":\"my-token\",\"price\":null}", &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        token = json_array_get(json_object_get(answer, "coins"), 0);
        CHECK(json_is_null(json_object_get(token, "price_source")));
        CHECK(json_is_null(json_object_get(answer, "total_value")));
        json_decref(answer);
        free_out(out);
    }
    cf_engine_close(engine);
}

/* P&L values a coin the snapshot lacks with the manual current price: 100 my-token bought at 0.4
 * are worth 50 at 0.5, unrealized 10 (the Unrealized P&L statistic too). */
void test_engine_pnl_uses_a_manual_current_price(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *coin, *statistic;
    size_t i;
    int seen = 0;
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_add_transaction(engine,
                                           fmt_path("{\"coin_id\":\"my-token\",\"kind\":\"buy\",\"amount\":100,\"price\":0.4,"
                                                    "\"timestamp\":\"%s\"}",
                                                    rfc3339(day_start(2) * 1000)),
                                           &out, &err),
                 CF_OK, err);
    free_out(out);
    CHECK_STATUS(cf_engine_set_price(engine, "{\"coin_id\":\"my-token\",\"price\":\"0.5\"}", &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_pnl(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        coin = json_array_get(json_object_get(answer, "coins"), 0);
        CHECK_STR(json_str(coin, "coin_id"), "my-token");
        CHECK_DOUBLE(json_num(coin, "current_price"), 0.5, 0);
        CHECK_STR(json_str(coin, "price_source"), "manual");
        CHECK_DOUBLE(json_num(coin, "current_value"), 50, 0);
        CHECK_DOUBLE(json_num(coin, "unrealized_pnl"), 10, 0);
        json_decref(answer);
        free_out(out);
    }
    CHECK_STATUS(cf_engine_load(engine, "[{\"id\":\"ethereum\",\"symbol\":\"eth\",\"name\":\"Ethereum\",\"current_price\":3000.5}]",
                                NULL, &err),
                 CF_OK, err);
    if (CHECK_STATUS(cf_engine_statistics(engine, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        json_array_foreach(json_object_get(answer, "statistics"), i, statistic) {
            if (strcmp(json_str(statistic, "title"), "Unrealized P&L") == 0) {
                CHECK_STR(json_str(statistic, "value"), "$10.00");
                seen = 1;
            }
        }
        CHECK(seen);
        json_decref(answer);
        free_out(out);
    }
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ fill_prices */

/* count staking rewards of 1 unit without a price, cycling through coins, at 12:30 on days going
 * forward from first_day days ago (two rows of three share a day). */
static void add_pending_income(cf_engine *engine, const char *const *coins, int n_coins, int count, int first_day) {
    int i;
    char *out = SENTINEL, *err = SENTINEL;
    for (i = 0; i < count; i++) {
        long long when = (day_start(first_day) + (long long)(i * 2 / 3) * 86400) * 1000 + 12 * 3600000LL + 30 * 60000LL;
        const char *json = fmt_path("{\"coin_id\":\"%s\",\"kind\":\"income\",\"amount\":1,\"income_type\":\"staking\","
                                    "\"timestamp\":\"%s\"}",
                                    coins[i % n_coins], rfc3339(when));
        if (!CHECK_STATUS(cf_engine_add_transaction(engine, json, &out, &err), CF_OK, err)) {
            free_out(err);
            return;
        }
        free_out(out);
    }
}

static json_t *fill(cf_engine *engine, const char *options) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer = NULL;
    if (CHECK_STATUS(cf_engine_fill_prices(engine, options, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        free_out(out);
    } else {
        free_out(err);
    }
    return answer;
}

void test_engine_fill_prices_300_rows_3_coins_200_days_3_requests(void) {
    static const char *const coins[] = {"bitcoin", "ethereum", "dogecoin"};
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *rows, *row;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    add_pending_income(engine, coins, 3, 300, 201);
    answer = fill(engine, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "filled"), 300, 0);
        CHECK_DOUBLE(json_num(answer, "requests"), 3, 0);
        CHECK_INT(json_array_size(json_object_get(answer, "missing")), 0);
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 3);
    if (CHECK_STATUS(cf_engine_transactions(engine, "{\"limit\":1000}", &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        rows = json_object_get(answer, "transactions");
        CHECK_INT(json_array_size(rows), 300);
        json_array_foreach(rows, i, row) {
            const char *coin = json_str(row, "coin_id");
            double expected = strcmp(coin, "bitcoin") == 0 ? 40000 : strcmp(coin, "ethereum") == 0 ? 110 : 0.1;
            CHECK_DOUBLE(json_num(row, "price"), expected, 0);
            CHECK_STR(json_str(row, "price_source"), "coingecko");
            CHECK_INT((long long)json_num(row, "price_at") % 86400000LL, 0); /* the day's daily point */
        }
        json_decref(answer);
        free_out(out);
    }
    cf_engine_close(engine);
}

void test_engine_fill_prices_429_retry_after_119_stops_and_the_next_sends_nothing(void) {
    static const char *const coins[] = {"bitcoin", "ethereum"};
    json_t *headers = json_pack("{s:s}", "Retry-After", "119"), *answer, *missing, *entry;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL) {
        json_decref(headers);
        return;
    }
    add_pending_income(engine, coins, 2, 4, 20);
    queue_fault("/api/v3/coins/bitcoin/market_chart/range", 429, 1, headers,
                "{\"status\":{\"error_code\":429,\"error_message\":\"rate limit\"}}");
    answer = fill(engine, "{\"max_requests\":20}");
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "filled"), 0, 0);
        CHECK_DOUBLE(json_num(answer, "requests"), 1, 0);
        missing = json_object_get(answer, "missing");
        CHECK_INT(json_array_size(missing), 4);
        json_array_foreach(missing, i, entry) CHECK_STR(json_str(entry, "reason"), "rate_limited");
        CHECK_STR(json_str(json_array_get(missing, 0), "coin_id"), "bitcoin");
        json_decref(answer);
    }
    answer = fill(engine, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "requests"), 0, 0);
        CHECK_STR(json_str(json_array_get(json_object_get(answer, "missing"), 3), "reason"), "rate_limited");
        json_decref(answer);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 1);
    cf_engine_close(engine);
}

void test_engine_fill_prices_converts_a_buy_in_euros(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *row;
    long long when = day_start(6) * 1000 + 30 * 60000LL; /* 00:30: 110 usd and 100 eur */
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    if (CHECK_STATUS(cf_engine_add_transaction(engine,
                                               fmt_path("{\"coin_id\":\"ethereum\",\"kind\":\"buy\",\"amount\":1,\"price\":100,"
                                                        "\"fee\":2,\"price_currency\":\"eur\",\"timestamp\":\"%s\"}",
                                                        rfc3339(when)),
                                               &out, &err),
                     CF_OK, err)) {
        row = PARSE_JSON(out);
        CHECK(json_is_null(json_object_get(row, "price")));
        CHECK_STR(json_str(row, "price_source"), "pending");
        CHECK_DOUBLE(json_num(row, "original_price"), 100, 0);
        json_decref(row);
        free_out(out);
    }
    answer = fill(engine, NULL);
    if (answer) {
        CHECK_DOUBLE(json_num(answer, "filled"), 1, 0);
        json_decref(answer);
    }
    if (CHECK_STATUS(cf_engine_transactions(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        row = json_array_get(json_object_get(answer, "transactions"), 0);
        CHECK_DOUBLE(json_num(row, "price"), 110, 0);
        CHECK_DOUBLE(json_num(row, "fee"), 2.2, 1e-12);
        CHECK_DOUBLE(json_num(row, "original_price"), 100, 0);
        CHECK_STR(json_str(row, "price_currency"), "eur");
        CHECK_DOUBLE(json_num(row, "price_at"), (double)(day_start(6) * 1000 + 2 * 60000LL), 0); /* the 00:02 points */
        json_decref(answer);
        free_out(out);
    }
    CHECK_STATUS(cf_engine_fill_prices(engine, "{\"max_requests\":-1}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_fill_prices(engine, "{\"portfolio\":\"nowhere\"}", &out, &err), CF_NOT_FOUND, err);
    free_out(err);
    CHECK_STATUS(cf_engine_fill_prices(NULL, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_fill_prices(engine, NULL, NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    cf_engine_close(engine);
}

void test_engine_pending_price_pnl_is_unknown_with_its_coverage(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *coin;
    long long when = day_start(5) * 1000 + 12 * 3600000LL + 30 * 60000LL;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_add_transaction(engine,
                                           fmt_path("{\"coin_id\":\"ethereum\",\"kind\":\"buy\",\"amount\":1,\"price\":100,"
                                                    "\"timestamp\":\"%s\"}",
                                                    rfc3339(when - 86400000LL)),
                                           &out, &err),
                 CF_OK, err);
    free_out(out);
    CHECK_STATUS(cf_engine_add_transaction(
                     engine, fmt_path("{\"coin_id\":\"ethereum\",\"kind\":\"buy\",\"amount\":1,\"timestamp\":\"%s\"}", rfc3339(when)),
                     &out, &err),
                 CF_OK, err);
    free_out(out);
    if (CHECK_STATUS(cf_engine_pnl(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        coin = json_array_get(json_object_get(answer, "coins"), 0);
        CHECK_DOUBLE(json_num(coin, "cost_basis"), 100, 0); /* the pending unit is left out, never 0 */
        CHECK_DOUBLE(json_num(coin, "cost_basis_coverage"), 0.5, 0);
        json_decref(answer);
        free_out(out);
    }
    answer = fill(engine, NULL);
    json_decref(answer);
    if (CHECK_STATUS(cf_engine_pnl(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        coin = json_array_get(json_object_get(answer, "coins"), 0);
        CHECK_DOUBLE(json_num(coin, "cost_basis"), 222, 0); /* 100 + the 12:02 point, 110 + 12 */
        CHECK_DOUBLE(json_num(coin, "cost_basis_coverage"), 1, 0);
        json_decref(answer);
        free_out(out);
    }
    cf_engine_close(engine);
}

/* cf_engine_performance (SPEC §19) over the points cf_engine_fill_prices fetched (daily at 00:00
 * for a range over 90 days: bitcoin 40,000 usd) and cf_engine_set_price's manual points, as in
 * the Swift suite's PerformancePriceEngineTests, worked by hand: F is 00:00 UTC 300 days ago; two
 * pending buys of 1 bitcoin (F and F+150, 12:30) filled at 40,000; a manual 50,000 on F+100
 * (06:00) beats CoinGecko's 00:00 point; a manual 48,400 at F+151 00:00 ends the range. Values 0,
 * 40,000 …, 96,800; net flows 80,000; gain 16,800; roi and twr 21 %; mwr 132.49 % (40,000
 * (1+r)^(151/365) + 40,000 (1+r)^(1/365) = 96,800); benchmark bitcoin 48,400 ÷ 40,000 − 1. */
void test_engine_performance_reads_filled_and_manual_points(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer, *points;
    long long first = day_start(300) * 1000, day = 86400000LL, offsets[] = {0, 150};
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    for (i = 0; i < 2; i++) {
        long long when = first + offsets[i] * day + 12 * 3600000LL + 30 * 60000LL;
        if (CHECK_STATUS(cf_engine_add_transaction(
                             engine, fmt_path("{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":\"1\",\"timestamp\":\"%s\"}", rfc3339(when)),
                             &out, &err),
                         CF_OK, err))
            free_out(out);
        else
            free_out(err);
    }
    answer = fill(engine, NULL);
    CHECK_DOUBLE(json_num(answer, "filled"), 2, 0);
    CHECK_DOUBLE(json_num(answer, "requests"), 1, 0);
    json_decref(answer);
    CHECK_STATUS(cf_engine_set_price(engine, fmt_path("{\"coin_id\":\"bitcoin\",\"timestamp\":\"%s\",\"price\":\"50000\"}",
                                                      rfc3339(first + 100 * day + 6 * 3600000LL)),
                                     &err),
                 CF_OK, err);
    CHECK_STATUS(cf_engine_set_price(engine, fmt_path("{\"coin_id\":\"bitcoin\",\"timestamp\":\"%s\",\"price\":48400}",
                                                      rfc3339(first + 151 * day)),
                                     &err),
                 CF_OK, err);
    server_reset();
    if (CHECK_STATUS(cf_engine_performance(engine,
                                           fmt_path("{\"range\":{\"from\":\"%s\",\"to\":\"%s\"},\"benchmark\":\"bitcoin\"}",
                                                    rfc3339(first), rfc3339(first + 151 * day)),
                                           &out, &err),
                     CF_OK, err)) {
        answer = PARSE_JSON(out);
        points = json_object_get(answer, "points");
        CHECK_INT((int)json_array_size(points), 152);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(points, 0), 1)), 0, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(points, 1), 1)), 40000, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(points, 100), 1)), 50000, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(points, 150), 1)), 40000, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(points, 151), 1)), 96800, 0);
        CHECK_DOUBLE(json_num(answer, "coverage"), 1, 0);
        CHECK_INT((int)json_array_size(json_object_get(answer, "missing")), 0);
        CHECK_DOUBLE(json_num(answer, "start_value"), 0, 0);
        CHECK_DOUBLE(json_num(answer, "end_value"), 96800, 0);
        CHECK_DOUBLE(json_num(answer, "net_flows"), 80000, 0);
        CHECK_DOUBLE(json_num(answer, "gain"), 16800, 0);
        CHECK_DOUBLE(json_num(answer, "roi"), 21, 1e-9);
        CHECK_DOUBLE(json_num(answer, "twr"), 21, 1e-9);
        CHECK_DOUBLE(json_num(answer, "mwr"), 132.49, 0.005);
        CHECK_DOUBLE(json_num(json_object_get(answer, "benchmark"), "change"), 21, 1e-9);
        json_decref(answer);
        free_out(out);
    } else {
        free_out(err);
    }
    CHECK_INT(server_endpoint_count("market_chart_range"), 0); /* performance never sends a request */
    cf_engine_close(engine);
}

/* A token CoinGecko does not list, bought 3 days ago at 0.25, its current price set by hand at
 * 0.5: a range ending now ends at 100 × 0.5 = 50 (as cf_engine_pnl values it); the days before
 * have no point, so coverage < 1. */
void test_engine_performance_ends_at_the_manual_current_price(void) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *answer;
    long long now_ms = (long long)time(NULL) * 1000;
    cf_engine *engine = price_engine();
    if (engine == NULL)
        return;
    if (CHECK_STATUS(cf_engine_add_transaction(engine,
                                               fmt_path("{\"coin_id\":\"my-token\",\"kind\":\"buy\",\"amount\":100,\"price\":\"0.25\","
                                                        "\"timestamp\":\"%s\"}",
                                                        rfc3339(now_ms - 3 * 86400000LL)),
                                               &out, &err),
                     CF_OK, err))
        free_out(out);
    else
        free_out(err);
    CHECK_STATUS(cf_engine_set_price(engine, "{\"coin_id\":\"my-token\",\"price\":\"0.5\"}", &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_performance(engine, "{\"range\":\"7d\"}", &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(answer, "end_value"), 50, 0);
        CHECK(json_num(answer, "coverage") < 1);
        json_decref(answer);
        free_out(out);
    } else {
        free_out(err);
    }
    CHECK_STATUS(cf_engine_set_price(engine, "{\"coin_id\":\"my-token\",\"price\":null}", &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_performance(engine, "{\"range\":\"7d\"}", &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        CHECK(json_is_null(json_object_get(answer, "end_value")));
        json_decref(answer);
        free_out(out);
    } else {
        free_out(err);
    }
    cf_engine_close(engine);
}
