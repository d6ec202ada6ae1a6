/*
 * test_charts.c — SPEC §11 through the C ABI: market charts, simple prices, the portfolio's
 * week, refresh_prices and cf_chart_svg. Every SVG is checked by Tests/tools/svg_check.py (a
 * real XML parser, then rsvg-convert to PNG); the tests look for the line colour's pixels.
 */
#define _POSIX_C_SOURCE 200809L /* popen */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

#define GREEN "#16c784"
#define RED "#ea3943"

static const char *RISING =
    "{\"vs_currency\":\"usd\",\"points\":[[1734000000000,100000],[1734003600000,101000.5],"
    "[1734007200000,null],[1734010800000,99500.25],[1734014400000,102000],[1734018000000,103500.75]]}";

static cf_engine *chart_engine(void) {
    return open_engine(json_pack("{s:s, s:o}", "database", ":memory:", "api", api_config(0, 5000)));
}

static int load_markets(cf_engine *engine) {
    char *markets = read_file(fmt_path("%s/Tests/fixtures/coingecko/markets.json", tf_repo_root), NULL);
    char *err = NULL;
    int ok = CHECK(markets != NULL) && CHECK_STATUS(cf_engine_load(engine, markets, NULL, &err), CF_OK, err);
    free_out(err);
    free(markets);
    return ok;
}

/* Runs svg_check.py over svg; the report, or NULL (a failure is recorded). */
json_t *render_svg(const char *svg) {
    const char *path = temp_path("chart.svg");
    FILE *file = fopen(path, "wb");
    if (!CHECK(file != NULL))
        return NULL;
    fputs(svg, file);
    fclose(file);
    char command[8192];
    snprintf(command, sizeof command, "python3 '%s/Tests/tools/svg_check.py' '%s'", tf_repo_root, path);
    FILE *pipe = popen(command, "r");
    if (!CHECK(pipe != NULL))
        return NULL;
    size_t capacity = 1 << 16, length = 0;
    char *output = malloc(capacity);
    size_t got;
    while (output && (got = fread(output + length, 1, capacity - length - 1, pipe)) > 0) {
        length += got;
        if (length + 1 == capacity) {
            char *bigger = realloc(output, capacity *= 2);
            if (!bigger) { free(output); output = NULL; }
            output = bigger;
        }
    }
    int status = pclose(pipe);
    json_t *report = NULL;
    CHECK_INT(status, 0);
    if (CHECK(output != NULL) && status == 0) {
        output[length] = 0;
        report = PARSE_JSON(output);
    }
    free(output);
    return report;
}

static json_t *colour(json_t *report, const char *name) {
    return json_object_get(json_object_get(report, "colours"), name);
}

static int colour_count(json_t *report, const char *name) {
    return (int)json_number_value(json_object_get(colour(report, name), "count"));
}

char *chart_svg(const char *chart, const char *options) {
    char *svg = SENTINEL, *err = SENTINEL;
    int status = cf_chart_svg(chart, options, &svg, &err);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    CHECK(err == NULL);
    return svg;
}

void test_decode_market_chart_keeps_null_points_as_gaps(void) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_decode_market_chart(
        "{\"prices\":[[1000,1.5],[2000,null],[3000,\"2.25\"]],\"market_caps\":[[1000,null]],\"total_volumes\":[]}",
        &out, &err);
    if (!CHECK_STATUS(status, CF_OK, err))
        return;
    json_t *chart = PARSE_JSON(out);
    json_t *prices = json_object_get(chart, "prices");
    CHECK_INT(json_array_size(prices), 3);
    CHECK(json_is_null(json_array_get(json_array_get(prices, 1), 1)));
    CHECK_DOUBLE(json_number_value(json_array_get(json_array_get(prices, 2), 1)), 2.25, 0);
    CHECK(json_is_null(json_array_get(json_array_get(json_object_get(chart, "market_caps"), 0), 1)));
    CHECK_INT(json_array_size(json_object_get(chart, "total_volumes")), 0);
    json_decref(chart);
    free_out(out);

    out = SENTINEL;
    CHECK_STATUS(cf_decode_market_chart("[]", &out, &err), CF_DECODE, err);
    CHECK(out == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_DECODE));
    free_out(err);
    CHECK_STATUS(cf_decode_market_chart(NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
}

void test_client_market_chart_query_and_plan_limit(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_client_market_chart(client, "bitcoin", "{\"vs_currency\":\"eur\",\"days\":90,\"interval\":\"daily\"}",
                                        &out, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(chart, "prices")), 6);
        json_decref(chart);
    }
    free_out(out);
    json_t *log = server_log();
    json_t *query = json_object_get(logged_request(log, "/api/v3/coins/bitcoin/market_chart", 0), "query");
    CHECK_STR(json_str(query, "days"), "90");
    CHECK_STR(json_str(query, "interval"), "daily");
    CHECK_STR(json_str(query, "vs_currency"), "eur");
    json_decref(log);

    out = SENTINEL;
    status = cf_client_market_chart(client, "bitcoin", "{\"days\":400}", &out, &err);
    CHECK_STATUS(status, CF_UNAUTHORIZED, err);
    CHECK(out == NULL);
    json_t *error = CHECK_ERROR_JSON(err, CF_UNAUTHORIZED);
    CHECK_DOUBLE(json_num(json_object_get(error, "details"), "error_code"), 10012, 0);
    CHECK(json_str(error, "message") && strstr(json_str(error, "message"), "365 days") != NULL);
    json_decref(error);
    free_out(err);
    cf_client_close(client);
}

