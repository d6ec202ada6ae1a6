/*
 * test_import.c — SPEC §18 through the C ABI (cf_engine_import), on SQLite and (make
 * test-postgres) on PostgreSQL: the sample files of Tests/fixtures/imports (written for the
 * tests from the exchanges' headers) with the ledger rows each writes, idempotent re-imports,
 * unknown symbols, broken cells, dry runs and unknown headers, the ledger compared before and
 * after every refusal.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_support.h"
#include "tests.h"

/* A sample file's text (malloc()ed), or NULL after a recorded failure. */
static char *sample(const char *name) {
    char *text = read_file(fmt_path("%s/Tests/fixtures/imports/%s", tf_repo_root, name), NULL);
    CHECK(text != NULL);
    return text;
}

/* cf_engine_import that must succeed: its parsed answer (NULL after a recorded failure). */
static json_t *import_ok(cf_engine *engine, const char *options, const char *data, int line) {
    char *out = NULL, *err = NULL;
    json_t *answer = NULL;
    int status = cf_engine_import(engine, options, data, &out, &err);
    if (tf_check_status(status, CF_OK, &err, __FILE__, line, "cf_engine_import"))
        answer = tf_parse_json(out, __FILE__, line);
    free_out(out);
    free_out(err);
    return answer;
}

/* cf_engine_import that must fail with CF_INVALID_ARGUMENT and change nothing: its parsed
 * error's details (caller json_decref()s the error it returns through *error). */
static json_t *import_refused(cf_engine *engine, const char *options, const char *data, json_t **error, int line) {
    char *before = tf_ledger_text(engine), *after, *out = NULL, *err = NULL;
    int status = cf_engine_import(engine, options, data, &out, &err);
    tf_check_status(status, CF_INVALID_ARGUMENT, &err, __FILE__, line, "cf_engine_import");
    tf_check(out == NULL, __FILE__, line, "no output on error");
    *error = tf_check_error_json(err, CF_INVALID_ARGUMENT, __FILE__, line);
    free_out(out);
    free_out(err);
    after = tf_ledger_text(engine);
    tf_check_str(after, before, __FILE__, line, "the ledger is unchanged");
    free_out(before);
    free_out(after);
    return json_object_get(*error, "details");
}

/* A transaction as "kind coin amount @price fee F [coin] type", as the Swift tests write them. */
static void describe(const json_t *t, char *buffer, size_t size) {
    const char *kind = json_str(t, "kind");
    int length = snprintf(buffer, size, "%s %s %.15g", kind, json_str(t, "coin_id"), json_num(t, "amount"));
    json_t *price = json_object_get(t, "price");
    if (strcmp(kind, "transfer_in") != 0 && strcmp(kind, "transfer_out") != 0) {
        if (json_is_number(price))
            length += snprintf(buffer + length, size - (size_t)length, " @%.15g", json_number_value(price));
        else
            length += snprintf(buffer + length, size - (size_t)length, " @pending");
    }
    if (json_num(t, "fee") != 0) {
        const char *coin = json_str(t, "fee_coin_id");
        length += snprintf(buffer + length, size - (size_t)length, " fee %.15g%s%s", json_num(t, "fee"), coin ? " " : "", coin ? coin : "");
    }
    if (json_str(t, "income_type") != NULL)
        snprintf(buffer + length, size - (size_t)length, " %s", json_str(t, "income_type"));
}

/* Checks that a portfolio's transactions are `expected` (NULL-terminated), in ledger order. */
static void check_rows(cf_engine *engine, const char *portfolio, const char *const *expected, int line) {
    char query[256], *out = NULL, *err = NULL, text[256];
    json_t *page, *t;
    size_t i, count = 0;
    snprintf(query, sizeof query, "{\"portfolio\":\"%s\",\"limit\":1000}", portfolio);
    if (!tf_check_status(cf_engine_transactions(engine, query, &out, &err), CF_OK, &err, __FILE__, line, "transactions")) {
        free_out(err);
        return;
    }
    page = tf_parse_json(out, __FILE__, line);
    free_out(out);
    while (expected[count] != NULL)
        count++;
    tf_check(json_array_size(json_object_get(page, "transactions")) == count, __FILE__, line, "%zu rows in %s (got %zu)", count,
             portfolio, json_array_size(json_object_get(page, "transactions")));
    json_array_foreach(json_object_get(page, "transactions"), i, t) {
        if (i >= count)
            break;
        describe(t, text, sizeof text);
        tf_check_str(text, expected[i], __FILE__, line, "row");
    }
    json_decref(page);
}

