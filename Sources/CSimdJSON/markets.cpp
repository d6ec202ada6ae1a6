// One-pass /coins/markets decoding over simdjson On-Demand: see include/CSimdJSON.h.
//
// Every byte of the body is checked: simdjson's first stage validates UTF-8, string ends and raw
// control characters for the whole input; this walk then visits every value (fields no model
// keeps included), so the grammar, every number's text, every literal and every escape are
// checked too. Containers nobody reads are checked by a small iterative scanner (no recursion,
// depth limited), sparkline arrays element by element without converting their numbers.
#include "CSimdJSON.h"

#include <simdjson.h>

#include <clocale>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstdlib>
#include <cstring>
#include <locale.h>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

using namespace simdjson;

namespace {

constexpr int kMaximumDepth = 512;

struct failure {};  // thrown inside the walk; caught at the entry points (no C++ exception crosses C)

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

locale_t c_locale() {
    static locale_t locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return locale;
}

// RFC 8259 number grammar over exactly `n` bytes; *big when the magnitude might pass 1.8e308.
bool number_grammar(const char *p, size_t n, bool *big) {
    size_t i = 0;
    if (i < n && p[i] == '-') i++;
    if (i >= n || !is_digit(p[i])) return false;
    long integer_digits = 0;
    if (p[i] == '0') {
        i++;
        integer_digits = 1;
        if (i < n && is_digit(p[i])) return false;
    } else {
        while (i < n && is_digit(p[i])) { i++; integer_digits++; }
    }
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || !is_digit(p[i])) return false;
        while (i < n && is_digit(p[i])) i++;
    }
    long exponent = 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool negative = false;
        if (i < n && (p[i] == '+' || p[i] == '-')) { negative = p[i] == '-'; i++; }
        if (i >= n || !is_digit(p[i])) return false;
        while (i < n && is_digit(p[i])) {
            if (exponent < 100000) exponent = exponent * 10 + (p[i] - '0');
            i++;
        }
        if (negative) exponent = -exponent;
    }
    *big = integer_digits + exponent > 308;
    return i == n;
}

// Correctly rounded conversion of text already known to be a JSON number (glibc strtod, C locale).
bool slow_number(const char *p, size_t n, double *out) {
    char small[128];
    std::vector<char> large;
    char *text = small;
    if (n + 1 > sizeof small) { large.resize(n + 1); text = large.data(); }
    memcpy(text, p, n);
    text[n] = '\0';
    double value = strtod_l(text, nullptr, c_locale());
    if (!(value - value == 0)) return false;  // inf
    *out = value;
    return true;
}

// The keys of a row (CF_SJ_COIN_FIELDS), for dispatch: a switch on the key's length, then a
// comparison of known length with each key of that length — what a hand-written switch would
// do, written by the compiler from the key list (`find_key`).
enum class Kind : unsigned char { STRING, NUMBER, ROI, SPARKLINE };

struct Field {
    std::string_view key;
    Kind kind = Kind::STRING;
    int index = 0;  // the CF_SJ_* record field of a STRING or NUMBER
};

#define CF_SJ_FIELD_INDEX_STRING(name) CF_SJ_##name
#define CF_SJ_FIELD_INDEX_NUMBER(name) CF_SJ_##name
#define CF_SJ_FIELD_INDEX_ROI(name) 0
#define CF_SJ_FIELD_INDEX_SPARKLINE(name) 0
#define CF_SJ_FIELD(name, key, kind) Field{key, Kind::kind, CF_SJ_FIELD_INDEX_##kind(name)},
constexpr Field kCoinFields[] = {CF_SJ_COIN_FIELDS(CF_SJ_FIELD)};
constexpr Field kRoiFields[] = {CF_SJ_ROI_FIELDS(CF_SJ_FIELD)};
#undef CF_SJ_FIELD

constexpr size_t kCoinFieldCount = sizeof kCoinFields / sizeof kCoinFields[0];
static_assert(kCoinFieldCount == CF_SJ_KEY_COUNT, "one key table");
constexpr size_t kLongestKey = 48;

constexpr bool keys_fit() {
    for (const Field &field : kCoinFields)
        if (field.key.size() > kLongestKey) return false;
    return true;
}
static_assert(keys_fit(), "every key is at most kLongestKey bytes");

// A field as one number, kind * 256 + record index, known at compile time: what find_key gives.
constexpr int field_code(const Field &field) { return int(field.kind) * 256 + field.index; }

// The code of the field among those of length L whose key is `key` (of that length); -1 if none.
template <size_t L, size_t... I>
inline int find_of_length(const char *key, std::index_sequence<I...>) {
    int found = -1;
    // Keys of other lengths fold away at compile time; each comparison has a constant length.
    ((found = found < 0 && kCoinFields[I].key.size() == L && memcmp(key, kCoinFields[I].key.data(), L) == 0
                  ? field_code(kCoinFields[I])
                  : found),
     ...);
    return found;
}

template <size_t... L>
inline int find_key(std::string_view key, std::index_sequence<L...>) {
    int found = -1;
    ((key.size() == L ? (void)(found = find_of_length<L>(key.data(), std::make_index_sequence<kCoinFieldCount>())) : (void)0),
     ...);
    return found;
}

// The code (field_code) of a row's key; -1 for a key no coin has.
inline int find_key(std::string_view key) { return find_key(key, std::make_index_sequence<kLongestKey + 1>()); }

