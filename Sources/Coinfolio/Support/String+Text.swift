/// Small text helpers shared by decoding, errors and the client.
extension String {
    /// The text without leading and trailing whitespace.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// At most `limit` UTF-8 bytes, with "…" when cut.
    func truncated(_ limit: Int) -> String {
        utf8.count <= limit ? self : String(decoding: utf8.prefix(limit), as: UTF8.self) + "…"
    }
}
