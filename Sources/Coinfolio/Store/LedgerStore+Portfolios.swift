import Foundation

/// Portfolios: names, their quote currency, and renaming or deleting them with their transactions.
extension LedgerStore {
    /// Every portfolio by name (bytewise); a nil currency means "the engine's vs_currency".
    func portfolios() throws -> [(name: String, vsCurrency: String?)] {
        try file.reading { connection in
            let statement = try connection.statement("SELECT name, vs_currency FROM portfolio WHERE owner = ?1 ORDER BY name")
            statement.bind(1, owner)
            var result: [(String, String?)] = []
            while try statement.next() { result.append((statement.text(0) ?? "", statement.text(1))) }
            return result
        }
    }

    /// The portfolio's stored currency: `.some(nil)` for "the engine's", nil when it does not exist.
    func portfolioCurrency(_ name: String) throws -> String?? {
        try file.reading { connection in try currency(of: name, connection) }
    }

    func currency(of name: String, _ connection: any Database) throws -> String?? {
        let statement = try connection.statement("SELECT vs_currency FROM portfolio WHERE name = ?1 AND owner = ?2")
        statement.bind(1, name)
        statement.bind(2, owner)
        defer { statement.reset() }
        guard try statement.next() else { return nil }
        return .some(statement.text(0))
    }

    /// Creates a portfolio. - Throws: `.invalidArgument` when the name is taken or bad.
    func createPortfolio(name: String, vsCurrency: String?) throws {
        try Transaction.validatePortfolioName(name)
        try write { connection in
            guard try currency(of: name, connection) == nil else {
                throw CoinfolioError(
                    .invalidArgument, "a portfolio named \"\(name)\" already exists", details: [.portfolio: .string(name)])
            }
            try insertPortfolio(name, vsCurrency, connection)
        }
    }

    func insertPortfolio(_ name: String, _ vsCurrency: String?, _ connection: any Database) throws {
        let statement = try connection.statement("INSERT INTO portfolio (owner, name, vs_currency) VALUES (?3, ?1, ?2)")
        statement.bind(1, name)
        statement.bind(2, vsCurrency)
        statement.bind(3, owner)
        try statement.run("cannot create portfolio")
    }

    /// Renames a portfolio and moves its transactions.
    /// - Throws: `.notFound` without one named `name`; `.invalidArgument` when `newName` is taken or bad.
    func renamePortfolio(_ name: String, to newName: String) throws {
        try Transaction.validatePortfolioName(newName)
        try write { connection in
            guard let vs = try currency(of: name, connection) else { throw Self.noPortfolio(name) }
            guard !Self.same(name, newName) else { return }
            guard try currency(of: newName, connection) == nil else {
                throw CoinfolioError(
                    .invalidArgument, "a portfolio named \"\(newName)\" already exists", details: [.portfolio: .string(newName)])
            }
            try insertPortfolio(newName, vs, connection)
            let move = try connection.statement("UPDATE ledger_transaction SET portfolio = ?2 WHERE portfolio = ?1 AND owner = ?3")
            move.bind(1, name)
            move.bind(2, newName)
            move.bind(3, owner)
            try move.run("cannot rename portfolio")
            forgetPositions(portfolio: name)
            forgetPositions(portfolio: newName)
            let delete = try connection.statement("DELETE FROM portfolio WHERE name = ?1 AND owner = ?2")
            delete.bind(1, name)
            delete.bind(2, owner)
            try delete.run("cannot rename portfolio")
        }
    }

    /// Deletes a portfolio; with transactions only when `force` (they go with it, and with each of
    /// them the rest of its group in other portfolios — a move's other side — SPEC §16: "deleting
    /// any row of a group deletes the whole group", the never-negative rule checked for the whole
    /// change).
    /// - Throws: `.notFound`; `.invalidArgument` when it has transactions and `force` is false
    ///   (`details.transactions` = how many), or when a group's row in another portfolio cannot go
    ///   (a later disposal there would be short: `{coin_id, timestamp, short_by}`).
    func deletePortfolio(_ name: String, force: Bool) throws {
        try write { connection in
            guard try currency(of: name, connection) != nil else { throw Self.noPortfolio(name) }
            let count = try connection.statement("SELECT count(*) FROM ledger_transaction WHERE portfolio = ?1 AND owner = ?2")
            count.bind(1, name)
            count.bind(2, owner)
            let transactions = try count.scalarInt() ?? 0
            if transactions > 0, !force {
                throw CoinfolioError(
                    .invalidArgument, "portfolio \"\(name)\" has \(transactions) transactions: pass force to delete them with it",
                    details: [.portfolio: .string(name), .transactions: .number(Double(transactions))])
            }
            // The rows of other portfolios in a group with one of this portfolio's (a move's other side).
            let others = try groupPartners(of: name, connection)
            let positions = try positions(without: others, connection)
            for sql in [
                "DELETE FROM ledger_transaction WHERE owner = ?2 AND portfolio <> ?1 AND \(Self.inGroupsOf)",
                "DELETE FROM ledger_transaction WHERE portfolio = ?1 AND owner = ?2",
                "DELETE FROM portfolio WHERE name = ?1 AND owner = ?2",
            ] {
                let statement = try connection.statement(sql)
                statement.bind(1, name)
                statement.bind(2, owner)
                try statement.run("cannot delete portfolio")
            }
            forgetPositions(portfolio: name)
            for coin in positions { storePosition(portfolio: coin.portfolio, coinID: coin.coinID, coin.position) }
        }
    }

    /// The rows of other portfolios that share a group with a row of `portfolio`, in ledger order.
    private func groupPartners(of portfolio: String, _ connection: any Database) throws -> [Transaction] {
        try rows(where: "owner = ?2 AND portfolio <> ?1 AND \(Self.inGroupsOf)", portfolio, connection)
    }

    /// The condition of rows in a group with a row of portfolio `?1` (the owner `?2`).
    private static let inGroupsOf =
        "group_id IN (SELECT group_id FROM ledger_transaction WHERE portfolio = ?1 AND owner = ?2 AND group_id IS NOT NULL)"

    /// Creates "main" on first use (it may have been renamed or deleted); other names must exist.
    func requirePortfolio(_ name: String, _ connection: any Database) throws {
        guard try currency(of: name, connection) == nil else { return }
        guard name == Transaction.defaultPortfolio else { throw Self.noPortfolio(name) }
        try insertPortfolio(name, nil, connection)
    }

    /// Creates the portfolio an import planned for, unless another writer created it since the
    /// plan was made (two imports into a new portfolio at once: the second finds it here, inside
    /// the write, instead of failing on its key). True when this call created it.
    /// - Throws: `.store` when it was created meanwhile in another currency than the plan's (the
    ///   rows were priced for that one): importing the file again plans for the stored currency.
    func createIfMissing(_ portfolio: (name: String, vsCurrency: String), _ connection: any Database) throws -> Bool {
        guard let stored = try currency(of: portfolio.name, connection) else {
            try insertPortfolio(portfolio.name, portfolio.vsCurrency, connection)
            return true
        }
        // No currency of its own: the engine's, which is what the plan priced in.
        if let stored, stored != portfolio.vsCurrency {
            let (now, planned) = (stored.uppercased(), portfolio.vsCurrency.uppercased())
            throw CoinfolioError(
                .store, "portfolio \"\(portfolio.name)\" was created meanwhile in \(now), not \(planned); import the file again")
        }
        return false
    }
}