/* The lines of an answer's "ignored" or "warnings" list, as "2,3,8". */
static void check_lines(const json_t *answer, const char *key, const char *expected, int line) {
    char text[256] = "";
    size_t i, used = 0;
    json_t *notice;
    json_array_foreach(json_object_get(answer, key), i, notice) {
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%.0f", i ? "," : "", json_num(notice, "line"));
        tf_check(json_str(notice, "reason") != NULL && json_str(notice, "reason")[0] != '\0', __FILE__, line, "a reason");
    }
    tf_check_str(text, expected, __FILE__, line, key);
}

/* A Coinbase Convert becomes a trade from its Notes; the USD deposit is ignored. */
void test_engine_import_coinbase_convert_is_a_trade(void) {
    cf_engine *engine = tf_engine_of_its_own("import-coinbase.db");
    char *data = sample("coinbase-v4.csv");
    static const char *const rows[] = {
        "buy bitcoin 0.01 @43000 fee 6.5", "buy ethereum 2 @2250 fee 18", "sell ethereum 1 @2400", "buy bitcoin 0.048 @50000",
        "sell bitcoin 0.005 @48000 fee 4", "income ethereum 0.01 @3400 staking", "transfer_out bitcoin 0.02",
        "income the-graph 10 @0.3 reward", "sell bitcoin 0.001 @65000", "buy usd-coin 65 @1", NULL,
    };
    json_t *answer;
    if (engine == NULL || data == NULL) {
        cf_engine_close(engine);
        free(data);
        return;
    }
    answer = import_ok(engine, NULL, data, __LINE__);
    CHECK_STR(json_str(answer, "format"), "coinbase");
    CHECK_STR(json_str(answer, "variant"), "v4");
    CHECK_DOUBLE(json_num(answer, "imported"), 10, 0);
    CHECK_DOUBLE(json_num(answer, "skipped"), 0, 0);
    CHECK_DOUBLE(json_num(answer, "pending_prices"), 0, 0);
    CHECK(json_array_size(json_object_get(answer, "unknown_symbols")) == 0);
    CHECK(json_object_get(answer, "transactions") == NULL);
    check_lines(answer, "ignored", "8", __LINE__);
    check_lines(answer, "warnings", "12", __LINE__);
    json_decref(answer);
    check_rows(engine, "main", rows, __LINE__);
    /* Re-importing the file imports 0. */
    answer = import_ok(engine, "{\"format\":\"coinbase\"}", data, __LINE__);
    CHECK_DOUBLE(json_num(answer, "imported"), 0, 0);
    CHECK_DOUBLE(json_num(answer, "skipped"), 10, 0);
    json_decref(answer);
    check_rows(engine, "main", rows, __LINE__);
    free(data);
    cf_engine_close(engine);
}

/* A Binance statement trade split over Buy/Sell/Fee rows of one time is one group with a BNB
 * fee row. */
