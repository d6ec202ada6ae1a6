/* test_support.c — the cmocka runner glue, non-fatal checks, JSON helpers, temp folder and
 * loopback server for the C tests. */
#define _GNU_SOURCE
#include "test_support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

#include <libpq-fe.h>
#include <unistd.h>

#include <libpq-fe.h>

#include <setjmp.h> /* cmocka.h needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* ------------------------------------------------------------------ counting checks */

int tf_passed;
int tf_failed;
const char *tf_current_test = "?";

/* What a test did, in shared memory so that a test child that crashes still reports it. */
typedef struct {
    int passed;
    int failed;
    int skipped;
    char first_file[256]; /* where the first failed check of the test is */
    int first_line;
} tf_counts;
static tf_counts *tf_shared;
static tf_counts tf_local; /* when shared memory is not available */
static int tf_printed_in_test;
#define TF_MAX_PRINTED_PER_TEST 40

static tf_counts *tf_counts_of_test(void) { return tf_shared ? tf_shared : &tf_local; }

int tf_check(int cond, const char *file, int line, const char *fmt, ...) {
    tf_counts *counts = tf_counts_of_test();
    if (cond) {
        tf_passed++;
        counts->passed++;
        return cond;
    }
    tf_failed++;
    if (counts->failed++ == 0) {
        snprintf(counts->first_file, sizeof counts->first_file, "%s", file);
        counts->first_line = line;
    }
    fflush(stdout);
    if (++tf_printed_in_test <= TF_MAX_PRINTED_PER_TEST) {
        char message[2048];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, sizeof message, fmt, ap);
        va_end(ap);
        print_error("%s:%d: error: %s\n", file, line, message);
    } else if (tf_printed_in_test == TF_MAX_PRINTED_PER_TEST + 1) {
        print_error("%s: further failures of this test are counted, not printed\n",
                    tf_current_test);
    }
    return cond;
}

void tf_skip(const char *reason) {
    tf_counts_of_test()->skipped = 1;
    print_message("skip: %s\n", reason);
}

int tf_check_str(const char *actual, const char *expected, const char *file, int line,
                 const char *expr) {
    int ok = (actual == NULL && expected == NULL) ||
             (actual != NULL && expected != NULL && strcmp(actual, expected) == 0);
    return tf_check(ok, file, line, "%s == \"%s\" (actual %s%s%s)", expr,
                    expected ? expected : "(null)", actual ? "\"" : "",
                    actual ? actual : "NULL", actual ? "\"" : "");
}

int tf_check_double(double actual, double expected, double tolerance, const char *file,
                    int line, const char *expr) {
    int ok = (isnan(actual) && isnan(expected)) || fabs(actual - expected) <= tolerance ||
             actual == expected;
    return tf_check(ok, file, line, "%s == %.17g ± %g (actual %.17g)", expr, expected,
                    tolerance, actual);
}

int tf_check_status(int status, int expected, char *const *err_ptr, const char *file, int line,
                    const char *expr) {
    const char *err = err_ptr ? *err_ptr : NULL;
    return tf_check(status == expected, file, line, "%s == %d %s (actual %d %s; error %s)", expr,
                    expected, status_code_name(expected), status, status_code_name(status),
                    (err && err != SENTINEL) ? err : "none");
}

/* ------------------------------------------------------------------ JSON helpers */

char tf_sentinel_storage;

void free_out(char *s) {
    if (s != NULL && s != SENTINEL)
        cf_string_free(s);
}

const char *status_code_name(int status) {
    switch (status) {
    case CF_OK: return "ok";
    case CF_INVALID_ARGUMENT: return "invalid_argument";
    case CF_NOT_FOUND: return "not_found";
    case CF_NETWORK: return "network";
    case CF_HTTP: return "http";
    case CF_RATE_LIMITED: return "rate_limited";
    case CF_UNAUTHORIZED: return "unauthorized";
    case CF_DECODE: return "decode";
    case CF_STORE: return "store";
    case CF_NO_DATA: return "no_data";
    case CF_INTERNAL: return "internal";
    default: return "unknown";
    }
}

