/*
 * bench_support.h: the small helpers every benchmark program in bench/ shares (reading an input
 * file, stopping on a failed call, the median of samples). Header-only: each program is one C file.
 */
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "coinfolio.h"

/* The whole file, NUL-terminated; its length in *size when size is not NULL. Exits on failure. */
static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *data;
    long length;
    if (!f) {
        fprintf(stderr, "bench: cannot open %s (run `make bench`, which writes the inputs first)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    length = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)length + 1);
    if (!data || fread(data, 1, (size_t)length, f) != (size_t)length) { perror(path); exit(1); }
    data[length] = '\0';
    fclose(f);
    if (size) *size = (size_t)length;
    return data;
}

/* Exits with the error's text when a Coinfolio call did not return CF_OK. */
static void check(int status, char *error, const char *what) {
    if (status != CF_OK) {
        fprintf(stderr, "%s failed: %s\n", what, error ? error : "?");
        exit(1);
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of count samples (sorts them in place). */
static double median(double *samples, int count) {
    qsort(samples, (size_t)count, sizeof(double), compare_doubles);
    return samples[count / 2];
}

/* Medians of seconds per call of A and B, interleaved: each round runs `per_round` calls of A
 * then of B, or B then A on odd rounds, so drift and noise fall on both alike. The program
 * defines `static double now_s(void)`, the clock both are read on. */
#define MAX_ROUNDS 64
#define INTERLEAVED(a_result, b_result, rounds, per_round, a_body, b_body)              \
    do {                                                                                 \
        double a_[MAX_ROUNDS], b_[MAX_ROUNDS];                                           \
        int r_, i_;                                                                      \
        for (r_ = 0; r_ < (rounds); r_++) {                                              \
            int first_ = 0;                                                              \
            for (first_ = 0; first_ < 2; first_++) {                                     \
                double start_ = now_s();                                                 \
                if ((first_ == 0) == (r_ % 2 == 0)) {                                    \
                    for (i_ = 0; i_ < (per_round); i_++) { a_body; }                    \
                    a_[r_] = (now_s() - start_) / (per_round);                           \
                } else {                                                                 \
                    for (i_ = 0; i_ < (per_round); i_++) { b_body; }                    \
                    b_[r_] = (now_s() - start_) / (per_round);                           \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        (a_result) = median(a_, (rounds));                                               \
        (b_result) = median(b_, (rounds));                                               \
    } while (0)

#endif
