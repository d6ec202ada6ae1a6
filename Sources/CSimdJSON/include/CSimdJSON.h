/*
 * CSimdJSON: a small C surface over Debian's simdjson (On-Demand) for Coinfolio's decoders.
 *
 * One pass over a /coins/markets body: UTF-8, RFC 8259 syntax (every value is visited, also the
 * ones no model keeps) and the extraction of each coin's fields into flat records. Numbers are
 * parsed by simdjson (correctly rounded); sparkline arrays are validated but not parsed: their
 * byte range is recorded, and cf_sj_prices parses one on demand.
 *
 * Not part of Coinfolio's public C ABI (include/coinfolio.h); only the Swift core calls it.
 */
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal to libcoinfolio.so: never exported (include/coinfolio.h is the only API). */
#define CF_SJ_INTERNAL __attribute__((visibility("hidden")))

/*
 * The keys of a /coins/markets row, in the order Coinfolio writes a coin: the scanner's one list.
 * X(NAME, "key", KIND), KIND one of STRING, NUMBER, ROI (the roi object) and SPARKLINE (the
 * sparkline_in_7d object). Swift's Coin.JSONKey is this list (OnePassDecodingTests reads both
 * through cf_sj_coin_key and compares); the record enums below and the scanner's key table come
 * from it, so a key is added here and in Coin.JSONKey, nowhere else.
 */
#define CF_SJ_COIN_FIELDS(X)                                                                   \
    X(ID, "id", STRING)                                                                        \
    X(SYMBOL, "symbol", STRING)                                                                \
    X(NAME, "name", STRING)                                                                    \
    X(IMAGE, "image", STRING)                                                                  \
    X(CURRENT_PRICE, "current_price", NUMBER)                                                  \
    X(MARKET_CAP, "market_cap", NUMBER)                                                        \
    X(MARKET_CAP_RANK, "market_cap_rank", NUMBER)                                              \
    X(FULLY_DILUTED_VALUATION, "fully_diluted_valuation", NUMBER)                              \
    X(TOTAL_VOLUME, "total_volume", NUMBER)                                                    \
    X(HIGH_24H, "high_24h", NUMBER)                                                            \
    X(LOW_24H, "low_24h", NUMBER)                                                              \
    X(PRICE_CHANGE_24H, "price_change_24h", NUMBER)                                            \
    X(PRICE_CHANGE_PERCENTAGE_24H, "price_change_percentage_24h", NUMBER)                      \
    X(MARKET_CAP_CHANGE_24H, "market_cap_change_24h", NUMBER)                                  \
    X(MARKET_CAP_CHANGE_PERCENTAGE_24H, "market_cap_change_percentage_24h", NUMBER)            \
    X(CIRCULATING_SUPPLY, "circulating_supply", NUMBER)                                        \
    X(TOTAL_SUPPLY, "total_supply", NUMBER)                                                    \
    X(MAX_SUPPLY, "max_supply", NUMBER)                                                        \
    X(ATH, "ath", NUMBER)                                                                      \
    X(ATH_CHANGE_PERCENTAGE, "ath_change_percentage", NUMBER)                                  \
    X(ATH_DATE, "ath_date", STRING)                                                            \
    X(ATL, "atl", NUMBER)                                                                      \
    X(ATL_CHANGE_PERCENTAGE, "atl_change_percentage", NUMBER)                                  \
    X(ATL_DATE, "atl_date", STRING)                                                            \
    X(ROI, "roi", ROI)                                                                         \
    X(LAST_UPDATED, "last_updated", STRING)                                                    \
    X(SPARKLINE_IN_7D, "sparkline_in_7d", SPARKLINE)                                           \
    X(PCP_1H, "price_change_percentage_1h_in_currency", NUMBER)                                \
    X(PCP_24H, "price_change_percentage_24h_in_currency", NUMBER)                              \
    X(PCP_7D, "price_change_percentage_7d_in_currency", NUMBER)                                \
    X(PCP_14D, "price_change_percentage_14d_in_currency", NUMBER)                              \
    X(PCP_30D, "price_change_percentage_30d_in_currency", NUMBER)                              \
    X(PCP_200D, "price_change_percentage_200d_in_currency", NUMBER)                            \
    X(PCP_1Y, "price_change_percentage_1y_in_currency", NUMBER)

/* The keys of roi, in the order Coinfolio writes them (Swift's Coin.ROI.JSONKey). */
#define CF_SJ_ROI_FIELDS(X)                                                                    \
    X(ROI_TIMES, "times", NUMBER)                                                              \
    X(ROI_CURRENCY, "currency", STRING)                                                        \
    X(ROI_PERCENTAGE, "percentage", NUMBER)

