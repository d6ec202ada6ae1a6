/*
 * test_chart_axes.c — issue 32 through the C ABI: cf_chart_svg labels its value axis with round
 * ticks (1, 2 or 5 × 10ⁿ, 3 to 6, covering the data) written like cf_format_value, its time
 * axis with round UTC times, and draws partial history points dashed with a note, the scale from
 * the complete points. The expected texts are worked by hand from those rules (the Swift suite's
 * ChartAxisTests has the same values) and read from the SVG by Tests/tools/svg_check.py.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_support.h"
#include "tests.h"

/* 2024-12-12T10:40:00Z, and an hour later. */
#define T0 "1734000000000"
#define T1 "1734003600000"
#define T2 "1734007200000"

/* The texts of chart_json's SVG equal expected[0…count-1]; from the first whose text starts with
 * "2024-" on when values_only (the value labels come before the dates). */
static void check_texts(const char *chart_json, const char *options, const char *const *expected, size_t count,
                        int values_only, const char *where) {
    char *svg = chart_svg(chart_json, options);
    json_t *report = svg ? render_svg(svg) : NULL;
    free_out(svg);
    if (!report)
        return;
    json_t *texts = json_object_get(report, "texts");
    size_t n = json_array_size(texts);
    if (values_only)
        for (size_t i = 0; i < n; i++)
            if (strncmp(json_string_value(json_array_get(texts, i)), "2024-", 5) == 0) {
                n = i;
                break;
            }
    tf_check(n == count, __FILE__, __LINE__, "%s: %zu texts, expected %zu", where, n, count);
    for (size_t i = 0; i < n && i < count; i++) {
        const char *text = json_string_value(json_array_get(texts, i));
        tf_check(text && strcmp(text, expected[i]) == 0, __FILE__, __LINE__, "%s: text %zu is \"%s\", expected \"%s\"",
                 where, i, text ? text : "(null)", expected[i]);
    }
    json_decref(report);
}

#define CHECK_TEXTS(chart, options, values_only, ...)                                                     \
    do {                                                                                                  \
        const char *const expected_[] = {__VA_ARGS__};                                                    \
        check_texts((chart), (options), expected_, sizeof expected_ / sizeof expected_[0], (values_only), \
                    (chart));                                                                             \
    } while (0)

void test_chart_svg_value_ticks_of_several_magnitudes(void) {
    /* Sub-cent: 1e-7 gives 14 ticks, 2e-7 gives 8, 5e-7 gives 4; every tick shows the step's digits. */
    CHECK_TEXTS("{\"points\":[[" T0 ",0.0000021],[" T1 ",0.0000034]]}", NULL, 1, "$0.0000035", "$0.0000030",
                "$0.0000025", "$0.0000020");
    /* A stablecoin: 0.01 gives 0.98 … 1.02. */
    CHECK_TEXTS("{\"points\":[[" T0 ",0.98],[" T1 ",1.02]]}", NULL, 1, "$1.02", "$1.01", "$1.00", "$0.99", "$0.98");
    /* The portfolio: 2000 gives 8 ticks, 5000 gives 5, written as values (cf_format_value). */
    CHECK_TEXTS("{\"points\":[[" T0 ",28368.19535],[" T1 ",40697.69215]]}", NULL, 1, "$45,000.00", "$40,000.00",
                "$35,000.00", "$30,000.00", "$25,000.00");
    /* A market cap: 5e10 gives 6. */
    CHECK_TEXTS("{\"points\":[[" T0 ",1e12],[" T1 ",1.23e12]]}", NULL, 1, "$1,250,000,000,000.00",
                "$1,200,000,000,000.00", "$1,150,000,000,000.00", "$1,100,000,000,000.00", "$1,050,000,000,000.00",
                "$1,000,000,000,000.00");
    /* Crypto quotes keep their significant digits; jpy has no fraction digit. */
    CHECK_TEXTS("{\"vs_currency\":\"btc\",\"points\":[[" T0 ",0.00000151],[" T1 ",0.00000162]]}", NULL, 1,
                "₿0.00000165", "₿0.00000160", "₿0.00000155", "₿0.00000150");
    CHECK_TEXTS("{\"vs_currency\":\"jpy\",\"points\":[[" T0 ",14800000],[" T1 ",15234567]]}", NULL, 1, "¥15,300,000",
                "¥15,200,000", "¥15,100,000", "¥15,000,000", "¥14,900,000", "¥14,800,000");
}

