/*
 * example.c — a small Coinfolio host in C.
 *
 * Opens an engine, holds 0.5 bitcoin, downloads fresh market data, prints the home screen
 * statistics and the portfolio, and writes bitcoin's 7-day price chart as an SVG file.
 * Configuration comes from the environment:
 *
 *     COINFOLIO_BASE_URL   CoinGecko API base URL (default: the public API)
 *     COINFOLIO_DB         portfolio database path (default ":memory:")
 *     COINFOLIO_CHART_SVG  where the chart goes (default "bitcoin-7d.svg")
 *
 * JSON crosses the C ABI in both directions; this example builds and reads it with jansson.
 * Build: see Makefile (cc example.c -lcoinfolio -ljansson).
 */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "coinfolio.h"

/* Prints a failed call's message (from the error JSON) to stderr. */
static void report(const char *what, char *error_json) {
    json_t *error = error_json ? json_loads(error_json, 0, NULL) : NULL;
    const char *message = json_string_value(json_object_get(error, "message"));
    fprintf(stderr, "%s failed: %s\n", what, message ? message : "unknown error");
    json_decref(error);
    cf_string_free(error_json);
}

/* Parses a string the library returned, then frees it. */
static json_t *take_json(char *text) {
    json_t *value = json_loads(text, 0, NULL);
    cf_string_free(text);
    return value;
}

static int print_statistics(cf_engine *engine) {
    char *out = NULL, *err = NULL;
    json_t *result, *statistic;
    size_t i;

    if (cf_engine_statistics(engine, &out, &err) != CF_OK) {
        report("statistics", err);
        return 0;
    }
    result = take_json(out);
    json_array_foreach(json_object_get(result, "statistics"), i, statistic) {
        const char *title = json_string_value(json_object_get(statistic, "title"));
        const char *value = json_string_value(json_object_get(statistic, "value"));
        json_t *change = json_object_get(statistic, "percentage_change");

        printf("%s: %s", title, value);
        if (json_is_number(change)) {
            char *percent = cf_format_percent(json_number_value(change));
            printf(" (%s%s)", json_number_value(change) >= 0 ? "+" : "", percent);
            cf_string_free(percent);
        }
        printf("\n");
    }
    json_decref(result);
    return 1;
}

static int print_portfolio(cf_engine *engine) {
    char *out = NULL, *err = NULL, *total;
    json_t *result, *coin;
    size_t i;

    if (cf_engine_portfolio(engine, "{\"sort\":\"holdings\"}", &out, &err) != CF_OK) {
        report("portfolio", err);
        return 0;
    }
    result = take_json(out);
    printf("\nPortfolio\n");
    json_array_foreach(json_object_get(result, "coins"), i, coin) {
        json_t *value = json_object_get(coin, "current_holdings_value");
        char *text = json_is_number(value)
                         ? cf_format_currency(json_number_value(value), 2, 2, "usd")
                         : NULL;
        printf("  %-12s %14.8g  %s\n", json_string_value(json_object_get(coin, "id")),
               json_number_value(json_object_get(coin, "current_holdings")),
               text ? text : "n/a");
        cf_string_free(text);
    }
    total = cf_format_currency(json_number_value(json_object_get(result, "total_value")), 2, 2,
                               "usd");
    printf("  %-12s %14s  %s\n", "total", "", total);
    cf_string_free(total);
    json_decref(result);
    return 1;
}

/* Writes coin_id's 7-day chart as an SVG file and prints its summary. */
static int write_chart(cf_engine *engine, const char *coin_id, const char *path) {
    char *out = NULL, *err = NULL, *svg = NULL, *last, *change;
    json_t *chart, *summary;
    FILE *file;

    if (cf_engine_chart(engine, coin_id, "{\"days\":7}", &out, &err) != CF_OK) {
        report("chart", err);
        return 0;
    }
    if (cf_chart_svg(out, "{\"width\":800,\"height\":400,\"title\":\"Bitcoin, 7 days\"}", &svg, &err) !=
        CF_OK) {
        cf_string_free(out);
        report("drawing the chart", err);
        return 0;
    }
    chart = take_json(out);
    file = fopen(path, "wb");
    if (file == NULL || fputs(svg, file) == EOF || fclose(file) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        cf_string_free(svg);
        json_decref(chart);
        return 0;
    }
    cf_string_free(svg);
    summary = json_object_get(chart, "summary");
    last = json_is_number(json_object_get(summary, "last"))
               ? cf_format_price(json_number_value(json_object_get(summary, "last")), "usd")
               : NULL;
    change = json_is_number(json_object_get(summary, "percentage_change"))
                 ? cf_format_percent(json_number_value(json_object_get(summary, "percentage_change")))
                 : NULL;
    printf("\nChart: %s (%s, %s over 7 days)\n", path, last ? last : "no data", change ? change : "n/a");
    cf_string_free(last);
    cf_string_free(change);
    json_decref(chart);
    return 1;
}

int main(void) {
    const char *base_url = getenv("COINFOLIO_BASE_URL");
    const char *database = getenv("COINFOLIO_DB");
    const char *chart_path = getenv("COINFOLIO_CHART_SVG");
    json_t *config;
    char *config_text, *out = NULL, *err = NULL;
    cf_engine *engine = NULL;
    int ok;

    if (cf_abi_version() != CF_ABI_VERSION) {
        fprintf(stderr, "libcoinfolio ABI %d, header ABI %d\n", cf_abi_version(), CF_ABI_VERSION);
        return 1;
    }

    config = json_pack("{s:s, s:s}", "database", database ? database : ":memory:",
                       "vs_currency", "usd");
    if (base_url != NULL)
        json_object_set_new(config, "api", json_pack("{s:s}", "base_url", base_url));
    config_text = json_dumps(config, JSON_COMPACT);
    json_decref(config);

    ok = cf_engine_open(config_text, &engine, &err) == CF_OK;
    free(config_text); /* jansson's allocation: plain free() */
    if (!ok) {
        report("opening the engine", err);
        return 1;
    }

    if (cf_engine_set_holding(engine, "bitcoin", 0.5, &err) != CF_OK) {
        report("setting a holding", err);
        cf_engine_close(engine);
        return 1;
    }
    if (cf_engine_refresh(engine, &out, &err) != CF_OK) {
        report("refreshing market data", err);
        cf_engine_close(engine);
        return 1;
    }
    cf_string_free(out);

    ok = print_statistics(engine) && print_portfolio(engine) &&
         write_chart(engine, "bitcoin", chart_path ? chart_path : "bitcoin-7d.svg");
    cf_engine_close(engine);
    return ok ? 0 : 1;
}
