/*
 * test_ledger.c — SPEC §12 through the C ABI: transactions, cost basis and P&L, portfolios, CSV
 * import and export, the schema-1 migration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

#define HEADER "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"

/* Adds a transaction; returns the status (the error is checked to be well-formed JSON). */
static int add(cf_engine *engine, const char *json) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_add_transaction(engine, json, &out, &err);
    if (status == CF_OK) {
        json_decref(tf_parse_json(out, __FILE__, __LINE__));
        CHECK(err == NULL);
    } else {
        CHECK(out == NULL);
        json_decref(CHECK_ERROR_JSON(err, status));
    }
    free_out(out);
    free_out(err);
    return status;
}

/* The parsed output of a JSON call that must succeed, or NULL. */
static json_t *ok_json(int status, char *out, char *err, int line) {
    json_t *value = NULL;
    if (tf_check_status(status, CF_OK, &err, __FILE__, line, "ledger call"))
        value = tf_parse_json(out, __FILE__, line);
    free_out(out);
    free_out(err);
    return value;
}

static json_t *pnl(cf_engine *engine, const char *options) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_pnl(engine, options, &out, &err);
    return ok_json(status, out, err, __LINE__);
}

static json_t *transactions(cf_engine *engine, const char *query) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_transactions(engine, query, &out, &err);
    return ok_json(status, out, err, __LINE__);
}

static long long total_transactions(cf_engine *engine) {
    json_t *page = transactions(engine, NULL);
    long long total = page ? (long long)json_num(page, "total") : -1;
    json_decref(page);
    return total;
}

/* buy 1 BTC @ 100 fee 1; buy 1 @ 200; sell 1.5 @ 300 fee 3; price now 400. */
static cf_engine *worked_example(void) {
    char *err = NULL;
    cf_engine *engine = tf_open_engine(":memory:");
    if (engine == NULL)
        return NULL;
    CHECK_STATUS(cf_engine_load(engine,
                                "[{\"id\":\"bitcoin\",\"symbol\":\"btc\",\"name\":\"Bitcoin\","
                                "\"current_price\":400}]",
                                NULL, &err),
                 CF_OK, err);
    free_out(err);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":100,"
                          "\"fee\":1,\"timestamp\":\"2024-01-01T00:00:00Z\"}"),
              CF_OK);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":200,"
                          "\"timestamp\":\"2024-01-02T00:00:00Z\"}"),
              CF_OK);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1.5,\"price\":300,"
                          "\"fee\":3,\"timestamp\":\"2024-01-03T00:00:00Z\"}"),
              CF_OK);
    return engine;
}

static void check_method(const char *options, double realized, double cost_basis,
                         double unrealized) {
    cf_engine *engine = worked_example();
    json_t *report, *coin;
    if (engine == NULL)
        return;
    report = pnl(engine, options);
    coin = json_array_get(json_object_get(report, "coins"), 0);
    CHECK_STR(json_str(coin, "coin_id"), "bitcoin");
    CHECK_DOUBLE(json_num(coin, "amount"), 0.5, 0);
    CHECK_DOUBLE(json_num(coin, "realized_pnl"), realized, 0);
    CHECK_DOUBLE(json_num(coin, "cost_basis"), cost_basis, 0);
    CHECK_DOUBLE(json_num(coin, "unrealized_pnl"), unrealized, 0);
    CHECK_DOUBLE(json_num(coin, "current_value"), 200, 0);
    CHECK_DOUBLE(json_num(coin, "fees"), 4, 0);
    CHECK_DOUBLE(json_num(coin, "cost_basis_coverage"), 1, 0);
    CHECK_DOUBLE(json_num(json_object_get(report, "totals"), "realized_pnl"), realized, 0);
    json_decref(report);
    cf_engine_close(engine);
}

void test_ledger_worked_example_fifo(void) { check_method("{\"method\":\"fifo\"}", 246, 100, 100); }

void test_ledger_worked_example_average(void) {
    check_method("{\"method\":\"average\"}", 221.25, 75.25, 124.75);
}

void test_ledger_worked_example_lifo(void) { check_method("{\"method\":\"lifo\"}", 196.5, 50.5, 149.5); }

