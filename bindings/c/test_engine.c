/* test_engine.c — the engine (SPEC §6): refresh, load, coins, portfolio, statistics, lazy and
 * cached coin detail, metrics; over the loopback server and over raw bodies. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "tests.h"

/* ------------------------------------------------------------------ helpers */

static cf_engine *server_engine(const char *database, int coin_limit) {
    json_t *config = json_pack("{s:s, s:o}", "database", database, "api", api_config(0, 5000));
    if (coin_limit > 0)
        json_object_set_new(config, "coin_limit", json_integer(coin_limit));
    return open_engine(config);
}

static cf_engine *memory_engine(void) {
    json_t *config = json_pack("{s:s, s:{s:s, s:i, s:i}}", "database", ":memory:", "api",
                               "base_url", fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                               "max_retries", 0, "timeout_ms", 2000);
    return open_engine(config);
}

/* Checks a JSON-returning call's status and returns its parsed output or NULL. */
static json_t *engine_json_impl(int status, char *out, char *err, const char *file, int line,
                                const char *call) {
    json_t *value = NULL;
    if (tf_check_status(status, CF_OK, &err, file, line, call)) {
        tf_check(err == NULL, file, line, "%s sets out_error to NULL on success", call);
        value = tf_parse_json(out, file, line);
    }
    free_out(out);
    free_out(err);
    return value;
}

static json_t *refresh(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_refresh(engine, &out, &err);
    return engine_json_impl(status, out, err, __FILE__, __LINE__, "cf_engine_refresh");
}

static json_t *statistics(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_statistics(engine, &out, &err);
    json_t *value = engine_json_impl(status, out, err, __FILE__, __LINE__, "cf_engine_statistics");
    json_t *list = json_incref(json_object_get(value, "statistics"));
    json_decref(value);
    return list;
}

static json_t *coins(cf_engine *engine, const char *query) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_coins(engine, query, &out, &err);
    return engine_json_impl(status, out, err, __FILE__, __LINE__, query ? query : "coins(NULL)");
}

static json_t *portfolio(cf_engine *engine, const char *query) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_portfolio(engine, query, &out, &err);
    return engine_json_impl(status, out, err, __FILE__, __LINE__,
                            query ? query : "portfolio(NULL)");
}

static json_t *metrics(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_metrics(engine, &out, &err);
    return engine_json_impl(status, out, err, __FILE__, __LINE__, "cf_engine_metrics");
}

static double requests_of(json_t *m, const char *endpoint) {
    return json_num(json_object_get(m, "http_requests"), endpoint);
}

static json_t *coin_detail(cf_engine *engine, const char *id) {
    char *out = SENTINEL, *err = SENTINEL;
    int status = cf_engine_coin_detail(engine, id, &out, &err);
    return engine_json_impl(status, out, err, __FILE__, __LINE__, id);
}

static int set_holding(cf_engine *engine, const char *id, double amount) {
    char *err = SENTINEL;
    int status = cf_engine_set_holding(engine, id, amount, &err);
    CHECK_STATUS(status, CF_OK, err);
    if (status == CF_OK)
        CHECK(err == NULL);
    free_out(err);
    return status;
}

static int load(cf_engine *engine, const char *markets, const char *global) {
    char *err = SENTINEL;
    int status = cf_engine_load(engine, markets, global, &err);
    CHECK_STATUS(status, CF_OK, err);
    if (status == CF_OK)
        CHECK(err == NULL);
    free_out(err);
    return status;
}

static json_t *find_by_id(json_t *list, const char *id) {
    size_t i;
    json_t *coin;
    json_array_foreach(list, i, coin) {
        const char *coin_id = json_str(coin, "id");
        if (coin_id && strcmp(coin_id, id) == 0)
            return coin;
    }
    return NULL;
}

static long index_of(json_t *list, const char *id) {
    size_t i;
    json_t *coin;
    json_array_foreach(list, i, coin) {
        const char *coin_id = json_str(coin, "id");
        if (coin_id && strcmp(coin_id, id) == 0)
            return (long)i;
    }
    return -1;
}

/* The statistic with this title in a list, or NULL. */
static json_t *statistic(json_t *list, const char *title) {
    size_t i;
    json_t *s;
    json_array_foreach(list, i, s) {
        const char *t = json_str(s, "title");
        if (t && strcmp(t, title) == 0)
            return s;
    }
    return NULL;
}

static void check_titles(json_t *list, const char *const *titles, size_t count,
                         const char *what) {
    size_t i;
    tf_check(json_array_size(list) == count, __FILE__, __LINE__, "%s has %zu statistics (got %zu)",
             what, count, json_array_size(list));
    for (i = 0; i < count; i++) {
        json_t *s = json_array_get(list, i);
        const char *value = json_str(s, "value");
        tf_check_str(json_str(s, "title"), titles[i], __FILE__, __LINE__, what);
        tf_check(value != NULL && value[0] != '\0' && strcmp(value, "$") != 0 &&
                     strstr(value, "nan") == NULL,
                 __FILE__, __LINE__, "%s \"%s\" has a printable value (got %s)", what, titles[i],
                 value ? value : "NULL");
        tf_check(json_object_get(s, "percentage_change") != NULL, __FILE__, __LINE__,
                 "%s \"%s\" has percentage_change (number or null)", what, titles[i]);
    }
}

