/// A titled display value of a tracker screen: `{"title", "value", "percentage_change"}`, and
/// `"coverage"` on the "Portfolio Value" statistic.
public struct Statistic: Hashable, Sendable {
    /// "Market Cap", "Current Price", …
    public var title: String
    /// Formatted for display ("$2.58Tr", "42.50%", "¥148,064", "n/a").
    public var value: String
    /// The 24 h change in percent units, or nil when not applicable or unknown.
    public var percentageChange: Double?
    /// For "Portfolio Value" only: the share (0…1) of the value whose 24 h change is known and
    /// counted in `percentageChange` (see `PortfolioChange`); nil for other statistics, whose
    /// JSON has no `coverage` key.
    public var coverage: Double?

    /// A statistic; `percentageChange` in percent units, nil when not applicable; `coverage`
    /// 0…1 or nil.
    public init(title: String, value: String, percentageChange: Double? = nil, coverage: Double? = nil) {
        self.title = title
        self.value = value
        self.percentageChange = percentageChange
        self.coverage = coverage
    }
}