/* Picks the fields of one KIND out of the lists above. */
#define CF_SJ_PICK_NUMBER_NUMBER(name) CF_SJ_##name,
#define CF_SJ_PICK_NUMBER_STRING(name)
#define CF_SJ_PICK_NUMBER_ROI(name)
#define CF_SJ_PICK_NUMBER_SPARKLINE(name)
#define CF_SJ_PICK_STRING_NUMBER(name)
#define CF_SJ_PICK_STRING_STRING(name) CF_SJ_##name,
#define CF_SJ_PICK_STRING_ROI(name)
#define CF_SJ_PICK_STRING_SPARKLINE(name)
#define CF_SJ_NUMBER_ENUM(name, key, kind) CF_SJ_PICK_NUMBER_##kind(name)
#define CF_SJ_STRING_ENUM(name, key, kind) CF_SJ_PICK_STRING_##kind(name)
#define CF_SJ_KEY_ENUM(name, key, kind) CF_SJ_KEY_##name,

/* Numeric fields of a markets row, in record order: the NUMBER fields of the lists above. */
enum { CF_SJ_COIN_FIELDS(CF_SJ_NUMBER_ENUM) CF_SJ_ROI_FIELDS(CF_SJ_NUMBER_ENUM) CF_SJ_NUMBER_COUNT };

/* String fields of a markets row, in record order: the STRING fields of the lists above. */
enum { CF_SJ_COIN_FIELDS(CF_SJ_STRING_ENUM) CF_SJ_ROI_FIELDS(CF_SJ_STRING_ENUM) CF_SJ_STRING_COUNT };

/* Every key of CF_SJ_COIN_FIELDS, in order (for cf_sj_coin_key). */
enum { CF_SJ_COIN_FIELDS(CF_SJ_KEY_ENUM) CF_SJ_KEY_COUNT };

/* Row states. */
enum {
    CF_SJ_ROW_OBJECT = 0,     /* an object: its fields are in the record */
    CF_SJ_ROW_NOT_OBJECT = 1  /* any other JSON value: skipped */
};

/* Why a field read as null (a warning). */
enum {
    CF_SJ_WARN_NOT_NUMBER = 1,  /* a string, boolean, object or array where a number belongs */
    CF_SJ_WARN_BAD_NUMBER_TEXT, /* a string that is not wholly a JSON number */
    CF_SJ_WARN_NOT_STRING,      /* a number, boolean, object or array where a string belongs */
    CF_SJ_WARN_NOT_OBJECT       /* roi / sparkline_in_7d not an object (or price not an array) */
};

/* Where a string field's bytes are: a view into the decoder's string buffer (valid until the
 * decoder's next call), UTF-8, unescaped. length < 0: the field is missing or null. */
typedef struct {
    const char *bytes;
    int64_t length;
    /* The JSON type found when it was not a string: 0 none (missing/null/string), else a
     * CF_SJ_WARN_* reason. */
    int32_t problem;
} cf_sj_string;

typedef struct {
    int32_t state;             /* CF_SJ_ROW_* */
    int32_t index;             /* position in the body's array, from 0 */
    uint64_t number_present;   /* bit i: numbers[i] holds a value */
    uint64_t number_problem;   /* bit i: field i was present with a type that reads as null */
    uint64_t number_bad_text;  /* bit i: ... and it was a string that is not a number */
    double numbers[CF_SJ_NUMBER_COUNT];
    cf_sj_string strings[CF_SJ_STRING_COUNT];
    int32_t roi_state;         /* 0 missing or null, 1 object, 2 other type */
    int32_t sparkline_state;   /* 0 missing or null, 1 price array found, 2 sparkline_in_7d not an
                                  object, 3 its price not an array */
    int32_t sparkline_irregular; /* 1: the array holds points other than numbers and nulls */
    int64_t sparkline_offset;  /* byte offset of the price array ('[') in the padded copy */
    int64_t sparkline_length;  /* its length in bytes, through ']' */
} cf_sj_coin;

/* Outcome codes. */
enum {
    CF_SJ_OK = 0,
    CF_SJ_MALFORMED = 1,   /* not strict JSON: the caller finds the offset with its own scanner */
    CF_SJ_NOT_ARRAY = 2,   /* valid JSON whose top level is not an array */
    CF_SJ_NO_MEMORY = 3,
    CF_SJ_MORE = 4,           /* cf_sj_markets_chunked_next: records of one piece, call again */
    CF_SJ_NOT_CHUNKABLE = 5   /* cf_sj_markets_chunked_begin: not a non-empty array; use cf_sj_markets */
};

