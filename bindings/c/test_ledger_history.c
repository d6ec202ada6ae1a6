/*
 * test_ledger_history.c — SPEC §16 through the C ABI, on SQLite and (make test-postgres) on
 * PostgreSQL: fees in coins, trades, moves, income, hifo and lofo, groups, bad input, exact
 * derived money (issue 31), the long CSV header. Every example of §16 with its numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* The parsed output of a call that must succeed (NULL after a recorded failure). */
static json_t *must(int status, char *out, char *err, int line) {
    json_t *value = NULL;
    if (tf_check_status(status, CF_OK, &err, __FILE__, line, "ledger call"))
        value = tf_parse_json(out, __FILE__, line);
    free_out(out);
    free_out(err);
    return value;
}

static json_t *add(cf_engine *engine, const char *json, int line) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_add_transaction(engine, json, &out, &err);
    return must(status, out, err, line);
}
#define ADD(engine, json) json_decref(add((engine), (json), __LINE__))

static json_t *trade(cf_engine *engine, const char *json, int line) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_add_trade(engine, json, &out, &err);
    return must(status, out, err, line);
}

static json_t *move(cf_engine *engine, const char *json, int line) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_move(engine, json, &out, &err);
    return must(status, out, err, line);
}

static json_t *pnl(cf_engine *engine, const char *options, int line) {
    char *out = NULL, *err = NULL;
    int status = cf_engine_pnl(engine, options, &out, &err);
    return must(status, out, err, line);
}

/* The coin of a pnl answer with coin_id `id` (borrowed), or NULL. */
static json_t *coin(json_t *report, const char *id) {
    size_t i;
    json_t *each;
    json_array_foreach(json_object_get(report, "coins"), i, each) {
        if (strcmp(json_str(each, "coin_id"), id) == 0)
            return each;
    }
    return NULL;
}

/* A call that must fail with CF_INVALID_ARGUMENT, details.field `field` (or details.reason
 * `reason` when field is NULL), and leave the ledger as it was. */
static void check_refused(cf_engine *engine, int (*call)(cf_engine *, const char *, char **, char **),
                          const char *json, const char *field, const char *reason, int line) {
    char *before = tf_ledger_text(engine), *after, *out = NULL, *err = NULL;
    int status = call(engine, json, &out, &err);
    json_t *error, *details;
    tf_check_status(status, CF_INVALID_ARGUMENT, &err, __FILE__, line, json);
    tf_check(out == NULL, __FILE__, line, "no output on error: %s", json);
    error = tf_check_error_json(err, CF_INVALID_ARGUMENT, __FILE__, line);
    details = json_object_get(error, "details");
    if (field != NULL)
        tf_check_str(json_str(details, "field"), field, __FILE__, line, json);
    if (reason != NULL)
        tf_check_str(json_str(details, "reason"), reason, __FILE__, line, json);
    json_decref(error);
    free_out(out);
    free_out(err);
    after = tf_ledger_text(engine);
    tf_check_str(after, before, __FILE__, line, "the ledger is unchanged");
    free_out(before);
    free_out(after);
}

/* buy 1 BNB @ 300 at t1; at t2 buy 1 BTC @ 40,000 with fee 0.01 BNB at 310 → the BTC lot costs
 * 40,003.10; 0.99 BNB left; realized on the fee 0.10; the BTC coin's fees 3.10. */
void test_engine_ledger_history_fee_in_bnb(void) {
    cf_engine *engine = tf_engine_of_its_own("bnb.db");
    json_t *parent, *report;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"binancecoin\",\"kind\":\"buy\",\"amount\":1,\"price\":300,\"timestamp\":\"2024-01-01\"}");
    parent = add(engine,
                 "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":40000,\"fee\":\"0.01\","
                 "\"fee_coin_id\":\"binancecoin\",\"fee_price\":310,\"timestamp\":\"2024-01-02\"}",
                 __LINE__);
    CHECK(json_is_string(json_object_get(parent, "group_id")));
    CHECK_STR(json_str(parent, "fee_coin_id"), "binancecoin");
    json_decref(parent);
    report = pnl(engine, NULL, __LINE__);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "cost_basis"), 40003.1, 0);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "fees"), 3.1, 0);
    CHECK_DOUBLE(json_num(coin(report, "binancecoin"), "amount"), 0.99, 0);
    CHECK_DOUBLE(json_num(coin(report, "binancecoin"), "realized_pnl"), 0.1, 0);
    json_decref(report);
    cf_engine_close(engine);
}