void test_engine_import_binance_statement_group_with_bnb_fee(void) {
    cf_engine *engine = tf_engine_of_its_own("import-binance.db");
    char *data = sample("binance-statement.csv"), *out = NULL, *err = NULL;
    json_t *answer, *page, *t, *group = NULL;
    size_t i;
    if (engine == NULL || data == NULL) {
        cf_engine_close(engine);
        free(data);
        return;
    }
    answer = import_ok(engine, "{\"portfolio\":\"binance\"}", data, __LINE__);
    CHECK_STR(json_str(answer, "variant"), "statement");
    CHECK_DOUBLE(json_num(answer, "imported"), 13, 0);
    CHECK_DOUBLE(json_num(answer, "pending_prices"), 10, 0);
    check_lines(answer, "ignored", "14,15,16", __LINE__);
    check_lines(answer, "warnings", "18", __LINE__);
    json_decref(answer);
    CHECK_STATUS(cf_engine_transactions(engine, "{\"portfolio\":\"binance\",\"limit\":1000}", &out, &err), CF_OK, err);
    page = PARSE_JSON(out);
    free_out(out);
    free_out(err);
    json_array_foreach(json_object_get(page, "transactions"), i, t) {
        if (strcmp(json_str(t, "kind"), "buy") == 0 && strcmp(json_str(t, "coin_id"), "bitcoin") == 0)
            group = json_object_get(t, "group_id");
    }
    CHECK(json_is_string(group));
    if (json_is_string(group)) {
        char query[256], text[256];
        static const char *const expected[] = {"sell tether 470 @pending", "buy bitcoin 0.01 @pending fee 0.00075 binancecoin",
                                               "fee binancecoin 0.00075 @pending"};
        json_t *rows;
        snprintf(query, sizeof query, "{\"group_id\":\"%s\"}", json_string_value(group));
        out = err = NULL;
        CHECK_STATUS(cf_engine_transactions(engine, query, &out, &err), CF_OK, err);
        rows = PARSE_JSON(out);
        free_out(out);
        free_out(err);
        CHECK(json_array_size(json_object_get(rows, "transactions")) == 3);
        json_array_foreach(json_object_get(rows, "transactions"), i, t) {
            if (i >= 3)
                break;
            describe(t, text, sizeof text);
            CHECK_STR(text, expected[i]);
            CHECK_STR(json_str(t, "price_source"), "pending");
        }
        json_decref(rows);
    }
    json_decref(page);
    free(data);
    cf_engine_close(engine);
}

/* A Kraken trade's two rows sharing a refid are one buy; XXBT/ZEUR map to bitcoin/eur; the DOT.S
 * reward is income staking; the EUR deposit (a fiat deposit) is in "ignored". */
void test_engine_import_kraken_codes_and_staking(void) {
    cf_engine *engine = tf_engine_of_its_own("import-kraken.db");
    char *data = sample("kraken-ledgers.csv"), *err = NULL;
    static const char *const rows[] = {"buy bitcoin 0.0125 @40000 fee 0.8", "income polkadot 0.1 @pending staking",
                                       "transfer_out bitcoin 0.005 fee 0.0001 bitcoin", "fee bitcoin 0.0001 @pending", NULL};
    json_t *answer;
    if (engine == NULL || data == NULL) {
        cf_engine_close(engine);
        free(data);
        return;
    }
    CHECK_STATUS(cf_engine_create_portfolio(engine, "{\"name\":\"kraken\",\"vs_currency\":\"eur\"}", &err), CF_OK, err);
    free_out(err);
    answer = import_ok(engine, "{\"portfolio\":\"kraken\",\"format\":\"kraken\"}", data, __LINE__);
    CHECK_STR(json_str(answer, "variant"), "ledgers");
    CHECK_DOUBLE(json_num(answer, "imported"), 4, 0);
    check_lines(answer, "ignored", "2,3,8", __LINE__);
    check_lines(answer, "warnings", "9", __LINE__);
    json_decref(answer);
    check_rows(engine, "kraken", rows, __LINE__);
    free(data);
    cf_engine_close(engine);
}