json_t *json_parse_raw(const char *text, size_t length) {
    json_error_t error;
    if (text == NULL)
        return NULL;
    if (length >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF) {
        text += 3;
        length -= 3;
    }
    return json_loadb(text, length, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL, &error);
}

json_t *tf_parse_json(const char *text, const char *file, int line) {
    json_error_t error;
    json_t *value;
    if (!tf_check(text != NULL && text != SENTINEL, file, line, "an output string is returned"))
        return NULL;
    value = json_loads(text, JSON_DECODE_INT_AS_REAL, &error);
    if (!tf_check(value != NULL, file, line, "output parses as a JSON object: %s (%.200s)",
                  error.text, text))
        return NULL;
    return value;
}

json_t *tf_check_error_json(const char *err, int status, const char *file, int line) {
    json_t *value, *details;
    const char *code, *message;
    if (!tf_check(err != NULL && err != SENTINEL, file, line,
                  "an error object is returned for status %d", status))
        return NULL;
    value = tf_parse_json(err, file, line);
    if (value == NULL)
        return NULL;
    code = json_str(value, "code");
    message = json_str(value, "message");
    details = json_object_get(value, "details");
    tf_check(json_is_number(json_object_get(value, "status")) &&
                 json_num(value, "status") == status,
             file, line, "error.status == %d (%s)", status, err);
    tf_check(code != NULL && strcmp(code, status_code_name(status)) == 0, file, line,
             "error.code == \"%s\" (%s)", status_code_name(status), err);
    tf_check(message != NULL && message[0] != '\0', file, line, "error.message non-empty (%s)",
             err);
    tf_check(json_is_object(details), file, line, "error.details is an object (%s)", err);
    return value;
}

double json_num(const json_t *obj, const char *key) {
    json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *json_str(const json_t *obj, const char *key) {
    return json_string_value(json_object_get(obj, key));
}

/* ------------------------------------------------------------------ files and folders */

char tf_repo_root[4096];
char tf_temp_dir[4096];

char *read_file(const char *path, size_t *out_length) {
    FILE *f = fopen(path, "rb");
    char *buffer = NULL;
    size_t length = 0, capacity = 0;
    if (f == NULL)
        return NULL;
    for (;;) {
        size_t n;
        if (capacity - length < 65536) {
            char *grown;
            capacity = capacity ? capacity * 2 : 131072;
            grown = realloc(buffer, capacity + 1);
            if (grown == NULL) {
                free(buffer);
                fclose(f);
                return NULL;
            }
            buffer = grown;
        }
        n = fread(buffer + length, 1, capacity - length, f);
        length += n;
        if (n == 0)
            break;
    }
    fclose(f);
    buffer[length] = '\0';
    if (out_length)
        *out_length = length;
    return buffer;
}

const char *fmt_path(const char *fmt, ...) {
    static char buffers[8][4096];
    static int next;
    char *buffer = buffers[next++ % 8];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buffer, sizeof buffers[0], fmt, ap);
    va_end(ap);
    return buffer;
}