// Warning paths ("roi.times") of the record's number and string fields, in record order.
#define CF_SJ_PATH_NUMBER_NUMBER(key) key,
#define CF_SJ_PATH_NUMBER_STRING(key)
#define CF_SJ_PATH_NUMBER_ROI(key)
#define CF_SJ_PATH_NUMBER_SPARKLINE(key)
#define CF_SJ_PATH_STRING_NUMBER(key)
#define CF_SJ_PATH_STRING_STRING(key) key,
#define CF_SJ_PATH_STRING_ROI(key)
#define CF_SJ_PATH_STRING_SPARKLINE(key)
#define CF_SJ_NUMBER_PATH(name, key, kind) CF_SJ_PATH_NUMBER_##kind(key)
#define CF_SJ_STRING_PATH(name, key, kind) CF_SJ_PATH_STRING_##kind(key)
#define CF_SJ_ROI_NUMBER_PATH(name, key, kind) CF_SJ_PATH_NUMBER_##kind("roi." key)
#define CF_SJ_ROI_STRING_PATH(name, key, kind) CF_SJ_PATH_STRING_##kind("roi." key)
const char *const kNumberPaths[] = {CF_SJ_COIN_FIELDS(CF_SJ_NUMBER_PATH) CF_SJ_ROI_FIELDS(CF_SJ_ROI_NUMBER_PATH)};
const char *const kStringPaths[] = {CF_SJ_COIN_FIELDS(CF_SJ_STRING_PATH) CF_SJ_ROI_FIELDS(CF_SJ_ROI_STRING_PATH)};
static_assert(sizeof kNumberPaths / sizeof kNumberPaths[0] == CF_SJ_NUMBER_COUNT, "one path per number field");
static_assert(sizeof kStringPaths / sizeof kStringPaths[0] == CF_SJ_STRING_COUNT, "one path per string field");
#define CF_SJ_KEY_TEXT(name, key, kind) key,
const char *const kCoinKeys[] = {CF_SJ_COIN_FIELDS(CF_SJ_KEY_TEXT)};
#undef CF_SJ_KEY_TEXT

std::string_view trimmed(std::string_view token) {
    while (!token.empty() && is_space(token.back())) token.remove_suffix(1);
    return token;
}

// A scalar validator for one container's raw text (fields nobody reads). Iterative.
bool validate_container(const char *p, size_t n, int depth_before) {
    std::vector<bool> stack;  // true: object
    size_t i = 0;
    auto skip_space = [&] { while (i < n && is_space(p[i])) i++; };
    auto string_at = [&]() -> bool {  // p[i] == '"'
        i++;
        while (i < n) {
            unsigned char c = (unsigned char)p[i];
            if (c == '"') { i++; return true; }
            if (c < 0x20) return false;
            if (c != '\\') { i++; continue; }
            i++;
            if (i >= n) return false;
            switch (p[i]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't': i++; break;
            case 'u': {
                auto hex4 = [&](size_t at, unsigned *v) -> bool {
                    if (at + 4 > n) return false;
                    unsigned r = 0;
                    for (size_t k = 0; k < 4; k++) {
                        char h = p[at + k];
                        unsigned d;
                        if (h >= '0' && h <= '9') d = h - '0';
                        else if (h >= 'a' && h <= 'f') d = h - 'a' + 10;
                        else if (h >= 'A' && h <= 'F') d = h - 'A' + 10;
                        else return false;
                        r = r << 4 | d;
                    }
                    *v = r;
                    return true;
                };
                unsigned unit;
                if (!hex4(i + 1, &unit)) return false;
                i += 5;
                if (unit >= 0xDC00 && unit <= 0xDFFF) return false;
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    unsigned low;
                    if (i + 1 < n && p[i] == '\\' && p[i + 1] == 'u' && hex4(i + 2, &low) && low >= 0xDC00 && low <= 0xDFFF) {
                        i += 6;
                    } else {
                        return false;
                    }
                }
                break;
            }
            default: return false;
            }
        }
        return false;
    };
    auto scalar_at = [&]() -> bool {
        char c = p[i];
        if (c == '"') return string_at();
        if (c == 't' || c == 'f' || c == 'n') {
            const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
            size_t len = strlen(word);
            if (i + len > n || memcmp(p + i, word, len) != 0) return false;
            i += len;
            return true;
        }
        if (c == '-' || is_digit(c)) {
            size_t start = i;
            while (i < n && (is_digit(p[i]) || p[i] == '-' || p[i] == '+' || p[i] == '.' || p[i] == 'e' || p[i] == 'E')) i++;
            bool big = false;
            if (!number_grammar(p + start, i - start, &big)) return false;
            double ignored;
            if (big && !slow_number(p + start, i - start, &ignored)) return false;
            return true;
        }
        return false;
    };
    skip_space();
    // The text starts with '[' or '{' (simdjson told us it is a container).
    for (;;) {
        skip_space();
        if (i >= n) return false;
        char c = p[i];
        if (c == '[' || c == '{') {
            if (depth_before + (int)stack.size() + 1 > kMaximumDepth) return false;
            bool object = c == '{';
            stack.push_back(object);
            i++;
            skip_space();
            if (i < n && p[i] == (object ? '}' : ']')) {
                i++;
                stack.pop_back();
            } else {
                if (object) {
                    if (i >= n || p[i] != '"' || !string_at()) return false;
                    skip_space();
                    if (i >= n || p[i] != ':') return false;
                    i++;
                }
                continue;
            }
        } else if (!scalar_at()) {
            return false;
        }
        // After a value.
        for (;;) {
            skip_space();
            if (stack.empty()) return i == n;
            if (i >= n) return false;
            bool object = stack.back();
            if (p[i] == ',') {
                i++;
                if (object) {
                    skip_space();
                    if (i >= n || p[i] != '"' || !string_at()) return false;
                    skip_space();
                    if (i >= n || p[i] != ':') return false;
                    i++;
                }
                break;
            }
            if (p[i] == (object ? '}' : ']')) {
                i++;
                stack.pop_back();
                continue;
            }
            return false;
        }
    }
}