/* An overlapping later export imports only its new rows. */
void test_engine_import_overlapping_export(void) {
    cf_engine *engine = tf_engine_of_its_own("import-overlap.db");
    static const char first[] =
        "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,"
        "Net Worth Currency,Label,Description,TxHash\n"
        "2023-04-01 12:00 UTC,,,2,ETH,,,3600,USD,,,\n"
        "2023-04-03 00:00 UTC,,,0.01,ETH,,,18,USD,staking,,\n";
    static const char later[] =
        "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,"
        "Net Worth Currency,Label,Description,TxHash\n"
        "2023-04-03 00:00 UTC,,,0.01,ETH,,,18,USD,staking,,\n"
        "2023-04-04 00:00 UTC,,,0.01,ETH,,,19,USD,staking,,\n";
    static const char *const rows[] = {"transfer_in ethereum 2", "income ethereum 0.01 @1800 staking",
                                       "income ethereum 0.01 @1900 staking", NULL};
    json_t *answer;
    if (engine == NULL)
        return;
    json_decref(import_ok(engine, NULL, first, __LINE__));
    answer = import_ok(engine, NULL, later, __LINE__);
    CHECK_STR(json_str(answer, "format"), "koinly");
    CHECK_DOUBLE(json_num(answer, "imported"), 1, 0);
    CHECK_DOUBLE(json_num(answer, "skipped"), 1, 0);
    json_decref(answer);
    check_rows(engine, "main", rows, __LINE__);
    cf_engine_close(engine);
}

/* BOND, shared by two snapshot coins, fails listing both and writes nothing; a dry run lists it
 * without failing; the symbols option resolves it. */
void test_engine_import_ambiguous_symbol(void) {
    cf_engine *engine = tf_engine_of_its_own("import-bond.db");
    static const char markets[] = "[{\"id\":\"barnbridge\",\"symbol\":\"bond\",\"name\":\"BarnBridge\",\"current_price\":2},"
                                  "{\"id\":\"bond-protocol\",\"symbol\":\"bond\",\"name\":\"Bond Protocol\",\"current_price\":0.1}]";
    static const char file[] =
        "\"Type\",\"Buy\",\"Cur.\",\"Sell\",\"Cur.\",\"Fee\",\"Cur.\",\"Exchange\",\"Group\",\"Comment\",\"Date\"\n"
        "\"Airdrop\",\"10.00000000\",\"BOND\",\"-\",\"\",\"-\",\"\",\"\",\"\",\"\",\"01.05.2024 00:00:00\"\n";
    static const char *const rows[] = {"income barnbridge 10 @pending airdrop", NULL};
    char *err = NULL;
    json_t *error = NULL, *details, *symbols, *answer;
    if (engine == NULL)
        return;
    CHECK_STATUS(cf_engine_load(engine, markets, NULL, &err), CF_OK, err);
    free_out(err);
    details = import_refused(engine, NULL, file, &error, __LINE__);
    CHECK_STR(json_str(details, "reason"), CF_REASON_UNKNOWN_SYMBOLS);
    symbols = json_object_get(details, "symbols");
    CHECK(json_array_size(symbols) == 1);
    CHECK_STR(json_str(json_array_get(symbols, 0), "symbol"), "BOND");
    {
        json_t *candidates = json_object_get(json_array_get(symbols, 0), "candidates");
        CHECK(json_array_size(candidates) == 2);
        CHECK_STR(json_string_value(json_array_get(candidates, 0)), "barnbridge");
        CHECK_STR(json_string_value(json_array_get(candidates, 1)), "bond-protocol");
    }
    json_decref(error);
    answer = import_ok(engine, "{\"dry_run\":true}", file, __LINE__);
    CHECK(json_array_size(json_object_get(answer, "unknown_symbols")) == 1);
    CHECK(json_array_size(json_object_get(answer, "transactions")) == 0);
    json_decref(answer);
    answer = import_ok(engine, "{\"symbols\":{\"BOND\":\"barnbridge\"}}", file, __LINE__);
    CHECK_DOUBLE(json_num(answer, "imported"), 1, 0);
    json_decref(answer);
    check_rows(engine, "main", rows, __LINE__);
    cf_engine_close(engine);
}

/* A broken cell fails naming details.line and details.column (the header's title), and writes
 * nothing even after good rows; an unknown header lists its cells and the formats. */
