import Foundation

/// How `ChartSVG` draws a chart.
///
/// JSON form (every key optional): `{"width":640,"height":320,"title":"…"|null,"theme":"light"|"dark"}`.
public struct ChartSVGOptions: Hashable, Sendable {
    /// Colours for a light or a dark page.
    public enum Theme: String, Hashable, Sendable {
        /// Dark text on white.
        case light
        /// Light text on near-black.
        case dark
    }

    /// The smallest and largest width and height, in pixels.
    public static let sizeRange = 64...4096

    /// Width in pixels, 64…4096.
    public var width: Int
    /// Height in pixels, 64…4096.
    public var height: Int
    /// A title drawn above the chart (any text; it is escaped), or nil for none.
    public var title: String?
    /// The colours.
    public var theme: Theme

    /// Options; the size must be within `sizeRange`.
    /// - Throws: `.invalidArgument` for a size outside 64…4096.
    public init(width: Int = 640, height: Int = 320, title: String? = nil, theme: Theme = .light) throws {
        guard Self.sizeRange.contains(width), Self.sizeRange.contains(height) else {
            throw CoinfolioError.invalid("width and height must be whole numbers from 64 to 4096 pixels")
        }
        self.width = width
        self.height = height
        self.title = title
        self.theme = theme
    }

    /// The defaults: 640 × 320, no title, light.
    public init() {
        width = 640
        height = 320
        title = nil
        theme = .light
    }

    /// Reads the JSON form; nil means the defaults.
    /// - Throws: `.invalidArgument` for malformed JSON or a bad value, naming the key.
    public init(json: String?) throws {
        let object = try ConfigJSON.object(json)
        func size(_ key: String) throws -> Int {
            guard let value = object[key], !(value is NSNull) else { return key == "width" ? 640 : 320 }
            guard let number = value as? Double, number == number.rounded(),
                Double(Self.sizeRange.lowerBound)...Double(Self.sizeRange.upperBound) ~= number
            else { throw CoinfolioError.invalid("\(key) must be a whole number from 64 to 4096 pixels") }
            return Int(number)
        }
        var title: String?
        if let value = object["title"], !(value is NSNull) {
            guard let text = value as? String else { throw CoinfolioError.invalid("title must be a string or null") }
            title = text
        }
        var theme = Theme.light
        if let value = object["theme"], !(value is NSNull) {
            guard let text = value as? String, let chosen = Theme(rawValue: text) else {
                throw CoinfolioError.invalid("theme must be \"light\" or \"dark\"")
            }
            theme = chosen
        }
        try self.init(width: size("width"), height: size("height"), title: title, theme: theme)
    }
}