void test_client_simple_price_splits_and_reads_empty_objects(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_client *client = open_client(api_config(0, 5000));
    json_t *ids = json_pack("[s,s]", "bitcoin", "tether");
    for (int i = 0; i < 300; i++) {
        char id[32];
        snprintf(id, sizeof id, "unknown-%d", i);
        json_array_append_new(ids, json_string(id));
    }
    json_array_append_new(ids, json_string("ethereum"));
    json_t *request_object = json_pack("{s:o}", "ids", ids);
    char *request = json_dumps(request_object, JSON_COMPACT);
    json_decref(request_object);
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_client_simple_price(client, request, &out, &err);
    free(request);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *answer = PARSE_JSON(out);
        json_t *prices = json_object_get(answer, "prices");
        CHECK_INT(json_object_size(prices), 303);
        json_t *bitcoin = json_object_get(prices, "bitcoin");
        CHECK_DOUBLE(json_num(bitcoin, "price"), 58000.5, 0);
        CHECK_DOUBLE(json_num(bitcoin, "change_24h"), 3.25, 0);
        CHECK_DOUBLE(json_num(bitcoin, "last_updated_at"), 1734602400, 0);
        json_t *tether = json_object_get(prices, "tether");
        CHECK(json_is_null(json_object_get(tether, "price")));
        CHECK(json_is_null(json_object_get(tether, "change_24h")));
        CHECK(json_is_null(json_object_get(json_object_get(prices, "ethereum"), "change_24h")));
        json_decref(answer);
    }
    free_out(out);
    json_t *log = server_log();
    CHECK_INT(server_count(log, "/api/v3/simple/price"), 2);
    json_decref(log);
    out = SENTINEL;
    CHECK_STATUS(cf_client_simple_price(client, "{\"ids\":[\"a,b\"]}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    cf_client_close(client);
}

void test_engine_chart_summary_and_clamp(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = chart_engine();
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_chart(engine, "bitcoin", NULL, &out, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(chart, "days"), 7, 0);
        CHECK(json_is_false(json_object_get(chart, "clamped")));
        json_t *summary = json_object_get(chart, "summary");
        CHECK_DOUBLE(json_num(summary, "first"), 100000, 0);
        CHECK_DOUBLE(json_num(summary, "last"), 103500.75, 0);
        CHECK_DOUBLE(json_num(summary, "min"), 99500.25, 0);
        CHECK_DOUBLE(json_num(summary, "min_at"), 1734010800000.0, 0);
        CHECK_DOUBLE(json_num(summary, "max"), 103500.75, 0);
        CHECK_DOUBLE(json_num(summary, "max_at"), 1734018000000.0, 0);
        CHECK_DOUBLE(json_num(summary, "change"), 3500.75, 0);
        CHECK_DOUBLE(json_num(summary, "percentage_change"), 3.50075, 1e-12);
        CHECK(json_is_null(json_array_get(json_array_get(json_object_get(chart, "points"), 2), 1)));
        json_decref(chart);
    }
    free_out(out);

    out = SENTINEL;
    status = cf_engine_chart(engine, "bitcoin", "{\"days\":400}", &out, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(chart, "days"), 365, 0);
        CHECK(json_is_true(json_object_get(chart, "clamped")));
        json_decref(chart);
    }
    free_out(out);
    out = SENTINEL;
    CHECK_STATUS(cf_engine_chart(engine, "bitcoin", "{\"days\":\"max\"}", &out, &err), CF_OK, err);
    free_out(out);
    json_t *log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/bitcoin/market_chart"), 2); /* 7 days, then 365 once */
    CHECK_STR(json_str(json_object_get(logged_request(log, "/api/v3/coins/bitcoin/market_chart", 1), "query"), "days"), "365");
    json_decref(log);

    out = SENTINEL;
    CHECK_STATUS(cf_engine_chart(engine, "no-such-coin", NULL, &out, &err), CF_NOT_FOUND, err);
    free_out(err);
    CHECK_STATUS(cf_engine_chart(engine, "bitcoin", "{\"days\":0}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_chart(engine, NULL, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    cf_engine_close(engine);
}

void test_engine_chart_empty_series_has_null_summary(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = chart_engine();
    char *out = SENTINEL, *err = SENTINEL;
    if (CHECK_STATUS(cf_engine_chart(engine, "boringdao-[old]", NULL, &out, &err), CF_OK, err)) {
        json_t *chart = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(chart, "points")), 0);
        const char *key;
        json_t *value;
        json_object_foreach(json_object_get(chart, "summary"), key, value) {
            tf_check(json_is_null(value), __FILE__, __LINE__, "summary.%s is null", key);
        }
        CHECK_INT(json_object_size(json_object_get(chart, "summary")), 8);
        json_decref(chart);
    }
    free_out(out);
    cf_engine_close(engine);
}

