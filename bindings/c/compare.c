/* compare.c — checks a decoded model against the raw CoinGecko body, both parsed by jansson.
 *
 * The rule of the header: every coin key is present; a raw number comes out as the same
 * double, and so does a string that is entirely a JSON number ("0.0421"); anything else
 * (missing, null, wrong type) comes out as null, except symbol and name, which come out as ""
 * when they are not strings (a row needs only its id). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

static const char *const number_keys[] = {
    "current_price", "market_cap", "market_cap_rank", "fully_diluted_valuation", "total_volume",
    "high_24h", "low_24h", "price_change_24h", "price_change_percentage_24h",
    "market_cap_change_24h", "market_cap_change_percentage_24h", "circulating_supply",
    "total_supply", "max_supply", "ath", "ath_change_percentage", "atl", "atl_change_percentage",
    "price_change_percentage_1h_in_currency", "price_change_percentage_24h_in_currency",
    "price_change_percentage_7d_in_currency", "price_change_percentage_14d_in_currency",
    "price_change_percentage_30d_in_currency", "price_change_percentage_200d_in_currency",
    "price_change_percentage_1y_in_currency"};
static const char *const string_keys[] = {"id", "symbol", "name", "image", "ath_date", "atl_date",
                                          "last_updated"};

#define MAX_PRINTED_MISMATCHES 5

typedef struct {
    const char *where;
    int mismatches;
} mismatch_log;

static void mismatch(mismatch_log *log, const char *fmt, const char *key, const json_t *raw,
                     const json_t *decoded) {
    if (++log->mismatches <= MAX_PRINTED_MISMATCHES) {
        char *r = raw ? json_dumps(raw, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        char *d = decoded ? json_dumps(decoded, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
        printf("  %s: ", log->where);
        printf(fmt, key);
        printf(" (raw %.80s, decoded %.80s)\n", r ? r : "missing", d ? d : "missing");
        free(r);
        free(d);
    }
}

/* Whether text is exactly one JSON number (RFC 8259) that fits a double. */
static int is_json_number_text(const char *text, double *value) {
    const char *p = text;
    char *end = NULL;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return 0;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p != '\0')
        return 0;
    *value = strtod(text, &end);
    return isfinite(*value);
}

/* A raw number, or a string that is entirely a JSON number, must come out as the same double;
 * anything else as null. */
static void compare_number(mismatch_log *log, const char *key, const json_t *raw,
                           const json_t *decoded) {
    double from_text = 0;
    if (json_is_number(raw)) {
        if (!json_is_number(decoded) || json_number_value(decoded) != json_number_value(raw))
            mismatch(log, "%s differs", key, raw, decoded);
    } else if (json_is_string(raw) && is_json_number_text(json_string_value(raw), &from_text)) {
        if (!json_is_number(decoded) || json_number_value(decoded) != from_text)
            mismatch(log, "%s differs from the number in the string", key, raw, decoded);
    } else if (!json_is_null(decoded)) {
        mismatch(log, "%s should be null", key, raw, decoded);
    }
}

static void compare_string(mismatch_log *log, const char *key, const json_t *raw,
                           const json_t *decoded) {
    int required = strcmp(key, "symbol") == 0 || strcmp(key, "name") == 0;
    if (json_is_string(raw)) {
        if (!json_is_string(decoded) ||
            strcmp(json_string_value(raw), json_string_value(decoded)) != 0)
            mismatch(log, "%s differs", key, raw, decoded);
    } else if (required) {
        if (!json_is_string(decoded) || json_string_value(decoded)[0] != '\0')
            mismatch(log, "%s should be \"\"", key, raw, decoded);
    } else if (!json_is_null(decoded)) {
        mismatch(log, "%s should be null", key, raw, decoded);
    }
}

