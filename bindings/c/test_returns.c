/*
 * test_returns.c — SPEC §19 through the C ABI, on SQLite and (make test-postgres) on PostgreSQL:
 * cf_engine_realized (rows per disposal and lot, holding periods, UK share pooling, CSV) and
 * cf_engine_performance (flows, missing prices), every bad option refused. The cases are those of
 * the Swift suite (RealizedTests, UKSharePoolingTests, PerformanceTests), worked by hand from
 * HMRC's Cryptoassets Manual (CRYPTO22250 onwards) and IRS Publication 544 / Form 8949.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_support.h"
#include "tests.h"

static cf_engine *returns_engine(const char *stem) { return open_engine(json_pack("{s:s}", "database", temp_path(stem))); }

static void add(cf_engine *engine, const char *json, int line) {
    char *out = NULL, *err = NULL;
    tf_check_status(cf_engine_add_transaction(engine, json, &out, &err), CF_OK, &err, __FILE__, line, json);
    free_out(out);
    free_out(err);
}
#define ADD(engine, json) add((engine), (json), __LINE__)

/* The parsed answer of a call with options that must succeed (NULL after a recorded failure). */
static json_t *report(int (*call)(cf_engine *, const char *, char **, char **), cf_engine *engine, const char *options,
                      int line) {
    char *out = NULL, *err = NULL;
    json_t *value = NULL;
    if (tf_check_status(call(engine, options, &out, &err), CF_OK, &err, __FILE__, line, options))
        value = tf_parse_json(out, __FILE__, line);
    free_out(out);
    free_out(err);
    return value;
}
#define REALIZED(engine, options) report(cf_engine_realized, (engine), (options), __LINE__)
#define PERFORMANCE(engine, options) report(cf_engine_performance, (engine), (options), __LINE__)

static json_t *row(json_t *answer, size_t index) { return json_array_get(json_object_get(answer, "rows"), index); }
static json_t *totals(json_t *answer) { return json_object_get(answer, "totals"); }

/* SPEC §19's UK example: 100 match the buy of 2024-03-10 (cost 450, proceeds 465.71, gain
 * 15.71), 600 come from the pool (cost 2,490, proceeds 2,794.29, gain 304.29); gain 320.00; the
 * pool keeps 400 costing 1,660. */
void test_engine_returns_uk_example(void) {
    cf_engine *engine = returns_engine("uk.db");
    json_t *answer, *coin;
    char *out = NULL, *err = NULL;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"buy\",\"amount\":1000,\"price\":4,\"fee\":150,\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"sell\",\"amount\":700,\"price\":\"4.80\",\"fee\":100,\"timestamp\":\"2024-03-01\"}");
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"buy\",\"amount\":100,\"price\":\"4.50\",\"timestamp\":\"2024-03-10\"}");
    answer = REALIZED(engine, "{\"method\":\"uk\"}");
    CHECK_INT((int)json_array_size(json_object_get(answer, "rows")), 2);
    CHECK_DOUBLE(json_num(row(answer, 0), "amount"), 100, 0);
    CHECK_DOUBLE(json_num(row(answer, 0), "cost"), 450, 0);
    CHECK_DOUBLE(json_num(row(answer, 0), "proceeds"), 465.71, 0.005);
    CHECK_DOUBLE(json_num(row(answer, 0), "gain"), 15.71, 0.005);
    CHECK_STR(json_str(row(answer, 0), "acquired_at"), "2024-03-10T00:00:00Z");
    CHECK_DOUBLE(json_num(row(answer, 0), "holding_days"), 0, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "amount"), 600, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "cost"), 2490, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "proceeds"), 2794.29, 0.005);
    CHECK_DOUBLE(json_num(row(answer, 1), "gain"), 304.29, 0.005);
    CHECK_DOUBLE(json_num(totals(answer), "gain"), 320, 0);
    CHECK_DOUBLE(json_num(totals(answer), "proceeds"), 3260, 0);
    CHECK_STR(json_str(answer, "method"), "uk");
    json_decref(answer);
    CHECK_STATUS(cf_engine_pnl(engine, "{\"method\":\"uk\"}", &out, &err), CF_OK, err);
    answer = PARSE_JSON(out);
    coin = json_array_get(json_object_get(answer, "coins"), 0);
    CHECK_DOUBLE(json_num(coin, "realized_pnl"), 320, 0);
    CHECK_DOUBLE(json_num(coin, "amount"), 400, 0);
    CHECK_DOUBLE(json_num(coin, "cost_basis"), 1660, 0);
    json_decref(answer);
    free_out(out);
    free_out(err);
    cf_engine_close(engine);
}