static const char *const home_titles[] = {"Market Cap",      "24h Volume",     "BTC Dominance",
                                          "Portfolio Value", "Unrealized P&L", "Realized P&L"};

static char *format_with_symbol(double value) {
    char *abbreviated = cf_format_abbreviated(value);
    char *text = malloc(64);
    snprintf(text, 64, "$%s", abbreviated ? abbreviated : "NULL");
    cf_string_free(abbreviated);
    return text;
}

static char *fixture_text(const char *name) {
    char *body = read_file(fmt_path("%s/Tests/fixtures/coingecko/%s", tf_repo_root, name), NULL);
    tf_check(body != NULL, __FILE__, __LINE__, "fixture %s is readable", name);
    return body;
}

/* The two-coin example of SPEC §6: 50 at -50 % and 110 at +10 %. */
static const char *const example_markets =
    "[{\"id\":\"aaa\",\"symbol\":\"a\",\"name\":\"Alpha\",\"current_price\":50,"
    "\"market_cap_rank\":2,\"price_change_percentage_24h\":-50},"
    "{\"id\":\"bbb\",\"symbol\":\"b\",\"name\":\"Beta\",\"current_price\":110,"
    "\"market_cap_rank\":1,\"price_change_percentage_24h\":10}]";

/* An in-memory engine with example_markets loaded, or NULL (the failure is already counted). */
static cf_engine *example_engine(void) {
    cf_engine *engine = memory_engine();
    if (engine != NULL && load(engine, example_markets, NULL) != CF_OK) {
        cf_engine_close(engine);
        engine = NULL;
    }
    return engine;
}

/* ------------------------------------------------------------------ tests over raw bodies */

void test_engine_statistics_before_any_data_is_no_data(void) {
    cf_engine *engine = memory_engine();
    char *out = SENTINEL, *err = SENTINEL;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_statistics(engine, &out, &err), CF_NO_DATA, err);
    CHECK(out == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_NO_DATA));
    free_out(err);
    out = SENTINEL, err = SENTINEL;
    CHECK_STATUS(cf_engine_coins(engine, NULL, &out, &err), CF_NO_DATA, err);
    CHECK(out == NULL);
    free_out(err);
    cf_engine_close(engine);
}

void test_engine_portfolio_value_example(void) {
    static const char *const titles[] = {"Market Cap",      "24h Volume",     "BTC Dominance",
                                         "Portfolio Value", "Unrealized P&L", "Realized P&L"};
    cf_engine *engine = example_engine();
    json_t *stats, *value, *p, *list;
    if (engine == NULL)
        return;
    set_holding(engine, "aaa", 1);
    set_holding(engine, "bbb", 1);
    set_holding(engine, "ccc", 3); /* held, but no market row */

    stats = statistics(engine);
    check_titles(stats, titles, 6, "statistics");
    value = statistic(stats, "Portfolio Value");
    CHECK_STR(json_str(value, "value"), "$160.00");
    CHECK(json_is_number(json_object_get(value, "percentage_change")));
    CHECK_DOUBLE(json_num(value, "percentage_change"), -20.0, 1e-9);
    /* Markets but no /global data: the three market values are n/a. */
    CHECK_STR(json_str(statistic(stats, "Market Cap"), "value"), "n/a");
    CHECK_STR(json_str(statistic(stats, "24h Volume"), "value"), "n/a");
    CHECK_STR(json_str(statistic(stats, "BTC Dominance"), "value"), "n/a");
    json_decref(stats);

    p = portfolio(engine, "{\"sort\":\"holdings\"}");
    list = json_object_get(p, "coins");
    CHECK_DOUBLE(json_num(p, "total_value"), 160, 1e-9);
    CHECK_INT(json_array_size(list), 3);
    CHECK(index_of(list, "bbb") < index_of(list, "aaa")); /* value descending */
    CHECK_DOUBLE(json_num(find_by_id(list, "bbb"), "current_holdings_value"), 110, 1e-9);
    CHECK_DOUBLE(json_num(find_by_id(list, "aaa"), "current_holdings"), 1, 0);
    CHECK(json_is_true(json_object_get(find_by_id(list, "aaa"), "price_available")));
    CHECK(find_by_id(list, "ccc") != NULL);
    CHECK(json_is_false(json_object_get(find_by_id(list, "ccc"), "price_available")));
    CHECK(json_is_null(json_object_get(find_by_id(list, "ccc"), "current_holdings_value")));
    CHECK_DOUBLE(json_num(find_by_id(list, "ccc"), "current_holdings"), 3, 0);
    json_decref(p);

    p = portfolio(engine, "{\"sort\":\"holdings_reversed\"}");
    list = json_object_get(p, "coins");
    CHECK(index_of(list, "aaa") < index_of(list, "bbb")); /* value ascending */
    CHECK(index_of(list, "ccc") >= 0);
    json_decref(p);
    cf_engine_close(engine);
}