inline std::string_view check(std::string_view plain) { return plain; }

// How many ASCII digits start at `p`, eight bytes at a time. Reads up to 8 bytes past the run,
// which the padded copy allows. A byte's lane in `t` is non-zero when it is not a digit; carries
// of the addition only run toward later bytes, so the first non-digit is found exactly.
inline uint64_t not_digits(const char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return ((x & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL) |
           (((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL);
}

inline size_t digit_run(const char *p) {
    // Sixteen bytes without a data-dependent branch (sparkline numbers have up to 17 digits).
    uint64_t t1 = not_digits(p), t2 = not_digits(p + 8);
    size_t r1 = t1 ? (size_t)(__builtin_ctzll(t1) >> 3) : 8;
    size_t r2 = t2 ? (size_t)(__builtin_ctzll(t2) >> 3) : 8;
    size_t run = r1 + (r1 == 8 ? r2 : 0);
    if (run < 16) return run;
    size_t k = 16;
    for (;;) {
        uint64_t t = not_digits(p + k);
        if (t) return k + (size_t)(__builtin_ctzll(t) >> 3);
        k += 8;
    }
}

#if defined(__SSE2__)
// One number token at `p` classified with two 16-byte loads (the padded copy allows reading 32
// bytes): the common form `-?D+(.D+)?` is checked here without a branch per byte. Returns the
// token's length when it is that form and valid, 0 when it is invalid, -1 when it is another
// form (exponent, 32+ bytes) for the scalar check.
inline long simple_number(const char *p) {
    __m128i a = _mm_loadu_si128((const __m128i *)p), b = _mm_loadu_si128((const __m128i *)(p + 16));
    auto digits = [](__m128i v) {
        __m128i shifted = _mm_sub_epi8(v, _mm_set1_epi8('0' - 128));
        return (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(shifted, _mm_set1_epi8(-128 + 10)));
    };
    auto equal = [](__m128i v, char c) { return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))); };
    uint32_t digit = digits(a) | digits(b) << 16;
    uint32_t dot = equal(a, '.') | equal(b, '.') << 16;
    uint32_t minus = equal(a, '-') | equal(b, '-') << 16;
    uint32_t exponent = equal(a, 'e') | equal(b, 'e') << 16 | equal(a, 'E') | equal(b, 'E') << 16 | equal(a, '+') |
                        equal(b, '+') << 16;
    uint32_t sign = minus & 1;
    uint32_t body = digit | dot | (minus & ~1u);
    uint32_t ends = ~(body | sign | exponent);  // the first byte that cannot be in a number
    if (ends == 0) return -1;
    unsigned length = (unsigned)__builtin_ctz(ends);
    uint32_t inside = length == 32 ? 0xFFFFFFFFu : ((1u << length) - 1);
    if ((exponent | (minus & ~1u)) & inside) return -1;  // exponent form, or a '-' inside: scalar check
    uint32_t dots = dot & inside;
    unsigned first = sign;  // first digit's position
    if (length <= first) return 0;
    if (!(digit >> first & 1)) return 0;
    if (dots == 0) {
        // An integer: no leading zero unless it is just "0".
        if (p[first] == '0' && length > first + 1) return 0;
        return (long)length;
    }
    if (dots & (dots - 1)) return 0;  // two dots
    unsigned at = (unsigned)__builtin_ctz(dots);
    if (at + 1 >= length) return 0;  // "1." with no fraction digit
    if (p[first] == '0' && at != first + 1) return 0;  // leading zero
    return (long)length;
}
#endif