int compare_coin(const json_t *raw, const json_t *decoded, const char *where) {
    mismatch_log log = {where, 0};
    size_t i;
    json_t *raw_roi, *roi, *raw_spark, *spark;

    for (i = 0; i < sizeof number_keys / sizeof number_keys[0]; i++) {
        json_t *value = json_object_get(decoded, number_keys[i]);
        if (value == NULL)
            mismatch(&log, "key %s is missing", number_keys[i], NULL, NULL);
        else
            compare_number(&log, number_keys[i], json_object_get(raw, number_keys[i]), value);
    }
    for (i = 0; i < sizeof string_keys / sizeof string_keys[0]; i++) {
        json_t *value = json_object_get(decoded, string_keys[i]);
        if (value == NULL)
            mismatch(&log, "key %s is missing", string_keys[i], NULL, NULL);
        else
            compare_string(&log, string_keys[i], json_object_get(raw, string_keys[i]), value);
    }

    raw_roi = json_object_get(raw, "roi");
    roi = json_object_get(decoded, "roi");
    if (roi == NULL) {
        mismatch(&log, "key %s is missing", "roi", NULL, NULL);
    } else if (json_is_object(raw_roi)) {
        if (!json_is_object(roi)) {
            mismatch(&log, "%s should be an object", "roi", raw_roi, roi);
        } else {
            compare_number(&log, "roi.times", json_object_get(raw_roi, "times"),
                           json_object_get(roi, "times"));
            compare_number(&log, "roi.percentage", json_object_get(raw_roi, "percentage"),
                           json_object_get(roi, "percentage"));
            compare_string(&log, "roi.currency", json_object_get(raw_roi, "currency"),
                           json_object_get(roi, "currency"));
        }
    } else if (!json_is_null(roi)) {
        mismatch(&log, "%s should be null", "roi", raw_roi, roi);
    }

    raw_spark = json_object_get(json_object_get(raw, "sparkline_in_7d"), "price");
    spark = json_object_get(decoded, "sparkline_in_7d");
    if (spark == NULL) {
        mismatch(&log, "key %s is missing", "sparkline_in_7d", NULL, NULL);
    } else if (json_is_array(raw_spark)) {
        json_t *prices = json_object_get(spark, "price");
        if (!json_is_array(prices) || json_array_size(prices) != json_array_size(raw_spark)) {
            mismatch(&log, "%s length differs", "sparkline_in_7d.price", NULL, NULL);
        } else {
            for (i = 0; i < json_array_size(raw_spark); i++) {
                json_t *r = json_array_get(raw_spark, i), *d = json_array_get(prices, i);
                if (json_is_number(r) &&
                    (!json_is_number(d) || json_number_value(d) != json_number_value(r)))
                    mismatch(&log, "%s point differs", "sparkline_in_7d.price", r, d);
            }
        }
    } else if (!json_is_null(spark)) {
        mismatch(&log, "%s should be null", "sparkline_in_7d", NULL, spark);
    }
    return log.mismatches;
}

/* Whether a raw element is a coin at all: an object with a non-empty string id (a row needs
 * only its id; symbol and name may be missing). */
static int raw_coin_is_valid(const json_t *element) {
    const char *id = json_str(element, "id");
    return json_is_object(element) && id != NULL && id[0] != '\0';
}

/* The index of the last valid element with this id, or -1. */
static long last_index_of(const json_t *raw, const char *id) {
    long found = -1;
    size_t i;
    for (i = 0; i < json_array_size(raw); i++) {
        const json_t *element = json_array_get(raw, i);
        if (raw_coin_is_valid(element) && strcmp(json_str(element, "id"), id) == 0)
            found = (long)i;
    }
    return found;
}

int check_markets_decoding(const char *body, size_t length, const char *label) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *raw = json_parse_raw(body, length), *decoded = NULL, *coins, *skipped, *coin;
    json_t *seen = json_object();
    int status, ok = 1;
    size_t i;

    if (!tf_check(json_is_array(raw), __FILE__, __LINE__, "%s: jansson parses the raw array",
                  label)) {
        json_decref(raw);
        json_decref(seen);
        return 0;
    }
    status = cf_decode_markets(body, &out, &err);
    if (!CHECK_STATUS(status, CF_OK, err) || !CHECK(err == NULL)) {
        free_out(out);
        free_out(err);
        json_decref(raw);
        json_decref(seen);
        return 0;
    }
    decoded = PARSE_JSON(out);
    coins = json_object_get(decoded, "coins");
    skipped = json_object_get(decoded, "skipped");
    ok &= tf_check(json_is_array(coins) && json_is_array(skipped), __FILE__, __LINE__,
                   "%s: output has coins and skipped arrays", label);

    /* Every coin: unique id, and equal to the last raw element with that id. */
    json_array_foreach(coins, i, coin) {
        const char *id = json_str(coin, "id");
        long raw_index = id ? last_index_of(raw, id) : -1;
        char where[256];
        snprintf(where, sizeof where, "%s coin %s", label, id ? id : "(no id)");
        ok &= tf_check(id != NULL && json_object_get(seen, id) == NULL, __FILE__, __LINE__,
                       "%s: id appears once in coins", where);
        if (id)
            json_object_set_new(seen, id, json_true());
        if (tf_check(raw_index >= 0, __FILE__, __LINE__, "%s: the coin is in the raw body",
                     where))
            ok &= tf_check(compare_coin(json_array_get(raw, (size_t)raw_index), coin, where) == 0,
                           __FILE__, __LINE__, "%s: every value equals the raw body's", where);
    }

    /* Every raw element is either kept (the last valid one of its id) or reported skipped. */
    for (i = 0; i < json_array_size(raw); i++) {
        const json_t *element = json_array_get(raw, i);
        int valid = raw_coin_is_valid(element);
        int kept = valid && last_index_of(raw, json_str(element, "id")) == (long)i;
        int reported = 0;
        size_t j;
        json_t *entry;
        json_array_foreach(skipped, j, entry) {
            if (json_is_number(json_object_get(entry, "index")) &&
                json_num(entry, "index") == (double)i) {
                reported = 1;
                ok &= tf_check(json_is_string(json_object_get(entry, "reason")) &&
                                   json_str(entry, "reason")[0] != '\0',
                               __FILE__, __LINE__, "%s: skipped[%zu] has a reason", label, j);
            }
        }
        ok &= tf_check(kept != reported, __FILE__, __LINE__,
                       "%s: raw element %zu is %s", label, i,
                       kept ? "kept, not reported skipped" : "reported in skipped");
        if (kept)
            ok &= tf_check(json_object_get(seen, json_str(element, "id")) != NULL, __FILE__,
                           __LINE__, "%s: raw element %zu (%s) is among the coins", label, i,
                           json_str(element, "id"));
    }
    ok &= tf_check(json_array_size(coins) + json_array_size(skipped) == json_array_size(raw),
                   __FILE__, __LINE__, "%s: coins (%zu) + skipped (%zu) == raw elements (%zu)",
                   label, json_array_size(coins), json_array_size(skipped),
                   json_array_size(raw));

    json_decref(seen);
    json_decref(decoded);
    json_decref(raw);
    free_out(out);
    return ok;
}