typedef struct cf_sj_decoder cf_sj_decoder;

/* A decoder (simdjson parser and buffers), reusable, one thread at a time. NULL on no memory. */
CF_SJ_INTERNAL cf_sj_decoder *cf_sj_decoder_new(void);
CF_SJ_INTERNAL void cf_sj_decoder_free(cf_sj_decoder *decoder);
/* Bytes the decoder holds now (to decide whether to keep it for reuse). */
CF_SJ_INTERNAL size_t cf_sj_decoder_footprint(const cf_sj_decoder *decoder);

/*
 * Decodes a /coins/markets body (after any BOM). On CF_SJ_OK the records are in *out_coins
 * (*out_count of them, owned by the decoder, valid until its next call), and *out_copy is a
 * malloc'd copy of the body followed by 64 zero bytes of padding that the sparkline offsets point
 * into: the caller owns it (free()). On error nothing is returned; *out_error_offset is simdjson's
 * position when it knows one (else -1) and *out_error_name its error name (static).
 */
CF_SJ_INTERNAL int cf_sj_markets(cf_sj_decoder *decoder, const uint8_t *body, size_t length, const cf_sj_coin **out_coins,
                  size_t *out_count, uint8_t **out_copy, int64_t *out_error_offset, const char **out_error_name);

/*
 * Large bodies, piece by piece, so that memory grows with a piece (piece_bytes of whole rows; 0:
 * 4 MB), not with
 * the body: begin, then call next until it returns CF_SJ_OK (done) or an error; each CF_SJ_MORE
 * gives the records of one piece (valid until the next call; indexes count from the body's start).
 * Sparkline offsets point into *out_arena (malloc'd, body length + 64 bytes, owned by the caller
 * from the moment begin returns CF_SJ_OK). `body` must stay valid until the last call. On
 * CF_SJ_MALFORMED the caller finds the error with its own scanner.
 */
CF_SJ_INTERNAL int cf_sj_markets_chunked_begin(cf_sj_decoder *decoder, const uint8_t *body, size_t length, size_t piece_bytes,
                                uint8_t **out_arena);
CF_SJ_INTERNAL int cf_sj_markets_chunked_next(cf_sj_decoder *decoder, const cf_sj_coin **out_coins, size_t *out_count,
                               const char **out_error_name);

/* Ends a piecewise decode early (the caller stopped calling next): the decoder forgets the body
 * and the arena. Harmless after the last next. */
CF_SJ_INTERNAL void cf_sj_markets_chunked_end(cf_sj_decoder *decoder);

/* How many bytes of the body the pieces so far covered (to size the caller's arrays early). */
CF_SJ_INTERNAL size_t cf_sj_markets_chunked_position(const cf_sj_decoder *decoder);

/*
 * Parses one sparkline array (bytes [offset, offset+length) of a padded copy made by
 * cf_sj_markets, whose whole size without padding is copy_length). Null points and values that
 * are not numbers read as NaN; strings wholly a JSON number read as that number.
 * Returns the point count, with the points at *out_points (owned by the decoder, valid until its
 * next call); -1 when the bytes are not an array.
 */
CF_SJ_INTERNAL int64_t cf_sj_prices(cf_sj_decoder *decoder, const uint8_t *copy, size_t copy_length, size_t offset, size_t length,
                     const double **out_points);

/* After cf_sj_prices: the positions of points that were neither numbers, nulls nor strings wholly
 * a number (owned by the decoder, valid until its next call). Returns their count. */
CF_SJ_INTERNAL int64_t cf_sj_prices_problems(const cf_sj_decoder *decoder, const int64_t **out_positions);

/* Whether `text` (length bytes, not NUL-terminated) is wholly one JSON number; if so *out_value
 * is its correctly rounded value. Out of range (beyond ±1.8e308) counts as not a number. */
CF_SJ_INTERNAL int cf_sj_number_text(const char *text, size_t length, double *out_value);

/* The key CF_SJ_KEY_<NAME> of CF_SJ_COIN_FIELDS ("current_price"); NULL out of range. Static. */
CF_SJ_INTERNAL const char *cf_sj_coin_key(int key);

/* The field path a warning names for numeric field `field` ("current_price", "roi.times") and for
 * string field `field` ("symbol", "roi.currency"); NULL out of range. Static. */
CF_SJ_INTERNAL const char *cf_sj_number_path(int field);
CF_SJ_INTERNAL const char *cf_sj_string_path(int field);

/* Whether `text` is wholly one strict JSON array (scalar check, no padding needed). */
CF_SJ_INTERNAL int cf_sj_is_array(const uint8_t *text, size_t length);

#ifdef __cplusplus
}
#endif

#endif