// The common sparkline shape, checked fast: '[' numbers or nulls separated by commas ']'. Returns
// 1 valid, 0 invalid, -1 another shape (the caller uses validate_container). The text lies inside
// a padded copy, so reading past `n` is safe: digit runs stop at the array's ']' at the latest.
int validate_number_array(const char *p, size_t n) {
    size_t i = 0;
    auto space = [&] { while (i < n && is_space(p[i])) i++; };
    if (i >= n || p[i] != '[') return -1;
    i++;
    space();
    if (i < n && p[i] == ']') {
        i++;
        space();
        return i == n ? 1 : 0;
    }
    for (;;) {
        if (i >= n) return 0;
        char c = p[i];
        if (c == '-' || (unsigned char)(c - '0') < 10) {
#if defined(__SSE2__)
            long simple = simple_number(p + i);
            if (simple > 0) {
                i += (size_t)simple;
                if (i > n) return 0;
                goto after_value;
            }
            if (simple == 0) return 0;
#endif
            size_t start = i;
            if (c == '-') i++;
            size_t integer_digits = digit_run(p + i);
            if (integer_digits == 0 || (integer_digits > 1 && p[i] == '0')) return 0;
            i += integer_digits;
            if (p[i] == '.') {
                i++;
                size_t fraction = digit_run(p + i);
                if (fraction == 0) return 0;
                i += fraction;
            }
            if (p[i] == 'e' || p[i] == 'E') {
                i++;
                bool negative = false;
                if (p[i] == '+' || p[i] == '-') { negative = p[i] == '-'; i++; }
                size_t digits = digit_run(p + i);
                if (digits == 0) return 0;
                long exponent = 0;
                for (size_t k = 0; k < digits && k < 6; k++) exponent = exponent * 10 + (p[i + k] - '0');
                if (digits >= 6) exponent = 100000;
                i += digits;
                if ((long)integer_digits + (negative ? -exponent : exponent) > 308) {
                    double ignored;
                    if (!slow_number(p + start, i - start, &ignored)) return 0;
                }
            } else if (integer_digits > 308) {
                double ignored;
                if (!slow_number(p + start, i - start, &ignored)) return 0;
            }
            if (i > n) return 0;
        } else if (c == 'n') {
            if (i + 4 > n || memcmp(p + i, "null", 4) != 0) return 0;
            i += 4;
        } else {
            return -1;
        }
    after_value:
        if (i >= n) return 0;
        if (p[i] == ',') {
            i++;
            if (i < n && !is_space(p[i])) continue;
            space();
            continue;
        }
        space();
        if (i >= n) return 0;
        if (p[i] == ',') {
            i++;
            space();
            continue;
        }
        if (p[i] != ']') return 0;
        i++;
        space();
        return i == n ? 1 : 0;
    }
}

template <typename T> inline T check(simdjson_result<T> &&result) {
    T value;
    if (std::move(result).get(value)) throw failure();
    return value;
}

}  // namespace

struct cf_sj_decoder {
    ondemand::parser parser;
    std::vector<cf_sj_coin> coins;
    std::vector<double> points;
    const char *base = nullptr;
    // Piecewise decoding of large bodies (see cf_sj_markets_chunked_begin).
    uint8_t *arena = nullptr;
    size_t arena_used = 0;
    const char *body_bytes = nullptr;
    size_t body_length = 0, body_position = 0;
    int index_base = 0;
    bool body_done = false;
    size_t piece_bytes = 4 << 20;
    std::vector<char> piece;

    // --- values ----------------------------------------------------------------------------

    // A number's raw text checked against the grammar (simdjson is lenient about some forms).
    void check_number_text(ondemand::value &value) {
        std::string_view token = trimmed(check(value.raw_json_token()));
        bool big = false;
        if (!number_grammar(token.data(), token.size(), &big)) throw failure();
        if (big) {
            double ignored;
            if (!slow_number(token.data(), token.size(), &ignored)) throw failure();
        }
    }

    // Visits a value nobody reads, checking it completely.
    void skip(ondemand::value value, int depth) {
        switch (check(value.type())) {
        case ondemand::json_type::array: {
            std::string_view raw = check(check(value.get_array()).raw_json());
            if (!validate_container(raw.data(), raw.size(), depth)) throw failure();
            break;
        }
        case ondemand::json_type::object: {
            std::string_view raw = check(check(value.get_object()).raw_json());
            if (!validate_container(raw.data(), raw.size(), depth)) throw failure();
            break;
        }
        case ondemand::json_type::number: check_number_text(value); break;
        case ondemand::json_type::string: (void)check(value.get_string()); break;
        case ondemand::json_type::boolean: (void)check(value.get_bool()); break;
        case ondemand::json_type::null:
            if (!check(value.is_null())) throw failure();
            break;
        }
    }

    // A numeric field: a number, a string wholly a number, or null; anything else reads as null
    // with a warning bit.
    void number_field(ondemand::value value, cf_sj_coin &coin, int field, int depth) {
        uint64_t bit = uint64_t(1) << field;
        coin.number_present &= ~bit;
        coin.number_problem &= ~bit;
        coin.number_bad_text &= ~bit;
        switch (check(value.type())) {
        case ondemand::json_type::number:
            // simdjson's number parser is strict (no 01, 1., -, .5, 1e, 1e400; tested).
            coin.numbers[field] = check(value.get_double());
            coin.number_present |= bit;
            return;
        case ondemand::json_type::string: {
            std::string_view text = check(value.get_string());
            double number;
            if (cf_sj_number_text(text.data(), text.size(), &number)) {
                coin.numbers[field] = number;
                coin.number_present |= bit;
            } else {
                coin.number_problem |= bit;
                coin.number_bad_text |= bit;
            }
            return;
        }
        case ondemand::json_type::null:
            if (!check(value.is_null())) throw failure();
            return;
        default:
            skip(value, depth);
            coin.number_problem |= bit;
            return;
        }
    }

    void string_field(ondemand::value value, cf_sj_coin &coin, int field, int depth) {
        cf_sj_string &out = coin.strings[field];
        switch (check(value.type())) {
        case ondemand::json_type::string: {
            std::string_view text = check(value.get_string());
            out.bytes = text.data();
            out.length = (int64_t)text.size();
            out.problem = 0;
            return;
        }
        case ondemand::json_type::null:
            if (!check(value.is_null())) throw failure();
            out.length = -1;
            out.problem = 0;
            return;
        default:
            skip(value, depth);
            out.length = -1;
            out.problem = CF_SJ_WARN_NOT_STRING;
            return;
        }
    }