void test_engine_import_broken_cell_and_unknown_header(void) {
    cf_engine *engine = tf_engine_of_its_own("import-broken.db");
    static const char broken[] =
        "Date(UTC),Market,Type,Price,Amount,Total,Fee,Fee Coin\n"
        "2019-05-01 08:00:00,BNBBTC,BUY,0.0030,10,0.03,0.0075,BNB\n"
        "2019-05-02 09:30:00,ETHBTC,SELL,0.0300,1,\"0,03\",0.00003,BTC\n";
    json_t *error = NULL, *details;
    if (engine == NULL)
        return;
    details = import_refused(engine, NULL, broken, &error, __LINE__);
    CHECK_DOUBLE(json_num(details, "line"), 3, 0);
    CHECK_STR(json_str(details, "column"), "Total");
    json_decref(error);
    details = import_refused(engine, NULL, "Date,Coin,Amount\n2024-01-01,BTC,1\n", &error, __LINE__);
    CHECK_STR(json_str(details, "reason"), CF_REASON_UNKNOWN_FORMAT);
    CHECK(json_array_size(json_object_get(details, "header")) == 3);
    CHECK_STR(json_string_value(json_array_get(json_object_get(details, "header"), 1)), "Coin");
    CHECK(json_array_size(json_object_get(details, "formats")) == 6);
    CHECK_STR(json_string_value(json_array_get(json_object_get(details, "formats"), 0)), "coinfolio");
    json_decref(error);
    details = import_refused(engine, "{\"format\":\"mtgox\"}", broken, &error, __LINE__);
    CHECK_STR(json_str(details, "field"), "format");
    json_decref(error);
    {
        char *out = SENTINEL, *err = SENTINEL;
        CHECK_STATUS(cf_engine_import(engine, NULL, NULL, &out, &err), CF_INVALID_ARGUMENT, err);
        CHECK(out == NULL);
        free_out(err);
        err = SENTINEL;
        CHECK_STATUS(cf_engine_import(NULL, NULL, "", &out, &err), CF_INVALID_ARGUMENT, err);
        free_out(err);
    }
    cf_engine_close(engine);
}

/* A dry run lists the transactions it would write ("id" null) and writes nothing. */
void test_engine_import_dry_run(void) {
    cf_engine *engine = tf_engine_of_its_own("import-dry.db");
    char *data = sample("coinbase-v2.csv"), *before, *after;
    json_t *answer, *first;
    if (engine == NULL || data == NULL) {
        cf_engine_close(engine);
        free(data);
        return;
    }
    before = tf_ledger_text(engine);
    answer = import_ok(engine, "{\"dry_run\":true,\"portfolio\":\"new\"}", data, __LINE__);
    CHECK_STR(json_str(answer, "variant"), "v2");
    CHECK_DOUBLE(json_num(answer, "imported"), 3, 0);
    CHECK(json_array_size(json_object_get(answer, "transactions")) == 3);
    first = json_array_get(json_object_get(answer, "transactions"), 0);
    CHECK(json_is_null(json_object_get(first, "id")));
    CHECK_STR(json_str(first, "portfolio"), "new");
    CHECK_STR(json_str(first, "coin_id"), "ethereum");
    CHECK_STR(json_str(first, "price_source"), "user");
    CHECK_DOUBLE(json_num(first, "price"), 2600, 0);
    json_decref(answer);
    after = tf_ledger_text(engine);
    CHECK_STR(after, before);
    free_out(before);
    free_out(after);
    free(data);
    cf_engine_close(engine);
}

/* "yyyy-mm-dd HH:MM:SS UTC" (Koinly's and Coinbase's time) of t_ms. */
static const char *file_time(long long t_ms) {
    time_t seconds = (time_t)(t_ms / 1000);
    struct tm utc;
    char text[32];
    gmtime_r(&seconds, &utc);
    strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
    return fmt_path("%s", text);
}