const char *temp_path(const char *stem) {
    static int counter;
    return fmt_path("%s/%s-%d-%d", tf_temp_dir, stem, (int)getpid(), ++counter);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* ------------------------------------------------------------------ database backends */

int tf_postgres_pass(void) {
    const char *backend = getenv("COINFOLIO_TEST_BACKEND");
    return backend != NULL && strcmp(backend, "postgres") == 0;
}

const char *tf_postgres_url(void) {
    const char *url = getenv("COINFOLIO_TEST_POSTGRES_URL");
    if (!tf_check(url != NULL && url[0] != '\0', __FILE__, __LINE__,
                  "COINFOLIO_TEST_POSTGRES_URL is set (run the suites through make test)"))
        return NULL;
    return url;
}

/* Market data is one per database, shared by every owner, and a refresh asks for every owner's
 * held coins (SPEC §20): in the PostgreSQL pass the cluster's database is emptied when a test
 * first places a database in it, so that no test sees an earlier test's snapshot, details or
 * holdings (the suite runs one test at a time). */
static void empty_database_once(const char *url) {
    static const char *emptied_for;
    PGconn *connection;
    PGresult *result;
    if (emptied_for == tf_current_test)
        return;
    emptied_for = tf_current_test;
    connection = PQconnectdb(url);
    if (tf_check(PQstatus(connection) == CONNECTION_OK, __FILE__, __LINE__, "connect to empty the test database")) {
        result = PQexec(connection,
                        "DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables "
                        "WHERE schemaname = current_schema() AND tablename <> 'coinfolio_schema' "
                        "LOOP EXECUTE format('DELETE FROM %I', t); END LOOP; END $$");
        tf_check(PQresultStatus(result) == PGRES_COMMAND_OK, __FILE__, __LINE__, "empty the test database: %s",
                 PQerrorMessage(connection));
        PQclear(result);
    }
    PQfinish(connection);
}

void tf_place_database(json_t *config) {
    static int counter;
    const char *path, *url;
    char owner[8300];
    if (!tf_postgres_pass() || config == NULL || json_object_get(config, "owner") != NULL)
        return;
    path = json_str(config, "database");
    url = tf_postgres_url();
    if (url == NULL)
        return;
    empty_database_once(url);
    /* The temporary folder's name is unique per run, so owners never collide across runs. */
    if (path == NULL || strcmp(path, ":memory:") == 0)
        snprintf(owner, sizeof owner, "%s/memory-%d-%d", tf_temp_dir, (int)getpid(), ++counter);
    else
        snprintf(owner, sizeof owner, "%s", path);
    json_object_set_new(config, "owner", json_string(owner));
    json_object_set_new(config, "database", json_string(url));
}

const char *tf_shared_database(const char *stem) {
    if (tf_postgres_pass()) {
        const char *url = tf_postgres_url();
        if (url != NULL)
            empty_database_once(url);
        return url ? url : "postgresql://missing-url@127.0.0.1:9/none";
    }
    return temp_path(stem);
}

/* An engine opened with `config` (released here); NULL after a recorded failure. */
static cf_engine *open_engine(json_t *config) {
    cf_engine *engine = NULL;
    char *err = NULL, *text = json_dumps(config, JSON_COMPACT);
    json_decref(config);
    if (!CHECK_STATUS(cf_engine_open(text, &engine, &err), CF_OK, err))
        engine = NULL;
    free_out(err);
    free(text);
    return engine;
}

cf_engine *tf_open_engine(const char *database) {
    return open_engine(json_pack("{s:s}", "database", database));
}

cf_engine *tf_engine_of_its_own(const char *stem) {
    json_t *config = json_pack("{s:s}", "database", temp_path(stem));
    tf_place_database(config);
    return open_engine(config);
}

char *tf_ledger_text(cf_engine *engine) {
    char *csv = NULL, *err = NULL;
    if (!CHECK_STATUS(cf_engine_export_csv(engine, "{\"portfolio\":null}", &csv, &err), CF_OK, err)) {
        free_out(err);
        return NULL;
    }
    return csv;
}

const char *tf_private_database(const char *stem) {
    static int counter;
    const char *url, *slash;
    char name[96], statement[160];
    PGconn *admin;
    PGresult *result;
    int created;
    if (!tf_postgres_pass())
        return temp_path(stem);
    url = tf_postgres_url();
    if (url == NULL || (slash = strrchr(url, '/')) == NULL)
        return NULL;
    snprintf(name, sizeof name, "cf_c_%d_%d_%ld", (int)getpid(), ++counter, (long)time(NULL));
    snprintf(statement, sizeof statement, "CREATE DATABASE %s", name);
    admin = PQconnectdb(url);
    result = PQexec(admin, statement);
    created = PQresultStatus(result) == PGRES_COMMAND_OK;
    tf_check(created, __FILE__, __LINE__, "CREATE DATABASE %s: %s", name, PQerrorMessage(admin));
    PQclear(result);
    PQfinish(admin);
    return created ? fmt_path("%.*s/%s", (int)(slash - url), url, name) : NULL;
}

/* ------------------------------------------------------------------ loopback server */

int tf_server_port;
static pid_t server_pid;
static int server_stdin = -1;

const char *server_base_url(void) {
    return fmt_path("http://127.0.0.1:%d/api/v3", tf_server_port);
}

int server_start(void) {
    const char *script = fmt_path("%s/Tests/server/coingecko_server.py", tf_repo_root);
    const char *fixtures = fmt_path("%s/Tests/fixtures/coingecko", tf_repo_root);
    int to_server[2], from_server[2];
    char line[128];
    size_t used = 0;
    pid_t pid;

    if (access(script, R_OK) != 0) {
        printf("note: %s is missing; network tests will fail\n", script);
        return 0;
    }
    if (pipe(to_server) != 0 || pipe(from_server) != 0)
        return 0;
    pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int null_fd = open("/dev/null", O_WRONLY);
        dup2(to_server[0], 0);
        dup2(from_server[1], 1);
        if (getenv("CF_TEST_SERVER_STDERR") == NULL && null_fd >= 0)
            dup2(null_fd, 2);
        close(to_server[0]);
        close(to_server[1]);
        close(from_server[0]);
        close(from_server[1]);
        execlp("python3", "python3", script, "--port", "0", "--fixtures", fixtures,
               "--exit-on-stdin-eof", (char *)NULL);
        _exit(127);
    }
    close(to_server[0]);
    close(from_server[1]);
    fcntl(to_server[1], F_SETFD, FD_CLOEXEC);
    server_pid = pid;
    server_stdin = to_server[1];

    /* Read the single line PORT=<n> (60 s at most: on a loaded machine Python alone may take over 10 s to start). */
    while (used < sizeof line - 1) {
        struct pollfd pfd = {from_server[0], POLLIN, 0};
        ssize_t n;
        if (poll(&pfd, 1, 60000) <= 0)
            break;
        n = read(from_server[0], line + used, 1);
        if (n <= 0)
            break;
        if (line[used] == '\n')
            break;
        used += (size_t)n;
    }
    line[used] = '\0';
    close(from_server[0]);
    if (sscanf(line, "PORT=%d", &tf_server_port) != 1 || tf_server_port <= 0) {
        printf("note: the loopback server did not start (read \"%s\")\n", line);
        tf_server_port = 0;
        server_stop();
        return 0;
    }
    return 1;
}

