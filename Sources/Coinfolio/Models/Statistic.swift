/// A titled display value of a tracker screen: `{"title", "value", "percentage_change"}`.
public struct Statistic: Hashable, Sendable {
    /// "Market Cap", "Current Price", …
    public var title: String
    /// Formatted for display ("$2.58Tr", "42.50%", "n/a").
    public var value: String
    /// The 24 h change in percent units, or nil when not applicable or unknown.
    public var percentageChange: Double?

    /// A statistic; `percentageChange` in percent units, nil when not applicable.
    public init(title: String, value: String, percentageChange: Double? = nil) {
        self.title = title
        self.value = value
        self.percentageChange = percentageChange
    }
}
