/*
 * test_support.h — what the C tests of Coinfolio share, on top of cmocka.
 *
 * Each test is a function `void test_xxx(void)`, declared in tests.h and registered with one
 * line `TEST(test_xxx),` in the cmocka test array of test_coinfolio.c; cmocka runs them, picks
 * them by name and prints its standard summary. Inside a test, the CHECK-style macros below are
 * non-fatal (a test goes on after a failed check, like the suite always has): each failure is
 * printed with its file and line, and a test with any failed check is reported FAILED to cmocka.
 * cmocka's own assert_* macros stop a test with a longjmp and are not used here (they would not
 * cross the fork that runs each test in its own process). TF_SKIP marks a test skipped.
 *
 * Helpers cover what the tests need around the ABI: parsing every JSON output with jansson,
 * validating error objects, reading fixture files, a temporary folder, and the loopback
 * CoinGecko server (Tests/server/coingecko_server.py) with a raw-socket HTTP helper.
 */
#ifndef COINFOLIO_TEST_SUPPORT_H
#define COINFOLIO_TEST_SUPPORT_H

#include <stddef.h>

#include <jansson.h>

#include "coinfolio.h"

/* ------------------------------------------------------------------ counting checks */

extern int tf_passed;
extern int tf_failed;
extern const char *tf_current_test;

