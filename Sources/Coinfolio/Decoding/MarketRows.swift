import Foundation

#if SimdJSON
    import CSimdJSON
#endif

/// The one merge of market rows (SPEC: one row per coin id; a later row replaces the earlier in
/// its place, `LaterRowWins`): the decoder adds each `/coins/markets` row here once, and a
/// refresh adds every page and its `ids=` top-up to the same `MarketRows`, so no row is merged
/// twice (the decoder, the client's id chunks and the engine each merged every row before).
///
/// Elements are numbered across bodies: the first element of a body added after others is
/// numbered after theirs (`beginBody`), so a skipped element or a warning names one place.
struct MarketRows {
    private var merged = LaterRowWins<Coin>()
    private var skipped: [MarketsPage.Skipped] = []
    /// Warnings by element number; only the rows kept in the end report theirs.
    private var warningsByIndex: [Int: [DecodeWarning]] = [:]
    /// The element number each kept row came from, by row.
    private var sourceIndex: [Int] = []
    /// Elements added in all (kept, skipped, replaced).
    private(set) var elementCount = 0
    /// The number of the current body's first element.
    private var base = 0

    /// The rows kept so far, in the order their ids were first seen.
    var coins: [Coin] { merged.rows }
    /// How many rows are kept.
    var count: Int { merged.rows.count }
    /// Each kept row's position by id (what a snapshot indexes its coins by).
    var positionByID: [String: Int] { merged.positionByID }

    /// Starts a body: its elements are numbered from `elementCount` on.
    mutating func beginBody() { base = elementCount }

    /// Makes room for `rows` more rows.
    mutating func reserve(_ rows: Int) {
        merged.reserveCapacity(merged.rows.count + rows)
        sourceIndex.reserveCapacity(sourceIndex.count + rows)
    }

    #if SimdJSON
        /// Adds the decoder's records of the current body; `text` holds the body's sparkline bytes.
        /// - Throws: `DecodeDeadline.Passed` when a client call's decoding time ran out.
        mutating func add(_ records: UnsafeBufferPointer<cf_sj_coin>, text: JSONText?) throws {
            sourceIndex.reserveCapacity(sourceIndex.count + records.count)
            elementCount += records.count
            guard let first = records.baseAddress else { return }
            // One buffer for the texts of these rows' coins (`Coin.Texts`).
            var texts = MarketsDecoder.TextWriter(records)
            // By pointer: a record is about 550 bytes, not copied per row.
            for position in 0..<records.count {
                try DecodeDeadline.check()
                let record = first + position
                let index = base + Int(record.pointee.index)
                guard Int(record.pointee.state) == CF_SJ_ROW_OBJECT else {
                    skipped.append(.init(index: index, reason: "not an object"))
                    continue
                }
                var rowWarnings: [DecodeWarning] = []
                switch MarketsDecoder.coin(record, text: text, index: index, texts: &texts, warnings: &rowWarnings) {
                case .failure(let reason):
                    skipped.append(.init(index: index, reason: reason.text))
                case .success(let coin):
                    keep(coin, index: index, warnings: rowWarnings)
                }
            }
        }
    #endif

    /// Adds the element numbered `element` of the current body as another decoder read it (the
    /// strict Swift reader's, `MarketsTreeDecoder`; Foundation's in the tests): its coin with the
    /// warnings about its fields, or why it was skipped.
    mutating func add(element: Int, _ row: MarketsRow) {
        elementCount += 1
        let index = base + element
        switch row.result {
        case .failure(let reason):
            skipped.append(.init(index: index, reason: reason.text))
        case .success(let coin):
            keep(coin, index: index, warnings: row.warnings.warnings(index: index, id: coin.id))
        }
    }

    /// Merges a row kept from element `index`: a later row with its id replaces the earlier in
    /// its place, and the earlier is reported skipped.
    private mutating func keep(_ coin: consuming Coin, index: Int, warnings: [DecodeWarning]) {
        if !warnings.isEmpty { warningsByIndex[index] = warnings }
        // The coin is moved into the merged rows, not copied (a copy retains and later releases
        // each of its strings): nothing reads it afterwards.
        let id = coin.id
        if let earlier = merged.add(consume coin, id: id) {
            skipped.append(.init(index: sourceIndex[earlier], reason: "duplicate id \"\(id)\": a later row replaces it"))
            sourceIndex[earlier] = index
        } else {
            sourceIndex.append(index)
        }
    }

    /// Keeps the first `count` rows (a refresh's `coin_limit`); their skips and warnings stay.
    mutating func keepFirst(_ count: Int) {
        guard count < merged.rows.count else { return }
        merged.keepFirst(count)
        sourceIndex.removeLast(sourceIndex.count - count)
    }

    /// The rows as a page: the coins, every element skipped (by number), the element count and
    /// the warnings of the rows kept, in element order.
    func page() -> MarketsPage {
        var warnings: [DecodeWarning] = []
        if !warningsByIndex.isEmpty {
            for index in sourceIndex.sorted() { warnings += warningsByIndex[index] ?? [] }
        }
        return MarketsPage(
            coins: merged.rows, skipped: skipped.sorted { $0.index < $1.index }, elementCount: elementCount, warnings: warnings)
    }

    /// Rows handed to decodes that may run on another thread (the client decodes a large body
    /// on a thread of its own, and a call past its deadline leaves it there): a decode takes the
    /// rows out, adds its body and gives them back, so no two decodes ever touch them. A decode
    /// that failed after adding some of its rows keeps them out (they would be a body's half):
    /// every later decode of the box then fails, and so does the call.
    final class Box: @unchecked Sendable {
        /// The rows, nil while a decode holds them; read and written under `lock` only.
        private var held: MarketRows?
        private let lock = NSLock()

        init(_ rows: consuming MarketRows) { held = rows }

        private func take() -> MarketRows? {
            lock.lock()
            defer { lock.unlock() }
            return held.take()
        }

        private func give(_ rows: consuming MarketRows) {
            lock.lock()
            defer { lock.unlock() }
            held = rows
        }

        /// Decodes a `/coins/markets` body into the rows (`CoinGeckoBody.markets(_:into:)`).
        /// - Throws: what the decoder throws; `.internalError` when the rows are out (a decode
        ///   still running or one that failed midway).
        func decode(_ body: Data) throws {
            guard var rows = take() else {
                throw CoinfolioError(.internalError, "the market rows of this call are held by an unfinished or failed decode")
            }
            let before = rows.elementCount
            do {
                try CoinGeckoBody.markets(body, into: &rows)
            } catch {
                if rows.elementCount == before { give(rows) }
                throw error
            }
            give(rows)
        }

        /// The rows as the decodes left them (none while a decode holds them).
        func rows() -> MarketRows { take() ?? MarketRows() }
    }
}