void test_ledger_shortfall_is_refused_with_details(void) {
    cf_engine *engine = worked_example();
    char *out = NULL, *err = NULL;
    json_t *error, *details;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_add_transaction(engine,
                                           "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":0.75,"
                                           "\"price\":1,\"timestamp\":\"2024-01-04T00:00:00Z\"}",
                                           &out, &err),
                 CF_INVALID_ARGUMENT, err);
    CHECK(out == NULL);
    error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    details = json_object_get(error, "details");
    CHECK_STR(json_str(details, "coin_id"), "bitcoin");
    CHECK_STR(json_str(details, "timestamp"), "2024-01-04T00:00:00Z");
    CHECK_DOUBLE(json_num(details, "short_by"), 0.25, 0);
    json_decref(error);
    free_out(err);
    err = NULL;
    CHECK_INT(total_transactions(engine), 3);
    /* Deleting the first buy would leave the sell short; an unknown id is not found. */
    CHECK_STATUS(cf_engine_delete_transaction(engine, "1", &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_delete_transaction(engine, "99", &err), CF_NOT_FOUND, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_delete_transaction(engine, "3", &err), CF_OK, err);
    CHECK_INT(total_transactions(engine), 2);
    cf_engine_close(engine);
}

void test_ledger_bad_input_changes_nothing(void) {
    static const char *const bad[] = {
        "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":\"NaN\",\"price\":1}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":-1,\"price\":1}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"price\":2}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"stake\",\"amount\":1}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"timestamp\":\"yesterday\"}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"income\",\"amount\":1}",
        "{\"coin_id\":\"a/b\",\"kind\":\"transfer_in\",\"amount\":1}",
        "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1",
        "",
    };
    cf_engine *engine = worked_example();
    char *note, *json, *out = NULL, *err = NULL;
    size_t i, size = 10u * 1024u * 1024u;
    if (engine == NULL)
        return;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        tf_check(add(engine, bad[i]) == CF_INVALID_ARGUMENT, __FILE__, __LINE__, "refused: %s", bad[i]);
    /* A 10 MB note. */
    note = malloc(size + 1);
    json = malloc(size + 128);
    memset(note, 'x', size);
    note[size] = '\0';
    snprintf(json, size + 128, "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"note\":\"%s\"}", note);
    CHECK_INT(add(engine, json), CF_INVALID_ARGUMENT);
    free(note);
    free(json);
    CHECK_INT(total_transactions(engine), 3);
    /* NULL arguments. */
    CHECK_STATUS(cf_engine_add_transaction(NULL, "{}", &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_add_transaction(engine, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_import_csv(engine, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_rename_portfolio(engine, "main", NULL, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    /* SQL in a note is text. */
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,"
                          "\"note\":\"'); DROP TABLE ledger_transaction; --\"}"),
              CF_OK);
    CHECK_INT(total_transactions(engine), 4);
    cf_engine_close(engine);
}

static int import_csv(cf_engine *engine, const char *csv, json_t **out_value) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_import_csv(engine, csv, &out, &err);
    *out_value = status == CF_OK ? tf_parse_json(out, __FILE__, __LINE__) : CHECK_ERROR_JSON(err, status);
    free_out(out);
    free_out(err);
    return status;
}

void test_ledger_csv_edge_cases(void) {
    cf_engine *engine = tf_open_engine(":memory:");
    json_t *result, *details, *page;
    const char *text = "\xEF\xBB\xBF" HEADER "\r\n"
                       "2024-01-01T00:00:00Z,main,bitcoin,buy,1,100,1,\"a, \"\"quoted\"\"\r\nnote\",x-1\r\n"
                       "2024-01-02T00:00:00Z,,bitcoin,buy,1,200,,,x-2\r\n";
    if (engine == NULL)
        return;
    CHECK_INT(import_csv(engine, text, &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "imported"), 2, 0);
    json_decref(result);
    page = transactions(engine, "{\"limit\":1}");
    CHECK_STR(json_str(json_array_get(json_object_get(page, "transactions"), 0), "note"),
              "a, \"quoted\"\r\nnote");
    json_decref(page);
    CHECK_INT(import_csv(engine, text, &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "skipped"), 2, 0);
    json_decref(result);
    CHECK_INT(import_csv(engine, "", &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "imported"), 0, 0);
    json_decref(result);
    /* An external_id repeated within one file is an error at its second row; nothing is kept. */
    CHECK_INT(import_csv(engine,
                         HEADER "\n2024-01-03,main,bitcoin,buy,1,1,0,,d\n2024-01-04,main,bitcoin,buy,1,1,0,,d\n",
                         &result),
              CF_INVALID_ARGUMENT);
    details = json_object_get(result, "details");
    CHECK_DOUBLE(json_num(details, "line"), 3, 0);
    CHECK_STR(json_str(details, "column"), "external_id");
    json_decref(result);
    /* A decimal comma and a ';' header are refused saying so. */
    CHECK_INT(import_csv(engine, HEADER "\n2024-01-03,main,bitcoin,buy,\"1,5\",1,0,,e\n", &result),
              CF_INVALID_ARGUMENT);
    CHECK_STR(json_str(json_object_get(result, "details"), "column"), "amount");
    json_decref(result);
    CHECK_INT(import_csv(engine, "timestamp;portfolio;coin_id;kind;amount\n", &result), CF_INVALID_ARGUMENT);
    CHECK(strstr(json_str(result, "message"), ";") != NULL);
    json_decref(result);
    CHECK_INT(total_transactions(engine), 2);
    cf_engine_close(engine);
}

void test_ledger_csv_export_import_round_trip(void) {
    cf_engine *engine = worked_example(), *other = tf_open_engine(":memory:");
    char *csv = NULL, *again = NULL, *err = NULL;
    json_t *result;
    if (engine == NULL || other == NULL)
        goto done;
    if (!CHECK_STATUS(cf_engine_export_csv(engine, NULL, &csv, &err), CF_OK, err))
        goto done;
    /* Export writes the long header of SPEC §16; the short one still imports. */
    CHECK(strncmp(csv, HEADER ",fee_coin_id,fee_price,income_type,group_id\r\n",
                  strlen(HEADER ",fee_coin_id,fee_price,income_type,group_id") + 2) == 0);
    CHECK(strstr(csv, ",coinfolio:1,,,,\r\n") != NULL);
    CHECK_INT(import_csv(engine, csv, &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "imported"), 0, 0);
    CHECK_DOUBLE(json_num(result, "skipped"), 3, 0);
    json_decref(result);
    CHECK_INT(import_csv(other, csv, &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "imported"), 3, 0);
    json_decref(result);
    CHECK_STATUS(cf_engine_export_csv(other, "{\"portfolio\":\"main\"}", &again, &err), CF_OK, err);
    CHECK_STR(again, csv);
done:
    free_out(csv);
    free_out(again);
    free_out(err);
    cf_engine_close(engine);
    cf_engine_close(other);
}

void test_ledger_portfolios(void) {
    cf_engine *engine = tf_open_engine(":memory:");
    char *out = NULL, *err = NULL;
    json_t *list;
    if (engine == NULL)
        return;
    (void)out;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"cold\",\"vs_currency\":\"eur\"}", &err), CF_OK, err);
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"cold\"}", &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_INT(add(engine, "{\"portfolio\":\"cold\",\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1}"), CF_OK);
    CHECK_INT(add(engine, "{\"portfolio\":\"nowhere\",\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1}"),
              CF_NOT_FOUND);
    {
        int status = cf_engine_portfolios(engine, &out, &err);
        list = ok_json(status, out, err, __LINE__);
        out = err = NULL;
    }
    CHECK_INT(json_array_size(json_object_get(list, "portfolios")), 2);
    CHECK_STR(json_str(json_array_get(json_object_get(list, "portfolios"), 0), "vs_currency"), "eur");
    json_decref(list);
    CHECK_STATUS(cf_engine_rename_portfolio(engine, "cold", "vault", &err), CF_OK, err);
    CHECK_STATUS(cf_engine_delete_portfolio(engine, "vault", 0, &err), CF_INVALID_ARGUMENT, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_delete_portfolio(engine, "vault", 1, &err), CF_OK, err);
    CHECK_STATUS(cf_engine_delete_portfolio(engine, "vault", 1, &err), CF_NOT_FOUND, err);
    free_out(err);
    cf_engine_close(engine);
}