/* Records one check; prints a failure line. Returns cond (so callers can bail out early). */
int tf_check(int cond, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define CHECK(cond) tf_check((cond) ? 1 : 0, __FILE__, __LINE__, "%s", #cond)

/* Checks with the values printed on failure. */
#define CHECK_INT(actual, expected)                                                            \
    do {                                                                                       \
        long long tf_a_ = (long long)(actual), tf_e_ = (long long)(expected);                 \
        tf_check(tf_a_ == tf_e_, __FILE__, __LINE__, "%s == %s (actual %lld, expected %lld)", \
                 #actual, #expected, tf_a_, tf_e_);                                            \
    } while (0)

#define CHECK_STR(actual, expected)                                                            \
    tf_check_str((actual), (expected), __FILE__, __LINE__, #actual)
int tf_check_str(const char *actual, const char *expected, const char *file, int line,
                 const char *expr);

#define CHECK_DOUBLE(actual, expected, tolerance)                                              \
    tf_check_double((actual), (expected), (tolerance), __FILE__, __LINE__, #actual)
int tf_check_double(double actual, double expected, double tolerance, const char *file,
                    int line, const char *expr);

/* A status check that prints the error JSON when the status is not the expected one. */
#define CHECK_STATUS(status, expected, err)                                                    \
    tf_check_status((status), (expected), &(err), __FILE__, __LINE__, #status)
/* err_ptr is read after the call (argument evaluation order is unspecified in C). */
int tf_check_status(int status, int expected, char *const *err_ptr, const char *file, int line,
                    const char *expr);

/* ------------------------------------------------------------------ JSON helpers */

/* The "code" string of a status, e.g. "invalid_argument". */
const char *status_code_name(int status);

/* Parses a library output string (may be NULL: returns NULL and records a failure).
 * Numbers that do not fit an integer are read as reals. Caller json_decref()s. */
#define PARSE_JSON(text) tf_parse_json((text), __FILE__, __LINE__)
json_t *tf_parse_json(const char *text, const char *file, int line);

/* Checks that err is a valid error object for `status`: it parses, and has status (that
 * number), code (its name), a non-empty message and a details object. Returns the parsed
 * object (caller json_decref()s) or NULL. */
#define CHECK_ERROR_JSON(err, status) tf_check_error_json((err), (status), __FILE__, __LINE__)
json_t *tf_check_error_json(const char *err, int status, const char *file, int line);

/* Fetches obj[key] as a double; NAN when absent, null or not a number. */
double json_num(const json_t *obj, const char *key);
/* obj[key] as a string, or NULL. */
const char *json_str(const json_t *obj, const char *key);
/* Parses text into a new JSON value (flags: reals for big integers, any top-level value);
 * skips a UTF-8 byte order mark. NULL when it does not parse. */
json_t *json_parse_raw(const char *text, size_t length);

/* A non-NULL pointer that the library must overwrite with NULL on entry. */
extern char tf_sentinel_storage;
#define SENTINEL (&tf_sentinel_storage)
/* cf_string_free() unless s is NULL or the sentinel. */
void free_out(char *s);

/* ------------------------------------------------------------------ files and folders */

/* The repository root given on the command line (absolute). */
extern char tf_repo_root[4096];
/* A private temporary folder for this run (absolute). */
extern char tf_temp_dir[4096];

/* Reads a whole file into a NUL-terminated malloc()ed buffer; NULL if it cannot. */
char *read_file(const char *path, size_t *out_length);
/* snprintf into a static rotating buffer: handy for paths. */
const char *fmt_path(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* A fresh file path inside tf_temp_dir (not created), unique per call. */
const char *temp_path(const char *stem);

/* ------------------------------------------------------------------ database backends */

/* The store and engine tests run twice: on SQLite (temporary files), and in the PostgreSQL pass
 * (environment COINFOLIO_TEST_BACKEND=postgres) on the cluster `make test` starts
 * (COINFOLIO_TEST_POSTGRES_URL). 1 in the PostgreSQL pass. */
int tf_postgres_pass(void);
/* The cluster's URL; NULL (and a recorded failure: a backend is never skipped) without one. */
const char *tf_postgres_url(void);
/* In the PostgreSQL pass, rewrites config's "database" (a temporary path or ":memory:") into the
 * cluster's URL and an "owner" of the test's own (the path's name; a fresh one for ":memory:"),
 * unless the config already names an owner. Does nothing on SQLite. The first time a test places
 * a database (here or in tf_shared_database), the cluster's database is emptied: market data is
 * shared by every owner (SPEC §20). */
void tf_place_database(json_t *config);
/* A database two owners can share: the cluster's URL in the PostgreSQL pass, else a fresh
 * temporary path. */
const char *tf_shared_database(const char *stem);
/* An engine opened on `database` as given (a path or ":memory:", never moved to the PostgreSQL
 * cluster); NULL after a recorded failure; the caller closes it. */
cf_engine *tf_open_engine(const char *database);
/* An engine on a database of its own: a fresh temporary SQLite file named after stem, or in the
 * PostgreSQL pass the cluster with an owner of its own. NULL after a recorded failure; the caller
 * closes it. */
cf_engine *tf_engine_of_its_own(const char *stem);
/* Every transaction of every portfolio as CSV (cf_engine_export_csv with {"portfolio":null}):
 * what "the ledger unchanged" compares. Freed with free_out; NULL after a recorded failure. */
char *tf_ledger_text(cf_engine *engine);
/* A database no other test reaches, even through what every owner shares (price points): in the
 * PostgreSQL pass a new database created on the cluster (CREATE DATABASE through libpq; the
 * cluster goes at the end of the run), else a fresh temporary path. NULL (and a recorded
 * failure) when it cannot be created. */
const char *tf_private_database(const char *stem);

/* ------------------------------------------------------------------ loopback server */

/* The port of the loopback CoinGecko server, 0 when it is not running. */
extern int tf_server_port;

/* Starts/stops the server of Tests/server (the runner does this once). */
int server_start(void);
void server_stop(void);

/* "http://127.0.0.1:<port>/api/v3" of the running server. */
const char *server_base_url(void);

/* Raw HTTP/1.1 over a socket to 127.0.0.1:port. Returns the status (or -1) and, when
 * out_body is not NULL, a malloc()ed body. */
int http_request(int port, const char *method, const char *path, const char *body,
                 char **out_body);

/* Control routes. Each returns 1 on success and records a failure otherwise. */
int server_reset(void);
int server_fault(json_t *spec); /* steals the reference */
int server_route(json_t *spec); /* steals the reference */
/* Stamps answers with the current time (last_updated, updated_at) until reset, as the live
 * API's are: a snapshot refreshed from it is not stale. */
int server_live(void);
/* The request log ({"requests":[…]}); caller json_decref()s. */
json_t *server_log(void);
/* The number of logged requests whose path equals `path`. */
int server_count(json_t *log, const char *path);
/* Requests since the last reset to one endpoint ("market_chart_range", "markets", …; the
 * server's GET /__control/counts); -1 (and a recorded failure) when the server does not answer. */
int server_endpoint_count(const char *endpoint);

/* A TCP port on 127.0.0.1 that nothing listens on (connection refused), held bound by this process
 * so that nothing else can take it while it runs. */
int refused_port(void);

/* Returns 1 when the server is running; otherwise records a failure and returns 0. */
#define REQUIRE_SERVER()                                                                       \
    do {                                                                                       \
        if (!tf_check(tf_server_port > 0, __FILE__, __LINE__,                                  \
                      "the loopback CoinGecko server is running"))                             \
            return;                                                                            \
    } while (0)

/* Reports the current test as skipped (cmocka's SKIPPED) with the reason printed; the test
 * should return after it. A failed check in the same test still fails it. */
#define TF_SKIP(reason) tf_skip(reason)
void tf_skip(const char *reason);

/* ------------------------------------------------------------------ registration and runner */

/* One test: its name and its function. */
typedef struct {
    const char *name;
    void (*fn)(void);
} tf_test;

/* The cmocka test function behind every TEST: runs the tf_test that is its state. Each test runs
 * in a forked child (a crash or a hang in the library fails that test, and the next test still
 * runs; CF_TEST_TIMEOUT_S, default 180 s); CF_TEST_NO_FORK=1 runs them in-process (for a
 * debugger, and for LeakSanitizer to see the whole run). */
void tf_run_test(void **state);

/* A `struct CMUnitTest` (cmocka.h) for `void function(void)`, named after it:
 *     static const struct CMUnitTest tests[] = { TEST(test_xxx), … };  */
#define TEST(function)                                                                         \
    {                                                                                          \
        .name = #function, .test_func = tf_run_test,                                           \
        .initial_state = &(tf_test){#function, function},                                      \
    }

/* Reads the command line: argv[1] is the repository root, further arguments pick the tests whose
 * name contains any of them. Returns 0 on success; prints the usage and returns 2 otherwise. */
int tf_parse_arguments(int argc, char **argv);
/* 1 when the command line picks the test of this name. */
int tf_selected(const char *name);
/* cmocka group setup and teardown: the temporary folder and the loopback server; the teardown
 * prints how many checks passed and failed. */
int tf_group_setup(void **state);
int tf_group_teardown(void **state);

#endif /* COINFOLIO_TEST_SUPPORT_H */
