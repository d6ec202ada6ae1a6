/* test_edges.c — SPEC §10 "Right at every edge" through the C ABI: money in every currency,
 * the portfolio change with unknown changes (coverage), numbers sent as strings and the
 * warnings list, rows with only an id, empty answers, HTML to text, Unicode search, holding ids. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* Checks one formatted string and frees it. */
#define EXPECT_FORMAT(call, expected)                                                          \
    do {                                                                                       \
        char *te_s_ = (call);                                                                  \
        tf_check_str(te_s_, (expected), __FILE__, __LINE__, #call);                            \
        cf_string_free(te_s_);                                                                 \
    } while (0)

/* An engine that loads bodies only (its server port refuses connections). */
static cf_engine *offline_engine(const char *vs_currency) {
    json_t *config = json_pack("{s:s, s:s, s:{s:s, s:i, s:i}}", "database", ":memory:",
                               "vs_currency", vs_currency, "api", "base_url",
                               fmt_path("http://127.0.0.1:%d/api/v3", refused_port()),
                               "max_retries", 0, "timeout_ms", 2000);
    return open_engine(config);
}

static int load_ok(cf_engine *engine, const char *markets) {
    char *err = SENTINEL;
    int ok = CHECK_STATUS(cf_engine_load(engine, markets, NULL, &err), CF_OK, err);
    free_out(err);
    return ok;
}

static int hold(cf_engine *engine, const char *id, double amount) {
    char *err = SENTINEL;
    int ok = CHECK_STATUS(cf_engine_set_holding(engine, id, amount, &err), CF_OK, err);
    free_out(err);
    return ok;
}

/* The "Portfolio Value" statistic (a new reference), or NULL. */
static json_t *portfolio_value(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *parsed, *list, *value = NULL;
    if (!CHECK_STATUS(cf_engine_statistics(engine, &out, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    parsed = PARSE_JSON(out);
    cf_string_free(out);
    list = json_object_get(parsed, "statistics");
    if (CHECK(json_array_size(list) == 6)) { /* then "Unrealized P&L", "Realized P&L" (the ledger) */
        value = json_incref(json_array_get(list, 3));
        CHECK_STR(json_str(value, "title"), "Portfolio Value");
        CHECK(json_object_get(json_array_get(list, 0), "coverage") == NULL);
    }
    json_decref(parsed);
    return value;
}

static json_t *decode_markets(const char *body) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *decoded = NULL;
    if (CHECK_STATUS(cf_decode_markets(body, &out, &err), CF_OK, err))
        decoded = PARSE_JSON(out);
    free_out(out);
    free_out(err);
    return decoded;
}

/* ------------------------------------------------------------------ money */

void test_edges_format_value_per_currency(void) {
    EXPECT_FORMAT(cf_format_value(123400, "jpy"), "¥123,400");
    EXPECT_FORMAT(cf_format_value(148064.07, "jpy"), "¥148,064");
    EXPECT_FORMAT(cf_format_value(148064.07, "JPY"), "¥148,064");
    EXPECT_FORMAT(cf_format_value(1234567.89, "krw"), "KRW 1,234,568");
    EXPECT_FORMAT(cf_format_value(12345, "sats"), "SATS 12,345");
    EXPECT_FORMAT(cf_format_value(1.2346, "kwd"), "KWD 1.235");
    EXPECT_FORMAT(cf_format_value(1.5, "bhd"), "BHD 1.500");
    EXPECT_FORMAT(cf_format_value(1234.5, "usd"), "$1,234.50");
    EXPECT_FORMAT(cf_format_value(1234.5, NULL), "$1,234.50");
    EXPECT_FORMAT(cf_format_value(1.5, "bits"), "BITS 1.50");
    EXPECT_FORMAT(cf_format_value(2.5e-05, "btc"), "₿0.000025");
    EXPECT_FORMAT(cf_format_value(0.5, "btc"), "₿0.50");
    EXPECT_FORMAT(cf_format_value(1.23456789, "btc"), "₿1.23456789");
    EXPECT_FORMAT(cf_format_value(3.3e-10, "btc"), "₿0.00000000033");
    EXPECT_FORMAT(cf_format_value(0, "btc"), "₿0.00");
    EXPECT_FORMAT(cf_format_value(2.5e-05, "xau"), "XAU 0.000025");
    EXPECT_FORMAT(cf_format_value(NAN, "jpy"), "n/a");
    CHECK(cf_format_value(1, "no-such!") == NULL);
    CHECK(cf_format_value(1, "") == NULL);
}

void test_edges_format_price_per_currency(void) {
    EXPECT_FORMAT(cf_format_price(32.034, "jpy"), "¥32.03");
    EXPECT_FORMAT(cf_format_price(14800000, "jpy"), "¥14,800,000");
    EXPECT_FORMAT(cf_format_price(12345, "sats"), "SATS 12,345");
    EXPECT_FORMAT(cf_format_price(1.2346, "kwd"), "KWD 1.235");
    EXPECT_FORMAT(cf_format_price(2.5e-05, "btc"), "₿0.000025");
    EXPECT_FORMAT(cf_format_price(3.3e-10, "btc"), "₿0.00000000033");
    EXPECT_FORMAT(cf_format_price(57000.123, "usd"), "$57,000.123");
    EXPECT_FORMAT(cf_format_price(0.000123456, "usd"), "$0.0001235");
    /* cf_format_currency keeps honouring the digits it is given. */
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "jpy"), "¥1,234.56");
}

void test_edges_engine_values_in_the_currencys_precision(void) {
    cf_engine *engine = offline_engine("jpy");
    json_t *value;
    if (engine == NULL)
        return;
    if (load_ok(engine, "[{\"id\":\"coin-a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":148064.07}]") &&
        hold(engine, "coin-a", 1)) {
        value = portfolio_value(engine);
        CHECK_STR(json_str(value, "value"), "¥148,064");
        json_decref(value);
    }
    cf_engine_close(engine);

    engine = offline_engine("btc");
    if (engine == NULL)
        return;
    if (load_ok(engine, "[{\"id\":\"tiny\",\"symbol\":\"t\",\"name\":\"Tiny\",\"current_price\":2.5e-08}]") &&
        hold(engine, "tiny", 1000)) {
        char *out = SENTINEL, *err = SENTINEL;
        value = portfolio_value(engine);
        CHECK_STR(json_str(value, "value"), "₿0.000025");
        json_decref(value);
        if (CHECK_STATUS(cf_engine_portfolio(engine, NULL, &out, &err), CF_OK, err)) {
            json_t *p = PARSE_JSON(out);
            CHECK_DOUBLE(json_num(p, "total_value"), 2.5e-05, 1e-18);
            json_decref(p);
        }
        free_out(out);
        free_out(err);
    }
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ 24 h change */

void test_edges_unknown_change_is_left_out_with_coverage(void) {
    cf_engine *engine = offline_engine("usd");
    json_t *value;
    if (engine == NULL)
        return;
    if (!load_ok(engine, "[{\"id\":\"coin-a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":1,"
                         "\"price_change_percentage_24h\":null},"
                         "{\"id\":\"coin-b\",\"symbol\":\"b\",\"name\":\"B\",\"current_price\":1,"
                         "\"price_change_percentage_24h\":-50}]"))
        goto done;
    value = portfolio_value(engine);
    CHECK(json_is_null(json_object_get(value, "percentage_change")));
    CHECK_DOUBLE(json_num(value, "coverage"), 0, 0); /* no holdings */
    json_decref(value);
    hold(engine, "coin-a", 1);
    hold(engine, "coin-b", 1);
    value = portfolio_value(engine);
    CHECK_STR(json_str(value, "value"), "$2.00");
    CHECK_DOUBLE(json_num(value, "percentage_change"), -50.0, 1e-9);
    CHECK_DOUBLE(json_num(value, "coverage"), 0.5, 0);
    json_decref(value);
done:
    cf_engine_close(engine);
}

void test_edges_coin_at_zero_after_minus_100_percent(void) {
    cf_engine *engine = offline_engine("usd");
    json_t *value;
    if (engine == NULL)
        return;
    if (load_ok(engine, "[{\"id\":\"gone\",\"symbol\":\"g\",\"name\":\"Gone\",\"current_price\":0,"
                        "\"price_change_24h\":-2,\"price_change_percentage_24h\":-100},"
                        "{\"id\":\"fine\",\"symbol\":\"f\",\"name\":\"Fine\",\"current_price\":2,"
                        "\"price_change_24h\":0}]") &&
        hold(engine, "gone", 1)) {
        value = portfolio_value(engine);
        CHECK_DOUBLE(json_num(value, "percentage_change"), -100.0, 0);
        CHECK_DOUBLE(json_num(value, "coverage"), 1, 0);
        json_decref(value);
        hold(engine, "fine", 1);
        value = portfolio_value(engine); /* before 2 + 2, now 0 + 2 */
        CHECK_DOUBLE(json_num(value, "percentage_change"), -50.0, 0);
        json_decref(value);
    }
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ decoding */

void test_edges_numbers_sent_as_strings(void) {
    static const char *const bad[] = {"12abc", "", " 1", "NaN", "Infinity", "0x10", "1e400"};
    json_t *decoded = decode_markets(
        "[{\"id\":\"coin-a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":\"0.0421\","
        "\"price_change_24h\":\"-1.5\",\"total_supply\":\"4.2e17\",\"market_cap_rank\":\"7\"}]");
    json_t *coin = json_array_get(json_object_get(decoded, "coins"), 0);
    size_t i;
    CHECK_DOUBLE(json_num(coin, "current_price"), 0.0421, 0);
    CHECK_DOUBLE(json_num(coin, "price_change_24h"), -1.5, 0);
    CHECK_DOUBLE(json_num(coin, "total_supply"), 4.2e17, 0);
    CHECK_DOUBLE(json_num(coin, "market_cap_rank"), 7, 0);
    CHECK_INT(json_array_size(json_object_get(decoded, "skipped")), 0);
    CHECK_INT(json_array_size(json_object_get(decoded, "warnings")), 0);
    json_decref(decoded);

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[256];
        json_t *warning;
        snprintf(body, sizeof body,
                 "[{\"id\":\"coin-a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":\"%s\"}]",
                 bad[i]);
        decoded = decode_markets(body);
        coin = json_array_get(json_object_get(decoded, "coins"), 0);
        tf_check(json_is_null(json_object_get(coin, "current_price")), __FILE__, __LINE__,
                 "\"%s\" reads as null", bad[i]);
        CHECK_INT(json_array_size(json_object_get(decoded, "skipped")), 0);
        CHECK_INT(json_array_size(json_object_get(decoded, "warnings")), 1);
        warning = json_array_get(json_object_get(decoded, "warnings"), 0);
        CHECK_DOUBLE(json_num(warning, "index"), 0, 0);
        CHECK_STR(json_str(warning, "id"), "coin-a");
        CHECK_STR(json_str(warning, "field"), "current_price");
        CHECK_STR(json_str(warning, "reason"), "not a number");
        json_decref(decoded);
    }
}

void test_edges_global_and_detail_warnings(void) {
    char *out = SENTINEL, *err = SENTINEL;
    if (CHECK_STATUS(cf_decode_global("{\"data\":{\"total_market_cap\":{\"usd\":\"2.5e12\","
                                      "\"eur\":\"x\"}}}",
                                      &out, &err),
                     CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out), *warning;
        CHECK_DOUBLE(json_num(json_object_get(json_object_get(decoded, "market_data"),
                                              "total_market_cap"),
                              "usd"),
                     2.5e12, 0);
        CHECK_INT(json_array_size(json_object_get(decoded, "warnings")), 1);
        warning = json_array_get(json_object_get(decoded, "warnings"), 0);
        CHECK(json_is_null(json_object_get(warning, "index")));
        CHECK(json_is_null(json_object_get(warning, "id")));
        CHECK_STR(json_str(warning, "field"), "total_market_cap.eur");
        CHECK_STR(json_str(warning, "reason"), "not a number");
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    out = SENTINEL;
    err = SENTINEL;
    if (CHECK_STATUS(cf_decode_coin_detail("{\"id\":\"a\",\"symbol\":\"a\",\"name\":\"A\","
                                           "\"block_time_in_minutes\":\"10\",\"hashing_algorithm\":5}",
                                           &out, &err),
                     CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out), *warning;
        CHECK_DOUBLE(json_num(json_object_get(decoded, "detail"), "block_time_in_minutes"), 10, 0);
        CHECK_INT(json_array_size(json_object_get(decoded, "warnings")), 1);
        warning = json_array_get(json_object_get(decoded, "warnings"), 0);
        CHECK_STR(json_str(warning, "id"), "a");
        CHECK_STR(json_str(warning, "field"), "hashing_algorithm");
        CHECK_STR(json_str(warning, "reason"), "not a string");
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
}

void test_edges_row_needs_only_its_id(void) {
    json_t *decoded = decode_markets("[{\"id\":\"coin-a\",\"current_price\":50}]");
    json_t *coin = json_array_get(json_object_get(decoded, "coins"), 0);
    json_t *warnings = json_object_get(decoded, "warnings");
    CHECK_INT(json_array_size(json_object_get(decoded, "coins")), 1);
    CHECK_STR(json_str(coin, "id"), "coin-a");
    CHECK_STR(json_str(coin, "symbol"), "");
    CHECK_STR(json_str(coin, "name"), "");
    CHECK_DOUBLE(json_num(coin, "current_price"), 50, 0);
    CHECK_INT(json_array_size(json_object_get(decoded, "skipped")), 0);
    CHECK_INT(json_array_size(warnings), 2);
    CHECK_STR(json_str(json_array_get(warnings, 0), "field"), "symbol");
    CHECK_STR(json_str(json_array_get(warnings, 0), "reason"), "missing");
    CHECK_STR(json_str(json_array_get(warnings, 1), "field"), "name");
    json_decref(decoded);

    decoded = decode_markets("[{\"id\":1,\"symbol\":\"a\",\"name\":\"A\"},null]");
    CHECK_INT(json_array_size(json_object_get(decoded, "coins")), 0);
    CHECK_INT(json_array_size(json_object_get(decoded, "skipped")), 2);
    json_decref(decoded);
}

void test_edges_html_description_keeps_bare_brackets(void) {
    char *out = SENTINEL, *err = SENTINEL;
    const char *body =
        "{\"id\":\"a\",\"symbol\":\"a\",\"name\":\"A\",\"description\":{\"en\":"
        "\"Fees are < 0.1% and > 0 for <a href=\\\"https://example.org\\\">holders</a>. "
        "&lt;b&gt;<br>line\"}}";
    if (CHECK_STATUS(cf_decode_coin_detail(body, &out, &err), CF_OK, err)) {
        json_t *decoded = PARSE_JSON(out);
        CHECK_STR(json_str(json_object_get(decoded, "detail"), "description"),
                  "Fees are < 0.1% and > 0 for holders. <b>\nline");
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
}

/* ------------------------------------------------------------------ empty answers */

static int coins_total(cf_engine *engine) {
    char *out = SENTINEL, *err = SENTINEL;
    int total = -1;
    if (CHECK_STATUS(cf_engine_coins(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *listing = PARSE_JSON(out);
        total = (int)json_num(listing, "total");
        CHECK(json_is_false(json_object_get(listing, "stale")));
        json_decref(listing);
    }
    free_out(out);
    free_out(err);
    return total;
}

void test_edges_load_of_no_coin_replaces_nothing(void) {
    static const char *const empty[] = {"[]", "[null,null]", "[{\"id\":1}]"};
    cf_engine *engine = offline_engine("usd");
    size_t i;
    if (engine == NULL)
        return;
    if (!load_ok(engine, "[{\"id\":\"coin-a\",\"symbol\":\"a\",\"name\":\"A\",\"current_price\":1}]"))
        goto done;
    for (i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        char *err = SENTINEL;
        json_t *error;
        CHECK_STATUS(cf_engine_load(engine, empty[i], NULL, &err), CF_INVALID_ARGUMENT, err);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "reason"), "no_coins");
        json_decref(error);
        free_out(err);
        CHECK_INT(coins_total(engine), 1);
    }
done:
    cf_engine_close(engine);
}

void test_edges_refresh_with_empty_first_page_keeps_snapshot(void) {
    static const char *const empty[] = {"[]", "[null,null]", "[{\"id\":1}]"};
    json_t *config;
    cf_engine *engine;
    char *out = SENTINEL, *err = SENTINEL;
    int before;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    server_live(); /* answers stamped now: the good snapshot is not stale */
    config = json_pack("{s:s, s:o}", "database", temp_path("empty.db"), "api", api_config(0, 5000));
    engine = open_engine(config);
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_OK, err);
    free_out(out);
    free_out(err);
    before = coins_total(engine);
    CHECK(before > 0);
    for (i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        json_t *error;
        out = SENTINEL;
        err = SENTINEL;
        queue_fault("/api/v3/coins/markets", 200, 1, NULL, empty[i]);
        CHECK_STATUS(cf_engine_refresh(engine, &out, &err), CF_DECODE, err);
        CHECK(out == NULL);
        error = CHECK_ERROR_JSON(err, CF_DECODE);
        CHECK_STR(json_str(error, "message"), "CoinGecko returned no coins");
        CHECK_STR(json_str(json_object_get(error, "details"), "reason"), "no_coins");
        json_decref(error);
        free_out(err);
        CHECK_INT(coins_total(engine), before); /* and "stale" still false */
    }
    cf_engine_close(engine);
    server_reset();
}

/* ------------------------------------------------------------------ search */

static int search_count(cf_engine *engine, const char *search, const char *expected_id) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *query = json_pack("{s:s}", "search", search), *listing;
    char *text = json_dumps(query, JSON_COMPACT);
    int total = -1;
    json_decref(query);
    if (CHECK_STATUS(cf_engine_coins(engine, text, &out, &err), CF_OK, err)) {
        listing = PARSE_JSON(out);
        total = (int)json_num(listing, "total");
        if (total == 1)
            tf_check(strcmp(json_str(json_array_get(json_object_get(listing, "coins"), 0), "id"),
                            expected_id) == 0,
                     __FILE__, __LINE__, "\"%s\" finds %s", search, expected_id);
        json_decref(listing);
    }
    free(text);
    free_out(out);
    free_out(err);
    return total;
}

void test_edges_search_normalized_case_folded_diacritic_insensitive(void) {
    cf_engine *engine = offline_engine("usd");
    if (engine == NULL)
        return;
    if (load_ok(engine, "[{\"id\":\"pokemon-token\",\"symbol\":\"pkmn\",\"name\":\"Pok\\u00e9mon Token\"},"
                        "{\"id\":\"strasse-coin\",\"symbol\":\"str\",\"name\":\"Stra\\u00dfe\"},"
                        "{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\"}]")) {
        CHECK_INT(search_count(engine, "pokemon", "pokemon-token"), 1);
        CHECK_INT(search_count(engine, "POK\xc3\x89MON", "pokemon-token"), 1);
        CHECK_INT(search_count(engine, "poke\xcc\x81mon", "pokemon-token"), 1); /* e + U+0301 */
        CHECK_INT(search_count(engine, "strasse", "strasse-coin"), 1);
        CHECK_INT(search_count(engine, "STRASSE", "strasse-coin"), 1);
        CHECK_INT(search_count(engine, "xyz", ""), 0);
    }
    if (load_ok(engine, "[{\"id\":\"decomposed\",\"symbol\":\"pkmn\",\"name\":\"Poke\\u0301mon\"}]"))
        CHECK_INT(search_count(engine, "pok\xc3\xa9mon", "decomposed"), 1); /* precomposed query */
    cf_engine_close(engine);
}

/* ------------------------------------------------------------------ holding ids */

void test_edges_holding_ids_with_upper_case_or_spaces(void) {
    static const char *const ids[][2] = {
        {"Bitcoin", "bitcoin"}, {" bitcoin", "bitcoin"}, {"bitcoin ", "bitcoin"}, {" Bitcoin ", "bitcoin"}};
    cf_store *store = NULL;
    cf_engine *engine = offline_engine("usd");
    char *err = SENTINEL, *out = SENTINEL;
    size_t i;
    if (!CHECK_STATUS(cf_store_open(":memory:", &store, &err), CF_OK, err) || engine == NULL) {
        free_out(err);
        cf_engine_close(engine);
        return;
    }
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        json_t *error;
        err = SENTINEL;
        CHECK_STATUS(cf_store_set_holding(store, ids[i][0], 1, &err), CF_INVALID_ARGUMENT, err);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "suggestion"), ids[i][1]);
        json_decref(error);
        free_out(err);
        err = SENTINEL;
        CHECK_STATUS(cf_engine_set_holding(engine, ids[i][0], 1, &err), CF_INVALID_ARGUMENT, err);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        CHECK_STR(json_str(json_object_get(error, "details"), "suggestion"), ids[i][1]);
        json_decref(error);
        free_out(err);
    }
    err = SENTINEL;
    if (CHECK_STATUS(cf_store_holdings(store, &out, &err), CF_OK, err)) {
        json_t *list = PARSE_JSON(out);
        CHECK_INT(json_array_size(json_object_get(list, "holdings")), 0); /* nothing written */
        json_decref(list);
    }
    free_out(out);
    free_out(err);
    cf_store_close(store);
    cf_engine_close(engine);
}
