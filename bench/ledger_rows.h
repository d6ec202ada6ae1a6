/*
 * ledger_rows.h — the ledger rows an import wrote, copied by an anchor: read back from our
 * database (not timed), then inserted by plain sqlite3 calls into tables made by our schema's own
 * SQL, so both sides write exactly the same rows. Shared by import_bench.c (cf_engine_import)
 * and bench.c (cf_engine_import_csv). Include after <sqlite3.h>, <time.h> and bench_support.h.
 */
#ifndef LEDGER_ROWS_H
#define LEDGER_ROWS_H

/* Columns of ledger_transaction the anchor copies (every one but id). */
#define COLUMNS "owner, portfolio, coin_id, kind, amount, price, fee, timestamp_ms, note, external_id, group_id, income_type, " \
                "fee_coin_id, fee_price, price_source, price_at, original_price, price_currency"
#define COLUMN_COUNT 18

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sql_check(sqlite3 *db, int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "ledger rows: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

/* The ledger rows of a database: COLUMN_COUNT values each (NULL or text), in id order. */
typedef struct {
    char **cells;
    size_t rows;
} ledger_rows;

static ledger_rows read_rows(const char *path) {
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    ledger_rows out = {NULL, 0};
    size_t capacity = 0;
    sql_check(db, sqlite3_open(path, &db), "open ours");
    sql_check(db, sqlite3_prepare_v2(db, "SELECT " COLUMNS " FROM ledger_transaction ORDER BY id", -1, &select, NULL), "select");
    while (sqlite3_step(select) == SQLITE_ROW) {
        int c;
        if (out.rows == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            out.cells = realloc(out.cells, capacity * COLUMN_COUNT * sizeof(char *));
        }
        for (c = 0; c < COLUMN_COUNT; c++) {
            const unsigned char *text = sqlite3_column_text(select, c);
            out.cells[out.rows * COLUMN_COUNT + (size_t)c] = text ? strdup((const char *)text) : NULL;
        }
        out.rows++;
    }
    sqlite3_finalize(select);
    sqlite3_close(db);
    return out;
}

/* A new SQLite file with the ledger's tables and indexes as our database has them. */
static sqlite3 *raw_database(const char *ours, const char *path) {
    sqlite3 *source = NULL, *db = NULL;
    sqlite3_stmt *schema = NULL;
    remove(path);
    sql_check(source, sqlite3_open(ours, &source), "open ours");
    sql_check(db, sqlite3_open(path, &db), "open raw");
    sql_check(db, sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-65536;", NULL, NULL, NULL),
              "pragmas");
    sql_check(source, sqlite3_prepare_v2(source,
                                         "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN"
                                         " ('ledger_transaction', 'ledger_change', 'portfolio') ORDER BY type DESC",
                                         -1, &schema, NULL),
              "schema");
    while (sqlite3_step(schema) == SQLITE_ROW)
        sql_check(db, sqlite3_exec(db, (const char *)sqlite3_column_text(schema, 0), NULL, NULL, NULL), "create");
    sqlite3_finalize(schema);
    sqlite3_close(source);
    return db;
}

/* The anchor: every row inserted in one durable transaction, and the change counter. */
static double raw_insert(sqlite3 *db, const ledger_rows *rows, double *cpu) {
    sqlite3_stmt *insert = NULL;
    size_t r;
    volatile sqlite3_int64 inserted = 0;
    double start = seconds(CLOCK_MONOTONIC), cpu_start = seconds(CLOCK_THREAD_CPUTIME_ID);
    sql_check(db,
              sqlite3_prepare_v2(db,
                                 "INSERT INTO ledger_transaction (" COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                                 " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
                                 -1, &insert, NULL),
              "prepare");
    sql_check(db, sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
    sql_check(db, sqlite3_exec(db, "INSERT INTO ledger_change (owner, counter) VALUES ('default', 1)", NULL, NULL, NULL), "count");
    for (r = 0; r < rows->rows; r++) {
        int c;
        for (c = 0; c < COLUMN_COUNT; c++) {
            const char *cell = rows->cells[r * COLUMN_COUNT + (size_t)c];
            if (c == 7 || c == 15) { /* timestamp_ms, price_at */
                if (cell) sqlite3_bind_int64(insert, c + 1, strtoll(cell, NULL, 10));
                else sqlite3_bind_null(insert, c + 1);
            } else if (cell) {
                sqlite3_bind_text(insert, c + 1, cell, -1, SQLITE_STATIC);
            } else {
                sqlite3_bind_null(insert, c + 1);
            }
        }
        sql_check(db, sqlite3_step(insert), "insert");
        sqlite3_reset(insert);
        /* As Coinfolio on SQLite (Database.insertedID): no RETURNING, which fills and drops an
         * ephemeral table a row; whether it inserted from sqlite3_changes, the id after. */
        if (sqlite3_changes(db) > 0) inserted += sqlite3_last_insert_rowid(db);
    }
    sql_check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
    sqlite3_finalize(insert);
    *cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
    return seconds(CLOCK_MONOTONIC) - start;
}

#endif
