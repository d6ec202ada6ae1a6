/// Lots on their way between two portfolios (SPEC §16 "moves"): what a move's transfer_out
/// removed, waiting for the transfer_in of the same group to receive it.
struct MovedLots {
    private var sent: [Int32: [Lot]] = [:]

    /// Keeps the pieces a transfer_out of `group` removed.
    mutating func send(_ group: Int32, _ pieces: [Lot]) { sent[group] = pieces }

    /// The lots the transfer_in of `group` receives, `received` units in all; nil when no
    /// transfer_out of that group came before (the transfer in is then of unknown cost).
    mutating func receive(_ group: Int32, _ received: PreciseDecimal) -> [Lot]? {
        guard let pieces = sent.removeValue(forKey: group) else { return nil }
        return Self.scaled(pieces, to: received)
    }

    /// The pieces with their units scaled by received ÷ sent, each rounded half-to-even to 18
    /// fraction digits and the last taking the remainder, so that they sum to `received`
    /// exactly; costs and acquisition points unchanged (a move realizes nothing: cost basis is
    /// conserved). Should the remainder come out below zero (dust pieces, each rounded up), every
    /// piece is taken instead as the difference of its rounded running totals.
    static func scaled(_ pieces: [Lot], to received: PreciseDecimal) -> [Lot] {
        var sent = PreciseDecimal.zero
        for piece in pieces { sent += piece.units }
        guard !pieces.isEmpty, sent != received, !sent.isZero else { return pieces }
        func share(_ units: PreciseDecimal) -> PreciseDecimal {
            PreciseDecimal(units.multiplied(by: received, dividedBy: sent).roundedToLedger ?? .zero)
        }
        var result = pieces
        var given = PreciseDecimal.zero
        for index in result.indices.dropLast() {
            result[index].units = share(pieces[index].units)
            given += result[index].units
        }
        let last = received - given
        if !last.isNegative {
            result[result.count - 1].units = last
            return result
        }
        var running = PreciseDecimal.zero
        var previous = PreciseDecimal.zero
        for index in result.indices {
            running += pieces[index].units
            let total = index == result.count - 1 ? received : share(running)
            result[index].units = total - previous
            previous = total
        }
        return result
    }
}