/* CRYPTO22252 (Martyn): one day's disposals of 1,000 and 500 are one disposal matched with the
 * day's buy of 1,600 for £1,000: costs 625 and 312.50, gain 462.50 (HMRC rounds to £462). */
void test_engine_returns_uk_same_day(void) {
    cf_engine *engine = returns_engine("same-day.db");
    json_t *answer;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"buy\",\"amount\":5000,\"price\":\"0.1\",\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"sell\",\"amount\":1000,\"price\":\"0.8\",\"timestamp\":\"2024-06-23T09:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"buy\",\"amount\":1600,\"price\":\"0.625\",\"timestamp\":\"2024-06-23T14:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"token\",\"kind\":\"sell\",\"amount\":500,\"price\":\"1.2\",\"timestamp\":\"2024-06-23T20:00:00Z\"}");
    answer = REALIZED(engine, "{\"method\":\"uk\"}");
    CHECK_DOUBLE(json_num(row(answer, 0), "cost"), 625, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "cost"), 312.5, 0);
    CHECK_DOUBLE(json_num(totals(answer), "gain"), 462.5, 0);
    json_decref(answer);
    cf_engine_close(engine);
}

/* Bought 2020-02-29, sold on 2021-02-28 (taxable, short), 2021-03-01 and 2021-03-02 (tax-free,
 * long) with tax_free_after_years 1; and short on the anniversary, long the day after, with a
 * leap day in between (2023-03-10 → 2024) and without (2021-03-10 → 2022). */
void test_engine_returns_holding_periods(void) {
    static const char *const expected_term[] = {"short", "long", "long", "short", "long", "short", "long"};
    static const int expected_free[] = {0, 1, 1};
    cf_engine *engine = returns_engine("periods.db");
    json_t *answer;
    size_t i;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":3,\"price\":100,\"timestamp\":\"2020-02-29T12:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1,\"price\":150,\"timestamp\":\"2021-02-28T12:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1,\"price\":150,\"timestamp\":\"2021-03-01T12:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1,\"price\":150,\"timestamp\":\"2021-03-02T12:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"buy\",\"amount\":2,\"price\":1,\"timestamp\":\"2021-03-10T23:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"sell\",\"amount\":1,\"price\":2,\"timestamp\":\"2022-03-10T01:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"sell\",\"amount\":1,\"price\":2,\"timestamp\":\"2022-03-11T01:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"solana\",\"kind\":\"buy\",\"amount\":2,\"price\":1,\"timestamp\":\"2023-03-10T23:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"solana\",\"kind\":\"sell\",\"amount\":1,\"price\":2,\"timestamp\":\"2024-03-10T01:00:00Z\"}");
    ADD(engine, "{\"coin_id\":\"solana\",\"kind\":\"sell\",\"amount\":1,\"price\":2,\"timestamp\":\"2024-03-11T01:00:00Z\"}");
    answer = REALIZED(engine, "{\"tax_free_after_years\":1}");
    CHECK_INT((int)json_array_size(json_object_get(answer, "rows")), 7);
    for (i = 0; i < 7; i++)
        CHECK_STR(json_str(row(answer, i), "term"), expected_term[i]);
    for (i = 0; i < 3; i++) {
        CHECK(json_is_boolean(json_object_get(row(answer, i), "tax_free")));
        CHECK_INT(json_is_true(json_object_get(row(answer, i), "tax_free")), expected_free[i]);
        CHECK_DOUBLE(json_num(row(answer, i), "holding_days"), 365 + (int)i, 0);
    }
    /* Taxable: the bitcoin sold on the anniversary (50) and the two sold on theirs (1 each). */
    CHECK_DOUBLE(json_num(totals(answer), "taxable_gain"), 50 + 1 + 1, 0);
    json_decref(answer);
    answer = REALIZED(engine, NULL);
    CHECK(json_is_null(json_object_get(row(answer, 0), "tax_free")));
    json_decref(answer);
    cf_engine_close(engine);
}

