extension Schema {
    /// Step 9: a snapshot's market data (`snapshot.global`) and saved coin details
    /// (`coin_detail.detail`) are written in compact forms of their own (`MarketDataCodec`,
    /// `CoinDetailCodec`) instead of JSON. No table changes: rows saved before read as before,
    /// and the next save writes the compact form. The version moves so that an older Coinfolio,
    /// which would drop such a snapshot as unreadable, refuses the database instead.
    static let step9CompactSavedForms = Step(
        version: 9,
        summary: """
            the snapshot's /global data and saved coin details in compact forms (MarketDataCodec, CoinDetailCodec) \
            instead of JSON; rows saved before still read, and are written compactly on their next save
            """,
        sqlite: "", postgres: "")
}