/* Issue 23 §4: one wire shape. "coins_by_reference" (issue 11's second shape) is gone and reads
 * as any unknown key (ignored): the plain answer, with no snapshot_version. */
void test_engine_portfolio_has_one_wire_shape(void) {
    cf_engine *engine = memory_engine();
    json_t *plain, *asked;
    if (engine == NULL)
        return;
    set_holding(engine, "aaa", 1);
    set_holding(engine, "ccc", 3); /* held, but no market row */
    if (load(engine, example_markets, NULL) != CF_OK)
        goto done;
    plain = portfolio(engine, "{\"sparkline\":false}");
    asked = portfolio(engine, "{\"sparkline\":false,\"coins_by_reference\":true}");
    CHECK(plain != NULL && json_equal(plain, asked));
    CHECK(json_object_get(asked, "snapshot_version") == NULL);
    CHECK(json_is_object(json_array_get(json_object_get(asked, "coins"), 0)));
    json_decref(plain);
    json_decref(asked);
done:
    cf_engine_close(engine);
}

void test_engine_empty_portfolio_is_zero_without_change(void) {
    cf_engine *engine = memory_engine();
    json_t *stats, *value, *p;
    if (engine == NULL)
        return;
    if (load(engine, example_markets, NULL) == CF_OK) {
        stats = statistics(engine);
        value = statistic(stats, "Portfolio Value");
        CHECK_STR(json_str(value, "value"), "$0.00");
        CHECK(json_is_null(json_object_get(value, "percentage_change")));
        json_decref(stats);
        p = portfolio(engine, NULL);
        CHECK_INT(json_array_size(json_object_get(p, "coins")), 0);
        CHECK_DOUBLE(json_num(p, "total_value"), 0, 0);
        json_decref(p);
    }
    cf_engine_close(engine);
}

void test_engine_portfolio_works_without_snapshot(void) {
    cf_engine *engine = memory_engine();
    json_t *p, *coin;
    if (engine == NULL)
        return;
    set_holding(engine, "bitcoin", 0.5);
    p = portfolio(engine, NULL);
    coin = find_by_id(json_object_get(p, "coins"), "bitcoin");
    CHECK(coin != NULL);
    CHECK(json_is_false(json_object_get(coin, "price_available")));
    CHECK(json_is_null(json_object_get(p, "total_value"))); /* unknown, never 0 */
    CHECK_DOUBLE(json_num(p, "unpriced_holdings"), 1, 0);
    CHECK(json_is_null(json_object_get(p, "as_of")));
    json_decref(p);
    cf_engine_close(engine);
}

void test_engine_search_does_not_change_portfolio_value(void) {
    cf_engine *engine = example_engine();
    json_t *before, *after, *found, *stats;
    if (engine == NULL)
        return;
    set_holding(engine, "aaa", 1);
    set_holding(engine, "bbb", 1);
    before = portfolio(engine, NULL);

    found = coins(engine, "{\"search\":\"ALPHA\"}"); /* case-insensitive, by name */
    CHECK_INT(json_array_size(json_object_get(found, "coins")), 1);
    CHECK_DOUBLE(json_num(found, "total"), 1, 0);
    CHECK_STR(json_str(json_array_get(json_object_get(found, "coins"), 0), "id"), "aaa");
    json_decref(found);
    found = coins(engine, "{\"search\":\"B\"}"); /* symbol b, id bbb, name Beta */
    CHECK_INT(json_array_size(json_object_get(found, "coins")), 1);
    json_decref(found);

    after = portfolio(engine, NULL);
    CHECK_DOUBLE(json_num(after, "total_value"), json_num(before, "total_value"), 0);
    CHECK_INT(json_array_size(json_object_get(after, "coins")), 2);
    stats = statistics(engine);
    CHECK_STR(json_str(statistic(stats, "Portfolio Value"), "value"), "$160.00");
    json_decref(stats);
    json_decref(before);
    json_decref(after);
    cf_engine_close(engine);
}

/* Checks the order of a coin list for a sort option (ties break on id). */
static void check_sorted(json_t *list, const char *sort) {
    size_t i;
    for (i = 1; i < json_array_size(list); i++) {
        json_t *a = json_array_get(list, i - 1), *b = json_array_get(list, i);
        const char *ida = json_str(a, "id"), *idb = json_str(b, "id");
        double ra = json_num(a, "market_cap_rank"), rb = json_num(b, "market_cap_rank");
        double pa = json_num(a, "current_price"), pb = json_num(b, "current_price");
        int ok = 1;
        if (!ida || !idb)
            ok = 0;
        else if (strcmp(sort, "rank") == 0 || strcmp(sort, "holdings") == 0)
            ok = isnan(ra) ? (isnan(rb) && strcmp(ida, idb) < 0)
                           : (isnan(rb) || ra < rb || (ra == rb && strcmp(ida, idb) < 0));
        else if (strcmp(sort, "rank_reversed") == 0 || strcmp(sort, "holdings_reversed") == 0)
            ok = isnan(ra) || isnan(rb) || ra > rb || ra == rb;
        else if (strcmp(sort, "price") == 0)
            ok = isnan(pa) || isnan(pb) || pa > pb || (pa == pb && strcmp(ida, idb) < 0);
        else if (strcmp(sort, "price_reversed") == 0)
            ok = isnan(pa) || isnan(pb) || pa < pb || pa == pb;
        tf_check(ok, __FILE__, __LINE__, "sort %s: %s (rank %g, price %g) before %s (rank %g, "
                 "price %g)", sort, ida ? ida : "?", ra, pa, idb ? idb : "?", rb, pb);
    }
}