void test_engine_portfolio_history_aligns_sparklines(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = chart_engine();
    char *out = SENTINEL, *err = NULL;
    if (!load_markets(engine))
        return;
    CHECK_STATUS(cf_engine_set_holding(engine, "bitcoin", 0.5, &err), CF_OK, err);
    CHECK_STATUS(cf_engine_set_holding(engine, "tether", 100, &err), CF_OK, err);
    if (CHECK_STATUS(cf_engine_portfolio_history(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *history = PARSE_JSON(out);
        json_t *points = json_object_get(history, "points");
        CHECK_INT(json_array_size(points), 170);
        json_t *last = json_array_get(points, 169), *first = json_array_get(points, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(last, 0)), 1734605095946.0, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(last, 1)), 28600.0815, 1e-9);
        CHECK(json_is_false(json_array_get(last, 2)));
        CHECK_DOUBLE(json_number_value(json_array_get(first, 0)), 1733996695946.0, 0);
        CHECK_DOUBLE(json_number_value(json_array_get(first, 1)), 28397.96405, 1e-9);
        CHECK(json_is_true(json_array_get(first, 2)));
        CHECK(json_is_true(json_array_get(json_array_get(points, 145), 2)));
        CHECK(json_is_false(json_array_get(json_array_get(points, 146), 2)));
        CHECK_STR(json_str(history, "vs_currency"), "usd");

        /* The week as an SVG: green, dated. */
        char *svg = chart_svg(out, "{\"title\":\"Portfolio\"}");
        json_t *report = svg ? render_svg(svg) : NULL;
        if (report) {
            CHECK(colour_count(report, GREEN) > 100);
            json_t *texts = json_object_get(report, "texts");
            CHECK_STR(json_string_value(json_array_get(texts, json_array_size(texts) - 1)), "2024-12-19");
        }
        json_decref(report);
        free_out(svg);
        json_decref(history);
    }
    free_out(out);
    json_t *log = server_log();
    CHECK_INT(json_array_size(json_object_get(log, "requests")), 0);
    json_decref(log);
    cf_engine_close(engine);
}

void test_engine_refresh_prices_is_one_request(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = chart_engine();
    char *out = SENTINEL, *err = NULL;
    CHECK_STATUS(cf_engine_refresh_prices(engine, &out, &err), CF_NO_DATA, err);
    free_out(err);
    if (!load_markets(engine))
        return;
    CHECK_STATUS(cf_engine_set_holding(engine, "bitcoin", 1, &err), CF_OK, err);
    CHECK_STATUS(cf_engine_set_holding(engine, "tether", 1, &err), CF_OK, err);
    out = SENTINEL;
    if (CHECK_STATUS(cf_engine_refresh_prices(engine, &out, &err), CF_OK, err)) {
        json_t *summary = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(summary, "coins"), 1, 0);
        json_decref(summary);
    }
    free_out(out);
    out = SENTINEL;
    if (CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *portfolio = PARSE_JSON(out);
        json_t *coins = json_object_get(portfolio, "coins");
        for (size_t i = 0; i < json_array_size(coins); i++) {
            json_t *coin = json_array_get(coins, i);
            if (json_str(coin, "id") && strcmp(json_str(coin, "id"), "bitcoin") == 0) {
                CHECK_DOUBLE(json_num(coin, "current_price"), 58000.5, 0);
                CHECK_STR(json_str(coin, "last_updated"), "2024-12-19T10:00:00Z");
            } else {
                CHECK_DOUBLE(json_num(coin, "current_price"), 1.0002, 0); /* {}: kept */
            }
        }
        json_decref(portfolio);
    }
    free_out(out);
    json_t *log = server_log();
    CHECK_INT(json_array_size(json_object_get(log, "requests")), 1);
    CHECK_INT(server_count(log, "/api/v3/simple/price"), 1);
    json_decref(log);
    cf_engine_close(engine);
}