    void roi(ondemand::value value, cf_sj_coin &coin, int depth) {
        ondemand::json_type type = check(value.type());
        if (type == ondemand::json_type::null) {
            if (!check(value.is_null())) throw failure();
            coin.roi_state = 0;
            return;
        }
        if (type != ondemand::json_type::object) {
            skip(value, depth);
            coin.roi_state = 2;
            return;
        }
        coin.roi_state = 1;
        ondemand::object object = check(value.get_object());
        for (auto field_result : object) {
            ondemand::field field = check(std::move(field_result));
            std::string_view key = field_key(field);
            ondemand::value inner = field.value();
            const Field *found = nullptr;
            for (const Field &candidate : kRoiFields)
                if (candidate.key == key) found = &candidate;
            if (found && found->kind == Kind::NUMBER) number_field(inner, coin, found->index, depth + 1);
            else if (found && found->kind == Kind::STRING) string_field(inner, coin, found->index, depth + 1);
            else skip(inner, depth + 1);
        }
    }

    // sparkline_in_7d: {"price":[…]}; the array is checked element by element and its range kept.
    void sparkline(ondemand::value value, cf_sj_coin &coin, int depth) {
        ondemand::json_type type = check(value.type());
        if (type == ondemand::json_type::null) {
            if (!check(value.is_null())) throw failure();
            return;
        }
        if (type != ondemand::json_type::object) {
            skip(value, depth);
            coin.sparkline_state = 2;
            return;
        }
        ondemand::object object = check(value.get_object());
        for (auto field_result : object) {
            ondemand::field field = check(std::move(field_result));
            std::string_view key = field_key(field);
            ondemand::value inner = field.value();
            if (key != "price") {
                skip(inner, depth + 1);
                continue;
            }
            ondemand::json_type price_type = check(inner.type());
            if (price_type == ondemand::json_type::null) {
                if (!check(inner.is_null())) throw failure();
                coin.sparkline_state = 0;
                continue;
            }
            if (price_type != ondemand::json_type::array) {
                skip(inner, depth + 1);
                coin.sparkline_state = 3;
                continue;
            }
            std::string_view raw = check(check(inner.get_array()).raw_json());
            int fast = validate_number_array(raw.data(), raw.size());
            if (fast == 0 || (fast < 0 && !validate_container(raw.data(), raw.size(), depth + 1))) throw failure();
            coin.sparkline_state = 1;
            // Points other than numbers and nulls: the caller reports them (rare, so found later).
            coin.sparkline_irregular = fast < 0 ? 1 : 0;
            coin.sparkline_length = (int64_t)raw.size();
            if (arena) {
                // Rows decoded piece by piece: the array's text moves to the arena the caller keeps.
                memcpy(arena + arena_used, raw.data(), raw.size());
                coin.sparkline_offset = (int64_t)arena_used;
                arena_used += raw.size();
                memset(arena + arena_used, 0, SIMDJSON_PADDING);
            } else {
                coin.sparkline_offset = raw.data() - base;
            }
        }
    }

    std::string_view field_key(ondemand::field &field) {
        // The raw key up to its closing quote; only a key with an escape is unescaped (checked).
        const char *start = field.key().raw();
        const char *p = start;
#if defined(__SSE2__)
        // 16 bytes at a time to the first quote or backslash: the key lies in a padded copy and
        // is closed (stage 1 checked), so the loads stay inside the padding.
        for (;;) {
            __m128i v = _mm_loadu_si128((const __m128i *)p);
            unsigned hit = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            if (hit) {
                p += __builtin_ctz(hit);
                break;
            }
            p += 16;
        }
#else
        while (*p != '"' && *p != '\\') p++;
#endif
        if (*p == '"') return std::string_view(start, size_t(p - start));
        return check(field.unescaped_key());
    }

    void coin_object(ondemand::value value, cf_sj_coin &coin) {
        ondemand::object object = check(value.get_object());
        for (auto field_result : object) {
            ondemand::field field = check(std::move(field_result));
            std::string_view key = field_key(field);
            ondemand::value inner = field.value();
            dispatch(key, inner, coin);
        }
    }

    void dispatch(std::string_view key, ondemand::value inner, cf_sj_coin &coin) {
        const int depth = 2;
        int code = find_key(key);
        switch (code >> 8) {
        case int(Kind::STRING): return string_field(inner, coin, code & 255, depth);
        case int(Kind::NUMBER): return number_field(inner, coin, code & 255, depth);
        case int(Kind::ROI): return roi(inner, coin, depth);
        case int(Kind::SPARKLINE): return sparkline(inner, coin, depth);
        default: return skip(inner, depth);
        }
    }

    static void reset(cf_sj_coin &coin, int index) {
        memset(&coin, 0, sizeof coin);
        coin.index = index;
        for (auto &s : coin.strings) s.length = -1;
        coin.sparkline_offset = -1;
    }

