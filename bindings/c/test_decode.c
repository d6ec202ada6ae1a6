/* test_decode.c — decoding the committed fixtures (Tests/fixtures/coingecko) and the recorded
 * corpus (../shared/fixtures/coingecko) through cf_decode_*. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

static char *fixture(const char *name, size_t *length) {
    const char *path = fmt_path("%s/Tests/fixtures/coingecko/%s", tf_repo_root, name);
    char *body = read_file(path, length);
    tf_check(body != NULL, __FILE__, __LINE__, "fixture %s is readable", path);
    return body;
}

/* Decodes markets.json and returns the parsed output (caller json_decref()s). */
static json_t *decode_markets_fixture(const char *name, json_t **out_raw) {
    size_t length = 0;
    char *body = fixture(name, &length), *out = NULL, *err = NULL;
    json_t *decoded = NULL;
    if (body == NULL)
        return NULL;
    if (CHECK_STATUS(cf_decode_markets(body, &out, &err), CF_OK, err))
        decoded = PARSE_JSON(out);
    if (out_raw)
        *out_raw = json_parse_raw(body, length);
    free_out(out);
    free_out(err);
    free(body);
    return decoded;
}

static json_t *find_coin(json_t *coins, const char *id) {
    size_t i;
    json_t *coin;
    json_array_foreach(coins, i, coin) {
        const char *coin_id = json_str(coin, "id");
        if (coin_id && strcmp(coin_id, id) == 0)
            return coin;
    }
    return NULL;
}

void test_decode_markets_fixture_matches_raw_values(void) {
    size_t length = 0;
    char *body = fixture("markets.json", &length);
    if (body == NULL)
        return;
    CHECK(check_markets_decoding(body, length, "markets.json"));
    free(body);
}

void test_decode_markets_keeps_unknown_price_as_null(void) {
    json_t *raw = NULL, *decoded = decode_markets_fixture("markets.json", &raw), *element;
    json_t *coins = json_object_get(decoded, "coins");
    size_t i;
    int nulls = 0;
    json_array_foreach(raw, i, element) {
        json_t *coin = find_coin(coins, json_str(element, "id"));
        if (json_is_null(json_object_get(element, "current_price"))) {
            nulls++;
            CHECK(coin != NULL);
            CHECK(json_is_null(json_object_get(coin, "current_price")));
        }
        if (json_is_null(json_object_get(element, "market_cap_rank"))) {
            CHECK(coin != NULL);
            CHECK(json_is_null(json_object_get(coin, "market_cap_rank")));
        }
    }
    CHECK(nulls > 0); /* the fixture has the awkward case */
    CHECK_INT(json_array_size(json_object_get(decoded, "skipped")), 0);
    json_decref(decoded);
    json_decref(raw);
}

void test_decode_markets_tiny_and_huge_numbers(void) {
    json_t *decoded = decode_markets_fixture("markets.json", NULL);
    json_t *coins = json_object_get(decoded, "coins"), *coin;
    size_t i;
    int tiny = 0, huge = 0;
    json_array_foreach(coins, i, coin) {
        if (json_num(coin, "current_price") == 1.186e-09)
            tiny = 1;
        if (json_num(coin, "total_supply") == 4.2e17)
            huge = 1;
    }
    CHECK(tiny); /* 1.186e-09 survives exactly */
    CHECK(huge); /* 4.2e+17 survives exactly */
    json_decref(decoded);
}

void test_decode_markets_sparklines_of_any_length(void) {
    json_t *raw = NULL, *decoded = decode_markets_fixture("markets.json", &raw), *element;
    json_t *coins = json_object_get(decoded, "coins");
    size_t i;
    int saw_170 = 0, saw_empty = 0;
    json_array_foreach(raw, i, element) {
        json_t *raw_prices = json_object_get(json_object_get(element, "sparkline_in_7d"), "price");
        json_t *coin = find_coin(coins, json_str(element, "id"));
        json_t *prices = json_object_get(json_object_get(coin, "sparkline_in_7d"), "price");
        if (!json_is_array(raw_prices))
            continue;
        CHECK(json_is_array(prices));
        CHECK_INT(json_array_size(prices), json_array_size(raw_prices));
        if (json_array_size(raw_prices) == 170)
            saw_170 = 1;
        if (json_array_size(raw_prices) == 0)
            saw_empty = 1;
    }
    CHECK(saw_170);
    CHECK(saw_empty);
    json_decref(decoded);
    json_decref(raw);
}

void test_decode_markets_duplicate_symbols_are_distinct_coins(void) {
    json_t *decoded = decode_markets_fixture("markets.json", NULL);
    json_t *coins = json_object_get(decoded, "coins"), *coin;
    size_t i;
    int weth = 0;
    json_array_foreach(coins, i, coin) {
        const char *symbol = json_str(coin, "symbol");
        if (symbol && strcmp(symbol, "weth") == 0)
            weth++;
    }
    CHECK_INT(weth, 2);
    CHECK(find_coin(coins, "1move token") != NULL);
    CHECK(find_coin(coins, "boringdao-[old]") != NULL);
    CHECK(find_coin(coins, "hive_dollar") != NULL);
    json_decref(decoded);
}

