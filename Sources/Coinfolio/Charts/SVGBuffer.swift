/// The bytes of an SVG document being written: coordinates with one decimal, written by hand
/// (no `String(format:)`), and text escaped for XML.
struct SVGBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func byte(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(bytes more: [UInt8]) { bytes.append(contentsOf: more) }

    /// `value` rounded to one decimal: "12.3", "-4", "0.5".
    mutating func coordinate(_ value: Double) {
        // Coordinates stay on the page; a non-finite one (a defect upstream) draws at 0.
        let bounded = value.isFinite ? min(max(value, -100_000), 100_000) : 0
        var tenths = Int((bounded * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")); tenths = -tenths }
        integer(tenths / 10)
        let fraction = tenths % 10
        if fraction != 0 { bytes.append(UInt8(ascii: ".")); bytes.append(0x30 + UInt8(fraction)) }
    }

    private mutating func integer(_ value: Int) {
        if value >= 10 { integer(value / 10) }
        bytes.append(0x30 + UInt8(value % 10))
    }

    /// Text content or an attribute value: `& < > " '` escaped; characters XML 1.0 forbids
    /// (controls other than tab, newline and return; U+FFFE, U+FFFF) become U+FFFD.
    mutating func appendEscaped(_ text: String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": append("&amp;")
            case "<": append("&lt;")
            case ">": append("&gt;")
            case "\"": append("&quot;")
            case "'": append("&apos;")
            case "\t", "\n", "\r": bytes.append(UInt8(scalar.value))
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF || (0x7F...0x9F).contains(scalar.value) {
                    append("\u{FFFD}")
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        }
    }
}

extension SVGBuffer {
    /// Path data of a straight segment: `Mx,y` to its start unless the pen is there already, then
    /// `Lx,y` to its end.
    @inline(__always) mutating func segment(from start: (Double, Double), to end: (Double, Double), penIsThere: Bool) {
        if !penIsThere {
            byte(UInt8(ascii: "M"))
            coordinate(start.0)
            byte(UInt8(ascii: ","))
            coordinate(start.1)
        }
        byte(UInt8(ascii: "L"))
        coordinate(end.0)
        byte(UInt8(ascii: ","))
        coordinate(end.1)
    }

    /// `<line x1 y1 x2 y2 stroke stroke-width="1"/>`.
    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String) {
        append("<line x1=\"")
        coordinate(x1)
        append("\" y1=\"")
        coordinate(y1)
        append("\" x2=\"")
        coordinate(x2)
        append("\" y2=\"")
        coordinate(y2)
        append("\" stroke=\"\(stroke)\" stroke-width=\"1\"/>\n")
    }

    /// `<text x y fill text-anchor …>content</text>`, the content escaped; `attributes` (trusted
    /// markup, never input) go after the anchor.
    mutating func text(_ content: String, x: Double, y: Double, anchor: String, fill: String, attributes: String = "") {
        append("<text x=\"")
        coordinate(x)
        append("\" y=\"")
        coordinate(y)
        append("\" fill=\"\(fill)\" text-anchor=\"\(anchor)\"\(attributes)>")
        appendEscaped(content)
        append("</text>\n")
    }
}
