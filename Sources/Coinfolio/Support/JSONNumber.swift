/// One JSON number read from bytes, for the small one-pass readers that do not need a whole JSON
/// parser: the grammar and conversion of the one strict reader (`JSONReader`), correctly rounded
/// whatever the locale.
enum JSONNumber {
    /// Reads the number starting at `index`; on success moves `index` past it.
    /// - Returns: nil (with `index` unspecified) when the bytes there are not a JSON number;
    ///   ±infinity for one beyond a double's range.
    static func read(_ b: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Double? {
        guard case .success(let shape) = JSONReader.numberShape(b, at: index) else { return nil }
        let start = index
        index = shape.end
        return JSONReader.value(b, at: start, shape)
    }
}