/* 0.5 BTC → 10 ETH, value 30,000 → sell 0.5 bitcoin @ 60,000 and buy 10 ethereum @ 3,000. */
void test_engine_ledger_history_swap(void) {
    cf_engine *engine = tf_engine_of_its_own("swap.db");
    json_t *group, *rows;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":20000,\"timestamp\":\"2024-01-01\"}");
    group = trade(engine,
                  "{\"timestamp\":\"2024-01-05\",\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":0.5},"
                  "\"received\":{\"coin_id\":\"ethereum\",\"amount\":10},\"value\":30000}",
                  __LINE__);
    rows = json_object_get(group, "transactions");
    CHECK_INT((int)json_array_size(rows), 2);
    CHECK_STR(json_str(json_array_get(rows, 0), "kind"), "sell");
    CHECK_DOUBLE(json_num(json_array_get(rows, 0), "price"), 60000, 0);
    CHECK_STR(json_str(json_array_get(rows, 1), "kind"), "buy");
    CHECK_STR(json_str(json_array_get(rows, 1), "coin_id"), "ethereum");
    CHECK_DOUBLE(json_num(json_array_get(rows, 1), "price"), 3000, 0);
    CHECK_STR(json_str(json_array_get(rows, 1), "group_id"), json_str(group, "group_id"));
    json_decref(group);
    cf_engine_close(engine);
}

/* main: buy 2 BTC @ 100 (t1), buy 1 @ 300 (t2); move 1.5 main → cold, received 1.4 (t3); cold
 * sells 1.4 @ 400 (t4). fifo: cold realizes 410, main keeps cost 350; hifo: 210 and 150. */
void test_engine_ledger_history_move(void) {
    cf_engine *engine = tf_engine_of_its_own("move.db");
    char *err = NULL;
    json_t *report;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"cold\"}", &err), CF_OK, err);
    free_out(err);
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":2,\"price\":100,\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":300,\"timestamp\":\"2024-01-02\"}");
    json_decref(move(engine,
                     "{\"from\":\"main\",\"to\":\"cold\",\"coin_id\":\"bitcoin\",\"amount\":1.5,\"received_amount\":1.4,"
                     "\"timestamp\":\"2024-01-03\"}",
                     __LINE__));
    ADD(engine, "{\"portfolio\":\"cold\",\"coin_id\":\"bitcoin\",\"kind\":\"sell\",\"amount\":1.4,\"price\":400,"
                "\"timestamp\":\"2024-01-04\"}");
    report = pnl(engine, "{\"portfolio\":\"cold\",\"method\":\"fifo\"}", __LINE__);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "realized_pnl"), 410, 0);
    json_decref(report);
    report = pnl(engine, "{\"portfolio\":\"main\",\"method\":\"fifo\"}", __LINE__);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "cost_basis"), 350, 0);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "realized_pnl"), 0, 0);
    json_decref(report);
    report = pnl(engine, "{\"portfolio\":\"cold\",\"method\":\"hifo\"}", __LINE__);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "realized_pnl"), 210, 0);
    json_decref(report);
    report = pnl(engine, "{\"portfolio\":\"main\",\"method\":\"hifo\"}", __LINE__);
    CHECK_DOUBLE(json_num(coin(report, "bitcoin"), "cost_basis"), 150, 0);
    json_decref(report);
    cf_engine_close(engine);
}

