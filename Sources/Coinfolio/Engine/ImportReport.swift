/// What an import did (SPEC §18): `{"format","variant","imported","skipped","ignored":[{"line",
/// "reason"}…],"warnings":[{"line","reason"}…],"pending_prices","unknown_symbols":[{"symbol",
/// "candidates"}…]}`, and `"transactions":[…]` with `dry_run`.
public struct ImportReport: Sendable, Hashable {
    /// The format read (`"coinbase"`).
    public var format: ImportFormat
    /// Its variant (`"v4"`, `"statement"`; `"default"` for coinfolio and CoinTracking).
    public var variant: String
    /// Transactions written (each trade leg and fee row counts); with `dry_run`, that would be.
    public var imported: Int
    /// Transactions not written because they were already there (their external ids).
    public var skipped: Int
    /// Rows left out on purpose (a fiat deposit, a move between an exchange's own wallets),
    /// by line.
    public var ignored: [ImportNotice]
    /// Rows not understood and left out (an operation no rule names), by line; a header
    /// column that is not read is a warning on the header's line.
    public var warnings: [ImportNotice]
    /// Written transactions whose price is pending (SPEC §17).
    public var pendingPrices: Int
    /// Symbols that could not be resolved (empty unless `dry_run`: otherwise the import fails).
    public var unknownSymbols: [UnknownSymbol]
    /// With `dry_run`: the transactions that would be written, in file order, without ids or
    /// group ids (the rows of one entry are one group); nil otherwise.
    public var transactions: [Transaction]?

    /// The report's keys, in the order they are written.
    enum JSONKey: String, WireKeys {
        case format, variant, imported, skipped, ignored, warnings
        case pendingPrices = "pending_prices"
        case unknownSymbols = "unknown_symbols"
        case transactions
    }

    /// The report's JSON object.
    public var json: String { String(decoding: jsonUTF8, as: UTF8.self) }

    /// `json` as UTF-8 bytes, for the C ABI.
    @_spi(ABI) public var jsonUTF8: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key(JSONKey.format); w.string(format.rawValue)
        w.key(JSONKey.variant); w.string(variant)
        w.key(JSONKey.imported); w.number(imported)
        w.key(JSONKey.skipped); w.number(skipped)
        for (key, notices) in [(JSONKey.ignored, ignored), (.warnings, warnings)] {
            w.key(key)
            w.beginArray()
            for notice in notices {
                w.beginObject()
                w.key(ImportNotice.JSONKey.line); w.number(notice.line)
                w.key(ImportNotice.JSONKey.reason); w.string(notice.reason)
                w.endObject()
            }
            w.endArray()
        }
        w.key(JSONKey.pendingPrices); w.number(pendingPrices)
        w.key(JSONKey.unknownSymbols)
        w.beginArray()
        for unknown in unknownSymbols {
            w.beginObject()
            w.key(UnknownSymbol.JSONKey.symbol); w.string(unknown.symbol)
            w.key(UnknownSymbol.JSONKey.candidates)
            w.beginArray()
            for id in unknown.candidates { w.string(id) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        if let transactions {
            w.key(JSONKey.transactions)
            w.beginArray()
            for transaction in transactions {
                w.beginObject(); transaction.writeJSON(to: &w); w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.bytes
    }
}

extension ImportNotice {
    /// A notice's keys (the report's `ignored` and `warnings`).
    enum JSONKey: String, WireKeys {
        case line, reason
    }
}

/// A symbol an import could not resolve to a coin (SPEC §18): unknown, or shared by several
/// coins of the saved snapshot (its `candidates`, CoinGecko ids, sorted).
public struct UnknownSymbol: Sendable, Hashable {
    /// The symbol as the file writes it (upper-case).
    public var symbol: String
    /// The ids of the snapshot's coins with that symbol (none for an unknown one).
    public var candidates: [String]

    /// An unresolved symbol.
    public init(symbol: String, candidates: [String]) {
        self.symbol = symbol
        self.candidates = candidates
    }

    /// An unknown symbol's keys: in the report's `unknown_symbols`, and in the error's
    /// `details.symbols` (read back by the CLI, `UnknownSymbol(detail:)`).
    enum JSONKey: String, WireKeys {
        case symbol, candidates
    }

    /// `{"symbol","candidates":[…]}` as an error detail.
    var detail: CoinfolioError.Detail {
        .object([
            JSONKey.symbol.rawValue: .string(symbol), JSONKey.candidates.rawValue: .array(candidates.map { .string($0) }),
        ])
    }

    /// The unknown symbol an error's `details.symbols` item holds (`detail`'s form); nil for
    /// another shape.
    public init?(detail: CoinfolioError.Detail) {
        guard case .object(let members) = detail, case .string(let symbol)? = members[JSONKey.symbol.rawValue],
            case .array(let ids)? = members[JSONKey.candidates.rawValue]
        else { return nil }
        var candidates: [String] = []
        for id in ids {
            guard case .string(let text) = id else { return nil }
            candidates.append(text)
        }
        self.init(symbol: symbol, candidates: candidates)
    }
}