void test_ledger_migrates_schema_v1_fixture(void) {
    const char *copy = temp_path("schema-v1.sqlite");
    size_t length = 0;
    char *bytes = read_file(fmt_path("%s/Tests/fixtures/store/schema-v1.sqlite", tf_repo_root), &length);
    FILE *file;
    cf_engine *engine;
    json_t *page, *t;
    size_t i;
    if (!CHECK(bytes != NULL))
        return;
    file = fopen(copy, "wb");
    CHECK(file != NULL && fwrite(bytes, 1, length, file) == length);
    if (file)
        fclose(file);
    free(bytes);
    engine = tf_open_engine(copy);
    if (engine == NULL)
        return;
    page = transactions(engine, NULL);
    CHECK_DOUBLE(json_num(page, "total"), 4, 0);
    json_array_foreach(json_object_get(page, "transactions"), i, t) {
        CHECK_STR(json_str(t, "kind"), "transfer_in");
        CHECK_STR(json_str(t, "timestamp"), "1970-01-01T00:00:00Z");
        CHECK_STR(json_str(t, "note"), "schema 1 holding");
        CHECK(json_is_null(json_object_get(t, "price")));
    }
    CHECK_STR(json_str(json_array_get(json_object_get(page, "transactions"), 1), "coin_id"), "bitcoin");
    CHECK_DOUBLE(json_num(json_array_get(json_object_get(page, "transactions"), 1), "amount"), 0.5, 0);
    json_decref(page);
    cf_engine_close(engine);
}