void server_stop(void) {
    int i, status;
    if (server_stdin >= 0) {
        close(server_stdin); /* --exit-on-stdin-eof: the server exits */
        server_stdin = -1;
    }
    if (server_pid <= 0)
        return;
    for (i = 0; i < 50; i++) {
        if (waitpid(server_pid, &status, WNOHANG) == server_pid) {
            server_pid = 0;
            return;
        }
        usleep(100000);
    }
    kill(server_pid, SIGTERM);
    waitpid(server_pid, &status, 0);
    server_pid = 0;
}

int http_request(int port, const char *method, const char *path, const char *body,
                 char **out_body) {
    struct sockaddr_in addr;
    struct timeval tv = {30, 0};
    size_t body_length = body ? strlen(body) : 0;
    char header[1024];
    char *response = NULL, *split;
    size_t length = 0, capacity = 0;
    int fd, status = -1, header_length;

    if (out_body)
        *out_body = NULL;
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    header_length = snprintf(header, sizeof header,
                             "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
                             "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                             method, path, port, body_length);
    if (send(fd, header, (size_t)header_length, MSG_NOSIGNAL) != header_length ||
        (body_length > 0 && send(fd, body, body_length, MSG_NOSIGNAL) != (ssize_t)body_length)) {
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t n;
        if (capacity - length < 4096) {
            char *grown;
            capacity = capacity ? capacity * 2 : 16384;
            grown = realloc(response, capacity + 1);
            if (grown == NULL)
                break;
            response = grown;
        }
        n = recv(fd, response + length, capacity - length, 0);
        if (n <= 0)
            break;
        length += (size_t)n;
    }
    close(fd);
    if (response == NULL)
        return -1;
    response[length] = '\0';
    if (sscanf(response, "HTTP/1.%*d %d", &status) != 1)
        status = -1;
    split = strstr(response, "\r\n\r\n");
    if (out_body && split)
        *out_body = strdup(split + 4);
    free(response);
    return status;
}

static int control_post(const char *route, json_t *spec) {
    char *text = spec ? json_dumps(spec, JSON_COMPACT) : NULL;
    int status = http_request(tf_server_port, "POST", route, text, NULL);
    free(text);
    json_decref(spec);
    return tf_check(status == 200, __FILE__, __LINE__, "control POST %s answers 200 (got %d)",
                    route, status);
}

int server_reset(void) { return control_post("/__control/reset", NULL); }
int server_fault(json_t *spec) { return control_post("/__control/fault", spec); }
int server_route(json_t *spec) { return control_post("/__control/route", spec); }
int server_live(void) { return control_post("/__control/live", json_pack("{s:b}", "live", 1)); }

json_t *server_log(void) {
    char *body = NULL;
    int status = http_request(tf_server_port, "GET", "/__control/log", NULL, &body);
    json_t *log = NULL;
    if (tf_check(status == 200 && body != NULL, __FILE__, __LINE__,
                 "GET /__control/log answers 200 (got %d)", status))
        log = json_loads(body, 0, NULL);
    free(body);
    tf_check(json_is_array(json_object_get(log, "requests")), __FILE__, __LINE__,
             "the server log has a requests array");
    return log;
}

int server_count(json_t *log, const char *path) {
    json_t *requests = json_object_get(log, "requests"), *entry;
    size_t i;
    int count = 0;
    json_array_foreach(requests, i, entry) {
        const char *p = json_str(entry, "path");
        if (p && strcmp(p, path) == 0)
            count++;
    }
    return count;
}

int server_endpoint_count(const char *endpoint) {
    char *body = NULL;
    int status = http_request(tf_server_port, "GET", "/__control/counts", NULL, &body);
    json_t *answer = NULL, *count;
    int result = -1;
    if (tf_check(status == 200 && body != NULL, __FILE__, __LINE__,
                 "GET /__control/counts answers 200 (got %d)", status))
        answer = json_loads(body, 0, NULL);
    free(body);
    if (tf_check(json_is_object(json_object_get(answer, "counts")), __FILE__, __LINE__,
                 "the server's counts are an object")) {
        count = json_object_get(json_object_get(answer, "counts"), endpoint);
        result = count ? (int)json_integer_value(count) : 0;
    }
    json_decref(answer);
    return result;
}

int refused_port(void) {
    /* The socket stays bound (never listening) until the process ends: closed, its port was free
     * for any other socket to take before the test connected (another suite's server, a helper's
     * ephemeral port), and the connection would not be refused. One per process. */
    static int held = -1, port = 1;
    struct sockaddr_in addr;
    socklen_t length = sizeof addr;
    int fd;
    if (held >= 0)
        return port;
    fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
        getsockname(fd, (struct sockaddr *)&addr, &length) == 0) {
        port = ntohs(addr.sin_port);
        held = fd; /* bound but never listened: nothing accepts on it, nothing else can bind it */
    } else if (fd >= 0) {
        close(fd);
    }
    return port;
}