void test_chart_svg_flat_series_and_single_point(void) {
    /* One step of at least 1 % of the value either side. */
    CHECK_TEXTS("{\"points\":[[" T0 ",5],[" T1 ",5],[" T2 ",5]]}", NULL, 0, "$5.05", "$5.00", "$4.95",
                "2024-12-12 10:40", "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40");
    /* A single point: its date once. */
    CHECK_TEXTS("{\"points\":[[" T0 ",28500.06]]}", NULL, 0, "$29,000.00", "$28,500.00", "$28,000.00",
                "2024-12-12 10:40");
}

void test_chart_svg_all_partial_series_is_dashed_with_a_note(void) {
    const char *chart = "{\"points\":[[" T0 ",3,true],[" T1 ",4,true],[" T2 ",2,true]]}";
    CHECK_TEXTS(chart, NULL, 0, "Dashed: 3 of 3 points miss a holding’s price", "$4.00", "$3.50", "$3.00", "$2.50",
                "$2.00", "2024-12-12 10:40", "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40");
    char *svg = chart_svg(chart, NULL);
    if (!svg)
        return;
    CHECK(strstr(svg, "stroke-dasharray") != NULL);
    json_t *report = render_svg(svg);
    if (report) {
        /* Lighter: no pixel has the full line colour. */
        CHECK_INT((int)json_number_value(json_object_get(json_object_get(json_object_get(report, "colours"), "#ea3943"),
                                                         "count")),
                  0);
        json_decref(report);
    }
    free_out(svg);
}

void test_chart_svg_partial_week_is_scaled_by_its_complete_points(void) {
    /* The week: 0.5 BTC and 3 ETH; the first two hours price bitcoin only (28,368 then). */
    cf_engine *engine = open_engine(json_pack("{s:s}", "database", ":memory:"));
    char *markets = read_file(fmt_path("%s/Tests/fixtures/coingecko/markets.json", tf_repo_root), NULL);
    char *out = SENTINEL, *err = NULL;
    if (CHECK(markets != NULL) && CHECK_STATUS(cf_engine_load(engine, markets, NULL, &err), CF_OK, err) &&
        CHECK_STATUS(cf_engine_set_holding(engine, "bitcoin", 0.5, &err), CF_OK, err) &&
        CHECK_STATUS(cf_engine_set_holding(engine, "ethereum", 3, &err), CF_OK, err) &&
        CHECK_STATUS(cf_engine_portfolio_history(engine, NULL, &out, &err), CF_OK, err)) {
        CHECK_TEXTS(out, "{\"title\":\"Portfolio\"}", 0, "Portfolio", "Dashed: 2 of 170 points miss a holding’s price",
                    "$41,000.00", "$40,500.00", "$40,000.00", "$39,500.00", "2024-12-12", "Dec 14", "Dec 15", "Dec 16",
                    "Dec 17", "Dec 18", "2024-12-19");
        free_out(out);
    }
    free_out(err);
    free(markets);
    cf_engine_close(engine);
}

void test_chart_svg_time_ticks_are_utc_whatever_tz_says(void) {
    const char *chart = "{\"points\":[[" T0 ",1,true],[1734043200000,1.5],[1734086400000,2]]}";
    char *before = chart_svg(chart, NULL);
    const char *zone = getenv("TZ");
    char *saved = zone ? strdup(zone) : NULL;
    setenv("TZ", "Asia/Kathmandu", 1);
    tzset();
    char *after = chart_svg(chart, NULL);
    if (saved) {
        setenv("TZ", saved, 1);
        free(saved);
    } else {
        unsetenv("TZ");
    }
    tzset();
    if (before && after)
        CHECK_STR(after, before);
    free_out(before);
    free_out(after);
    CHECK_TEXTS(chart, NULL, 0, "Dashed: 1 of 3 points miss a holding’s price", "$2.00", "$1.90", "$1.80", "$1.70",
                "$1.60", "$1.50", "2024-12-12 10:40", "18:00", "21:00", "Dec 13", "03:00", "2024-12-13 10:40");
}