/* SPEC §18 with §17: a Koinly file's rows without a price are pending, a buy for 100 eur (fee
 * 2 eur) keeps price_currency eur, pending too; cf_engine_fill_prices against the loopback server
 * (ethereum 110 + 1 usd and 100 + 1 eur, bitcoin 40,000 + 10 usd per hour of the day; points at
 * hh:02) asks 3 ranges and prices them: the buy 100 × 110 ÷ 100 = 110 usd, fee 2.2; the reward
 * 0.001 bitcoin at 12:30 takes 40,120; the trade of 1 ethereum for 0.001 bitcoin is worth 40.12.
 * A Coinbase v4 buy of 2 ethereum at €50 (fee €1) that day is converted as written: 55, fee 1.1. */
void test_engine_import_pending_rows_filled_and_euros_converted(void) {
    long long now = (long long)time(NULL), day = 86400000LL;
    long long buy_time = (now / 86400 - 6) * day + 30 * 60000LL, later = (now / 86400 - 4) * day + 12 * 3600000LL + 30 * 60000LL;
    char koinly[1024], coinbase[512], *out = NULL, *err = NULL;
    json_t *answer;
    const char *database;
    cf_engine *engine;
    static const char *const pending[] = {"buy ethereum 1 @pending fee 2", "income bitcoin 0.001 @pending staking",
                                          "sell ethereum 1 @pending", "buy bitcoin 0.001 @pending", NULL};
    static const char *const filled[] = {"buy ethereum 1 @110 fee 2.2", "income bitcoin 0.001 @40120 staking",
                                         "sell ethereum 1 @40.12", "buy bitcoin 0.001 @40120", NULL};
    static const char *const converted[] = {"buy ethereum 1 @110 fee 2.2", "buy ethereum 2 @55 fee 1.1",
                                            "income bitcoin 0.001 @40120 staking", "sell ethereum 1 @40.12",
                                            "buy bitcoin 0.001 @40120", NULL};
    REQUIRE_SERVER();
    server_reset();
    database = tf_private_database("import-fill.sqlite");
    if (database == NULL)
        return;
    engine = open_engine(json_pack("{s:s, s:s, s:o}", "database", database, "owner", "importer", "api", api_config(0, 5000)));
    if (engine == NULL)
        return;
    snprintf(koinly, sizeof koinly,
             "Date (UTC),Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,"
             "Net Worth Currency,Label,Description,TxHash\n%s,100,EUR,1,ETH,2,EUR,,,,,\n",
             file_time(buy_time));
    snprintf(koinly + strlen(koinly), sizeof koinly - strlen(koinly), "%s,,,0.001,BTC,,,,,staking,,\n", file_time(later));
    snprintf(koinly + strlen(koinly), sizeof koinly - strlen(koinly), "%s,1,ETH,0.001,BTC,,,,,,,\n", file_time(later));
    answer = import_ok(engine, "{}", koinly, __LINE__);
    CHECK_DOUBLE(json_num(answer, "imported"), 4, 0);
    CHECK_DOUBLE(json_num(answer, "pending_prices"), 4, 0);
    json_decref(answer);
    check_rows(engine, "main", pending, __LINE__);

    if (CHECK_STATUS(cf_engine_fill_prices(engine, NULL, &out, &err), CF_OK, err)) {
        answer = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(answer, "filled"), 4, 0);
        CHECK_DOUBLE(json_num(answer, "requests"), 3, 0);
        CHECK(json_array_size(json_object_get(answer, "missing")) == 0);
        json_decref(answer);
    }
    free_out(out);
    free_out(err);
    check_rows(engine, "main", filled, __LINE__);

    snprintf(coinbase, sizeof coinbase,
             "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,"
             "Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n"
             "cb-eur-1,%s,Buy,ETH,2,EUR,€50.00,€100.00,€101.00,€1.00,Bought 2 ETH\n",
             file_time(buy_time));
    answer = import_ok(engine, "{\"format\":\"coinbase\"}", coinbase, __LINE__);
    CHECK_DOUBLE(json_num(answer, "imported"), 1, 0);
    CHECK_DOUBLE(json_num(answer, "pending_prices"), 0, 0);
    json_decref(answer);
    check_rows(engine, "main", converted, __LINE__);
    CHECK_INT(server_endpoint_count("market_chart_range"), 3);
    cf_engine_close(engine);
}