/* ------------------------------------------------------------------ runner */

static int fork_tests = 1;

/* The signals cmocka turns into a longjmp during a test; a test child dies of them instead. */
static void default_crash_signals(void) {
    static const int crash_signals[] = {SIGFPE, SIGILL, SIGSEGV, SIGBUS, SIGSYS, SIGABRT};
    size_t i;
    for (i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        signal(crash_signals[i], SIG_DFL);
}

/* Runs the test in a child process; returns its wait status (or -1 when fork fails). */
static int run_in_child(const tf_test *test) {
    pid_t pid;
    int status;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        unsigned timeout = 180;
        const char *env = getenv("CF_TEST_TIMEOUT_S");
        if (env && atoi(env) > 0)
            timeout = (unsigned)atoi(env);
        default_crash_signals();
        alarm(timeout);
        test->fn();
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

void tf_run_test(void **state) {
    const tf_test *test = *state;
    tf_counts *counts = tf_counts_of_test();
    int status = 0;

    memset(counts, 0, sizeof *counts);
    tf_current_test = test->name;
    tf_printed_in_test = 0;
    if (fork_tests) {
        status = run_in_child(test);
        tf_passed += counts->passed; /* the child counted in its own copy of these */
        tf_failed += counts->failed;
    } else {
        test->fn();
    }
    if (status == -1)
        fail_msg("%s: fork failed", test->name);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        fail_msg("%s timed out (CF_TEST_TIMEOUT_S)", test->name);
    if (WIFSIGNALED(status))
        fail_msg("%s: the test process crashed (signal %d): a library crash is a defect",
                 test->name, WTERMSIG(status));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("%s: the test process exited with status %d", test->name,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (counts->failed > 0) {
        /* cmocka's failure, at the line of the first failed check */
        print_error("ERROR: %d of %d checks failed\n", counts->failed,
                    counts->passed + counts->failed);
        _fail(counts->first_file, counts->first_line);
    }
    if (counts->skipped)
        skip();
}

static int tf_argc;
static char **tf_argv;

int tf_parse_arguments(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2 || realpath(argv[1], tf_repo_root) == NULL) {
        fprintf(stderr, "usage: %s <repository root> [test name substring…]\n", argv[0]);
        return 2;
    }
    tf_argc = argc;
    tf_argv = argv;
    fork_tests = getenv("CF_TEST_NO_FORK") == NULL;
    return 0;
}

int tf_selected(const char *name) {
    int i;
    if (tf_argc <= 2)
        return 1;
    for (i = 2; i < tf_argc; i++)
        if (strstr(name, tf_argv[i]) != NULL)
            return 1;
    return 0;
}

int tf_group_setup(void **state) {
    char temp_template[] = "/tmp/coinfolio-ctest-XXXXXX";
    (void)state;
    if (mkdtemp(temp_template) == NULL) {
        print_error("cannot create a temporary folder\n");
        return -1;
    }
    snprintf(tf_temp_dir, sizeof tf_temp_dir, "%s", temp_template);
    signal(SIGPIPE, SIG_IGN);
    if (fork_tests) {
        tf_shared = mmap(NULL, sizeof *tf_shared, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (tf_shared == MAP_FAILED) {
            tf_shared = NULL;
            fork_tests = 0;
        }
    }
    server_start();
    return 0;
}

int tf_group_teardown(void **state) {
    (void)state;
    server_stop();
    if (getenv("CF_TEST_KEEP_TEMP") == NULL)
        nftw(tf_temp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    else
        print_message("temporary files kept in %s\n", tf_temp_dir);
    if (tf_shared != NULL)
        munmap(tf_shared, sizeof *tf_shared);
    tf_shared = NULL;
    print_message("checks: %d passed, %d failed\n", tf_passed, tf_failed);
    return 0;
}