void test_chart_svg_rising_is_green_with_breaks_and_labels(void) {
    char *svg = chart_svg(RISING, "{\"width\":640,\"height\":320,\"title\":\"<b>Bitcoin</b> & co\"}");
    if (!svg)
        return;
    CHECK(strstr(svg, "<b>") == NULL);
    json_t *report = render_svg(svg);
    free_out(svg);
    if (!report)
        return;
    json_t *texts = json_object_get(report, "texts");
    const char *expected[] = {"<b>Bitcoin</b> & co", "$104,000.00", "$103,000.00", "$102,000.00", "$101,000.00",
                              "$100,000.00", "$99,000.00", "2024-12-12 10:40", "12:00", "13:00", "14:00",
                              "2024-12-12 15:40"};
    CHECK_INT(json_array_size(texts), 12);
    for (size_t i = 0; i < 12; i++)
        CHECK_STR(json_string_value(json_array_get(texts, i)), expected[i]);
    CHECK_INT(colour_count(report, RED), 0);
    json_t *columns = json_object_get(colour(report, GREEN), "columns");
    size_t n = json_array_size(columns);
    if (CHECK(n > 100)) {
        json_t *first = json_array_get(columns, 0), *last = json_array_get(columns, n - 1);
        long left = (long)(long)json_number_value(json_array_get(first, 0));
        long right = (long)(long)json_number_value(json_array_get(last, 0));
        /* It ends higher (smaller y) than it starts. */
        CHECK((long)json_number_value(json_array_get(last, 1)) < (long)json_number_value(json_array_get(first, 1)));
        /* Between the 2nd and 4th points (the gap) no line pixel. */
        long span = right - left;
        for (size_t i = 0; i < n; i++) {
            long x = (long)(long)json_number_value(json_array_get(json_array_get(columns, i), 0));
            tf_check(!(x > left + span * 27 / 100 && x < left + span * 53 / 100), __FILE__, __LINE__,
                     "no line pixel in the gap (x = %ld)", x);
        }
    }
    json_decref(report);
}

void test_chart_svg_falling_is_red_and_empty_says_no_data(void) {
    char *svg = chart_svg("{\"vs_currency\":\"eur\",\"points\":[[1734000000000,4000],[1734259200000,3800.5]]}",
                          "{\"width\":300,\"height\":120,\"theme\":\"dark\"}");
    json_t *report = svg ? render_svg(svg) : NULL;
    if (report) {
        CHECK(colour_count(report, RED) > 50);
        CHECK_INT(colour_count(report, GREEN), 0);
        CHECK_STR(json_string_value(json_array_get(json_object_get(report, "texts"), 1)), "€3,950.00");
    }
    json_decref(report);
    free_out(svg);

    svg = chart_svg("{\"points\":[]}", NULL);
    report = svg ? render_svg(svg) : NULL;
    if (report) {
        CHECK_INT(colour_count(report, RED) + colour_count(report, GREEN), 0);
        CHECK_STR(json_string_value(json_array_get(json_object_get(report, "texts"), 0)), "No data");
        CHECK_INT(json_array_size(json_object_get(report, "texts")), 1);
    }
    json_decref(report);
    free_out(svg);
}