    int markets(const uint8_t *body, size_t length, uint8_t **out_copy, int64_t *error_offset, const char **error_name) {
        coins.clear();
        end_pieces();
        uint8_t *copy = (uint8_t *)malloc(length + SIMDJSON_PADDING);
        if (!copy) return CF_SJ_NO_MEMORY;
        memcpy(copy, body, length);
        memset(copy + length, 0, SIMDJSON_PADDING);
        base = (const char *)copy;
        ondemand::document document;
        auto fail = [&](error_code code) {
            *error_name = error_message(code);
            free(copy);
            return CF_SJ_MALFORMED;
        };
        error_code code = parser.iterate(padded_string_view(base, length, length + SIMDJSON_PADDING)).get(document);
        if (code) return fail(code);
        try {
            ondemand::json_type type;
            code = document.type().get(type);
            if (code) return fail(code);
            if (type != ondemand::json_type::array) {
                // Still strict JSON throughout, or it is malformed rather than the wrong shape.
                bool valid = validate_container(base, length, 0);
                if (!valid) return fail(TAPE_ERROR);
                free(copy);
                return CF_SJ_NOT_ARRAY;
            }
            ondemand::array array = check(document.get_array());
            int index = 0;
            for (auto element_result : array) {
                ondemand::value element = check(std::move(element_result));
                coins.emplace_back();
                cf_sj_coin &coin = coins.back();
                reset(coin, index++);
                if (check(element.type()) == ondemand::json_type::object) {
                    coin.state = CF_SJ_ROW_OBJECT;
                    coin_object(element, coin);
                } else {
                    coin.state = CF_SJ_ROW_NOT_OBJECT;
                    skip(element, 1);
                }
            }
            // Nothing may follow the array.
            const char *location = nullptr;
            if (document.current_location().get(location) != OUT_OF_BOUNDS) throw failure();
        } catch (const failure &) {
            const char *location = nullptr;
            if (!document.current_location().get(location) && location >= base && location <= base + length) {
                *error_offset = location - base;
            }
            return fail(TAPE_ERROR);
        } catch (const std::bad_alloc &) {
            free(copy);
            return CF_SJ_NO_MEMORY;
        }
        *out_copy = copy;
        return CF_SJ_OK;
    }

#if defined(__SSE2__)
    // Bit k set where p[k] == c, for the 64 bytes at p.
    static uint64_t byte_mask(const char *p, char c) {
        const __m128i needle = _mm_set1_epi8(c);
        uint64_t mask = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
            mask |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)) << (16 * k);
        }
        return mask;
    }

    // Bit k set where p[k] | 0x20 == c: for '{' also '[', for '}' also ']' (no other byte maps there).
    static uint64_t curly_mask(const char *p, char c) {
        const __m128i needle = _mm_set1_epi8(c), lower = _mm_set1_epi8(0x20);
        uint64_t mask = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_or_si128(_mm_loadu_si128((const __m128i *)(p + 16 * k)), lower);
            mask |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)) << (16 * k);
        }
        return mask;
    }

    // Bit k: the XOR of bits 0…k of x (set from each opening quote up to its closing one).
    static uint64_t prefix_xor(uint64_t x) {
        x ^= x << 1;
        x ^= x << 2;
        x ^= x << 4;
        x ^= x << 8;
        x ^= x << 16;
        x ^= x << 32;
        return x;
    }
#endif

    // The end of the JSON value starting at `at` (its extent only: strings and nesting are
    // followed, the grammar inside is left to simdjson); 0 when the text ends first or nests too
    // deep.
    size_t value_end(size_t at) {
        const char *p = body_bytes;
        size_t n = body_length;
        int depth = 0;
        size_t i = at;
#if defined(__SSE2__)
        // Below this position the scalar steps run (a block with a backslash: escapes are theirs).
        size_t scalar_until = 0;
        bool in_string = false;  // the blocks stopped inside a string
#endif
        while (i < n) {
#if defined(__SSE2__)
            // Inside a container, 64 bytes at a time: the quotes' prefix XOR (and whether the block
            // starts inside a string) marks the bytes inside strings, and only the brackets outside
            // them are counted.
            if (depth > 0 && i >= scalar_until && i + 64 <= n) {
                const char *block = p + i;
                if (byte_mask(block, '\\') != 0) {
                    if (in_string) {
                        // To the end of this string (escapes skip the byte after them); then on.
                        while (i < n && p[i] != '"') i += p[i] == '\\' ? 2 : 1;
                        if (i >= n) return 0;
                        i++;
                        in_string = false;
                    } else {
                        scalar_until = i + 64;  // escapes are the scalar steps'
                    }
                    continue;
                }
                uint64_t inside = prefix_xor(byte_mask(block, '"')) ^ (in_string ? ~uint64_t(0) : 0);
                uint64_t opens = curly_mask(block, '{') & ~inside;  // '[' or '{'
                uint64_t brackets = opens | (curly_mask(block, '}') & ~inside);
                while (brackets) {
                    unsigned bit = (unsigned)__builtin_ctzll(brackets);
                    brackets &= brackets - 1;
                    if (opens >> bit & 1) {
                        if (++depth > kMaximumDepth) return 0;
                    } else if (--depth == 0) {
                        return i + bit + 1;
                    }
                }
                in_string = inside >> 63;
                i += 64;
                continue;
            }
            if (in_string) {
                // Past the blocks (or before escapes) inside a string: to its end, then on.
                while (i < n && p[i] != '"') i += p[i] == '\\' ? 2 : 1;
                if (i >= n) return 0;
                i++;
                in_string = false;
                continue;
            }
            // Inside a container, skip 16 bytes at a time to the next quote or bracket.
            if (depth > 0) {
                const __m128i quote = _mm_set1_epi8('"'), open_a = _mm_set1_epi8('['), close_a = _mm_set1_epi8(']'),
                              open_o = _mm_set1_epi8('{'), close_o = _mm_set1_epi8('}');
                while (i + 16 <= n) {
                    __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
                    __m128i hit = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open_a)),
                        _mm_or_si128(_mm_cmpeq_epi8(v, close_a), _mm_or_si128(_mm_cmpeq_epi8(v, open_o), _mm_cmpeq_epi8(v, close_o))));
                    int mask = _mm_movemask_epi8(hit);
                    if (mask) {
                        i += (size_t)__builtin_ctz((unsigned)mask);
                        break;
                    }
                    i += 16;
                }
                if (i >= n) break;
            }