void test_engine_coins_sorting_and_paging(void) {
    static const char *const sorts[] = {"rank", "rank_reversed", "price", "price_reversed",
                                        "holdings", "holdings_reversed"};
    cf_engine *engine = memory_engine();
    char *markets = fixture_text("markets.json"), *global = fixture_text("global.json");
    json_t *list, *page;
    size_t i, total;
    if (engine == NULL || markets == NULL || global == NULL ||
        load(engine, markets, global) != CF_OK) {
        cf_engine_close(engine);
        free(markets);
        free(global);
        return;
    }
    list = coins(engine, NULL);
    total = json_array_size(json_object_get(list, "coins"));
    CHECK(total > 0);
    CHECK_DOUBLE(json_num(list, "total"), (double)total, 0);
    CHECK(json_is_string(json_object_get(list, "as_of")));
    CHECK(json_is_boolean(json_object_get(list, "stale")));
    check_sorted(json_object_get(list, "coins"), "rank"); /* the default */
    /* Unranked coins sort last for "rank". */
    CHECK(isnan(json_num(json_array_get(json_object_get(list, "coins"), total - 1),
                         "market_cap_rank")));
    json_decref(list);
    for (i = 0; i < sizeof sorts / sizeof sorts[0]; i++) {
        char query[64];
        snprintf(query, sizeof query, "{\"sort\":\"%s\"}", sorts[i]);
        list = coins(engine, query);
        CHECK_INT(json_array_size(json_object_get(list, "coins")), total);
        check_sorted(json_object_get(list, "coins"), sorts[i]);
        json_decref(list);
    }
    list = coins(engine, "{\"search\":\"WETH\"}"); /* two coins share the symbol */
    CHECK_INT(json_array_size(json_object_get(list, "coins")), 2);
    json_decref(list);
    list = coins(engine, "{\"search\":\"1MOVE\"}");
    CHECK_INT(json_array_size(json_object_get(list, "coins")), 1);
    json_decref(list);

    list = coins(engine, "{\"sort\":\"rank\"}");
    page = coins(engine, "{\"sort\":\"rank\",\"limit\":3,\"offset\":2}");
    CHECK_INT(json_array_size(json_object_get(page, "coins")), 3);
    CHECK_DOUBLE(json_num(page, "total"), (double)total, 0);
    CHECK_STR(json_str(json_array_get(json_object_get(page, "coins"), 0), "id"),
              json_str(json_array_get(json_object_get(list, "coins"), 2), "id"));
    json_decref(page);
    json_decref(list);
    list = coins(engine, "{\"offset\":100000}");
    CHECK_INT(json_array_size(json_object_get(list, "coins")), 0);
    json_decref(list);
    free(markets);
    free(global);
    cf_engine_close(engine);
}

void test_engine_coins_have_every_key(void) {
    cf_engine *engine = memory_engine();
    char *markets = fixture_text("markets.json");
    json_t *list, *coin, *raw;
    size_t i;
    if (engine == NULL || markets == NULL || load(engine, markets, NULL) != CF_OK) {
        cf_engine_close(engine);
        free(markets);
        return;
    }
    raw = json_parse_raw(markets, strlen(markets));
    list = coins(engine, "{\"sparkline\":true}");
    json_array_foreach(json_object_get(list, "coins"), i, coin) {
        const char *id = json_str(coin, "id");
        json_t *raw_coin = find_by_id(raw, id ? id : "");
        CHECK(raw_coin != NULL);
        tf_check(compare_coin(raw_coin, coin, id ? id : "?") == 0, __FILE__, __LINE__,
                 "engine coin %s equals the raw body", id ? id : "?");
        CHECK(json_is_boolean(json_object_get(coin, "price_available")));
        CHECK(json_is_true(json_object_get(coin, "price_available")) ==
              json_is_number(json_object_get(coin, "current_price")));
    }
    json_decref(list);
    json_decref(raw);
    free(markets);
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ tests over the server */

void test_engine_refresh_request_counts(void) {
    cf_engine *engine;
    json_t *result, *m, *log, *requests, *entry;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    server_live();
    engine = server_engine(temp_path("refresh.db"), 0);
    if (engine == NULL)
        return;
    set_holding(engine, "bitcoin", 0.5); /* on the first page: no ids= request */
    result = refresh(engine);
    CHECK(json_is_number(json_object_get(result, "coins")));
    CHECK(json_num(result, "coins") > 0);
    CHECK(json_is_string(json_object_get(result, "as_of")));
    CHECK(json_is_false(json_object_get(result, "stale")));
    json_decref(result);

    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "markets"), 1, 0);
    CHECK_DOUBLE(requests_of(m, "global"), 1, 0);
    CHECK_DOUBLE(requests_of(m, "detail"), 0, 0);
    CHECK_DOUBLE(json_num(m, "detail_cache_hits"), 0, 0);
    json_decref(m);

    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/markets"), 1);
    CHECK_INT(server_count(log, "/api/v3/global"), 1);
    requests = json_object_get(log, "requests");
    CHECK_INT(json_array_size(requests), 2); /* never a detail request */
    json_array_foreach(requests, i, entry) {
        const char *ids = json_str(json_object_get(entry, "query"), "ids");
        CHECK(ids == NULL);
    }
    json_decref(log);
    cf_engine_close(engine);
}

