import Foundation

/// Turns CoinGecko's HTML descriptions (`description.en`) into plain text.
enum HTMLText {
    private static let namedEntities: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
        "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢",
    ]

    /// Removes tags, decodes entities (named, `&#NNN;` and `&#xHH;`), and writes CRLF as LF.
    /// `<br>` and `</p>` become line breaks. Unknown entities stay as written.
    static func plainText(_ html: String) -> String {
        var out = ""
        out.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        // Once a "<" has no ">" after it, no later one has either: stop searching (keeps the pass
        // linear for text full of "<").
        var tagsPossible = true
        while index < html.endIndex {
            let character = html[index]
            if character == "<", tagsPossible, let close = html[index...].firstIndex(of: ">") {
                let tag = html[html.index(after: index)..<close].lowercased()
                if tag.hasPrefix("br") || tag == "/p" { out.append("\n") }
                index = html.index(after: close)
            } else if character == "<", tagsPossible {
                tagsPossible = false
                out.append(character)
                index = html.index(after: index)
            } else if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
                let decoded = entity(html[html.index(after: index)..<semicolon])
            {
                out.append(decoded)
                index = html.index(after: semicolon)
            } else if character == "\r\n" || character == "\r" {
                out.append("\n")
                index = html.index(after: index)
            } else {
                out.append(character)
                index = html.index(after: index)
            }
        }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
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
