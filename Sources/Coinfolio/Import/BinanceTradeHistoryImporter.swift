/// Binance's Trade History (SPEC §18): `trade_history`
/// `Date(UTC),Pair,Side,Price,Executed,Amount,Fee` with cells like `0.0528450000BTC`, and
/// `trade_history_old` `Date(UTC),Market,Type,Price,Amount,Total,Fee,Fee Coin`. Numbers may be
/// quoted with thousands separators (`"11,426.20"`); the date column may state an offset
/// (`Date(UTC+8)`). A pair written without a separator (`TRXBTC`) is split by the longest known
/// quote asset, or by the asset the Executed cell names.
///
/// BUY → the quote amount given for the base amount; SELL → the other way; the fee (in the
/// coin its cell or column names) is a fee of the entry. External ids: the hash of the row's cells.
struct BinanceTradeHistoryImporter: RowImporter {
    static let variants: [ImportVariant] = [
        ImportVariant(
            format: .binance, name: "trade_history",
            columns: [
                .dateUTC("Date"), .named("Pair"), .named("Side"), .named("Price"), .named("Executed"), .named("Amount"), .named("Fee"),
            ]
        ) { try BinanceTradeHistoryImporter(header: $0) },
        ImportVariant(
            format: .binance, name: "trade_history_old",
            columns: [
                .dateUTC("Date"), .named("Market"), .named("Type"), .named("Price"), .named("Amount"), .named("Total"), .named("Fee"),
                .named("Fee Coin"),
            ]
        ) { try BinanceTradeHistoryImporter(header: $0) },
    ]

    /// Binance's quote assets, for splitting a pair such as `TRXBTC` (the longest that ends the
    /// pair wins: `ETHBUSD` is ETH/BUSD, not ETHB/USD).
    static let quoteAssets = [
        "USDT", "USDC", "FDUSD", "BUSD", "TUSD", "USDP", "PAX", "DAI", "UST", "VAI", "BTC", "ETH", "BNB", "TRX", "XRP", "DOGE", "DOT",
        "EUR", "GBP", "AUD", "BRL", "TRY", "RUB", "UAH", "NGN", "ZAR", "JPY", "PLN", "RON", "ARS", "MXN", "COP", "CZK", "IDRT", "BIDR",
        "BKRW", "BVND", "AEUR", "EURI",
    ]

    private let date, pair, side, price: ImportHeader.Field
    /// trade_history: Executed (base, suffixed), Amount (quote, suffixed), Fee (suffixed).
    /// trade_history_old: Amount (base), Total (quote), Fee and Fee Coin.
    private let base, quote, fee: ImportHeader.Field
    private let feeCoin: ImportHeader.Field?
    private let offset: Int64
    private static let number: NumberForm = [.thousands, .assetSuffix]

    init(header: ImportHeader) throws {
        date = try header.require("Date(UTC)")
        pair = try header.require(anyOf: ["Pair", "Market"])
        side = try header.require(anyOf: ["Side", "Type"])
        price = try header.require("Price")
        feeCoin = header.field("Fee Coin")
        base = try header.require(feeCoin == nil ? "Executed" : "Amount")
        quote = try header.require(feeCoin == nil ? "Amount" : "Total")
        fee = try header.require("Fee")
        offset = header.utcOffsetMilliseconds
    }

    mutating func read(_ row: ImportRow, into file: inout ImportedFile) throws {
        let time = try row.time(date, .iso, offset: offset)
        let (baseAsset, quoteAsset) = try split(row)
        _ = try row.number(price, .thousands)  // checked, not needed: the amounts say it exactly
        let bought = try row.requiredNumber(base, Self.number, suffixes: [baseAsset])
        let paid = try row.requiredNumber(quote, Self.number, suffixes: [quoteAsset])
        for (read, field, expected) in [(bought, base, baseAsset), (paid, quote, quoteAsset)]
        where read.suffix.map({ $0 != expected }) ?? false {
            throw row.error(field, "\"\(row.text(field))\" is in \(read.suffix ?? ""), not the pair's \(expected)")
        }
        var fees: [ImportedEntry.Asset] = []
        if let feeCoin {
            if let amount = try row.number(fee, .thousands)?.value, !amount.isZero {
                fees.append(ImportedEntry.Asset(try row.symbol(feeCoin), amount))
            }
        } else if let read = try row.number(fee, Self.number, suffixes: [baseAsset, quoteAsset, "BNB"]), !read.value.isZero {
            guard let coin = read.suffix else { throw row.error(fee, "\"\(row.text(fee))\" names no coin (0.001BNB)") }
            fees.append(ImportedEntry.Asset(coin, read.value))
        }
        let baseSide = ImportedEntry.Asset(baseAsset, bought.value)
        let quoteSide = ImportedEntry.Asset(quoteAsset, paid.value)
        let action: ImportedEntry.Action
        switch row.text(side).uppercased() {
        case "BUY": action = .exchange(sent: quoteSide, received: baseSide, value: nil)
        case "SELL": action = .exchange(sent: baseSide, received: quoteSide, value: nil)
        default: throw row.error(side, "\"\(row.text(side))\" is not BUY or SELL")
        }
        let id = file.ids.hashed([row.record])
        file.add(line: row.line, timestamp: time, action, fees: fees, note: "", externalID: id)
    }

    /// The pair's base and quote assets: by the longest known quote asset that ends it, else by
    /// the asset the base amount's cell names (`0.5TRX` in a `TRXXYZ` pair).
    private func split(_ row: ImportRow) throws -> (String, String) {
        let text = try row.symbol(pair)
        for separator in ["/", "-", "_"] where text.contains(separator) {
            let parts = text.split(separator: Character(separator), omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { break }
            return (String(parts[0]), String(parts[1]))
        }
        if let quote = Self.quoteAssets.filter({ text.count > $0.count && text.hasSuffix($0) }).max(by: { $0.count < $1.count }) {
            return (String(text.dropLast(quote.count)), quote)
        }
        if let named = try row.number(base, Self.number)?.suffix?.uppercased(), text.count > named.count, text.hasPrefix(named) {
            return (named, String(text.dropFirst(named.count)))
        }
        throw row.error(pair, "cannot tell the assets of \"\(text)\" apart (no known quote asset ends it)")
    }
}