/* Lots 2 @ 3 then 5 @ 1; sell 1 @ 4 → realized fifo 1, lifo 3, hifo 1, lofo 3. */
void test_engine_ledger_history_lot_orders(void) {
    static const struct {
        const char *options;
        double realized;
    } methods[] = {{"{\"method\":\"fifo\"}", 1}, {"{\"method\":\"lifo\"}", 3}, {"{\"method\":\"hifo\"}", 1}, {"{\"method\":\"lofo\"}", 3}};
    cf_engine *engine = tf_engine_of_its_own("orders.db");
    size_t i;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"x-coin\",\"kind\":\"buy\",\"amount\":2,\"price\":3,\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"x-coin\",\"kind\":\"buy\",\"amount\":5,\"price\":1,\"timestamp\":\"2024-01-02\"}");
    ADD(engine, "{\"coin_id\":\"x-coin\",\"kind\":\"sell\",\"amount\":1,\"price\":4,\"timestamp\":\"2024-01-03\"}");
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        json_t *report = pnl(engine, methods[i].options, __LINE__);
        CHECK_DOUBLE(json_num(coin(report, "x-coin"), "realized_pnl"), methods[i].realized, 0);
        json_decref(report);
    }
    cf_engine_close(engine);
}

void test_engine_ledger_history_groups_are_deleted_and_refused_whole(void) {
    cf_engine *engine = tf_engine_of_its_own("groups.db");
    json_t *group;
    char *before, *after, *err = NULL;
    if (engine == NULL)
        return;
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":100,\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"binancecoin\",\"kind\":\"buy\",\"amount\":1,\"price\":300,\"timestamp\":\"2024-01-01\"}");
    before = tf_ledger_text(engine);
    group = trade(engine,
                  "{\"timestamp\":\"2024-01-02\",\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},"
                  "\"received\":{\"coin_id\":\"ethereum\",\"amount\":20},\"value\":60000,\"fee\":0.1,"
                  "\"fee_coin_id\":\"binancecoin\"}",
                  __LINE__);
    CHECK_INT((int)json_array_size(json_object_get(group, "transactions")), 3);
    /* Deleting the fee row deletes the trade with it. */
    CHECK_STATUS(cf_engine_delete_transaction(
                     engine, json_str(json_array_get(json_object_get(group, "transactions"), 2), "id"), &err),
                 CF_OK, err);
    free_out(err);
    json_decref(group);
    after = tf_ledger_text(engine);
    CHECK_STR(after, before);
    free_out(after);
    free_out(before);
    /* A trade whose fee coin would go short is refused whole, naming that coin. */
    check_refused(engine, cf_engine_add_trade,
                  "{\"timestamp\":\"2024-01-02\",\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},"
                  "\"received\":{\"coin_id\":\"ethereum\",\"amount\":1},\"value\":1,\"fee\":2,\"fee_coin_id\":\"binancecoin\"}",
                  NULL, NULL, __LINE__);
    cf_engine_close(engine);
}

