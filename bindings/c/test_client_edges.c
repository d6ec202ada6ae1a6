#define _POSIX_C_SOURCE 200809L
/* test_client_edges.c — issue 31's client findings through the C ABI: CoinGecko's error code in
 * each of its three shapes, precision=full, compression bombs, and no loopback request through a
 * proxy (a real recording proxy, Tests/server/recording_proxy.py). */
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"
#include "tests.h"

void test_client_error_code_in_every_shape(void) {
    static const char *shapes[] = {"status", "error.status", "top_level"};
    static const struct {
        int status, code, expected;
        const char *reason;
    } cases[] = {
        {400, 10011, CF_UNAUTHORIZED, NULL}, /* a demo key sent to the pro host */
        {400, 10010, CF_UNAUTHORIZED, NULL}, /* a pro key sent to the public host */
        {401, 10012, CF_UNAUTHORIZED, "history_limit"},
        {401, 10002, CF_UNAUTHORIZED, NULL},
        {400, 10099, CF_HTTP, NULL},
    };
    size_t s, i;
    REQUIRE_SERVER();
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            cf_client *client;
            char *out = SENTINEL, *err = SENTINEL, *reason;
            server_reset();
            server_fault(json_pack("{s:s, s:i, s:i, s:s, s:s}", "path", "/api/v3/global", "status", cases[i].status,
                                   "error_code", cases[i].code, "error_shape", shapes[s], "error_message", "said"));
            client = open_client(api_config(0, 5000));
            if (client == NULL)
                continue;
            tf_check(cf_client_global(client, &out, &err) == cases[i].expected, __FILE__, __LINE__,
                     "%s %d → status %d (%s)", shapes[s], cases[i].code, cases[i].expected, err ? err : "");
            CHECK_DOUBLE(detail_number(err, cases[i].expected, "error_code"), cases[i].code, 0);
            CHECK_DOUBLE(detail_number(err, cases[i].expected, "http_status"), cases[i].status, 0);
            reason = detail_string(err, cases[i].expected, "reason");
            if (cases[i].reason)
                CHECK_STR(reason, cases[i].reason);
            else
                tf_check(reason == NULL, __FILE__, __LINE__, "%s %d has no reason (got %s)", shapes[s], cases[i].code,
                         reason);
            free(reason);
            free_out(err);
            cf_client_close(client);
        }
    }
}

/* SPEC §17: /coins/markets and /simple/price ask for unrounded prices; 2.6e-13 BTC arrives whole. */
void test_client_asks_for_full_precision(void) {
    static const char *paths[] = {"/api/v3/coins/markets", "/api/v3/simple/price"};
    cf_client *client;
    char *out = SENTINEL, *err = SENTINEL;
    json_t *log;
    size_t i;
    REQUIRE_SERVER();
    server_reset();
    server_route(json_pack("{s:s, s:s}", "path", paths[0], "body",
                           "[{\"id\":\"shiba-inu\",\"symbol\":\"shib\",\"name\":\"Shiba Inu\",\"current_price\":2.6e-13}]"));
    server_route(json_pack("{s:s, s:s}", "path", paths[1], "body", "{\"shiba-inu\":{\"btc\":2.6e-13}}"));
    client = open_client(api_config(0, 5000));
    if (client == NULL)
        return;
    if (CHECK_STATUS(cf_client_markets(client, "{\"vs_currency\":\"btc\"}", &out, &err), CF_OK, err)) {
        json_t *answer = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(json_array_get(json_object_get(answer, "coins"), 0), "current_price"), 2.6e-13, 0);
        json_decref(answer);
        free_out(out);
    }
    out = SENTINEL;
    if (CHECK_STATUS(cf_client_simple_price(client, "{\"ids\":[\"shiba-inu\"],\"vs_currency\":\"btc\"}", &out, &err),
                     CF_OK, err)) {
        json_t *answer = PARSE_JSON(out);
        CHECK_DOUBLE(json_num(json_object_get(json_object_get(answer, "prices"), "shiba-inu"), "price"), 2.6e-13, 0);
        json_decref(answer);
        free_out(out);
    }
    log = server_log();
    for (i = 0; i < 2; i++) {
        json_t *request = logged_request(log, paths[i], 0);
        tf_check(request != NULL, __FILE__, __LINE__, "%s was requested", paths[i]);
        CHECK_STR(json_str(json_object_get(request, "query"), "precision"), "full");
    }
    json_decref(log);
    cf_client_close(client);
}

/* Finding 3: a gzip or deflate bomb is CF_HTTP body_too_large (its memory is measured by
 * Tests/probes/bounds.py in make stress), and the handle's next call works. */
