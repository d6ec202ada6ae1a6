/// The keys of one JSON shape Coinfolio writes: an enum whose raw values are the shape's keys,
/// in the order its writer writes them. That enum is the one list of the shape: its writer takes
/// keys only in this form (`JSONWriter.key(_:)`; a key named by data — a currency code, a coin
/// id — goes through `key(named:)`), a reader of the same shape reads its keys from it, and the
/// Python suite (`bindings/python/tests/test_wire_keys.py`) holds every TypedDict of
/// `coinfolio.answers` equal to these lists. A coin's keys (`Coin.JSONKey`) are also the C++
/// scanner's (`CF_SJ_COIN_FIELDS` in `CSimdJSON.h`, tied by `OnePassDecodingTests`).
///
/// Declare one as `enum JSONKey: String, WireKeys { … }` inside (an extension of) the type it
/// belongs to.
protocol WireKeys: RawRepresentable<String>, CaseIterable, Sendable {}

extension JSONWriter {
    /// Writes `"key":`; the value written next belongs to it.
    mutating func key<Key: WireKeys>(_ key: Key) { self.key(named: key.rawValue) }
}