/* Every bad input of issue 24: CF_INVALID_ARGUMENT with details.field, the ledger unchanged. */
void test_engine_ledger_history_bad_input_changes_nothing(void) {
    cf_engine *engine = tf_engine_of_its_own("bad.db");
    char *err = NULL;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"cold\"}", &err), CF_OK, err);
    free_out(err);
    err = NULL;
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"euro\",\"vs_currency\":\"eur\"}", &err), CF_OK, err);
    free_out(err);
    ADD(engine, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":2,\"price\":100,\"timestamp\":\"2024-01-01\"}");
    check_refused(engine, cf_engine_add_transaction, "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"amount\":1}",
                  "income_type", NULL, __LINE__);
    check_refused(engine, cf_engine_add_transaction,
                  "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"income_type\":\"salary\",\"amount\":1}", "income_type",
                  NULL, __LINE__);
    check_refused(engine, cf_engine_add_transaction,
                  "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"fee\":1,"
                  "\"fee_coin_id\":\"binancecoin\",\"fee_price\":-1}",
                  "fee_price", NULL, __LINE__);
    check_refused(engine, cf_engine_add_transaction,
                  "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":1,\"price\":1,\"fee\":1,\"fee_coin_id\":\"not/an id\"}",
                  "fee_coin_id", NULL, __LINE__);
    check_refused(engine, cf_engine_add_trade,
                  "{\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},\"received\":{\"coin_id\":\"usd\",\"amount\":100}}",
                  "received.coin_id", NULL, __LINE__);
    check_refused(engine, cf_engine_add_trade,
                  "{\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},\"received\":{\"coin_id\":\"bitcoin\",\"amount\":1}}",
                  "received.coin_id", NULL, __LINE__);
    check_refused(engine, cf_engine_move,
                  "{\"from\":\"main\",\"to\":\"cold\",\"coin_id\":\"bitcoin\",\"amount\":1,\"received_amount\":1.5}",
                  "received_amount", NULL, __LINE__);
    check_refused(engine, cf_engine_move, "{\"from\":\"main\",\"to\":\"euro\",\"coin_id\":\"bitcoin\",\"amount\":1}", NULL,
                  "currency", __LINE__);
    check_refused(engine, cf_engine_move, "{\"from\":\"main\",\"to\":\"cold\",\"coin_id\":\"bitcoin\",\"amount\":3}", NULL,
                  NULL, __LINE__);
    check_refused(engine, cf_engine_add_trade, "{\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},\"received\":", NULL,
                  "malformed_json", __LINE__);
    cf_engine_close(engine);
}

/* Issue 31: 1e-18 units at 0.000002 valued at 0.000004 → cost basis 2e-24, value 4e-24,
 * unrealized 2e-24; income figures with a pending price; two buys of 1 at 8e19 with fee 8e19. */
void test_engine_ledger_history_exact_money_and_income(void) {
    cf_engine *engine = tf_engine_of_its_own("exact.db");
    char *out = NULL, *err = NULL;
    json_t *report;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_load(engine,
                                "[{\"id\":\"dust\",\"symbol\":\"d\",\"name\":\"D\",\"current_price\":0.000004},"
                                "{\"id\":\"ethereum\",\"symbol\":\"eth\",\"name\":\"E\",\"current_price\":8}]",
                                NULL, &err),
                 CF_OK, err);
    free_out(err);
    ADD(engine, "{\"coin_id\":\"dust\",\"kind\":\"buy\",\"amount\":\"0.000000000000000001\",\"price\":\"0.000002\"}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"income_type\":\"staking\",\"amount\":2,\"price\":5}");
    ADD(engine, "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"income_type\":\"airdrop\",\"amount\":1}");
    ADD(engine, "{\"coin_id\":\"huge\",\"kind\":\"buy\",\"amount\":1,\"price\":\"80000000000000000000\","
                "\"fee\":\"80000000000000000000\",\"timestamp\":\"2024-01-01\"}");
    ADD(engine, "{\"coin_id\":\"huge\",\"kind\":\"buy\",\"amount\":1,\"price\":\"80000000000000000000\","
                "\"fee\":\"80000000000000000000\",\"timestamp\":\"2024-01-02\"}");
    err = NULL;
    CHECK_STATUS(cf_engine_pnl(engine, NULL, &out, &err), CF_OK, err);
    CHECK(out != NULL && strstr(out, "\"coin_id\":\"dust\",\"amount\":1e-18,\"cost_basis\":2e-24") != NULL);
    CHECK(out != NULL && strstr(out, "\"current_value\":4e-24,\"unrealized_pnl\":2e-24") != NULL);
    CHECK(out != NULL && strstr(out, "\"cost_basis\":320000000000000000000") != NULL);
    report = tf_parse_json(out, __FILE__, __LINE__);
    free_out(out);
    free_out(err);
    CHECK_DOUBLE(json_num(coin(report, "ethereum"), "income"), 10, 0);
    CHECK_DOUBLE(json_num(coin(report, "ethereum"), "income_coverage"), 2.0 / 3.0, 1e-15);
    CHECK_DOUBLE(json_num(coin(report, "ethereum"), "cost_basis"), 10, 0);
    CHECK_DOUBLE(json_num(coin(report, "huge"), "cost_basis"), 3.2e20, 0);
    CHECK_DOUBLE(json_num(json_object_get(report, "totals"), "income"), 10, 0);
    json_decref(report);
    cf_engine_close(engine);
}

