/// The income types of the owner's income transactions (SPEC §16), which `realized` lists beside
/// its rows (ledger entries carry no income type: the cost basis never needs it).
extension LedgerStore {
    /// Every income transaction's type by id, of one portfolio or (nil) of every portfolio.
    /// Only reads: on the `read_database` standby when there is one (`StoreConnection.reading`).
    /// - Throws: `.store`, also for a type Coinfolio never writes.
    func incomeTypes(portfolio: String?) throws -> [Int64: IncomeType] {
        try file.reading { connection in
            let select = try connection.statement(
                portfolio == nil
                    ? "SELECT id, income_type FROM ledger_transaction WHERE owner = ?1 AND kind = 'income'"
                    : "SELECT id, income_type FROM ledger_transaction WHERE owner = ?1 AND kind = 'income' AND portfolio = ?2")
            select.bind(1, owner)
            if let portfolio { select.bind(2, portfolio) }
            defer { select.reset() }
            var types: [Int64: IncomeType] = [:]
            while try select.next() {
                guard let text = select.text(1), let type = IncomeType(rawValue: text) else { throw LedgerRow.corrupt("income_type") }
                types[select.int64(0)] = type
            }
            return types
        }
    }
}