/* Compares a number map (total_market_cap, …) entry by entry. */
static int compare_number_map(const json_t *raw, const json_t *decoded, const char *label,
                              const char *name) {
    const char *key;
    json_t *value;
    int mismatches = 0;
    if (!json_is_object(raw))
        return tf_check(json_is_null(decoded) || json_is_object(decoded), __FILE__, __LINE__,
                        "%s: %s is null or an object", label, name);
    if (!tf_check(json_is_object(decoded), __FILE__, __LINE__, "%s: %s is an object", label,
                  name))
        return 0;
    json_object_foreach((json_t *)raw, key, value) {
        json_t *d = json_object_get(decoded, key);
        if (json_is_number(value) &&
            (!json_is_number(d) || json_number_value(d) != json_number_value(value))) {
            if (++mismatches <= MAX_PRINTED_MISMATCHES)
                printf("  %s: %s.%s differs (raw %.17g)\n", label, name, key,
                       json_number_value(value));
        }
    }
    return tf_check(mismatches == 0, __FILE__, __LINE__, "%s: %s equals the raw body's", label,
                    name);
}

int check_global_decoding(const char *body, size_t length, const char *label) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *raw = json_parse_raw(body, length), *decoded, *data, *raw_data;
    int status, ok = 1;
    size_t i;
    static const char *const scalars[] = {"market_cap_change_percentage_24h_usd",
                                          "active_cryptocurrencies", "markets", "updated_at"};

    status = cf_decode_global(body, &out, &err);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        json_decref(raw);
        return 0;
    }
    CHECK(err == NULL);
    decoded = PARSE_JSON(out);
    data = json_object_get(decoded, "market_data");
    raw_data = json_object_get(raw, "data");
    ok &= tf_check(json_is_object(data), __FILE__, __LINE__, "%s: market_data is an object",
                   label);
    ok &= compare_number_map(json_object_get(raw_data, "total_market_cap"),
                             json_object_get(data, "total_market_cap"), label, "total_market_cap");
    ok &= compare_number_map(json_object_get(raw_data, "total_volume"),
                             json_object_get(data, "total_volume"), label, "total_volume");
    ok &= compare_number_map(json_object_get(raw_data, "market_cap_percentage"),
                             json_object_get(data, "market_cap_percentage"), label,
                             "market_cap_percentage");
    for (i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        json_t *r = json_object_get(raw_data, scalars[i]), *d = json_object_get(data, scalars[i]);
        if (json_is_number(r))
            ok &= tf_check(json_is_number(d) && json_number_value(d) == json_number_value(r),
                           __FILE__, __LINE__, "%s: market_data.%s == %.17g", label, scalars[i],
                           json_number_value(r));
        else
            ok &= tf_check(json_is_null(d), __FILE__, __LINE__, "%s: market_data.%s is null",
                           label, scalars[i]);
    }
    json_decref(decoded);
    json_decref(raw);
    free_out(out);
    return ok;
}