/* A moved lot keeps its first acquisition time: §16's move, cold sells 1.4 on 2024-03-11 → one
 * row acquired 2023-03-10 costing 150, gain 410, long. */
void test_engine_returns_moved_lot(void) {
    cf_engine *engine = returns_engine("moved.db");
    char *out = NULL, *err = NULL;
    json_t *answer;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"cold\"}", &err), CF_OK, err);
    free_out(err);
    err = NULL;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":2,\"price\":100,\"timestamp\":\"2023-03-10\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":300,\"timestamp\":\"2023-06-01\"}");
    CHECK_STATUS(cf_engine_move(engine,
                                "{\"from\":\"main\",\"to\":\"cold\",\"coin_id\":\"bitcoin\",\"amount\":1.5,"
                                "\"received_amount\":1.4,\"timestamp\":\"2024-01-04\"}",
                                &out, &err),
                 CF_OK, err);
    free_out(out);
    free_out(err);
    ADD(engine, "{\"portfolio\":\"cold\",\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1.4,\"price\":400,"
                "\"timestamp\":\"2024-03-11\"}");
    answer = REALIZED(engine, "{\"portfolio\":\"cold\"}");
    CHECK_INT((int)json_array_size(json_object_get(answer, "rows")), 1);
    CHECK_STR(json_str(row(answer, 0), "acquired_at"), "2023-03-10T00:00:00Z");
    CHECK_DOUBLE(json_num(row(answer, 0), "cost"), 150, 0);
    CHECK_DOUBLE(json_num(row(answer, 0), "gain"), 410, 0);
    CHECK_STR(json_str(row(answer, 0), "term"), "long");
    CHECK_STR(json_str(row(answer, 0), "portfolio"), "cold");
    json_decref(answer);
    answer = REALIZED(engine, "{\"portfolio\":null}");
    CHECK_INT((int)json_array_size(json_object_get(answer, "rows")), 1);
    CHECK(json_is_null(json_object_get(answer, "portfolio")));
    json_decref(answer);
    cf_engine_close(engine);
}

/* Buy 1 @ 100, buy 3 @ 200, sell 4 @ 300 fee 12: proceeds 1,188 split by units, 297 and 891;
 * units transferred in have null cost and gain (never 0); CSV in Form 8949-like columns. */