static void record_import_progress(const char *progress_json, void *user) {
    json_t *reports = user;
    json_t *report = json_loads(progress_json, 0, NULL);
    json_array_append_new(reports, report ? report : json_string("unparsable"));
}

void test_ledger_import_reports_progress(void) {
    cf_engine *engine = tf_open_engine(":memory:");
    json_t *reports = json_array(), *result, *last;
    char *csv, *err = NULL;
    size_t used, size = 64 + 2500 * 64;
    int n;
    if (engine == NULL)
        return;
    csv = malloc(size);
    used = (size_t)snprintf(csv, size, "%s\n", HEADER);
    for (n = 0; n < 2500; n++)
        used += (size_t)snprintf(csv + used, size - used, "2024-01-01T00:00:00Z,main,coin-%d,buy,1,2,0,,row-%d\n", n % 7, n);
    CHECK_STATUS(cf_engine_set_progress(engine, record_import_progress, reports, &err), CF_OK, err);
    CHECK_INT(import_csv(engine, csv, &result), CF_OK);
    CHECK_DOUBLE(json_num(result, "imported"), 2500, 0);
    json_decref(result);
    CHECK(json_array_size(reports) >= 4);
    CHECK_STR(json_str(json_array_get(reports, 0), "phase"), "import");
    CHECK_DOUBLE(json_num(json_array_get(reports, 0), "done"), 0, 0);
    CHECK(json_is_null(json_object_get(json_array_get(reports, 0), "total")));
    last = json_array_get(reports, json_array_size(reports) - 1);
    CHECK_DOUBLE(json_num(last, "done"), 2500, 0);
    CHECK_DOUBLE(json_num(last, "total"), 2500, 0);
    CHECK_STATUS(cf_engine_set_progress(engine, NULL, NULL, &err), CF_OK, err);
    json_decref(reports);
    free(csv);
    cf_engine_close(engine);
}

/* Schema step 5: each write reads its coin's position and the entries after its own time. A
 * backdated sell, a deleted early buy and a batch decrease that would leave a later sell short
 * are refused with the same details as before; the batch writes nothing. Both backends. */
