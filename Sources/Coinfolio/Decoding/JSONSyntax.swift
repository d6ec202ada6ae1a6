/// The strict JSON check for a body decoded by other means (the simdjson markets decoder finds
/// where and why a body it refused is malformed with it): the one strict reader (`JSONReader`)
/// walking the whole text without keeping anything, and the UTF-8 check every body from outside
/// passes first.
enum JSONSyntax {
    /// Checks that the bytes are UTF-8 (a leading `FF FE` is not UTF-16 here). Nearly every
    /// body is ASCII: that is checked first, fast.
    ///
    /// - Throws: `.invalidArgument` (`details["reason"]` `"bad_utf8"`) when the bytes are not UTF-8.
    static func checkUTF8(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return }
        guard String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil else {
            throw CoinfolioError(.invalidArgument, "the body is not valid UTF-8", reason: .badUTF8)
        }
    }

    /// Checks that UTF-8 `bytes` are exactly one JSON text (RFC 8259), surrounded by optional
    /// whitespace.
    ///
    /// - Parameter offsetBase: added to offsets in messages (bytes dropped before, e.g. a BOM).
    /// - Throws: `.invalidArgument` with `details.reason` `"malformed_json"` (message: "malformed
    ///   JSON at byte offset N: …"), `"lone_surrogate"`, `"number_out_of_range"` or `"too_deep"`,
    ///   and `details.offset` = N.
    static func checkStrict(_ bytes: UnsafeRawBufferPointer, offsetBase: Int = 0) throws {
        var reader = JSONReader(bytes.bindMemory(to: UInt8.self), offsetBase: offsetBase)
        try reader.document { try $0.skipValue() }
    }

    /// `true` when `bytes` are UTF-8 and pass `checkStrict` (for tests and the fuzz oracle).
    static func isStrictJSON(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? checkUTF8(bytes)) != nil && (try? checkStrict(bytes)) != nil
    }
}