void test_engine_returns_rows_and_csv(void) {
    cf_engine *engine = returns_engine("rows.db");
    char *out = NULL, *err = NULL;
    json_t *answer;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":0.5,\"timestamp\":\"2023-01-01\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":100,\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":3,\"price\":200,\"timestamp\":\"2024-01-02\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":0.5,\"price\":300,\"timestamp\":\"2024-01-05\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":4,\"price\":300,\"fee\":12,\"timestamp\":\"2024-02-01\"}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"income_type\":\"staking\",\"amount\":0.5,\"price\":2000,"
                "\"timestamp\":\"2024-03-01\"}");
    answer = REALIZED(engine, "{\"year\":2024}");
    CHECK_INT((int)json_array_size(json_object_get(answer, "rows")), 3);
    CHECK(json_is_null(json_object_get(row(answer, 0), "cost")));
    CHECK(json_is_null(json_object_get(row(answer, 0), "gain")));
    CHECK_DOUBLE(json_num(row(answer, 0), "proceeds"), 150, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "proceeds"), 297, 0);
    CHECK_DOUBLE(json_num(row(answer, 1), "cost"), 100, 0);
    CHECK_DOUBLE(json_num(row(answer, 2), "proceeds"), 891, 0);
    CHECK_DOUBLE(json_num(row(answer, 2), "gain"), 291, 0);
    CHECK_STR(json_str(row(answer, 2), "disposal_id"), json_str(row(answer, 1), "disposal_id"));
    CHECK_DOUBLE(json_num(totals(answer), "gain"), 488, 0);
    CHECK_DOUBLE(json_num(totals(answer), "coverage"), 2.0 / 3, 1e-12);
    CHECK_STR(json_str(json_array_get(json_object_get(answer, "income"), 0), "income_type"), "staking");
    CHECK_DOUBLE(json_num(answer, "income_total"), 1000, 0);
    json_decref(answer);
    CHECK_STATUS(cf_engine_realized(engine, "{\"year\":2024,\"format\":\"csv\"}", &out, &err), CF_OK, err);
    CHECK_STR(out, "description,acquired,disposed,proceeds,cost,gain,term\r\n"
                   "0.5 bitcoin,2023-01-01,2024-01-05,150,,,long\r\n"
                   "1 bitcoin,2024-01-01,2024-02-01,297,100,197,short\r\n"
                   "3 bitcoin,2024-01-02,2024-02-01,891,600,291,short\r\n");
    free_out(out);
    free_out(err);
    cf_engine_close(engine);
}

/* Without stored price points the days between are missing (listed, never guessed); the last
 * value of a range ending now is the snapshot's; a buy's flow is amount × price + fee. */
/* SPEC §19's example through the ABI, its prices the owner's manual points (cf_engine_set_price)
 * at each UTC day's 00:00 of 2023: 100 units bought at 1 on day 0 (100 in at unit value 1), the
 * value still 100 on day 151 when 100 more units come in at 1, the price 1.1 on day 364 (220):
 * twr 10.00, mwr 12.77 (100 (1+r)^(364/365) + 100 (1+r)^(213/365) = 220), gain 20, roi 10. */
void test_engine_returns_spec_example(void) {
    cf_engine *engine = returns_engine("spec-example.db");
    char *err = NULL, json[256], when[32];
    const time_t first = 1672531200; /* 2023-01-01T00:00:00Z */
    json_t *answer;
    int n;
    if (engine == NULL)
        return;
    for (n = 0; n <= 364; n++) {
        time_t day = first + (time_t)n * 86400;
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&day));
        snprintf(json, sizeof json, "{\"coin_id\":\"x\",\"timestamp\":\"%s\",\"price\":\"%s\"}", when, n == 364 ? "1.1" : "1");
        if (!CHECK_STATUS(cf_engine_set_price(engine, json, &err), CF_OK, err))
            break;
        if (n == 0 || n == 151) {
            snprintf(json, sizeof json, "{\"coin_id\":\"x\",\"kind\":\"buy\",\"amount\":100,\"price\":1,\"timestamp\":\"%s\"}", when);
            ADD(engine, json);
        }
    }
    free_out(err);
    answer = PERFORMANCE(engine, "{\"range\":{\"from\":\"2023-01-01\",\"to\":\"2023-12-31\"}}");
    CHECK_DOUBLE(json_num(answer, "start_value"), 0, 0);
    CHECK_DOUBLE(json_num(answer, "end_value"), 220, 0);
    CHECK_DOUBLE(json_num(answer, "net_flows"), 200, 0);
    CHECK_DOUBLE(json_num(answer, "gain"), 20, 0);
    CHECK_DOUBLE(json_num(answer, "roi"), 10, 1e-9);
    CHECK_DOUBLE(json_num(answer, "twr"), 10.00, 0.005);
    CHECK_DOUBLE(json_num(answer, "mwr"), 12.77, 0.005);
    CHECK_DOUBLE(json_num(answer, "coverage"), 1, 0);
    CHECK_INT((int)json_array_size(json_object_get(answer, "points")), 365);
    json_decref(answer);
    cf_engine_close(engine);
}

