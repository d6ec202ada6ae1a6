/* test_format.c — the formatting table of SPEC §3 and the header, through the C ABI. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* Checks one formatted string and frees it. */
#define EXPECT_FORMAT(call, expected)                                                          \
    do {                                                                                       \
        char *tf_s_ = (call);                                                                  \
        tf_check_str(tf_s_, (expected), __FILE__, __LINE__, #call);                            \
        cf_string_free(tf_s_);                                                                 \
    } while (0)

void test_library_version(void) {
    const char *version = cf_version();
    CHECK_INT(cf_abi_version(), CF_ABI_VERSION);
    CHECK(version != NULL);
    CHECK(version != NULL && version[0] != '\0');
    CHECK(version == cf_version()); /* static storage */
}

void test_string_free_and_close_accept_null(void) {
    cf_string_free(NULL);
    cf_store_close(NULL);
    cf_client_close(NULL);
    cf_engine_close(NULL);
    CHECK(1); /* reaching this line is the test */
}

void test_format_currency_two_decimals(void) {
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "usd"), "$1,234.56");
    EXPECT_FORMAT(cf_format_currency(-1234.5, 2, 2, "usd"), "-$1,234.50");
    EXPECT_FORMAT(cf_format_currency(1234567.891, 2, 2, "usd"), "$1,234,567.89");
    EXPECT_FORMAT(cf_format_currency(0, 2, 2, "usd"), "$0.00");
    EXPECT_FORMAT(cf_format_currency(1e20, 2, 2, "usd"), "$100,000,000,000,000,000,000.00");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, NULL), "$1,234.56"); /* NULL means usd */
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "USD"), "$1,234.56"); /* case-insensitive */
}

void test_format_currency_two_to_six_decimals(void) {
    EXPECT_FORMAT(cf_format_currency(12.3456, 2, 6, "usd"), "$12.3456");
    EXPECT_FORMAT(cf_format_currency(0.123456, 2, 6, "usd"), "$0.123456");
    EXPECT_FORMAT(cf_format_currency(1.5, 2, 6, "usd"), "$1.50");
    EXPECT_FORMAT(cf_format_currency(0.1234567, 2, 6, "usd"), "$0.123457");
    EXPECT_FORMAT(cf_format_currency(1234.5, 0, 0, "usd"), "$1,234"); /* half to even */
    EXPECT_FORMAT(cf_format_currency(1235.5, 0, 0, "usd"), "$1,236");
}

void test_format_currency_symbols(void) {
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "eur"), "€1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "gbp"), "£1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "jpy"), "¥1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "btc"), "₿1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "eth"), "Ξ1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "chf"), "CHF 1,234.56");
    EXPECT_FORMAT(cf_format_currency(1234.56, 2, 2, "CHF"), "CHF 1,234.56");
    EXPECT_FORMAT(cf_format_price(57000.123, "chf"), "CHF 57,000.123");
}

void test_format_price(void) {
    EXPECT_FORMAT(cf_format_price(57000.123, "usd"), "$57,000.123");
    EXPECT_FORMAT(cf_format_price(8.12e-06, "usd"), "$0.00000812");
    EXPECT_FORMAT(cf_format_price(2.096e-09, "usd"), "$0.000000002096");
    EXPECT_FORMAT(cf_format_price(0.000123456, "usd"), "$0.0001235");
    EXPECT_FORMAT(cf_format_price(1.5, "usd"), "$1.50");
    EXPECT_FORMAT(cf_format_price(0, "usd"), "$0.00");
    EXPECT_FORMAT(cf_format_price(-8.12e-06, "usd"), "-$0.00000812");
    EXPECT_FORMAT(cf_format_price(1.186e-09, NULL), "$0.000000001186");
}

