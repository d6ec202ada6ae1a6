/// A small text helper shared by decoding, errors and the client.
extension String {
    /// At most `limit` UTF-8 bytes, with "…" when cut.
    func truncated(_ limit: Int) -> String {
        utf8.count <= limit ? self : String(decoding: utf8.prefix(limit), as: UTF8.self) + "…"
    }
}