void test_engine_returns_performance(void) {
    cf_engine *engine = returns_engine("performance.db");
    char *err = NULL, json[256], when[32];
    time_t three_days_ago = time(NULL) - 3 * 86400;
    json_t *answer, *points, *last;
    if (engine == NULL)
        return;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&three_days_ago));
    snprintf(json, sizeof json,
             "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":2,\"price\":100,\"fee\":1,\"timestamp\":\"%s\"}", when);
    ADD(engine, json);
    CHECK_STATUS(cf_engine_load(engine, "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\",\"current_price\":150}]",
                                NULL, &err),
                 CF_OK, err);
    free_out(err);
    answer = PERFORMANCE(engine, "{\"range\":\"7d\",\"benchmark\":\"bitcoin\"}");
    CHECK_DOUBLE(json_num(answer, "start_value"), 0, 0);
    CHECK_DOUBLE(json_num(answer, "end_value"), 300, 0);
    CHECK_DOUBLE(json_num(answer, "net_flows"), 201, 0);
    CHECK_DOUBLE(json_num(answer, "gain"), 99, 0);
    CHECK_DOUBLE(json_num(answer, "twr"), (300.0 / 201 - 1) * 100, 1e-9);
    CHECK(json_num(answer, "coverage") < 1);
    CHECK(json_array_size(json_object_get(answer, "missing")) > 0);
    CHECK_STR(json_str(json_object_get(answer, "benchmark"), "coin_id"), "bitcoin");
    CHECK(json_is_null(json_object_get(json_object_get(answer, "benchmark"), "change")));
    points = json_object_get(answer, "points");
    last = json_array_get(points, json_array_size(points) - 1);
    CHECK(json_number_value(json_array_get(last, 0)) > 1.7e12);
    CHECK_DOUBLE(json_number_value(json_array_get(last, 1)), 300, 0);
    CHECK_DOUBLE(json_number_value(json_array_get(last, 2)), 201, 0);
    json_decref(answer);
    cf_engine_close(engine);
}

/* Bad options: CF_INVALID_ARGUMENT with details.field, no output, the ledger unchanged; NULL
 * engine; an unknown portfolio; portfolios of two currencies together. */
void test_engine_returns_bad_options(void) {
    static const struct {
        int realized;
        const char *options, *field;
    } bad[] = {
        {1, "{\"method\":\"fofi\"}", "method"},
        {1, "{\"year\":1969}", "year"},
        {1, "{\"year\":2024,\"from\":\"2024-01-01\"}", "year"},
        {1, "{\"from\":\"2024-02-01\",\"to\":\"2024-01-01\"}", "to"},
        {1, "{\"long_term_after_years\":-1}", "long_term_after_years"},
        {1, "{\"format\":\"xml\"}", "format"},
        {0, "{\"range\":\"2y\"}", "range"},
        {0, "{\"range\":{\"from\":\"2024-02-01\",\"to\":\"2024-01-01\"}}", "range.to"},
        {0, "{\"benchmark\":\"a/b\"}", "benchmark"},
    };
    cf_engine *engine = returns_engine("bad.db");
    char *out = SENTINEL, *err = NULL, *before = NULL, *after = NULL;
    json_t *error;
    size_t i;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"timestamp\":\"2024-01-01\"}");
    CHECK_STATUS(cf_engine_export_csv(engine, "{\"portfolio\":null}", &before, &err), CF_OK, err);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = NULL;
        err = NULL;
        CHECK_STATUS((bad[i].realized ? cf_engine_realized : cf_engine_performance)(engine, bad[i].options, &out, &err),
                     CF_INVALID_ARGUMENT, err);
        CHECK(out == NULL);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "field"), bad[i].field);
        json_decref(error);
        free_out(err);
    }
    err = NULL;
    CHECK_STATUS(cf_engine_realized(engine, "{", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_performance(NULL, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_realized(engine, "{\"portfolio\":\"nowhere\"}", &out, &err), CF_NOT_FOUND, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"euro\",\"vs_currency\":\"eur\"}", &err), CF_OK, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_performance(engine, "{\"portfolio\":null}", &out, &err), CF_INVALID_ARGUMENT, err);
    error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    CHECK_STR(json_str(json_object_get(error, "details"), "reason"), CF_REASON_CURRENCY);
    json_decref(error);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_export_csv(engine, "{\"portfolio\":null}", &after, &err), CF_OK, err);
    CHECK_STR(after, before);
    free_out(before);
    free_out(after);
    free_out(err);
    cf_engine_close(engine);
}