void test_engine_refresh_tops_up_held_coin_outside_first_page(void) {
    cf_engine *engine;
    json_t *m, *log, *p, *coin, *top_up = NULL, *entry, *list;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    engine = server_engine(":memory:", 2); /* hive_dollar is last in the fixture universe */
    if (engine == NULL)
        return;
    set_holding(engine, "hive_dollar", 10);
    json_decref(refresh(engine));

    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "markets"), 2, 0);
    CHECK_DOUBLE(requests_of(m, "global"), 1, 0);
    CHECK_DOUBLE(requests_of(m, "detail"), 0, 0);
    json_decref(m);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/markets"), 2);
    json_array_foreach(json_object_get(log, "requests"), i, entry) {
        const char *ids = json_str(json_object_get(entry, "query"), "ids");
        if (ids)
            top_up = entry;
    }
    CHECK(top_up != NULL);
    CHECK(top_up && strstr(json_str(json_object_get(top_up, "query"), "ids"), "hive_dollar"));
    json_decref(log);

    p = portfolio(engine, NULL);
    coin = find_by_id(json_object_get(p, "coins"), "hive_dollar");
    CHECK(coin != NULL);
    CHECK(json_is_true(json_object_get(coin, "price_available")));
    CHECK_DOUBLE(json_num(coin, "current_holdings_value"), 10 * 0.9871, 1e-9);
    CHECK_DOUBLE(json_num(p, "total_value"), 10 * 0.9871, 1e-9);
    json_decref(p);
    list = coins(engine, "{\"search\":\"hive\"}");
    CHECK_INT(json_array_size(json_object_get(list, "coins")), 1);
    json_decref(list);
    cf_engine_close(engine);
}

void test_engine_statistics_after_refresh(void) {
    cf_engine *engine;
    json_t *stats, *s;
    char *market_cap, *volume, *dominance;
    REQUIRE_SERVER();
    server_reset();
    engine = server_engine(":memory:", 0);
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    stats = statistics(engine);
    check_titles(stats, home_titles, 6, "statistics");

    market_cap = format_with_symbol(2.58e12);
    volume = format_with_symbol(342e9);
    dominance = cf_format_percent(42.5);
    s = json_array_get(stats, 0);
    CHECK_STR(json_str(s, "value"), "$2.58Tr");
    CHECK_STR(json_str(s, "value"), market_cap);
    CHECK_DOUBLE(json_num(s, "percentage_change"), 1.2, 0);
    s = json_array_get(stats, 1);
    CHECK_STR(json_str(s, "value"), "$342.00Bn");
    CHECK_STR(json_str(s, "value"), volume);
    CHECK(json_is_null(json_object_get(s, "percentage_change")));
    s = json_array_get(stats, 2);
    CHECK_STR(json_str(s, "value"), "42.50%");
    CHECK_STR(json_str(s, "value"), dominance);
    CHECK(json_is_null(json_object_get(s, "percentage_change")));
    s = json_array_get(stats, 3);
    CHECK_STR(json_str(s, "value"), "$0.00");
    CHECK(json_is_null(json_object_get(s, "percentage_change")));
    free(market_cap);
    free(volume);
    cf_string_free(dominance);
    json_decref(stats);
    cf_engine_close(engine);
}

