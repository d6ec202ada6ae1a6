import Foundation

/// Turns CoinGecko's HTML descriptions (`description.en`) into plain text.
enum HTMLText {
    private static let namedEntities: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
        "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢",
    ]

    /// Removes tags, decodes entities (named, `&#NNN;` and `&#xHH;`) once, and writes CRLF as LF
    /// (SPEC §10). Only real tags are tags: `<` followed by an ASCII letter, `/`, `!` or `?`, up
    /// to the next `>`; a bare `<` or `>` is text ("fees < 0.1% and > 0" stays as it is), and so
    /// is a `<` with no `>` after it. `<br>` and `</p>` become line breaks. Decoded text is never
    /// read again (`&lt;b&gt;` is the text `<b>`). Unknown entities stay as written. Linear time:
    /// each scalar is looked at a bounded number of times.
    static func plainText(_ html: String) -> String {
        let scalars = Array(html.unicodeScalars)
        let count = scalars.count
        var out = String.UnicodeScalarView()
        var index = 0
        // The first ">" at or after `index` (count when none): it only moves forward.
        var close = -1
        func nextClose(from position: Int) -> Int {
            if close < position {
                close = max(close + 1, position)
                while close < count, scalars[close] != ">" { close += 1 }
            }
            return close
        }
        while index < count {
            let scalar = scalars[index]
            if scalar == "<", index + 1 < count, startsTag(scalars[index + 1]), case let end = nextClose(from: index + 1), end < count {
                if breaksLine(scalars[(index + 1)..<end]) { out.append("\n") }
                index = end + 1
            } else if scalar == "&", let (decoded, end) = entity(in: scalars, at: index) {
                out.append(contentsOf: decoded.unicodeScalars)
                index = end + 1
            } else if scalar == "\r" {
                out.append("\n")
                index += index + 1 < count && scalars[index + 1] == "\n" ? 2 : 1
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `scalar`, right after a `<`, makes it a tag: an ASCII letter, `/`, `!` or `?`.
    private static func startsTag(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "/", "!", "?": return true
        default: return false
        }
    }

    /// Whether the tag between `<` and `>` is `br` (any form) or `/p`.
    private static func breaksLine(_ tag: ArraySlice<Unicode.Scalar>) -> Bool {
        var rest = tag[...]
        let closing = rest.first == "/"
        if closing { rest = rest.dropFirst() }
        var name = ""
        for scalar in rest {
            guard scalar.isASCII, scalar.properties.isAlphabetic else { break }
            name += String(scalar).lowercased()
        }
        return name == "br" || (closing && name == "p")
    }

    /// The entity starting at `start` (an `&`): its text and the position of its `;`, or nil.
    /// Looks at most 32 scalars ahead.
    private static func entity(in scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var end = start + 1
        let limit = min(scalars.count, start + 32)
        while end < limit, scalars[end] != ";" { end += 1 }
        guard end < limit, end > start + 1 else { return nil }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[(start + 1)..<end])
        return entity(Substring(String(name))).map { ($0, end) }
    }

    private static func entity(_ name: Substring) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return namedEntities[name]
    }
}
