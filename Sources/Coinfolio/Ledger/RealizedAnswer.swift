/// `realized`'s C answer (SPEC §19): the rows written into the answer straight from where the
/// run made them, coin by coin, taken in ledger order (`RealizedReport.MadeRows.source`), with
/// the totals summed in that order — no reorder of the rows in memory before they are written
/// (a row is read once, where it lies). The same bytes as `RealizedReport`'s `jsonUTF8` and `csv`
/// (the same rows, the same writers, the same sums in the same order).
@_spi(ABI) public struct RealizedAnswer {
    let made: RealizedReport.MadeRows
    let vsCurrency: String
    let options: RealizedOptions

    /// An upper estimate of the answer's size, for `AnswerBuffer(expected:)`.
    @_spi(ABI) public var expectedSize: Int {
        options.format == .csv ? made.rows.count * 120 + 64 : made.rows.count * 400 + made.income.count * 240 + 400
    }

    /// Writes the answer into `answer`.
    @_spi(ABI) public func write(into answer: AnswerBuffer) {
        if options.format == .csv {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(AnswerBuffer.chunk + 4096)
            bytes.append(contentsOf: RealizedRow.csvHeader.utf8)
            bytes.append(contentsOf: [0x0D, 0x0A])
            inLedgerOrder { row, _ in
                row.pointee.appendCSV(to: &bytes)
                if bytes.count >= AnswerBuffer.chunk { answer.move(&bytes) }
            }
            answer.append(bytes)
            return
        }
        var w = JSONWriter(reserving: AnswerBuffer.chunk + 4096)
        RealizedReport.writeJSON(to: &w, portfolio: options.portfolio, vsCurrency: vsCurrency, method: options.method) { bytes in
            answer.move(&bytes)
            var acquired = LedgerTimestamp.DateCache()
            var disposed = LedgerTimestamp.DateCache()
            var sum = RealizedTotals.Sum()
            inLedgerOrder { row, first in
                RealizedRow.writeJSON(row, into: answer, first: first, acquired: &acquired, disposed: &disposed)
                sum.add(row)
            }
            return (sum.totals, made.income, made.incomeTotal)
        }
        answer.append(w.bytes)
    }

    /// Calls `body` with each row in ledger order, where it lies (and whether it is the first): a
    /// row handed as a value was copied out of its place, its names retained, then destroyed.
    private func inLedgerOrder(_ body: (UnsafePointer<RealizedRow>, Bool) -> Void) {
        made.rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            guard let source = made.source else {
                for index in rows.indices { body(base + index, index == 0) }
                return
            }
            for place in source.indices { body(base + source[place], place == 0) }
        }
    }
}

extension RealizedRow {
    /// Writes the row's JSON object (after a `,` unless it is the first) at the end of `answer`,
    /// at a cursor the answer hands out — the one way a row goes into an `AnswerBuffer` (a closure
    /// given to the answer and capturing the row copied each, 2 % of the call).
    static func writeJSON(
        _ row: UnsafePointer<RealizedRow>, into answer: AnswerBuffer, first: Bool, acquired: inout LedgerTimestamp.DateCache,
        disposed: inout LedgerTimestamp.DateCache
    ) {
        let names = row.pointee.portfolio.utf8.count + row.pointee.coinID.utf8.count
        guard var cursor = answer.cursor(room: jsonRoom(names: names) + 1) else { return }
        if !first { cursor.put(UInt8(ascii: ",")) }
        writeJSON(row, to: &cursor, acquired: &acquired, disposed: &disposed)
        answer.advance(past: cursor)
    }
}