void test_engine_coin_detail_is_lazy_and_cached(void) {
    static const char *const overview[] = {"Current Price", "Market Capitalization", "Rank",
                                           "Volume"};
    static const char *const additional[] = {"24h High", "24h Low", "24h Price Change",
                                             "24h Market Cap Change", "Block Time",
                                             "Hashing Algorithm"};
    cf_engine *engine;
    json_t *m, *detail, *log, *s;
    char *price;
    REQUIRE_SERVER();
    server_reset();
    engine = server_engine(":memory:", 0);
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "detail"), 0, 0); /* lazy: nothing until asked */
    json_decref(m);

    detail = coin_detail(engine, "bitcoin");
    CHECK_STR(json_str(json_object_get(detail, "coin"), "id"), "bitcoin");
    CHECK_STR(json_str(json_object_get(detail, "detail"), "id"), "bitcoin");
    check_titles(json_object_get(detail, "overview"), overview, 4, "overview");
    check_titles(json_object_get(detail, "additional"), additional, 6, "additional");
    s = statistic(json_object_get(detail, "overview"), "Current Price");
    price = cf_format_price(57000.123, "usd");
    CHECK_STR(json_str(s, "value"), price);
    CHECK_DOUBLE(json_num(s, "percentage_change"), 2.15, 0);
    cf_string_free(price);
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "Hashing Algorithm"),
                       "value"),
              "SHA-256");
    price = cf_format_price(58197.1, "usd");
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "24h High"), "value"),
              price);
    cf_string_free(price);
    json_decref(detail);

    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "detail"), 1, 0);
    CHECK_DOUBLE(json_num(m, "detail_cache_hits"), 0, 0);
    json_decref(m);

    detail = coin_detail(engine, "bitcoin"); /* cached */
    CHECK_STR(json_str(json_object_get(detail, "detail"), "id"), "bitcoin");
    json_decref(detail);
    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "detail"), 1, 0);
    CHECK_DOUBLE(json_num(m, "detail_cache_hits"), 1, 0);
    CHECK_DOUBLE(requests_of(m, "markets"), 1, 0);
    json_decref(m);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/bitcoin"), 1);
    json_decref(log);

    /* Missing values print n/a, never a bare "$". */
    detail = coin_detail(engine, "1move token"); /* no block time, no hashing algorithm */
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "Block Time"), "value"),
              "n/a");
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "Hashing Algorithm"),
                       "value"),
              "n/a");
    json_decref(detail);
    detail = coin_detail(engine, "boringdao-[old]"); /* block time 0 */
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "Block Time"), "value"),
              "n/a");
    json_decref(detail);
    cf_engine_close(engine);
}

void test_engine_coin_detail_missing_price_prints_na(void) {
    cf_engine *engine;
    json_t *detail, *s;
    REQUIRE_SERVER();
    server_reset();
    /* compound-usdt has a null price in the snapshot; its /coins/{id} body comes from a route. */
    server_route(json_pack("{s:s, s:i, s:s}", "path", "/api/v3/coins/compound-usdt", "status",
                           200, "body",
                           "{\"id\":\"compound-usdt\",\"symbol\":\"cusdt\",\"name\":\"cUSDT\","
                           "\"block_time_in_minutes\":null,\"hashing_algorithm\":null,"
                           "\"description\":{\"en\":\"\"},\"links\":{\"homepage\":[\"\"]}}"));
    engine = server_engine(":memory:", 0);
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    detail = coin_detail(engine, "compound-usdt");
    s = statistic(json_object_get(detail, "overview"), "Current Price");
    CHECK_STR(json_str(s, "value"), "n/a");
    CHECK(json_is_null(json_object_get(s, "percentage_change")));
    CHECK_STR(json_str(statistic(json_object_get(detail, "additional"), "24h High"), "value"),
              "n/a");
    json_decref(detail);
    cf_engine_close(engine);
}

typedef struct {
    cf_engine *engine;
    int status;
} detail_job;

static void *ask_detail(void *arg) {
    detail_job *job = arg;
    char *out = NULL, *err = NULL;
    job->status = cf_engine_coin_detail(job->engine, "bitcoin", &out, &err);
    if (job->status == CF_OK) {
        json_t *value = json_loads(out ? out : "", 0, NULL);
        if (!json_is_object(json_object_get(value, "detail")))
            job->status = -1;
        json_decref(value);
    }
    free_out(out);
    free_out(err);
    return NULL;
}

void test_engine_concurrent_detail_requests_share_one(void) {
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    detail_job jobs[THREADS];
    cf_engine *engine;
    json_t *log, *m;
    int i;
    REQUIRE_SERVER();
    server_reset();
    /* Every bitcoin detail answer is slow, so the eight callers overlap. */
    server_fault(json_pack("{s:s, s:i, s:i}", "path", "/api/v3/coins/bitcoin", "delay_ms", 500,
                           "times", -1));
    engine = server_engine(":memory:", 0);
    if (engine == NULL)
        return;
    for (i = 0; i < THREADS; i++) {
        jobs[i].engine = engine;
        jobs[i].status = -2;
        CHECK(pthread_create(&threads[i], NULL, ask_detail, &jobs[i]) == 0);
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    for (i = 0; i < THREADS; i++)
        tf_check(jobs[i].status == CF_OK, __FILE__, __LINE__, "thread %d gets the detail (%d)", i,
                 jobs[i].status);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/coins/bitcoin"), 1);
    json_decref(log);
    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "detail"), 1, 0);
    json_decref(m);
    cf_engine_close(engine);
}