void test_format_number_and_percent(void) {
    EXPECT_FORMAT(cf_format_number(1.2345), "1.23");
    EXPECT_FORMAT(cf_format_number(1234567.891), "1234567.89"); /* no grouping */
    EXPECT_FORMAT(cf_format_number(0.125), "0.12");             /* half to even */
    EXPECT_FORMAT(cf_format_number(0.375), "0.38");
    EXPECT_FORMAT(cf_format_number(2.675), "2.68"); /* on the shortest decimal form "2.675" */
    EXPECT_FORMAT(cf_format_percent(1.2345), "1.23%");
    EXPECT_FORMAT(cf_format_percent(-0.001), "0.00%");
    EXPECT_FORMAT(cf_format_percent(-12.5), "-12.50%");
}

void test_format_abbreviated(void) {
    EXPECT_FORMAT(cf_format_abbreviated(1234), "1.23K");
    EXPECT_FORMAT(cf_format_abbreviated(123456), "123.46K");
    EXPECT_FORMAT(cf_format_abbreviated(1234567890), "1.23Bn");
    EXPECT_FORMAT(cf_format_abbreviated(-1234), "-1.23K");
    EXPECT_FORMAT(cf_format_abbreviated(12), "12.00");
    EXPECT_FORMAT(cf_format_abbreviated(999999), "1.00M");
    EXPECT_FORMAT(cf_format_abbreviated(999.999), "1.00K");
    EXPECT_FORMAT(cf_format_abbreviated(999999999), "1.00Bn");
    EXPECT_FORMAT(cf_format_abbreviated(2.58e12), "2.58Tr");
    EXPECT_FORMAT(cf_format_abbreviated(342e9), "342.00Bn");
    EXPECT_FORMAT(cf_format_abbreviated(1.5e15), "1500.00Tr");
}

void test_format_non_finite_is_na(void) {
    const double values[] = {NAN, INFINITY, -INFINITY};
    size_t i;
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        double v = values[i];
        EXPECT_FORMAT(cf_format_currency(v, 2, 2, "usd"), "n/a");
        EXPECT_FORMAT(cf_format_currency(v, 2, 6, "eur"), "n/a");
        EXPECT_FORMAT(cf_format_price(v, "usd"), "n/a");
        EXPECT_FORMAT(cf_format_number(v), "n/a");
        EXPECT_FORMAT(cf_format_percent(v), "n/a");
        EXPECT_FORMAT(cf_format_abbreviated(v), "n/a");
    }
}

void test_format_negative_zero_prints_zero(void) {
    EXPECT_FORMAT(cf_format_currency(-0.0, 2, 2, "usd"), "$0.00");
    EXPECT_FORMAT(cf_format_currency(-0.001, 2, 2, "usd"), "$0.00");
    EXPECT_FORMAT(cf_format_price(-0.0, "usd"), "$0.00");
    EXPECT_FORMAT(cf_format_number(-0.0), "0.00");
    EXPECT_FORMAT(cf_format_number(-0.001), "0.00");
    EXPECT_FORMAT(cf_format_percent(-0.0), "0.00%");
    EXPECT_FORMAT(cf_format_abbreviated(-0.0), "0.00");
    EXPECT_FORMAT(cf_format_abbreviated(-0.004), "0.00");
}

void test_format_invalid_arguments_return_null(void) {
    CHECK(cf_format_currency(1, 3, 2, "usd") == NULL);  /* min > max */
    CHECK(cf_format_currency(1, -1, 2, "usd") == NULL); /* negative */
    CHECK(cf_format_currency(1, 2, 19, "usd") == NULL); /* beyond 18 */
    CHECK(cf_format_currency(1, 2, 2, "") == NULL);
    CHECK(cf_format_currency(1, 2, 2, "us d") == NULL);
    CHECK(cf_format_currency(1, 2, 2, "u$d") == NULL);
    CHECK(cf_format_currency(1, 2, 2, "\xff\xfe") == NULL);
    CHECK(cf_format_currency(1, 2, 2, "abcdefghijklmnopq") == NULL); /* 17 characters */
    CHECK(cf_format_price(1, "") == NULL);
    CHECK(cf_format_price(1, "\xff") == NULL);
    {
        char *s = cf_format_currency(1, 0, 18, "abcdefghijklmnop"); /* 16 is fine */
        CHECK_STR(s, "ABCDEFGHIJKLMNOP 1");
        cf_string_free(s);
    }
}
