/// A field of a CoinGecko body that was read as null (or `""`) because of its type: reported in
/// the `warnings` list of decode outputs rather than dropped silently (SPEC §10).
///
/// JSON form: `{"index":i,"id":"…","field":"…","reason":"…"}`.
///
/// `reason` is one of:
/// - `"not a number"`: a number field holding a boolean, object, array, or a string that is not
///   entirely a JSON number (`"12abc"`, `""`, `" 1"`, `"NaN"`, `"Infinity"`, `"0x10"`), or a
///   number string out of the range of a double (`"1e400"`);
/// - `"not a whole number"`: `market_cap_rank` with a fraction;
/// - `"not a string"`: a text field (`symbol`, `name`, `image`, dates, `roi.currency`) of another type;
/// - `"missing"`: `symbol` or `name` absent or null; the row is kept with `""`;
/// - `"not an object"`: `roi` or `sparkline_in_7d` of another type;
/// - `"not an array"`: `sparkline_in_7d.price` of another type.
/// A string that is entirely a JSON number (`"0.0421"`, `"-1.5"`, `"4.2e17"`) is read as that
/// number and not reported. Missing or null optional fields are not reported.
public struct DecodeWarning: Hashable, Sendable {
    /// The row's position in the body's array, from 0 (nil outside an array).
    public var index: Int?
    /// The row's coin id (nil when the body has none).
    public var id: String?
    /// The CoinGecko key as a path: `current_price`, `roi.times`, `sparkline_in_7d.price[3]`.
    public var field: String
    /// Why the field was not used; see the type's documentation for the list.
    public var reason: String

    /// A warning about `field` of the row at `index` with coin `id`.
    public init(index: Int?, id: String?, field: String, reason: String) {
        self.index = index
        self.id = id
        self.field = field
        self.reason = reason
    }
}

/// The warnings of one object being decoded: fields and reasons, before the row's index and id
/// are known.
struct FieldWarnings {
    /// Prepended to every field name ("roi." inside `roi`).
    var prefix = ""
    private(set) var items: [(field: String, reason: String)] = []

    init(prefix: String = "") { self.prefix = prefix }

    mutating func add(_ field: String, _ reason: String) {
        items.append((prefix + field, reason))
    }

    mutating func append(contentsOf other: FieldWarnings) {
        items += other.items
    }

    /// The warnings with the row's `index` and `id`.
    func warnings(index: Int?, id: String?) -> [DecodeWarning] {
        items.map { DecodeWarning(index: index, id: id, field: $0.field, reason: $0.reason) }
    }
}

extension DecodeWarning {
    static let notANumber = "not a number"
    static let notAWholeNumber = "not a whole number"
    static let notAString = "not a string"
    static let missing = "missing"
    static let notAnObject = "not an object"
    static let notAnArray = "not an array"
}