void test_engine_failed_refresh_keeps_snapshot(void) {
    cf_engine *engine;
    json_t *before, *after;
    char *out = SENTINEL, *err = SENTINEL;
    REQUIRE_SERVER();
    server_reset();
    engine = server_engine(":memory:", 0);
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    before = coins(engine, NULL);
    queue_fault("/api/v3/coins/markets", 500, -1, NULL, "{\"error\":\"boom\"}");
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_HTTP, err);
    CHECK(out == NULL);
    json_decref(CHECK_ERROR_JSON(err, CF_HTTP));
    free_out(err);
    after = coins(engine, NULL);
    CHECK_DOUBLE(json_num(after, "total"), json_num(before, "total"), 0);
    CHECK(json_num(after, "total") > 0);
    CHECK(json_is_true(json_object_get(after, "stale")));
    CHECK_STR(json_str(after, "as_of"), json_str(before, "as_of"));
    json_decref(before);
    json_decref(after);
    cf_engine_close(engine);
}

void test_engine_snapshot_survives_reopen_offline(void) {
    const char *path = temp_path("snapshot.db");
    char saved[4096];
    cf_engine *engine;
    json_t *before, *after, *stats, *p;
    REQUIRE_SERVER();
    snprintf(saved, sizeof saved, "%s", path);
    server_reset();
    engine = server_engine(saved, 0);
    if (engine == NULL)
        return;
    set_holding(engine, "bitcoin", 0.5);
    json_decref(refresh(engine));
    before = coins(engine, NULL);
    cf_engine_close(engine);

    /* Reopen with a base URL that refuses connections: answers come from the saved snapshot. */
    engine = open_engine(json_pack("{s:s, s:{s:s, s:i}}", "database", saved, "api", "base_url",
                                   fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                                   "max_retries", 0));
    if (engine == NULL) {
        json_decref(before);
        return;
    }
    after = coins(engine, NULL);
    CHECK_DOUBLE(json_num(after, "total"), json_num(before, "total"), 0);
    CHECK_STR(json_str(after, "as_of"), json_str(before, "as_of"));
    stats = statistics(engine);
    check_titles(stats, home_titles, 6, "statistics after reopen");
    CHECK_STR(json_str(json_array_get(stats, 0), "value"), "$2.58Tr");
    json_decref(stats);
    p = portfolio(engine, NULL);
    CHECK_DOUBLE(json_num(p, "total_value"), 0.5 * 57000.123, 1e-6);
    json_decref(p);
    json_decref(before);
    json_decref(after);
    cf_engine_close(engine);
}

void test_engine_and_client_open_with_null_config(void) {
    /* NULL means all defaults; run from a scratch folder in case the default database is a
     * relative file. Neither open touches the network. */
    char previous[4096], *err = SENTINEL, *out = SENTINEL;
    const char *scratch = temp_path("null-config");
    cf_engine *engine = (cf_engine *)SENTINEL;
    cf_client *client = (cf_client *)SENTINEL;
    int status;
    if (!CHECK(getcwd(previous, sizeof previous) != NULL) || !CHECK(mkdir(scratch, 0700) == 0) ||
        !CHECK(chdir(scratch) == 0))
        return;
    status = cf_engine_open(NULL, &engine, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        CHECK(err == NULL);
        CHECK(engine != NULL && engine != (cf_engine *)SENTINEL);
        status = cf_engine_statistics(engine, &out, &err);
        CHECK_STATUS(status, CF_NO_DATA, err);
        free_out(out);
        free_out(err);
        cf_engine_close(engine);
    } else {
        free_out(err);
    }
    err = SENTINEL;
    status = cf_client_open(NULL, &client, &err);
    if (CHECK_STATUS(status, CF_OK, err)) {
        CHECK(err == NULL);
        CHECK(client != NULL && client != (cf_client *)SENTINEL);
        cf_client_close(client);
    } else {
        free_out(err);
    }
    CHECK(chdir(previous) == 0);
}

void test_engine_metrics_count_every_attempt(void) {
    cf_engine *engine;
    json_t *m, *log;
    REQUIRE_SERVER();
    server_reset();
    queue_fault("/api/v3/global", 503, 1, NULL, "{\"error\":\"busy\"}");
    engine = open_engine(json_pack("{s:s, s:o}", "database", ":memory:", "api", api_config(2, 5000)));
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    m = metrics(engine);
    CHECK_DOUBLE(requests_of(m, "global"), 2, 0); /* the 503 and its retry */
    CHECK_DOUBLE(requests_of(m, "markets"), 1, 0);
    json_decref(m);
    log = server_log();
    CHECK_INT(server_count(log, "/api/v3/global"), 2);
    json_decref(log);
    cf_engine_close(engine);
}