void test_chart_svg_rejects_bad_input(void) {
    const char *charts[] = {NULL, "", "{", "[]", "{\"coins\":[]}", "{\"points\":[[1,\"a\"]]}", "{\"points\":[1]}"};
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        char *svg = SENTINEL, *err = SENTINEL;
        CHECK_STATUS(cf_chart_svg(charts[i], NULL, &svg, &err), CF_INVALID_ARGUMENT, err);
        CHECK(svg == NULL);
        json_decref(CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT));
        free_out(err);
    }
    const char *options[] = {"{\"width\":63}", "{\"height\":4097}", "{\"theme\":\"blue\"}", "{\"title\":1}", "[]"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char *svg = SENTINEL, *err = SENTINEL;
        CHECK_STATUS(cf_chart_svg(RISING, options[i], &svg, &err), CF_INVALID_ARGUMENT, err);
        free_out(err);
    }
    char *err = SENTINEL;
    CHECK_STATUS(cf_chart_svg(RISING, NULL, NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
}

void test_chart_functions_reject_null_arguments(void) {
    char *out = SENTINEL, *err = SENTINEL;
    CHECK_STATUS(cf_decode_market_chart("{}", NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_client_market_chart(NULL, "bitcoin", NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    CHECK(out == NULL);
    free_out(err);
    CHECK_STATUS(cf_client_simple_price(NULL, "{\"ids\":[]}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_chart(NULL, "bitcoin", NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_portfolio_history(NULL, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_refresh_prices(NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK(out == NULL);

    cf_client *client = open_client(json_pack("{s:s}", "base_url", "http://127.0.0.1:9/api/v3"));
    const char *requests[] = {NULL, "", "{}", "{\"ids\":\"bitcoin\"}", "{\"ids\":[1]}", "{\"ids\":[\"a/b\"]}",
                              "{\"ids\":[],\"vs_currency\":\"us d\"}"};
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        out = SENTINEL;
        CHECK_STATUS(cf_client_simple_price(client, requests[i], &out, &err), CF_INVALID_ARGUMENT, err);
        CHECK(out == NULL);
        free_out(err);
    }
    const char *chart_requests[] = {"{\"days\":0}", "{\"days\":\"all\"}", "{\"interval\":\"hourly\"}", "{\"days\":1.5}", "[", "{\"days\":true}"};
    for (size_t i = 0; i < sizeof chart_requests / sizeof chart_requests[0]; i++) {
        CHECK_STATUS(cf_client_market_chart(client, "bitcoin", chart_requests[i], &out, &err), CF_INVALID_ARGUMENT, err);
        free_out(err);
    }
    CHECK_STATUS(cf_client_market_chart(client, "..", NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    cf_client_close(client);

    cf_engine *engine = open_engine(json_pack("{s:s}", "database", ":memory:"));
    CHECK_STATUS(cf_engine_portfolio_history(engine, "{\"portfolio\":5}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    CHECK_STATUS(cf_engine_portfolio_history(engine, "{\"portfolio\":\"savings\"}", &out, &err), CF_NOT_FOUND, err);
    free_out(err);
    if (CHECK_STATUS(cf_engine_portfolio_history(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *history = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(history, "points")), 0);
        json_decref(history);
        free_out(out);
    }
    cf_engine_close(engine);
}

static void count_chart_reports(const char *progress_json, void *user) {
    json_t *report = json_loads(progress_json, 0, NULL);
    const char *phase = json_string_value(json_object_get(report, "phase"));
    if (phase && strcmp(phase, "chart") == 0)
        (*(int *)user)++;
    json_decref(report);
}

void test_engine_chart_download_reports_progress(void) {
    REQUIRE_SERVER();
    server_reset();
    cf_engine *engine = chart_engine();
    int reports = 0;
    char *out = NULL, *err = NULL;
    CHECK_STATUS(cf_engine_set_progress(engine, count_chart_reports, &reports, &err), CF_OK, err);
    CHECK_STATUS(cf_engine_chart(engine, "bitcoin", NULL, &out, &err), CF_OK, err);
    free_out(out);
    CHECK_INT(reports, 2); /* done 0 of 1, then 1 of 1 */
    out = NULL;
    CHECK_STATUS(cf_engine_chart(engine, "bitcoin", NULL, &out, &err), CF_OK, err);
    free_out(out);
    CHECK_INT(reports, 2); /* cached: no request, no report */
    cf_engine_close(engine);
}

void test_store_refuses_an_id_with_a_comma(void) {
    cf_store *store = NULL;
    char *err = NULL, *out = NULL;
    if (!CHECK_STATUS(cf_store_open(":memory:", &store, &err), CF_OK, err))
        return;
    CHECK_STATUS(cf_store_set_holding(store, "bitcoin,ethereum", 1, &err), CF_INVALID_ARGUMENT, err);
    json_t *error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    CHECK_STR(json_str(json_object_get(error, "details"), "reason"), "comma");
    json_decref(error);
    free_out(err);
    if (CHECK_STATUS(cf_store_holdings(store, &out, &err), CF_OK, err)) {
        json_t *holdings = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(holdings, "holdings")), 0);
        json_decref(holdings);
    }
    free_out(out);
    cf_store_close(store);
}