#endif
            char c = p[i];
            if (c == '"') {
                // To the closing quote: the next quote or backslash, 16 bytes at a time while
                // they lie inside the body (it has no padding); a backslash skips the byte after it.
                i++;
                for (;;) {
#if defined(__SSE2__)
                    while (i + 16 <= n) {
                        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
                        unsigned hit = (unsigned)_mm_movemask_epi8(
                            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
                        if (hit) {
                            i += (size_t)__builtin_ctz(hit);
                            break;
                        }
                        i += 16;
                    }
#endif
                    while (i < n && p[i] != '"' && p[i] != '\\') i++;
                    if (i >= n) return 0;
                    if (p[i] == '"') break;
                    i += 2;  // an escape: the backslash and the byte it escapes
                }
                i++;
                if (depth == 0) return i;
                continue;
            }
            if (depth == 0 && (c == ',' || c == ']' || c == '}' || is_space(c))) return i;  // a scalar's end
            if (c == '[' || c == '{') {
                if (++depth > kMaximumDepth) return 0;
            } else if (c == ']' || c == '}') {
                if (--depth == 0) return i + 1;
            }
            i++;
        }
        return depth == 0 ? i : 0;
    }

    // The next piece of rows: "[" + whole rows of the body + "]" decoded like a small body.
    int chunk(const cf_sj_coin **out_coins, size_t *out_count, const char **error_name) {
        coins.clear();
        *out_coins = nullptr;
        *out_count = 0;
        if (body_done) return CF_SJ_OK;
        piece.clear();
        piece.push_back('[');
        const char *p = body_bytes;
        size_t n = body_length, i = body_position;
        for (;;) {
            size_t end = value_end(i);
            if (end == 0 || end <= i) return CF_SJ_MALFORMED;
            piece.insert(piece.end(), p + i, p + end);
            i = end;
            while (i < n && is_space(p[i])) i++;
            if (i < n && p[i] == ',') {
                i++;
                while (i < n && is_space(p[i])) i++;
                if (piece.size() >= piece_bytes) break;
                piece.push_back(',');
                continue;
            }
            if (i < n && p[i] == ']') {
                i++;
                while (i < n && is_space(p[i])) i++;
                if (i != n) return CF_SJ_MALFORMED;
                body_done = true;
                break;
            }
            return CF_SJ_MALFORMED;
        }
        body_position = i;
        piece.push_back(']');
        size_t length = piece.size();
        piece.resize(length + SIMDJSON_PADDING, '\0');
        base = piece.data();
        ondemand::document document;
        if (parser.iterate(padded_string_view(base, length, piece.size())).get(document)) return CF_SJ_MALFORMED;
        try {
            ondemand::array array = check(document.get_array());
            for (auto element_result : array) {
                ondemand::value element = check(std::move(element_result));
                coins.emplace_back();
                cf_sj_coin &coin = coins.back();
                reset(coin, index_base++);
                if (check(element.type()) == ondemand::json_type::object) {
                    coin.state = CF_SJ_ROW_OBJECT;
                    coin_object(element, coin);
                } else {
                    coin.state = CF_SJ_ROW_NOT_OBJECT;
                    skip(element, 1);
                }
            }
            const char *location = nullptr;
            if (document.current_location().get(location) != OUT_OF_BOUNDS) throw failure();
        } catch (const failure &) {
            *error_name = "TAPE_ERROR";
            return CF_SJ_MALFORMED;
        }
        *out_coins = coins.data();
        *out_count = coins.size();
        return CF_SJ_MORE;
    }

    std::vector<int64_t> bad_points;

    // Forgets a piecewise decode (finished, failed or abandoned by the caller).
    void end_pieces() {
        arena = nullptr;
        body_bytes = nullptr;
        body_done = true;
        std::vector<char>().swap(piece);
    }

    int64_t prices(const uint8_t *copy, size_t copy_length, size_t offset, size_t length) {
        points.clear();
        bad_points.clear();
        const char *start = (const char *)copy + offset;
        ondemand::document document;
        if (parser.iterate(padded_string_view(start, length, copy_length + SIMDJSON_PADDING - offset)).get(document)) return -1;
        try {
            ondemand::array array = check(document.get_array());
            for (auto element_result : array) {
                ondemand::value element = check(std::move(element_result));
                double value = __builtin_nan("");
                switch (check(element.type())) {
                case ondemand::json_type::number: value = check(element.get_double()); break;
                case ondemand::json_type::string: {
                    std::string_view text = check(element.get_string());
                    double number;
                    if (cf_sj_number_text(text.data(), text.size(), &number)) value = number;
                    else bad_points.push_back((int64_t)points.size());
                    break;
                }
                case ondemand::json_type::null: break;  // a gap
                default: bad_points.push_back((int64_t)points.size()); break;  // booleans, containers: a gap, reported
                }
                points.push_back(value);
            }
        } catch (const failure &) {
            return -1;
        } catch (const std::bad_alloc &) {
            return -1;
        }
        return (int64_t)points.size();
    }
};