void test_engine_vs_currency_eur(void) {
    cf_engine *engine;
    json_t *stats, *log;
    REQUIRE_SERVER();
    server_reset();
    engine = open_engine(json_pack("{s:s, s:s, s:o}", "database", ":memory:", "vs_currency",
                                   "eur", "api", api_config(0, 5000)));
    if (engine == NULL)
        return;
    json_decref(refresh(engine));
    log = server_log();
    CHECK_STR(json_str(json_object_get(logged_request(log, "/api/v3/coins/markets", 0), "query"),
                       "vs_currency"),
              "eur");
    json_decref(log);
    stats = statistics(engine);
    CHECK_STR(json_str(json_array_get(stats, 0), "value"), "€2.46Tr");
    CHECK_STR(json_str(json_array_get(stats, 1), "value"), "€326.27Bn");
    CHECK_STR(json_str(json_array_get(stats, 3), "value"), "€0.00");
    json_decref(stats);
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ :memory: holds the snapshot once */

/* An engine on the given database whose client can only be refused; `pinned` keeps ":memory:"
 * in memory in the PostgreSQL pass too (an owner of its own is left where it is). */
static cf_engine *offline_on(const char *database, int pinned) {
    json_t *config = json_pack("{s:s, s:{s:s, s:i, s:i}}", "database", database, "api", "base_url",
                               fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                               "max_retries", 0, "timeout_ms", 2000);
    if (pinned)
        json_object_set_new(config, "owner", json_string("default"));
    return open_engine(config);
}

/* An answer's exact text (numbers as the engine wrote them) without its "fetched_at" (each
 * engine's load time); NULL when the call failed. The caller frees it. */
static char *answer_text(int status, char *out, char *err, const char *call) {
    char *text = NULL, *at;
    if (CHECK_STATUS(status, CF_OK, err) && out != NULL) {
        size_t length = strlen(out) + 1;
        text = malloc(length);
        if (text != NULL)
            memcpy(text, out, length);
        at = text != NULL ? strstr(text, "\"fetched_at\":\"") : NULL;
        if (at != NULL) {
            char *end = strchr(at + 14, '"');
            if (end != NULL)
                memmove(at, end + 1, strlen(end + 1) + 1);
        }
    }
    CHECK(text != NULL);
    (void)call;
    free_out(out);
    free_out(err);
    return text;
}

/* The answers an engine gives: coins with and without sparklines, the portfolio, the
 * statistics and the portfolio history. */
#define ANSWERS 5
static void answers_of(cf_engine *engine, char *texts[ANSWERS]) {
    char *out = SENTINEL, *err = SENTINEL;
    texts[0] = answer_text(cf_engine_coins(engine, "{\"sparkline\":true}", &out, &err), out, err, "coins");
    out = SENTINEL, err = SENTINEL;
    texts[1] = answer_text(cf_engine_coins(engine, "{\"sparkline\":false}", &out, &err), out, err, "coins");
    out = SENTINEL, err = SENTINEL;
    texts[2] = answer_text(cf_engine_portfolio(engine, "{\"sparkline\":true}", &out, &err), out, err, "portfolio");
    out = SENTINEL, err = SENTINEL;
    texts[3] = answer_text(cf_engine_statistics(engine, &out, &err), out, err, "statistics");
    out = SENTINEL, err = SENTINEL;
    texts[4] = answer_text(cf_engine_portfolio_history(engine, NULL, &out, &err), out, err, "history");
}

static void check_same_answers(char *expected[ANSWERS], cf_engine *engine, const char *what) {
    char *texts[ANSWERS];
    int i;
    answers_of(engine, texts);
    for (i = 0; i < ANSWERS; i++) {
        tf_check(expected[i] != NULL && texts[i] != NULL && strcmp(expected[i], texts[i]) == 0, __FILE__, __LINE__,
                 "%s: answer %d is the :memory: engine's, byte for byte", what, i);
        free(texts[i]);
    }
}

/* Issue 11: an engine on ":memory:" saves no second copy of its snapshot (nothing could read it
 * back); its answers, every sparkline point included, are those of an engine on a database and
 * of that database reopened offline. */
void test_engine_memory_answers_as_a_database_and_its_reopening(void) {
    char path[4096], *expected[ANSWERS];
    char *markets = read_file(fmt_path("%s/Tests/fixtures/coingecko/markets.json", tf_repo_root), NULL);
    char *global = read_file(fmt_path("%s/Tests/fixtures/coingecko/global.json", tf_repo_root), NULL);
    cf_engine *memory, *database;
    json_t *listing;
    int i;
    snprintf(path, sizeof path, "%s", temp_path("alike.db"));
    memory = offline_on(":memory:", 1);
    database = offline_on(path, 0);
    if (!CHECK(markets != NULL && global != NULL) || memory == NULL || database == NULL) {
        cf_engine_close(memory);
        cf_engine_close(database);
        free(markets);
        free(global);
        return;
    }
    load(memory, markets, global);
    load(database, markets, global);
    set_holding(memory, "bitcoin", 0.5);
    set_holding(database, "bitcoin", 0.5);
    answers_of(memory, expected);
    listing = coins(memory, "{\"limit\":1}");
    CHECK_DOUBLE(json_array_size(json_object_get(
                     json_object_get(json_array_get(json_object_get(listing, "coins"), 0), "sparkline_in_7d"), "price")),
                 170, 0);
    json_decref(listing);
    check_same_answers(expected, database, "the database engine");
    cf_engine_close(database);
    database = offline_on(path, 0);
    if (database != NULL)
        check_same_answers(expected, database, "the database reopened offline");
    for (i = 0; i < ANSWERS; i++)
        free(expected[i]);
    cf_engine_close(database);
    cf_engine_close(memory);
    free(markets);
    free(global);
}
