/* test_header.c — the facts include/coinfolio.h states and the C suite repeats: the "code" name
 * of each status (status_code_name of test_support.c), the details.reason values (the
 * CF_REASON_* macros, against what the library returns) and the ABI version. The header's text
 * is the reference; these fail when the C side differs from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "tests.h"

/* Reads one "#define CF_NAME N" line of the header. Returns 1 and fills name and number. */
static int read_define(const char *line, char *name, size_t name_size, long *number) {
    const char *p = line + strlen("#define ");
    size_t length = 0;
    char *end;
    if (strncmp(line, "#define CF_", strlen("#define CF_")) != 0)
        return 0;
    while (p[length] != '\0' && p[length] != ' ' && p[length] != '\t')
        length++;
    if (length == 0 || length >= name_size)
        return 0;
    memcpy(name, p, length);
    name[length] = '\0';
    *number = strtol(p + length, &end, 10);
    return end != p + length;
}

void test_status_names_are_the_headers(void) {
    char *header = read_file(fmt_path("%s/include/coinfolio.h", tf_repo_root), NULL);
    char *line;
    int statuses = 0;
    if (!CHECK(header != NULL))
        return;
    for (line = strtok(header, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char name[64], code[64];
        long number;
        const char *quote = strstr(line, "/**< \"");
        size_t length;
        if (!read_define(line, name, sizeof name, &number) || quote == NULL)
            continue;
        quote += strlen("/**< \"");
        length = strcspn(quote, "\"");
        if (!CHECK(length > 0 && length < sizeof code))
            continue;
        memcpy(code, quote, length);
        code[length] = '\0';
        statuses++;
        tf_check(strcmp(status_code_name((int)number), code) == 0, __FILE__, __LINE__,
                 "include/coinfolio.h: %s is %ld \"%s\"; status_code_name(%ld) in "
                 "bindings/c/test_support.c says \"%s\" (add its case)",
                 name, number, code, number, status_code_name((int)number));
    }
    CHECK(statuses >= 11); /* CF_OK … CF_INTERNAL at least: the list parsed */
    CHECK_STR(status_code_name(CF_OK), "ok");
    CHECK_STR(status_code_name(CF_NOT_FOUND), "not_found");
    CHECK_STR(status_code_name(CF_INTERNAL), "internal");
    free(header);
}

void test_abi_version_is_the_headers(void) {
    char *header = read_file(fmt_path("%s/include/coinfolio.h", tf_repo_root), NULL);
    const char *define = header != NULL ? strstr(header, "#define CF_ABI_VERSION ") : NULL;
    if (!CHECK(define != NULL)) {
        free(header);
        return;
    }
    CHECK_INT(strtol(define + strlen("#define CF_ABI_VERSION "), NULL, 10), CF_ABI_VERSION);
    CHECK_INT(cf_abi_version(), CF_ABI_VERSION);
    CHECK_INT(cf_abi_version(), 1);
    free(header);
}

/* The CF_REASON_* lines of the header: `#define CF_REASON_X "x"`, then a doc comment that names
 * the status first and says when the reason occurs. */
#define MAX_REASONS 64
struct header_reason {
    char macro[64];
    char value[64];
};

static int header_reasons(struct header_reason *reasons, int capacity) {
    char *header = read_file(fmt_path("%s/include/coinfolio.h", tf_repo_root), NULL);
    char *line;
    int count = 0;
    if (!CHECK(header != NULL))
        return 0;
    for (line = strtok(header, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        const char *p = line + strlen("#define ");
        size_t length = 0, value_length;
        const char *quote, *doc;
        if (strncmp(line, "#define CF_REASON_", strlen("#define CF_REASON_")) != 0)
            continue;
        while (p[length] != '\0' && p[length] != ' ')
            length++;
        quote = strchr(p + length, '"');
        doc = strstr(line, "/**< ");
        if (!CHECK(quote != NULL && doc != NULL && count < capacity && length < sizeof reasons[0].macro))
            continue;
        value_length = strcspn(quote + 1, "\"");
        if (!CHECK(value_length > 0 && value_length < sizeof reasons[0].value))
            continue;
        memcpy(reasons[count].macro, p, length);
        reasons[count].macro[length] = '\0';
        memcpy(reasons[count].value, quote + 1, value_length);
        reasons[count].value[value_length] = '\0';
        tf_check(strncmp(doc + strlen("/**< "), "CF_", 3) == 0, __FILE__, __LINE__,
                 "%s says with which status it comes, first", reasons[count].macro);
        count++;
    }
    free(header);
    return count;
}

/* err's details.reason is the header's macro `expected`, and the header lists it. */
static void check_reason(const char *err, int status, const char *expected, const struct header_reason *reasons,
                         int count, const char *what) {
    json_t *object = CHECK_ERROR_JSON(err, status);
    const char *reason = json_str(json_object_get(object, "details"), "reason");
    int listed = 0, k;
    for (k = 0; reason != NULL && k < count; k++)
        listed |= strcmp(reasons[k].value, reason) == 0;
    tf_check(reason != NULL && strcmp(reason, expected) == 0 && listed, __FILE__, __LINE__,
             "%s: details.reason \"%s\", the header's \"%s\" (listed there: %d)", what, reason ? reason : "none",
             expected, listed);
    json_decref(object);
}

void test_reasons_are_the_headers(void) {
    struct header_reason reasons[MAX_REASONS];
    int count = header_reasons(reasons, MAX_REASONS), k, j;
    char *out = SENTINEL, *err = SENTINEL;
    cf_store *store = NULL;
    static const struct {
        const char *body;
        const char *reason;
    } bodies[] = {
        {"[1,]", CF_REASON_MALFORMED_JSON},
        {"{\"a\":\"\\udc00\"}", CF_REASON_LONE_SURROGATE},
        {"[1e400]", CF_REASON_NUMBER_OUT_OF_RANGE},
    };
    CHECK(count >= 20); /* the list parsed */
    for (k = 0; k < count; k++) {
        char upper[64];
        size_t n;
        for (n = 0; reasons[k].value[n] != '\0'; n++)
            upper[n] = (char)(reasons[k].value[n] >= 'a' && reasons[k].value[n] <= 'z' ? reasons[k].value[n] - 32
                                                                                       : reasons[k].value[n]);
        upper[n] = '\0';
        tf_check(strcmp(reasons[k].macro + strlen("CF_REASON_"), upper) == 0, __FILE__, __LINE__,
                 "%s is named after its value \"%s\"", reasons[k].macro, reasons[k].value);
        for (j = 0; j < k; j++)
            tf_check(strcmp(reasons[j].value, reasons[k].value) != 0, __FILE__, __LINE__, "\"%s\" is listed twice",
                     reasons[k].value);
    }
    /* What the library returns through the ABI is the header's. */
    for (k = 0; k < (int)(sizeof bodies / sizeof bodies[0]); k++) {
        err = SENTINEL;
        CHECK_STATUS(cf_decode_global(bodies[k].body, &out, &err), CF_INVALID_ARGUMENT, err);
        check_reason(err, CF_INVALID_ARGUMENT, bodies[k].reason, reasons, count, bodies[k].body);
        free_out(err);
    }
    err = SENTINEL;
    CHECK_STATUS(cf_store_open("file:x.sqlite", &store, &err), CF_INVALID_ARGUMENT, err);
    check_reason(err, CF_INVALID_ARGUMENT, CF_REASON_SQLITE_URI, reasons, count, "an SQLite URI");
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_store_open(":memory:", &store, &err), CF_OK, err);
    CHECK_STATUS(cf_store_set_holding(store, "a,b", 1, &err), CF_INVALID_ARGUMENT, err);
    check_reason(err, CF_INVALID_ARGUMENT, CF_REASON_COMMA, reasons, count, "a comma in a held id");
    free_out(err);
    cf_store_close(store);
}

/* Every key of err's details is a CF_DETAIL_* line of the header text; returns the details' count. */
static size_t check_detail_keys_listed(const char *header, const char *err, int status) {
    json_t *object = CHECK_ERROR_JSON(err, status), *value;
    json_t *details = json_object_get(object, "details");
    const char *key;
    size_t count = json_object_size(details);
    json_object_foreach(details, key, value) {
        char define[128];
        snprintf(define, sizeof define, "\"%s\" /**< ", key);
        tf_check(strstr(header, define) != NULL, __FILE__, __LINE__, "details.%s is a CF_DETAIL_* of the header", key);
    }
    json_decref(object);
    return count;
}

/* Every key of an error's details the library returns is a CF_DETAIL_* macro of the header
 * (the one list; DetailKeyTests and test_header.py hold Swift's and Python's equal to it). */
void test_detail_keys_are_the_headers(void) {
    char *header = read_file(fmt_path("%s/include/coinfolio.h", tf_repo_root), NULL);
    char *out = SENTINEL, *err = SENTINEL;
    cf_store *store = NULL;
    json_t *object;
    if (!CHECK(header != NULL))
        return;
    CHECK_STATUS(cf_decode_global("[1,]", &out, &err), CF_INVALID_ARGUMENT, err);
    object = CHECK_ERROR_JSON(err, CF_INVALID_ARGUMENT);
    CHECK(json_object_get(json_object_get(object, "details"), CF_DETAIL_OFFSET) != NULL);
    CHECK(json_object_get(json_object_get(object, "details"), CF_DETAIL_REASON) != NULL);
    json_decref(object);
    CHECK(check_detail_keys_listed(header, err, CF_INVALID_ARGUMENT) >= 2);
    free_out(err);
    err = SENTINEL;
    CHECK_STATUS(cf_store_open(":memory:", &store, &err), CF_OK, err);
    CHECK_STATUS(cf_store_set_holding(store, "a,b", 1, &err), CF_INVALID_ARGUMENT, err);
    CHECK(check_detail_keys_listed(header, err, CF_INVALID_ARGUMENT) >= 1);
    free_out(err);
    cf_store_close(store);
    free(header);
}