void test_decode_markets_skips_bad_elements(void) {
    size_t length = 0;
    char *body = fixture("markets-bad-elements.json", &length);
    json_t *decoded, *coins, *ethereum;
    if (body == NULL)
        return;
    /* Generic: every element kept (last of its id) or reported, values equal to the raw. */
    CHECK(check_markets_decoding(body, length, "markets-bad-elements.json"));
    free(body);
    /* Specific: bitcoin, the later ethereum row, tether and numeric-name (a row needs only its
     * id: its numeric name reads as "" with a warning) survive. */
    decoded = decode_markets_fixture("markets-bad-elements.json", NULL);
    coins = json_object_get(decoded, "coins");
    CHECK(find_coin(coins, "bitcoin") != NULL);
    CHECK(find_coin(coins, "tether") != NULL);
    ethereum = find_coin(coins, "ethereum");
    CHECK(ethereum != NULL);
    CHECK_DOUBLE(json_num(ethereum, "current_price"), 3928.55, 0);
    CHECK(find_coin(coins, "numeric-name") != NULL);
    CHECK_STR(json_str(find_coin(coins, "numeric-name"), "name"), "");
    CHECK_INT(json_array_size(coins), 4);
    CHECK_INT(json_array_size(json_object_get(decoded, "warnings")), 1);
    json_decref(decoded);
}

void test_decode_global_fixture(void) {
    size_t length = 0;
    char *body = fixture("global.json", &length), *out = NULL, *err = NULL;
    json_t *decoded, *data;
    if (body == NULL)
        return;
    CHECK(check_global_decoding(body, length, "global.json"));
    if (CHECK_STATUS(cf_decode_global(body, &out, &err), CF_OK, err)) {
        decoded = PARSE_JSON(out);
        data = json_object_get(decoded, "market_data");
        CHECK_DOUBLE(json_num(json_object_get(data, "total_market_cap"), "usd"), 2.58e12, 0);
        CHECK_DOUBLE(json_num(json_object_get(data, "market_cap_percentage"), "btc"), 42.5, 0);
        CHECK_DOUBLE(json_num(data, "updated_at"), 1734605095, 0);
        json_decref(decoded);
    }
    free_out(out);
    free_out(err);
    free(body);
}

void test_decode_detail_fixture_plain_text(void) {
    size_t length = 0;
    char *body = fixture("details.json", &length);
    json_t *details = json_parse_raw(body, length), *value;
    const char *id;
    if (body == NULL)
        return;
    CHECK(json_is_object(details));
    json_object_foreach(details, id, value) {
        char *text = json_dumps(value, JSON_COMPACT), *out = NULL, *err = NULL;
        CHECK(check_detail_decoding(text, strlen(text), fmt_path("details.json[%s]", id)));
        if (strcmp(id, "bitcoin") == 0 &&
            CHECK_STATUS(cf_decode_coin_detail(text, &out, &err), CF_OK, err)) {
            json_t *decoded = PARSE_JSON(out);
            json_t *detail = json_object_get(decoded, "detail");
            const char *description = json_str(detail, "description");
            CHECK(description != NULL &&
                  strncmp(description, "Bitcoin is the first & best known", 33) == 0);
            CHECK_STR(json_str(detail, "homepage"), "https://bitcoin.org");
            CHECK_STR(json_str(detail, "hashing_algorithm"), "SHA-256");
            CHECK_DOUBLE(json_num(detail, "block_time_in_minutes"), 10, 0);
            json_decref(decoded);
        }
        free_out(out);
        free_out(err);
        free(text);
    }
    json_decref(details);
    free(body);
}

/* ------------------------------------------------------------------ corpus */

/* Runs check(body) over every .json file in a corpus folder; returns files checked. */
static int over_corpus(const char *folder, int (*check)(const char *, size_t, const char *)) {
    const char *dir_path = fmt_path("%s/../shared/fixtures/coingecko/%s", tf_repo_root, folder);
    DIR *dir = opendir(dir_path);
    struct dirent *entry;
    int files = 0;
    if (dir == NULL) {
        TF_SKIP(fmt_path("corpus folder %s is absent", dir_path));
        return 0;
    }
    while ((entry = readdir(dir)) != NULL) {
        size_t name_length = strlen(entry->d_name), length = 0;
        char path[4096], label[512];
        char *body;
        if (name_length < 6 || strcmp(entry->d_name + name_length - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir_path, entry->d_name);
        snprintf(label, sizeof label, "%s/%s", folder, entry->d_name);
        body = read_file(path, &length);
        if (!tf_check(body != NULL, __FILE__, __LINE__, "%s is readable", path))
            continue;
        tf_check(check(body, length, label), __FILE__, __LINE__, "corpus %s decodes and matches",
                 label);
        files++;
        free(body);
    }
    closedir(dir);
    return files;
}

void test_corpus_markets_decode_and_match(void) {
    int files = over_corpus("coins-markets", check_markets_decoding);
    if (files > 0)
        printf("  %d coins-markets files\n", files);
}

void test_corpus_global_decode_and_match(void) {
    int files = over_corpus("global", check_global_decoding);
    if (files > 0)
        printf("  %d global files\n", files);
}

void test_corpus_coin_detail_decode_and_match(void) {
    /* One of these files starts with a UTF-8 byte order mark; the library accepts it. */
    int files = over_corpus("coins-id", check_detail_decoding);
    if (files > 0)
        printf("  %d coins-id files\n", files);
}
