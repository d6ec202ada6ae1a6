#define _POSIX_C_SOURCE 200809L
/* test_ledger_edges.c — issue 31's ledger messages through the C ABI, on SQLite and (named
 * test_edges_*) in the PostgreSQL pass: a note sent as null comes back null, and a CSV number with
 * a comma is refused saying what the comma is, with nothing imported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* The "note" member of the JSON object `text` (checked to be one), as JSON text: null, "" … */
static char *note_of(const char *text) {
    json_t *object = PARSE_JSON(text);
    char *note = json_dumps(json_object_get(object, "note"), JSON_ENCODE_ANY);
    json_decref(object);
    return note;
}

void test_edges_transaction_note_null_comes_back_null(void) {
    static const struct {
        const char *json, *note;
    } cases[] = {
        {"{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"timestamp\":\"2024-01-01\",\"note\":null}", "null"},
        {"{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"timestamp\":\"2024-01-02\",\"note\":\"\"}", "\"\""},
        {"{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"timestamp\":\"2024-01-03\"}", "null"},
        {"{\"coin_id\":\"bitcoin\",\"kind\":\"transfer_in\",\"amount\":1,\"timestamp\":\"2024-01-04\",\"note\":\"x\"}",
         "\"x\""},
    };
    const char *database = temp_path("notes.sqlite");
    json_t *config = json_pack("{s:s}", "database", database);
    cf_engine *engine = open_engine(json_deep_copy(config));
    char *out = NULL, *err = NULL;
    size_t i;
    if (engine == NULL) {
        json_decref(config);
        return;
    }
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (CHECK_STATUS(cf_engine_add_transaction(engine, cases[i].json, &out, &err), CF_OK, err)) {
            char *note = note_of(out);
            CHECK_STR(note, cases[i].note);
            free(note);
        }
        free_out(out);
        free_out(err);
        out = err = NULL;
    }
    cf_engine_close(engine);
    engine = open_engine(config); /* the same database and owner: what was saved */
    if (engine != NULL && CHECK_STATUS(cf_engine_transactions(engine, NULL, &out, &err), CF_OK, err)) {
        json_t *page = PARSE_JSON(out), *t;
        size_t n;
        CHECK_INT(json_array_size(json_object_get(page, "transactions")), 4);
        json_array_foreach(json_object_get(page, "transactions"), n, t) {
            const char *stamp = json_str(t, "timestamp");
            char *note = json_dumps(json_object_get(t, "note"), JSON_ENCODE_ANY);
            int day = stamp ? atoi(stamp + 8) : 0;
            if (day >= 1 && day <= 4)
                CHECK_STR(note, cases[day - 1].note);
            free(note);
        }
        json_decref(page);
    }
    free_out(out);
    free_out(err);
    cf_engine_close(engine);
}

void test_edges_csv_number_with_a_comma_says_what_it_is(void) {
    static const struct {
        const char *cell, *reason, *message;
    } cases[] = {
        {"\"11,426.20\"", "thousands_separator",
         "line 3, column price: \"11,426.20\" has a thousands separator: write numbers without one (11426.20)"},
        {"\"1,5\"", "decimal_comma", "line 3, column price: \"1,5\" has a decimal comma: the decimal mark is a point (1.5)"},
        {"\"1,234\"", "ambiguous_comma",
         "line 3, column price: \"1,234\" has a comma: write 1234 if it separates thousands, or 1.234 if it is a decimal comma"},
    };
    cf_engine *engine = open_engine(json_pack("{s:s}", "database", temp_path("commas.sqlite")));
    size_t i;
    if (engine == NULL)
        return;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char csv[512], *out = NULL, *err = NULL, *page = NULL, *perr = NULL;
        json_t *error, *details;
        snprintf(csv, sizeof csv,
                 "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id\n"
                 "2024-02-01,main,ethereum,buy,1,2,0,,a\n2024-02-02,main,bitcoin,buy,1,%s,0,,b\n",
                 cases[i].cell);
        CHECK_INT(cf_engine_import_csv(engine, csv, &out, &err), CF_INVALID_ARGUMENT);
        error = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
        details = json_object_get(error, "details");
        CHECK_STR(json_str(error, "message"), cases[i].message);
        CHECK_STR(json_str(details, "reason"), cases[i].reason);
        CHECK_STR(json_str(details, "column"), "price");
        CHECK_DOUBLE(json_num(details, "line"), 3, 0);
        json_decref(error);
        if (CHECK_STATUS(cf_engine_transactions(engine, NULL, &page, &perr), CF_OK, perr)) {
            json_t *parsed = PARSE_JSON(page);
            CHECK_DOUBLE(json_num(parsed, "total"), 0, 0); /* nothing imported */
            json_decref(parsed);
        }
        free_out(out);
        free_out(err);
        free_out(page);
        free_out(perr);
    }
    cf_engine_close(engine);
}

/* Finding 8: exported cells a spreadsheet would run as formulas start with ', and import back exactly. */
void test_edges_exported_cells_cannot_run_as_formulas(void) {
    static const char *notes[] = {"=1+1", "+1", "-1", "@SUM(A1)", "'=x", "plain"};
    cf_engine *engine = open_engine(json_pack("{s:s}", "database", temp_path("formulas.sqlite")));
    cf_engine *other = open_engine(json_pack("{s:s}", "database", temp_path("formulas-copy.sqlite")));
    char *csv = NULL, *out = NULL, *err = NULL;
    size_t i;
    if (engine == NULL || other == NULL)
        goto done;
    for (i = 0; i < sizeof notes / sizeof notes[0]; i++) {
        json_t *t = json_pack("{s:s, s:s, s:i, s:s, s:s}", "coin_id", "bitcoin", "kind", "transfer_in", "amount", 1,
                              "timestamp", "2024-01-01", "note", notes[i]);
        char *text = json_dumps(t, JSON_COMPACT);
        CHECK_STATUS(cf_engine_add_transaction(engine, text, &out, &err), CF_OK, err);
        free_out(out);
        free_out(err);
        out = err = NULL;
        free(text);
        json_decref(t);
    }
    if (!CHECK_STATUS(cf_engine_export_csv(engine, NULL, &csv, &err), CF_OK, err))
        goto done;
    CHECK(strstr(csv, ",'=1+1,") != NULL && strstr(csv, ",'+1,") != NULL && strstr(csv, ",'-1,") != NULL);
    CHECK(strstr(csv, ",'@SUM(A1),") != NULL && strstr(csv, ",''=x,") != NULL && strstr(csv, ",plain,") != NULL);
    CHECK(strstr(csv, ",=") == NULL && strstr(csv, ",+") == NULL && strstr(csv, ",-") == NULL && strstr(csv, ",@") == NULL);
    if (CHECK_STATUS(cf_engine_import_csv(other, csv, &out, &err), CF_OK, err)) {
        free_out(out);
        out = NULL;
        if (CHECK_STATUS(cf_engine_transactions(other, NULL, &out, &err), CF_OK, err)) {
            json_t *page = PARSE_JSON(out), *t;
            size_t n;
            CHECK_INT(json_array_size(json_object_get(page, "transactions")), 6);
            json_array_foreach(json_object_get(page, "transactions"), n, t) {
                if (n < sizeof notes / sizeof notes[0])
                    CHECK_STR(json_str(t, "note"), notes[n]); /* ledger order: insertion within one time */
            }
            json_decref(page);
        }
    }
done:
    free_out(csv);
    free_out(out);
    free_out(err);
    cf_engine_close(engine);
    cf_engine_close(other);
}