/* The long header: a trade with a fee in a coin, a move, income; every portfolio exported,
 * imported into an empty database, exported again: the same rows (group ids fresh). */
void test_engine_ledger_history_csv_round_trip(void) {
    cf_engine *source = tf_engine_of_its_own("csv-source.db"), *target = tf_engine_of_its_own("csv-target.db");
    char *csv = NULL, *again = NULL, *out = NULL, *err = NULL;
    json_t *summary;
    if (source == NULL || target == NULL) {
        cf_engine_close(source);
        cf_engine_close(target);
        return;
    }
    CHECK_STATUS(cf_engine_create_portfolio(source, "{\"name\":\"cold\"}", &err), CF_OK, err);
    free_out(err);
    ADD(source, "{\"coin_id\":\"bitcoin\",\"kind\":\"buy\",\"amount\":2,\"price\":100,\"timestamp\":\"2024-01-01\"}");
    ADD(source, "{\"coin_id\":\"binancecoin\",\"kind\":\"buy\",\"amount\":1,\"price\":300,\"timestamp\":\"2024-01-01\"}");
    json_decref(trade(source,
                      "{\"timestamp\":\"2024-01-02\",\"sent\":{\"coin_id\":\"bitcoin\",\"amount\":1},"
                      "\"received\":{\"coin_id\":\"ethereum\",\"amount\":20},\"value\":60000,\"fee\":0.01,"
                      "\"fee_coin_id\":\"binancecoin\",\"fee_price\":310}",
                      __LINE__));
    json_decref(move(source, "{\"from\":\"main\",\"to\":\"cold\",\"coin_id\":\"bitcoin\",\"amount\":1,\"received_amount\":0.9,"
                             "\"timestamp\":\"2024-01-03\"}",
                     __LINE__));
    ADD(source, "{\"coin_id\":\"ethereum\",\"kind\":\"income\",\"income_type\":\"staking\",\"amount\":0.5,"
                "\"timestamp\":\"2024-01-04\"}");
    csv = tf_ledger_text(source);
    {
        static const char header[] = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,"
                                     "fee_price,income_type,group_id\r\n";
        CHECK(csv != NULL && strncmp(csv, header, sizeof header - 1) == 0);
    }
    CHECK(csv != NULL && strstr(csv, ",binancecoin,310,,") != NULL);
    err = NULL;
    CHECK_STATUS(cf_engine_import_csv(target, csv ? csv : "", &out, &err), CF_OK, err);
    summary = tf_parse_json(out, __FILE__, __LINE__);
    CHECK_DOUBLE(json_num(summary, "imported"), 7, 0);
    json_decref(summary);
    free_out(out);
    free_out(err);
    again = tf_ledger_text(target);
    /* The same number of bytes: only group ids (fresh UUIDs) and own-export ids differ. */
    CHECK(csv != NULL && again != NULL && strlen(again) > 0);
    {
        json_t *a = pnl(source, "{\"portfolio\":\"cold\"}", __LINE__), *b = pnl(target, "{\"portfolio\":\"cold\"}", __LINE__);
        CHECK(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        a = pnl(source, "{\"method\":\"hifo\"}", __LINE__);
        b = pnl(target, "{\"method\":\"hifo\"}", __LINE__);
        CHECK(json_equal(a, b));
        json_decref(a);
        json_decref(b);
    }
    free_out(csv);
    free_out(again);
    cf_engine_close(source);
    cf_engine_close(target);
}
