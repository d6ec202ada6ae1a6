/* test_header.c — the facts include/coinfolio.h states and the C suite repeats: the "code" name
 * of each status (status_code_name of test_support.c) and the ABI version. The header's text is
 * the reference; these fail when the C side differs from it. */
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