/* Markup that plain text must not contain any more. */
static int looks_like_html(const char *text) {
    static const char *const marks[] = {"<a ", "</a>", "<p>", "</p>", "<br", "&amp;", "&quot;",
                                        "&#39;", "&lt;", "&gt;", "&nbsp;"};
    size_t i;
    for (i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]) != NULL)
            return 1;
    return 0;
}

int check_detail_decoding(const char *body, size_t length, const char *label) {
    char *out = SENTINEL, *err = SENTINEL;
    json_t *raw = json_parse_raw(body, length), *decoded, *detail, *homepages, *page, *cats;
    const char *expected_homepage = NULL, *description;
    int status, ok = 1;
    size_t i;
    static const char *const strings[] = {"id", "symbol", "name", "hashing_algorithm",
                                          "genesis_date"};

    status = cf_decode_coin_detail(body, &out, &err);
    if (!CHECK_STATUS(status, CF_OK, err)) {
        free_out(err);
        json_decref(raw);
        return 0;
    }
    CHECK(err == NULL);
    decoded = PARSE_JSON(out);
    detail = json_object_get(decoded, "detail");
    ok &= tf_check(json_is_object(detail), __FILE__, __LINE__, "%s: detail is an object", label);
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        json_t *r = json_object_get(raw, strings[i]), *d = json_object_get(detail, strings[i]);
        if (json_is_string(r))
            ok &= tf_check(json_is_string(d) &&
                               strcmp(json_string_value(d), json_string_value(r)) == 0,
                           __FILE__, __LINE__, "%s: detail.%s == \"%s\"", label, strings[i],
                           json_string_value(r));
        else
            ok &= tf_check(json_is_null(d), __FILE__, __LINE__, "%s: detail.%s is null", label,
                           strings[i]);
    }
    {
        json_t *r = json_object_get(raw, "block_time_in_minutes");
        json_t *d = json_object_get(detail, "block_time_in_minutes");
        if (json_is_number(r))
            ok &= tf_check(json_is_number(d) && json_number_value(d) == json_number_value(r),
                           __FILE__, __LINE__, "%s: detail.block_time_in_minutes", label);
        else
            ok &= tf_check(json_is_null(d), __FILE__, __LINE__,
                           "%s: detail.block_time_in_minutes is null", label);
    }

    homepages = json_object_get(json_object_get(raw, "links"), "homepage");
    json_array_foreach(homepages, i, page) {
        if (json_is_string(page) && json_string_value(page)[0] != '\0') {
            expected_homepage = json_string_value(page);
            break;
        }
    }
    if (expected_homepage)
        ok &= tf_check(json_str(detail, "homepage") != NULL &&
                           strcmp(json_str(detail, "homepage"), expected_homepage) == 0,
                       __FILE__, __LINE__, "%s: detail.homepage == \"%s\" (first non-empty)",
                       label, expected_homepage);
    else
        ok &= tf_check(json_is_null(json_object_get(detail, "homepage")), __FILE__, __LINE__,
                       "%s: detail.homepage is null (no non-empty homepage)", label);

    {
        const char *raw_sub = json_str(json_object_get(raw, "links"), "subreddit_url");
        if (raw_sub != NULL && raw_sub[0] != '\0')
            ok &= tf_check(json_str(detail, "subreddit_url") != NULL &&
                               strcmp(json_str(detail, "subreddit_url"), raw_sub) == 0,
                           __FILE__, __LINE__, "%s: detail.subreddit_url == \"%s\"", label,
                           raw_sub);
    }

    cats = json_object_get(detail, "categories");
    ok &= tf_check(json_is_array(cats), __FILE__, __LINE__, "%s: detail.categories is an array",
                   label);
    {
        json_t *raw_cats = json_object_get(raw, "categories"), *cat;
        json_array_foreach(raw_cats, i, cat) {
            size_t j;
            json_t *d;
            int found = 0;
            if (!json_is_string(cat))
                continue;
            json_array_foreach(cats, j, d) {
                if (json_is_string(d) && strcmp(json_string_value(d), json_string_value(cat)) == 0)
                    found = 1;
            }
            ok &= tf_check(found, __FILE__, __LINE__, "%s: category \"%s\" is kept", label,
                           json_string_value(cat));
        }
    }

    description = json_str(detail, "description");
    if (description != NULL) {
        ok &= tf_check(!looks_like_html(description), __FILE__, __LINE__,
                       "%s: description is plain text (%.120s)", label, description);
    } else {
        ok &= tf_check(json_is_null(json_object_get(detail, "description")), __FILE__, __LINE__,
                       "%s: description is a string or null", label);
    }

    json_decref(decoded);
    json_decref(raw);
    free_out(out);
    return ok;
}