/* Sets the owner's manual price of x at 00:00 UTC of 2024-01-`day`. */
static void set_day_price(cf_engine *engine, const char *day, const char *price) {
    char json[128], *err = NULL;
    snprintf(json, sizeof json, "{\"coin_id\":\"x\",\"timestamp\":\"2024-01-%sT00:00:00Z\",\"price\":\"%s\"}", day, price);
    CHECK_STATUS(cf_engine_set_price(engine, json, &err), CF_OK, err);
    free_out(err);
}

/* The values of the points of 2024-01-02 … 04, checked against `expected`. */
static void check_values(cf_engine *engine, const double expected[3], int line) {
    json_t *answer = report(cf_engine_performance, engine, "{\"range\":{\"from\":\"2024-01-02\",\"to\":\"2024-01-04\"}}", line);
    json_t *points = json_object_get(answer, "points");
    size_t i;
    tf_check(json_array_size(points) == 3, __FILE__, line, "3 points, not %zu", json_array_size(points));
    for (i = 0; i < 3 && i < json_array_size(points); i++) {
        double value = json_number_value(json_array_get(json_array_get(points, i), 1));
        tf_check(value == expected[i], __FILE__, line, "point %zu: %g, expected %g", i, value, expected[i]);
    }
    json_decref(answer);
}

/* The same range asked again gives the same values, and every point stored since: by another
 * engine on the same database, then by this one (on SQLite the points read are kept until any
 * connection changes the database). 1 unit held from 2024-01-01 12:00; manual points at 00:00
 * of January 2, 3, 4: 100, 200, 300; then the 3rd set to 250 by the other engine, the 4th to 350
 * by this one. */
void test_engine_returns_performance_asked_again(void) {
    static const double first[3] = {100, 200, 300}, second[3] = {100, 250, 300}, third[3] = {100, 250, 350};
    char path[4096];
    cf_engine *engine, *other;
    snprintf(path, sizeof path, "%s", temp_path("asked-again.db"));
    engine = open_engine(json_pack("{s:s}", "database", path));
    other = open_engine(json_pack("{s:s}", "database", path));
    if (engine != NULL && other != NULL) {
        ADD(engine, "{\"coin_id\":\"x\",\"kind\":\"buy\",\"amount\":1,\"price\":90,\"timestamp\":\"2024-01-01T12:00:00Z\"}");
        set_day_price(other, "02", "100");
        set_day_price(other, "03", "200");
        set_day_price(other, "04", "300");
        check_values(engine, first, __LINE__);
        check_values(engine, first, __LINE__);
        set_day_price(other, "03", "250");
        check_values(engine, second, __LINE__);
        set_day_price(engine, "04", "350");
        check_values(engine, third, __LINE__);
    }
    if (engine != NULL)
        cf_engine_close(engine);
    if (other != NULL)
        cf_engine_close(other);
}
