/// Small text helpers shared by decoding, errors, the client, the ledger and imports.
extension String {
    /// `head`, the byte `separator` and `tail` (an import's `coinbase:<id>`, a group's `<id>#2`),
    /// their bytes written once into a string of the right size (`+` twice grew the result
    /// twice: about 900 instructions a row).
    init(joining head: String, _ tail: String, by separator: UInt8) {
        var head = head
        var tail = tail
        let count = head.utf8.count + 1 + tail.utf8.count
        self = head.withUTF8 { first in
            tail.withUTF8 { second in
                String(unsafeUninitializedCapacity: count) { buffer in
                    let raw = UnsafeMutableRawBufferPointer(buffer)
                    raw.copyMemory(from: UnsafeRawBufferPointer(first))
                    raw[first.count] = separator
                    UnsafeMutableRawBufferPointer(rebasing: raw[(first.count + 1)...]).copyMemory(from: UnsafeRawBufferPointer(second))
                    return count
                }
            }
        }
    }

    /// At most `limit` UTF-8 bytes, with "…" when cut.
    func truncated(_ limit: Int) -> String {
        utf8.count <= limit ? self : String(decoding: utf8.prefix(limit), as: UTF8.self) + "…"
    }
}