extern "C" {

cf_sj_decoder *cf_sj_decoder_new(void) { return new (std::nothrow) cf_sj_decoder(); }

void cf_sj_decoder_free(cf_sj_decoder *decoder) { delete decoder; }

size_t cf_sj_decoder_footprint(const cf_sj_decoder *decoder) {
    return decoder->parser.capacity() * 5 + decoder->coins.capacity() * sizeof(cf_sj_coin) +
           decoder->points.capacity() * sizeof(double);
}

int cf_sj_markets(cf_sj_decoder *decoder, const uint8_t *body, size_t length, const cf_sj_coin **out_coins,
                  size_t *out_count, uint8_t **out_copy, int64_t *out_error_offset, const char **out_error_name) {
    *out_coins = nullptr;
    *out_count = 0;
    *out_copy = nullptr;
    *out_error_offset = -1;
    *out_error_name = "";
    int status;
    try {
        status = decoder->markets(body, length, out_copy, out_error_offset, out_error_name);
    } catch (...) {
        return CF_SJ_NO_MEMORY;
    }
    if (status == CF_SJ_OK) {
        *out_coins = decoder->coins.data();
        *out_count = decoder->coins.size();
    }
    return status;
}

int cf_sj_markets_chunked_begin(cf_sj_decoder *decoder, const uint8_t *body, size_t length, size_t piece_bytes,
                                uint8_t **out_arena) {
    *out_arena = nullptr;
    size_t i = 0;
    const char *p = (const char *)body;
    while (i < length && is_space(p[i])) i++;
    if (i >= length || p[i] != '[') return CF_SJ_NOT_CHUNKABLE;
    i++;
    while (i < length && is_space(p[i])) i++;
    if (i >= length || p[i] == ']') return CF_SJ_NOT_CHUNKABLE;
    // Sparkline texts are at most the body's size; pages never written stay virtual.
    uint8_t *arena = (uint8_t *)malloc(length + SIMDJSON_PADDING);
    if (!arena) return CF_SJ_NO_MEMORY;
    decoder->arena = arena;
    decoder->arena_used = 0;
    decoder->body_bytes = p;
    decoder->body_length = length;
    decoder->body_position = i;
    decoder->index_base = 0;
    decoder->body_done = false;
    decoder->piece_bytes = piece_bytes ? piece_bytes : (4 << 20);
    *out_arena = arena;
    return CF_SJ_OK;
}

int cf_sj_markets_chunked_next(cf_sj_decoder *decoder, const cf_sj_coin **out_coins, size_t *out_count,
                               const char **out_error_name) {
    *out_error_name = "";
    int status;
    try {
        status = decoder->chunk(out_coins, out_count, out_error_name);
    } catch (...) {
        status = CF_SJ_NO_MEMORY;
    }
    if (status != CF_SJ_MORE) decoder->end_pieces();
    return status;
}

void cf_sj_markets_chunked_end(cf_sj_decoder *decoder) { decoder->end_pieces(); }

size_t cf_sj_markets_chunked_position(const cf_sj_decoder *decoder) { return decoder->body_position; }

int64_t cf_sj_prices_problems(const cf_sj_decoder *decoder, const int64_t **out_positions) {
    *out_positions = decoder->bad_points.data();
    return (int64_t)decoder->bad_points.size();
}

int64_t cf_sj_prices(cf_sj_decoder *decoder, const uint8_t *copy, size_t copy_length, size_t offset, size_t length,
                     const double **out_points) {
    *out_points = nullptr;
    int64_t count;
    try {
        count = decoder->prices(copy, copy_length, offset, length);
    } catch (...) {
        return -1;
    }
    if (count >= 0) *out_points = decoder->points.data();
    return count;
}

int cf_sj_number_text(const char *text, size_t length, double *out_value) {
    bool big = false;
    if (!number_grammar(text, length, &big)) return 0;
    return slow_number(text, length, out_value) ? 1 : 0;
}

int cf_sj_is_array(const uint8_t *text, size_t length) {
    const char *p = (const char *)text;
    size_t start = 0;
    while (start < length && is_space(p[start])) start++;
    if (start >= length || p[start] != '[') return 0;
    try {
        return validate_container(p + start, length - start, 0) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

const char *cf_sj_coin_key(int key) { return key >= 0 && key < CF_SJ_KEY_COUNT ? kCoinKeys[key] : nullptr; }

const char *cf_sj_number_path(int field) { return field >= 0 && field < CF_SJ_NUMBER_COUNT ? kNumberPaths[field] : nullptr; }

const char *cf_sj_string_path(int field) { return field >= 0 && field < CF_SJ_STRING_COUNT ? kStringPaths[field] : nullptr; }

}  // extern "C"

