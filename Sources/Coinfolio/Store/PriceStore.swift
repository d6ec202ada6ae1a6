import Foundation
import Synchronization

/// Prices of the past in the store's database (SPEC §17, §20): CoinGecko's points, stored once
/// per database and shared by every owner, and the owner's manual prices (historical points, and
/// current prices of coins the snapshot lacks). Shares the `StoreConnection` of the
/// `PortfolioStore` it belongs to. Never touches the network.
///
/// Points are keyed by coin, vs_currency and time (ms): saving a point that is already there
/// replaces its price (CoinGecko's later answer wins). Manual prices are exact decimals. Reads go
/// to the `read_database` standby when the store has one (`StoreConnection.reading`).
final class PriceStore: Sendable {
    let connection: StoreConnection
    var owner: String { connection.owner }
    /// The series `series(coinID:vsCurrency:from:to:)` read, kept while the database is unchanged.
    let kept = Mutex(KeptPriceSeries())

    init(connection: StoreConnection) {
        self.connection = connection
    }

    // MARK: - CoinGecko's points (shared)

    /// Saves `points` of one coin in one currency, in one transaction: all or none.
    /// - Throws: `.store`.
    func save(coinID: String, vsCurrency: String, points: [PricePoint]) throws {
        guard !points.isEmpty else { return }
        try connection.locked { connection in
            try connection.transaction {
                let insert = try connection.statement(
                    """
                    INSERT INTO price_point (coin_id, vs_currency, t_ms, price) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (coin_id, vs_currency, t_ms) DO UPDATE SET price = excluded.price
                    """)
                for point in points {
                    insert.bind(1, coinID)
                    insert.bind(2, vsCurrency)
                    insert.bind(3, point.time)
                    insert.bind(4, point.price)
                    try insert.run("cannot save the price points")
                }
            }
        }
    }

    /// The stored points the `price_at` rule looks at for `time`: the latest in [its UTC day's
    /// 00:00, time] and the earliest in (time, the next 00:00); either may be nil.
    /// - Throws: `.store`.
    func candidates(coinID: String, vsCurrency: String, time: Int64, within held: (any Database)? = nil) throws -> (
        atOrBefore: PricePoint?, after: PricePoint?
    ) {
        let (dayStart, _, dayEnd) = PriceRule.window(for: time)
        return try connection.reading(within: held) { connection in
            let before = try connection.statement(
                """
                SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = ?2 AND t_ms >= ?3 AND t_ms <= ?4
                ORDER BY t_ms DESC LIMIT 1
                """)
            let atOrBefore = try Self.point(before, coinID, vsCurrency, dayStart, time)
            if atOrBefore != nil { return (atOrBefore, nil) }
            let after = try connection.statement(
                """
                SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = ?2 AND t_ms > ?3 AND t_ms < ?4
                ORDER BY t_ms LIMIT 1
                """)
            return (nil, try Self.point(after, coinID, vsCurrency, time, dayEnd))
        }
    }

    /// Every stored point of one coin and currency in [from, to] (ms), oldest first: what a fill
    /// over many rows reads once per coin instead of twice per row. `expected`: how many points
    /// the caller expects (room made for them at once).
    /// - Throws: `.store`.
    func points(
        coinID: String, vsCurrency: String, from: Int64, to: Int64, expected: Int = 0, within held: (any Database)? = nil
    ) throws -> [PricePoint] {
        try connection.reading(within: held) { connection in
            let select = try connection.statement(
                """
                SELECT t_ms, price FROM price_point WHERE coin_id = ?1 AND vs_currency = ?2 AND t_ms >= ?3 AND t_ms <= ?4
                ORDER BY t_ms
                """)
            select.bind(1, coinID)
            select.bind(2, vsCurrency)
            select.bind(3, from)
            select.bind(4, to)
            defer { select.reset() }
            var points: [PricePoint] = []
            points.reserveCapacity(expected)
            while try select.next() { points.append(PricePoint(time: select.int64(0), price: select.double(1))) }
            return points
        }
    }

    private static func point(
        _ statement: any DatabaseStatement, _ coinID: String, _ vsCurrency: String, _ low: Int64, _ high: Int64
    ) throws -> PricePoint? {
        statement.bind(1, coinID)
        statement.bind(2, vsCurrency)
        statement.bind(3, low)
        statement.bind(4, high)
        defer { statement.reset() }
        guard try statement.next() else { return nil }
        return PricePoint(time: statement.int64(0), price: statement.double(1))
    }

