#if SimdJSON
    // Built with the SimdJSON trait only (SPEC §21): without it `MarketsTreeDecoder` decodes.
    import CSimdJSON
    import Foundation

    /// The one-pass `/coins/markets` decoder: simdjson On-Demand (Sources/CSimdJSON) checks the body
    /// as strict JSON and extracts every row's fields into flat records in one walk; this turns the
    /// records into `Coin`s with the tolerance rules of SPEC §2 and §10.
    ///
    /// Sparklines are not parsed: each coin keeps the byte range of its price array in a shared copy
    /// of the body (`Sparkline`), parsed when read.
    enum MarketsDecoder {
        /// Decodes a body (after any BOM was dropped; `offsetBase` bytes were dropped before it).
        /// - Throws: `.invalidArgument` for bytes that are not strict JSON (message and
        ///   `details.offset` from the strict scanner), `.decode` when the top level is not an array.
        /// - Parameters:
        ///   - piecewiseAbove, pieceBytes: for tests; the defaults are `piecewiseThreshold` and 4 MB.
        static func decode(_ body: Data, offsetBase: Int, piecewiseAbove: Int = piecewiseThreshold, pieceBytes: Int = 0) throws
            -> MarketsPage
        {
            var rows = MarketRows()
            try decode(body, offsetBase: offsetBase, into: &rows, piecewiseAbove: piecewiseAbove, pieceBytes: pieceBytes)
            return rows.page()
        }

        /// Decodes a body into `rows`, the merge every row of a refresh goes through once (its
        /// elements numbered after the ones `rows` already counted). Throws as `decode(_:offsetBase:)`;
        /// rows already added then stay in `rows` (a caller drops it: no call decodes a body twice).
        static func decode(
            _ body: Data, offsetBase: Int, into rows: inout MarketRows, piecewiseAbove: Int = piecewiseThreshold, pieceBytes: Int = 0
        ) throws {
            rows.beginBody()
            try body.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                try SimdJSON.withDecoder { decoder in
                    if bytes.count > piecewiseAbove,
                        try piecewise(decoder, bytes, raw: raw, offsetBase: offsetBase, pieceBytes: pieceBytes, into: &rows)
                    {
                        return
                    }
                    var records: UnsafePointer<cf_sj_coin>?
                    var count = 0
                    var copy: UnsafeMutablePointer<UInt8>?
                    var errorOffset: Int64 = -1
                    var errorName: UnsafePointer<CChar>?
                    let status = cf_sj_markets(
                        decoder, bytes.baseAddress ?? UnsafePointer(bitPattern: 1), bytes.count, &records, &count, &copy,
                        &errorOffset, &errorName)
                    switch Int(status) {
                    case Int(CF_SJ_OK):
                        break
                    case Int(CF_SJ_NOT_ARRAY):
                        throw CoinfolioError(.decode, "expected a JSON array of coins (/coins/markets): the top level is not an array")
                    case Int(CF_SJ_MALFORMED):
                        throw malformed(raw, offsetBase: offsetBase, simdjsonOffset: Int(errorOffset), name: errorName)
                    default:
                        throw CoinfolioError(.internalError, "out of memory decoding the markets body")
                    }
                    // Small bodies: sparklines point into the decoder's padded copy of the body.
                    rows.reserve(count)
                    try rows.add(
                        UnsafeBufferPointer(start: records, count: count), text: copy.map { JSONText(adopting: $0, count: bytes.count) })
                }
            }
        }

        /// Bodies above this many bytes are decoded in pieces of whole rows (about 4 MB each), so
        /// memory grows with the kept sparkline text rather than with padded copies of the body.
        static let piecewiseThreshold = 16 << 20

        /// false when the body is not a non-empty array (the one-piece path then decides).
        private static func piecewise(
            _ decoder: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>, raw: UnsafeRawBufferPointer, offsetBase: Int,
            pieceBytes: Int, into rows: inout MarketRows
        ) throws -> Bool {
            guard let base = bytes.baseAddress else { return false }
            var arena: UnsafeMutablePointer<UInt8>?
            switch Int(cf_sj_markets_chunked_begin(decoder, base, bytes.count, pieceBytes, &arena)) {
            case Int(CF_SJ_OK): break
            case Int(CF_SJ_NOT_CHUNKABLE): return false
            default: throw CoinfolioError(.internalError, "out of memory decoding the markets body")
            }
            // The decoder forgets this body however the loop ends (a deadline can end it early).
            defer { cf_sj_markets_chunked_end(decoder) }
            guard let arena else { return false }
            // The sparkline text of every row is copied here (most of a body with sparklines).
            HugePages.advise(UnsafeMutableRawPointer(arena), bytes.count)
            let text = JSONText(adopting: arena, count: bytes.count)
            var first = true
            while true {
                try DecodeDeadline.check()
                var records: UnsafePointer<cf_sj_coin>?
                var count = 0
                var errorName: UnsafePointer<CChar>?
                let status = cf_sj_markets_chunked_next(decoder, &records, &count, &errorName)
                switch Int(status) {
                case Int(CF_SJ_MORE):
                    if first {
                        // Size the arrays once, from the rows per byte of the first piece.
                        let covered = max(cf_sj_markets_chunked_position(decoder), 1)
                        rows.reserve(count * bytes.count / covered + count / 8 + 16)
                        first = false
                    }
                    try rows.add(UnsafeBufferPointer(start: records, count: count), text: text)
                case Int(CF_SJ_OK):
                    return true
                case Int(CF_SJ_MALFORMED):
                    throw malformed(raw, offsetBase: offsetBase, simdjsonOffset: -1, name: errorName)
                default:
                    throw CoinfolioError(.internalError, "out of memory decoding the markets body")
                }
            }
        }

        /// The strict scanner's error for bytes simdjson refused (it names the offset and reason);
        /// if the scanner finds nothing (the two disagree), simdjson's own reason.
        static func malformed(_ bytes: UnsafeRawBufferPointer, offsetBase: Int, simdjsonOffset: Int, name: UnsafePointer<CChar>?)
            -> CoinfolioError
        {
            do {
                // The one strict reader every JSON entry point uses; offsets count from the first
                // byte given (a dropped BOM included).
                try JSONSyntax.checkUTF8(bytes)
                try JSONSyntax.checkStrict(bytes, offsetBase: offsetBase)
            } catch let error as CoinfolioError {
                return error
            } catch {}
            let reason = name.map { String(cString: $0) } ?? "refused"
            var details: [CoinfolioError.DetailKey: CoinfolioError.Detail] = [:]
            var message = "malformed JSON (\(reason))"
            if simdjsonOffset >= 0 {
                details[.offset] = .number(Double(simdjsonOffset + offsetBase))
                message = "malformed JSON at byte offset \(simdjsonOffset + offsetBase): \(reason)"
            }
            return CoinfolioError(.invalidArgument, message, reason: .malformedJSON, details: details)
        }

        // MARK: - Records to coins

        /// Warning paths of the numeric fields, in record order (CF_SJ_CURRENT_PRICE …, "roi.times"),
        /// from the scanner's key list (`CF_SJ_COIN_FIELDS`).
        static let numberKeys: [String] = (0..<Int(CF_SJ_NUMBER_COUNT)).map { String(cString: cf_sj_number_path(Int32($0))) }
        /// Warning paths of the string fields, in record order (CF_SJ_ID …, "roi.currency").
        static let stringKeys: [String] = (0..<Int(CF_SJ_STRING_COUNT)).map { String(cString: cf_sj_string_path(Int32($0))) }
        /// The warning path of numeric field `field` (kept out of line: warnings are rare, and the
        /// table is built once, from C, on first use).
        @inline(never) static func numberPath(_ field: Int) -> String { numberKeys[field] }
        /// The warning path of string field `field`.
        @inline(never) static func stringPath(_ field: Int) -> String { stringKeys[field] }
        /// The change windows and their numeric fields (`testTheScannersKeyListIsCoinJSONKey` checks
        /// that each field's key is its window's).
        static let windows: [(Coin.ChangeWindow, Int)] = [
            (.h1, CF_SJ_PCP_1H), (.h24, CF_SJ_PCP_24H), (.d7, CF_SJ_PCP_7D), (.d14, CF_SJ_PCP_14D),
            (.d30, CF_SJ_PCP_30D), (.d200, CF_SJ_PCP_200D), (.y1, CF_SJ_PCP_1Y),
        ]

        /// The record's numeric fields read into `Coin.Numbers`, in record order (the rank is read
        /// apart, by `setRank`).
        static let numberFields: [(Int, Coin.Numbers.Field)] = [
            (CF_SJ_CURRENT_PRICE, .currentPrice), (CF_SJ_MARKET_CAP, .marketCap),
            (CF_SJ_FULLY_DILUTED_VALUATION, .fullyDilutedValuation), (CF_SJ_TOTAL_VOLUME, .totalVolume),
            (CF_SJ_HIGH_24H, .high24h), (CF_SJ_LOW_24H, .low24h), (CF_SJ_PRICE_CHANGE_24H, .priceChange24h),
            (CF_SJ_PRICE_CHANGE_PERCENTAGE_24H, .priceChangePercentage24h), (CF_SJ_MARKET_CAP_CHANGE_24H, .marketCapChange24h),
            (CF_SJ_MARKET_CAP_CHANGE_PERCENTAGE_24H, .marketCapChangePercentage24h),
            (CF_SJ_CIRCULATING_SUPPLY, .circulatingSupply), (CF_SJ_TOTAL_SUPPLY, .totalSupply), (CF_SJ_MAX_SUPPLY, .maxSupply),
            (CF_SJ_ATH, .ath), (CF_SJ_ATH_CHANGE_PERCENTAGE, .athChangePercentage), (CF_SJ_ATL, .atl),
            (CF_SJ_ATL_CHANGE_PERCENTAGE, .atlChangePercentage),
        ]

        struct Reason: Error { var text: String }

        /// The record's bits of `current_price` … `atl_change_percentage` (`Coin.Numbers(record:)`).
        static let leadingNumbers: UInt64 = (1 << 18) - 1
        /// Whether the record's first eighteen numbers are in `Coin.Numbers(record:)`'s order
        /// (CF_SJ_COIN_FIELDS; `testTheScannersKeyListIsCoinJSONKey` checks every key between).
        static let recordIsNumbersOrder =
            CF_SJ_CURRENT_PRICE == 0 && CF_SJ_MARKET_CAP == 1 && CF_SJ_MARKET_CAP_RANK == 2 && CF_SJ_FULLY_DILUTED_VALUATION == 3
            && CF_SJ_ATL_CHANGE_PERCENTAGE == 17

        /// The coin of the record at `row` (read in place: a record is about 550 bytes, and copying
        /// it and its two field arrays per coin was 2 % of a 100,000-coin load).
        /// `texts`: where the coin's image and dates are copied (`Coin.Texts`); nil: made `String`s.
        static func coin(
            _ row: UnsafePointer<cf_sj_coin>, text body: JSONText?, index: Int, texts: inout TextWriter?,
            warnings: inout [DecodeWarning]
        ) -> Result<Coin, Reason> {
            // Only read: the mutable pointer is what `&` on the fields' tuples needs.
            let fields = UnsafeMutablePointer(mutating: row)
            return withUnsafeMutablePointer(to: &fields.pointee.strings) { stringTuple in
                withUnsafeMutablePointer(to: &fields.pointee.numbers) { numberTuple in
                    let strings = UnsafeBufferPointer(
                        start: UnsafeRawPointer(stringTuple).assumingMemoryBound(to: cf_sj_string.self), count: Int(CF_SJ_STRING_COUNT))
                    let numbers = UnsafeBufferPointer(
                        start: UnsafeRawPointer(numberTuple).assumingMemoryBound(to: Double.self), count: Int(CF_SJ_NUMBER_COUNT))
                    func string(_ field: Int) -> String? {
                        let s = strings[Int(field)]
                        guard s.length >= 0, let bytes = s.bytes else { return nil }
                        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(s.length)), as: UTF8.self)
                    }
                    // The id decides whether the row is kept.
                    let idString = strings[Int(CF_SJ_ID)]
                    guard let id = string(CF_SJ_ID) else {
                        return .failure(Reason(text: idString.problem != 0 ? "id is not a string" : "missing id"))
                    }
                    do {
                        try CoinID.validate(id)
                    } catch let error as CoinfolioError {
                        return .failure(Reason(text: error.message))
                    } catch {
                        return .failure(Reason(text: "invalid id"))
                    }
                    // Warnings in the order the fields are read (SPEC §10; the reasons of `DecodeWarning`).
                    func warn(_ field: String, _ reason: String) {
                        warnings.append(DecodeWarning(index: index, id: id, field: field, reason: reason))
                    }
                    func text(_ field: Int) -> String? {
                        let s = strings[Int(field)]
                        if s.problem != 0 { warn(stringPath(field), DecodeWarning.notAString) }
                        return string(field)
                    }
                    func requiredText(_ field: Int) -> String {
                        if let value = text(field) { return value }
                        if strings[Int(field)].problem == 0 { warn(stringPath(field), DecodeWarning.missing) }
                        return ""
                    }
                    func number(_ field: Int) -> Double? {
                        let bit = UInt64(1) << UInt64(field)
                        if row.pointee.number_present & bit != 0 { return numbers[Int(field)] }
                        if row.pointee.number_problem & bit != 0 { warn(numberPath(field), DecodeWarning.notANumber) }
                        return nil
                    }
                    // The image and dates only warn here; they are kept after (`held`).
                    func checkText(_ field: Int) {
                        if strings[Int(field)].problem != 0 { warn(stringPath(field), DecodeWarning.notAString) }
                    }
                    func setRank(_ coin: inout Coin) {
                        if let rank = number(CF_SJ_MARKET_CAP_RANK) {
                            if rank == rank.rounded(), abs(rank) < 9.0e15 {
                                if rank > 0 { coin.marketCapRank = Int(rank) }  // 0 or below: unranked
                            } else {
                                warn("market_cap_rank", DecodeWarning.notAWholeNumber)
                            }
                        }
                    }
                    var coin = Coin(id: id, symbol: requiredText(CF_SJ_SYMBOL), name: requiredText(CF_SJ_NAME))
                    checkText(CF_SJ_IMAGE)
                    if row.pointee.number_problem & Self.leadingNumbers == 0, Self.recordIsNumbersOrder {
                        // No field up to atl_change_percentage warns: the seventeen doubles at once,
                        // the rank checked as below; the dates' warnings come in the same order.
                        coin.numbers = Coin.Numbers(
                            record: UnsafeRawPointer(numberTuple).assumingMemoryBound(to: Double.self), present: row.pointee.number_present)
                        setRank(&coin)
                        checkText(CF_SJ_ATH_DATE)
                        checkText(CF_SJ_ATL_DATE)
                        checkText(CF_SJ_LAST_UPDATED)
                    } else {
                        // Field by field, each warning in the record's order: the rank after
                        // market_cap, ath_date after ath_change_percentage.
                        for (field, slot) in numberFields {
                            coin.numbers[slot] = number(field)
                            if slot == .marketCap { setRank(&coin) }
                            if slot == .athChangePercentage { checkText(CF_SJ_ATH_DATE) }
                        }
                        checkText(CF_SJ_ATL_DATE)
                        checkText(CF_SJ_LAST_UPDATED)
                    }
                    coin.texts = held(strings, into: &texts)
                    switch row.pointee.roi_state {
                    case 1:
                        coin.roi = Coin.ROI(
                            times: number(CF_SJ_ROI_TIMES), currency: text(CF_SJ_ROI_CURRENCY), percentage: number(CF_SJ_ROI_PERCENTAGE))
                    case 2:
                        warn("roi", DecodeWarning.notAnObject)
                    default:
                        break
                    }
                    switch row.pointee.sparkline_state {
                    case 1:
                        if let body {
                            let sparkline = Sparkline(
                                text: body, offset: Int(row.pointee.sparkline_offset), length: Int(row.pointee.sparkline_length))
                            coin.sparkline = sparkline
                            if row.pointee.sparkline_irregular != 0 {
                                let offset = Int(row.pointee.sparkline_offset), length = Int(row.pointee.sparkline_length)
                                for position in body.problems(offset: offset, length: length) {
                                    warn("sparkline_in_7d.price[\(position)]", DecodeWarning.notANumber)
                                }
                            }
                        }
                    case 2:
                        warn("sparkline_in_7d", DecodeWarning.notAnObject)
                    case 3:
                        warn("sparkline_in_7d.price", DecodeWarning.notAnArray)
                    default:
                        break
                    }
                    for (window, field) in windows {
                        if let value = number(field) { coin.changeWindows[window] = value }
                    }
                    return .success(coin)
                }
            }
        }
    }
#endif  // SimdJSON
