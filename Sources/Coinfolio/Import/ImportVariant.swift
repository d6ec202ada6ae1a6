/// One header a format writes (SPEC §18 "formats and variants"): its columns as the exchange
/// writes them, the newer columns read as the same variant, whether lines may come before it, and
/// the importer that reads its rows. Each importer registers its variants; `ImportFormats.all`
/// lists them for detection.
struct ImportVariant: Sendable {
    /// One column of the header.
    enum Column: Sendable, Hashable {
        /// A cell exactly so (after trimming spaces).
        case named(String)
        /// A cell `XXX <suffix>` whose first word is a currency code of 3 letters (Coinbase v1's
        /// `EUR Subtotal`); every such column of a header names the same currency.
        case currencyPrefixed(String)
        /// `<name>(UTC)` or `<name>(UTC±h[:mm])` (Binance's `Date(UTC+8)`): the times of the
        /// column are in that offset.
        case dateUTC(String)

        /// How the column is named in code and messages: the cell (`named`), its suffix
        /// (`currencyPrefixed`) or `name(UTC)` (`dateUTC`).
        var key: String {
            switch self {
            case .named(let name): return name
            case .currencyPrefixed(let suffix): return suffix
            case .dateUTC(let name): return "\(name)(UTC)"
            }
        }
    }

    /// The format.
    let format: ImportFormat
    /// The variant's name in the answer (`"v4"`, `"statement"`).
    let name: String
    /// The columns a header of this variant has, in this order (others may stand between them).
    let columns: [Column]
    /// Columns newer files add, read as the same variant without a warning (Coinbase's `Sender
    /// Address`, Kraken's `subclass`).
    var newerColumns: [String] = []
    /// Whether lines may come before the header (Coinbase's files start with a preamble).
    var hasPreamble = false
    /// The reader of the variant's rows, made for a matched header.
    let importer: @Sendable (ImportHeader) throws -> any RowImporter
}

/// What reads the data rows of one variant into the shared row model (SPEC §18). Rows of one
/// exchange transaction that the file writes apart (a Binance statement's Buy/Sell/Fee rows, a
/// Kraken trade's two rows) are held until their group is complete.
protocol RowImporter {
    /// Reads one data row; adds what it became (entries, ignored rows, warnings) to `file`.
    /// - Throws: `.invalidArgument` naming the row's line and the column of a broken cell.
    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws
    /// After the last row: what the rows still held became.
    mutating func finish(into file: inout ImportedFile) throws
}

extension RowImporter {
    /// Nothing is held by default.
    mutating func finish(into file: inout ImportedFile) throws {}
}