static void check_shortfall(int status, char *err, const char *timestamp, double short_by, int index, int line) {
    json_t *error = NULL, *details;
    if (!tf_check_status(status, CF_INVALID_ARGUMENT, &err, __FILE__, line, "shortfall")) {
        free_out(err);
        return;
    }
    error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    details = json_object_get(error, "details");
    CHECK_STR(json_str(details, "coin_id"), "bitcoin");
    CHECK_STR(json_str(details, "timestamp"), timestamp);
    CHECK_DOUBLE(json_num(details, "short_by"), short_by, 0);
    if (index >= 0)
        CHECK_DOUBLE(json_num(details, "index"), index, 0);
    else
        CHECK(json_object_get(details, "index") == NULL);
    json_decref(error);
    free_out(err);
}

void test_store_ledger_never_negative_through_positions(void) {
    json_t *config = json_pack("{s:s}", "database", temp_path("positions.db")), *first, *page;
    char *text, *out = NULL, *err = NULL, id[32];
    cf_engine *engine = NULL;
    int status;
    tf_place_database(config);
    text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    CHECK_STATUS(cf_engine_open(text, &engine, &err), CF_OK, err);
    free(text);
    free_out(err);
    err = NULL;
    if (engine == NULL)
        return;
    status = cf_engine_add_transaction(
        engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":100,\"timestamp\":\"2024-01-01T00:00:00Z\"}",
        &out, &err);
    first = ok_json(status, out, err, __LINE__);
    snprintf(id, sizeof id, "%s", first ? json_str(first, "id") : "0");
    json_decref(first);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":200,"
                          "\"timestamp\":\"2024-01-02T00:00:00Z\"}"),
              CF_OK);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":\"1.5\",\"price\":300,"
                          "\"timestamp\":\"2024-01-03T00:00:00Z\"}"),
              CF_OK);
    out = err = NULL;
    status = cf_engine_add_transaction(engine,
                                              "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":\"0.6\",\"price\":1,"
                                              "\"timestamp\":\"2024-01-02T12:00:00Z\"}",
                                              &out, &err);
    check_shortfall(status, err, "2024-01-03T00:00:00Z", 0.1, -1, __LINE__);
    CHECK(out == NULL);
    err = NULL;
    status = cf_engine_delete_transaction(engine, id, &err);
    check_shortfall(status, err, "2024-01-03T00:00:00Z", 0.5, -1, __LINE__);
    /* 0.5 held now and in all, but the sell in 2100 needs it. */
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":3,\"price\":1,\"timestamp\":\"2099-01-01T00:00:00Z\"}"),
              CF_OK);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":\"3.5\",\"price\":1,"
                          "\"timestamp\":\"2100-01-01T00:00:00Z\"}"),
              CF_OK);
    CHECK_INT(add(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":\"0.5\",\"price\":1,"
                          "\"timestamp\":\"2200-01-01T00:00:00Z\"}"),
              CF_OK);
    err = NULL;
    status = cf_engine_set_holdings(engine,
                                           "{\"holdings\":[{\"coin_id\":\"ethereum\",\"amount\":2},"
                                           "{\"coin_id\":\"bitcoin\",\"amount\":0}]}",
                                           &err);
    check_shortfall(status, err, "2100-01-01T00:00:00Z", 0.5, 1, __LINE__);
    err = NULL;
    status = cf_engine_set_holding(engine, "bitcoin", 0.25, &err);
    check_shortfall(status, err, "2100-01-01T00:00:00Z", 0.25, -1, __LINE__);
    CHECK_INT(total_transactions(engine), 6);
    err = NULL;
    CHECK_STATUS(cf_engine_set_holdings(engine,
                                        "{\"holdings\":[{\"coin_id\":\"ethereum\",\"amount\":2},"
                                        "{\"coin_id\":\"bitcoin\",\"amount\":1.5}]}",
                                        &err),
                 CF_OK, err);
    free_out(err);
    page = transactions(engine, "{\"coin_id\":\"bitcoin\",\"offset\":3,\"limit\":1}"); /* now, before 2099 */
    if (page != NULL) {
        json_t *last = json_array_get(json_object_get(page, "transactions"), 0);
        CHECK_STR(json_str(last, "kind"), "transfer_in");
        CHECK_DOUBLE(json_num(last, "amount"), 1, 0);
        CHECK_DOUBLE(json_num(page, "total"), 7, 0);
    }
    json_decref(page);
    CHECK_INT(total_transactions(engine), 8);
    cf_engine_close(engine);
}
