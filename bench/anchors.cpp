// anchors.cpp — the simdjson On-Demand anchor of bench.c: full extraction of a /coins/markets
// body (every field of every coin, every sparkline point parsed), what a hand-written consumer of
// simdjson would do. Compiled with the system's libsimdjson-dev.
#include <simdjson.h>

#include <cstring>
#include <string>
#include <vector>

using namespace simdjson;

namespace {
struct Coin {
    std::string_view id, symbol, name, image, ath_date, atl_date, last_updated, roi_currency;
    double numbers[32];
    std::vector<double> sparkline;
};
ondemand::parser parser;
std::vector<Coin> coins;
std::string padded;
}  // namespace

extern "C" {

/* Copies the body into a padded buffer once (simdjson's best case: no copy per call). */
void anchor_simdjson_prepare(const char *body, size_t length) {
    padded.assign(body, length);
    padded.reserve(length + SIMDJSON_PADDING);
}

/* Extracts every coin; returns the number of sparkline points (0 on error). */
size_t anchor_simdjson_extract(void) {
    size_t points = 0;
    coins.clear();
    ondemand::document doc;
    if (parser.iterate(padded_string_view(padded.data(), padded.size(), padded.capacity())).get(doc)) return 0;
    ondemand::array array;
    if (doc.get_array().get(array)) return 0;
    for (auto element : array) {
        ondemand::object object;
        if (element.get_object().get(object)) return 0;
        coins.emplace_back();
        Coin &coin = coins.back();
        int n = 0;
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key)) return 0;
            ondemand::value value = field.value();
            ondemand::json_type type;
            if (value.type().get(type)) return 0;
            switch (type) {
            case ondemand::json_type::number: {
                double d;
                if (value.get_double().get(d)) return 0;
                coin.numbers[n++ & 31] = d;
                break;
            }
            case ondemand::json_type::string: {
                std::string_view s;
                if (value.get_string().get(s)) return 0;
                if (key == "id") coin.id = s;
                else if (key == "symbol") coin.symbol = s;
                else if (key == "name") coin.name = s;
                else if (key == "image") coin.image = s;
                else if (key == "ath_date") coin.ath_date = s;
                else if (key == "atl_date") coin.atl_date = s;
                else if (key == "last_updated") coin.last_updated = s;
                break;
            }
            case ondemand::json_type::object: {
                ondemand::object inner;
                if (value.get_object().get(inner)) return 0;
                for (auto f : inner) {
                    std::string_view k;
                    if (f.unescaped_key().get(k)) return 0;
                    ondemand::value v = f.value();
                    ondemand::json_type t;
                    if (v.type().get(t)) return 0;
                    if (t == ondemand::json_type::array) {
                        for (auto p : v.get_array()) {
                            double d;
                            if (p.get_double().get(d)) d = __builtin_nan("");
                            coin.sparkline.push_back(d);
                            points++;
                        }
                    } else if (t == ondemand::json_type::number) {
                        double d;
                        if (v.get_double().get(d)) return 0;
                        coin.numbers[n++ & 31] = d;
                    } else if (t == ondemand::json_type::string) {
                        std::string_view s;
                        if (v.get_string().get(s)) return 0;
                        coin.roi_currency = s;
                    }
                }
                break;
            }
            default:
                break;  // null
            }
        }
    }
    return points + 1;
}

}  // extern "C"
