/*
 * stress_threads.c — many threads on shared handles, for ThreadSanitizer (make sanitize).
 *
 *     build/stress_threads <repository root> [threads] [iterations]
 *
 * THREADS threads share one engine (file database) and one store, and mix every call that
 * needs no network: set_holding, holdings, coins, portfolio, statistics, load, metrics and the
 * formatters. The ABI promises that any thread may call any handle; under TSan a data race is
 * reported and fails the run. Prints the number of calls made.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coinfolio.h"

static cf_engine *engine;
static cf_store *store;
static char *markets_body;
static int iterations = 300;
static atomic_long calls;
static atomic_int failures;

static char *read_all(const char *path) {
    FILE *file = fopen(path, "rb");
    long size;
    char *text;
    if (file == NULL)
        return NULL;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    text = malloc((size_t)size + 1);
    if (text != NULL && fread(text, 1, (size_t)size, file) == (size_t)size)
        text[size] = '\0';
    fclose(file);
    return text;
}

static void expect(int status, int allowed, const char *what, char *err) {
    atomic_fetch_add(&calls, 1);
    if (status != CF_OK && status != allowed) {
        fprintf(stderr, "%s: status %d %s\n", what, status, err ? err : "");
        atomic_fetch_add(&failures, 1);
    }
    cf_string_free(err);
}

static void *worker(void *arg) {
    long id = (long)arg;
    int i;
    char coin[64];
    for (i = 0; i < iterations; i++) {
        char *out = NULL, *err = NULL;
        snprintf(coin, sizeof coin, "thread-%ld-%d", id, i % 20);
        switch ((i + id) % 9) {
        case 0:
            expect(cf_engine_set_holding(engine, coin, (double)(i + 1), &err), CF_OK, "engine_set_holding", err);
            break;
        case 1:
            expect(cf_store_set_holding(store, coin, (double)(i % 3), &err), CF_OK, "store_set_holding", err);
            break;
        case 2:
            expect(cf_store_holdings(store, &out, &err), CF_OK, "store_holdings", err);
            break;
        case 3:
            expect(cf_engine_coins(engine, "{\"search\":\"bit\",\"limit\":5}", &out, &err), CF_NO_DATA, "coins", err);
            break;
        case 4:
            expect(cf_engine_portfolio(engine, NULL, &out, &err), CF_NO_DATA, "portfolio", err);
            break;
        case 5:
            expect(cf_engine_statistics(engine, &out, &err), CF_NO_DATA, "statistics", err);
            break;
        case 6:
            if (i % 30 == 6)
                expect(cf_engine_load(engine, markets_body, NULL, &err), CF_OK, "load", err);
            else
                expect(cf_engine_metrics(engine, &out, &err), CF_OK, "metrics", err);
            break;
        case 7:
            cf_string_free(cf_format_price(1234.5678 * i, "eur"));
            cf_string_free(cf_format_abbreviated(1e9 * i));
            atomic_fetch_add(&calls, 2);
            break;
        default:
            expect(cf_engine_coins(engine, "{\"sort\":\"price\"}", &out, &err), CF_NO_DATA, "coins", err);
            break;
        }
        cf_string_free(out);
    }
    return NULL;
}

int main(int argc, char **argv) {
    char path[4096], dir[] = "/tmp/coinfolio-tsan-XXXXXX", *err = NULL, config[4300];
    int threads = argc > 2 ? atoi(argv[2]) : 8, i;
    pthread_t *ids;
    if (argc > 3)
        iterations = atoi(argv[3]);
    snprintf(path, sizeof path, "%s/Tests/fixtures/coingecko/markets.json", argc > 1 ? argv[1] : ".");
    markets_body = read_all(path);
    if (markets_body == NULL || mkdtemp(dir) == NULL) {
        fprintf(stderr, "cannot read %s or make a temporary folder\n", path);
        return 1;
    }
    snprintf(config, sizeof config, "{\"database\":\"%s/engine.sqlite\"}", dir);
    snprintf(path, sizeof path, "%s/store.sqlite", dir);
    if (cf_engine_open(config, &engine, &err) != CF_OK || cf_store_open(path, &store, &err) != CF_OK) {
        fprintf(stderr, "open: %s\n", err ? err : "");
        return 1;
    }
    ids = calloc((size_t)threads, sizeof *ids);
    for (i = 0; i < threads; i++)
        pthread_create(&ids[i], NULL, worker, (void *)(long)i);
    for (i = 0; i < threads; i++)
        pthread_join(ids[i], NULL);
    cf_engine_close(engine);
    cf_store_close(store);
    free(ids);
    free(markets_body);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    if (system(path) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    printf("stress_threads: %d threads, %ld calls, %d failures\n", threads, (long)atomic_load(&calls),
           atomic_load(&failures));
    return atomic_load(&failures) == 0 ? 0 : 1;
}