    // MARK: - Manual prices (the owner's)

    /// Sets (or with a nil price removes) a manual price of this owner: a historical point when
    /// `price.time` is given, else the coin's current price.
    /// - Returns: whether a row was written or removed.
    /// - Throws: `.store`.
    @discardableResult
    func setManual(coinID: String, vsCurrency: String, time: Int64?, price: ExactDecimal?) throws -> Bool {
        try connection.locked { connection in
            let statement: any DatabaseStatement
            switch (time, price) {
            case (let time?, let price?):
                statement = try connection.statement(
                    """
                    INSERT INTO manual_price (owner, coin_id, vs_currency, t_ms, price) VALUES (?1, ?2, ?3, ?4, ?5)
                    ON CONFLICT (owner, coin_id, vs_currency, t_ms) DO UPDATE SET price = excluded.price
                    """)
                statement.bind(4, time)
                statement.bind(5, price.description)
            case (let time?, nil):
                statement = try connection.statement(
                    "DELETE FROM manual_price WHERE owner = ?1 AND coin_id = ?2 AND vs_currency = ?3 AND t_ms = ?4")
                statement.bind(4, time)
            case (nil, let price?):
                statement = try connection.statement(
                    """
                    INSERT INTO manual_current_price (owner, coin_id, vs_currency, price) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (owner, coin_id, vs_currency) DO UPDATE SET price = excluded.price
                    """)
                statement.bind(4, price.description)
            case (nil, nil):
                statement = try connection.statement(
                    "DELETE FROM manual_current_price WHERE owner = ?1 AND coin_id = ?2 AND vs_currency = ?3")
            }
            statement.bind(1, owner)
            statement.bind(2, coinID)
            statement.bind(3, vsCurrency)
            return try statement.run("cannot set the manual price") > 0
        }
    }

    /// The owner's manual points of `time`'s UTC day, oldest first (one query: an owner sets few).
    /// - Throws: `.store`; `.store` too for a stored price that is no decimal (a damaged row).
    func manualPoints(coinID: String, vsCurrency: String, onDayOf time: Int64, within held: (any Database)? = nil) throws -> [ManualPrice] {
        let (dayStart, _, dayEnd) = PriceRule.window(for: time)
        return try manualPoints(coinID: coinID, vsCurrency: vsCurrency, from: dayStart, before: dayEnd, within: held)
    }

    /// The owner's manual points in [from, before) (ms), oldest first.
    /// - Throws: as `manualPoints(coinID:vsCurrency:onDayOf:)`.
    func manualPoints(
        coinID: String, vsCurrency: String, from dayStart: Int64, before dayEnd: Int64, within held: (any Database)? = nil
    ) throws -> [ManualPrice] {
        try connection.reading(within: held) { connection in
            let select = try connection.statement(
                """
                SELECT t_ms, price FROM manual_price WHERE owner = ?1 AND coin_id = ?2 AND vs_currency = ?3
                AND t_ms >= ?4 AND t_ms < ?5 ORDER BY t_ms
                """)
            select.bind(1, owner)
            select.bind(2, coinID)
            select.bind(3, vsCurrency)
            select.bind(4, dayStart)
            select.bind(5, dayEnd)
            defer { select.reset() }
            var points: [ManualPrice] = []
            while try select.next() {
                points.append(
                    ManualPrice(coinID: coinID, vsCurrency: vsCurrency, time: select.int64(0), price: try Self.decimal(select.text(1))))
            }
            return points
        }
    }

    /// The owner's manual current prices in `vsCurrency`, by coin id.
    /// - Throws: `.store`.
    func manualCurrentPrices(vsCurrency: String) throws -> [String: ExactDecimal] {
        try connection.reading { connection in
            let select = try connection.statement("SELECT coin_id, price FROM manual_current_price WHERE owner = ?1 AND vs_currency = ?2")
            select.bind(1, owner)
            select.bind(2, vsCurrency)
            defer { select.reset() }
            var prices: [String: ExactDecimal] = [:]
            while try select.next() {
                guard let id = select.text(0) else { continue }
                prices[id] = try Self.decimal(select.text(1))
            }
            return prices
        }
    }

    /// A stored manual price; a row that is no decimal was not written by Coinfolio.
    static func decimal(_ text: String?) throws -> ExactDecimal {
        guard let text, let value = ExactDecimal(text) else {
            throw CoinfolioError(.store, "a stored manual price is not a decimal number: \"\((text ?? "NULL").prefix(64))\"")
        }
        return value
    }
}