void test_client_compression_bomb_is_body_too_large(void) {
    static const char *encodings[] = {"gzip", "deflate"};
    size_t i;
    REQUIRE_SERVER();
    for (i = 0; i < 2; i++) {
        json_t *config = api_config(0, 10000);
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL, *reason;
        server_reset();
        /* 256 MiB of padding from 260 KB on the wire; the client stops at 1 MiB. */
        server_fault(json_pack("{s:s, s:s, s:I, s:s}", "path", "/api/v3/global", "body", "{\"data\":{}}", "bomb_bytes",
                               (json_int_t)256 << 20, "encoding", encodings[i]));
        json_object_set_new(config, "max_body_bytes", json_integer(1 << 20));
        client = open_client(config);
        if (client == NULL)
            continue;
        CHECK_INT(cf_client_global(client, &out, &err), CF_HTTP);
        reason = detail_string(err, CF_HTTP, "reason");
        CHECK_STR(reason, "body_too_large");
        free(reason);
        free_out(err);
        out = err = SENTINEL;
        CHECK_STATUS(cf_client_global(client, &out, &err), CF_OK, err); /* the next call works */
        free_out(out);
        free_out(err);
        cf_client_close(client);
    }
}

/* Starts Tests/server/recording_proxy.py logging to `log`; its pid (0 when it did not start) and
 * its port in *port. */
static pid_t start_proxy(const char *log, int *port) {
    const char *script = fmt_path("%s/Tests/server/recording_proxy.py", tf_repo_root);
    int from_proxy[2];
    char line[64];
    size_t used = 0;
    pid_t pid;
    *port = 0;
    if (pipe(from_proxy) != 0)
        return 0;
    pid = fork();
    if (pid == 0) {
        dup2(from_proxy[1], 1);
        close(from_proxy[0]);
        close(from_proxy[1]);
        execlp("python3", "python3", script, "--log", log, (char *)NULL);
        _exit(127);
    }
    close(from_proxy[1]);
    while (pid > 0 && used < sizeof line - 1) {
        struct pollfd pfd = {from_proxy[0], POLLIN, 0};
        if (poll(&pfd, 1, 10000) <= 0 || read(from_proxy[0], line + used, 1) <= 0 || line[used] == '\n')
            break;
        used++;
    }
    line[used] = '\0';
    close(from_proxy[0]);
    if (pid > 0 && sscanf(line, "PORT=%d", port) != 1) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return 0;
    }
    return pid;
}

/* Finding 2: with http_proxy set, a keyed request to the loopback server is refused unsent
 * (nothing reaches the proxy or the server); with no_proxy listing 127.0.0.1 it goes directly. */
void test_client_loopback_never_goes_through_a_proxy(void) {
    const char *log = temp_path("proxy.log");
    char proxy[64], *variable, *reason;
    int port;
    pid_t pid;
    REQUIRE_SERVER();
    pid = start_proxy(log, &port);
    if (!tf_check(pid > 0, __FILE__, __LINE__, "the recording proxy started"))
        return;
    snprintf(proxy, sizeof proxy, "http://127.0.0.1:%d", port);
    server_reset();
    setenv("http_proxy", proxy, 1);
    unsetenv("no_proxy");
    unsetenv("NO_PROXY");
    {
        json_t *config = api_config(0, 5000);
        cf_client *client;
        char *out = SENTINEL, *err = SENTINEL;
        json_t *logged;
        struct stat info;
        json_object_set_new(config, "plan", json_string("demo"));
        json_object_set_new(config, "api_key", json_string("CG-c-proxy-key-8812"));
        client = open_client(json_deep_copy(config));
        if (client != NULL) {
            CHECK_INT(cf_client_global(client, &out, &err), CF_NETWORK);
            reason = detail_string(err, CF_NETWORK, "reason");
            variable = detail_string(err, CF_NETWORK, "variable");
            CHECK_STR(reason, "proxy");
            CHECK_STR(variable, "http_proxy");
            CHECK(err != NULL && strstr(err, proxy) == NULL); /* the proxy's address (and any password) is never shown */
            free(reason);
            free(variable);
            free_out(err);
            cf_client_close(client);
        }
        logged = server_log();
        CHECK_INT(server_count(logged, "/api/v3/global"), 0);
        json_decref(logged);
        setenv("no_proxy", "localhost,127.0.0.0/8,::1", 1);
        client = open_client(config);
        if (client != NULL) {
            out = err = SENTINEL;
            CHECK_STATUS(cf_client_global(client, &out, &err), CF_OK, err);
            free_out(out);
            free_out(err);
            cf_client_close(client);
        }
        logged = server_log();
        CHECK_INT(server_count(logged, "/api/v3/global"), 1);
        json_decref(logged);
        CHECK(stat(log, &info) == 0 && info.st_size == 0); /* nothing reached the proxy */
    }
    unsetenv("http_proxy");
    unsetenv("no_proxy");
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}
