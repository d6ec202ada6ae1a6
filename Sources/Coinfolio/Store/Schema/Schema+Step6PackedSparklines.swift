extension Schema {
    /// Step 6: on PostgreSQL, sparkline rows kept uncompressed in their row.
    static let step6PackedSparklines = Step(
        version: 6,
        summary: """
            PostgreSQL saves every sparkline packed (SnapshotCodec.packedSparkline: 1.3 KB for 168 points) and \
            keeps the column uncompressed, in the row when it fits (STORAGE EXTERNAL, toast_tuple_target 8160): \
            pglz compressing the JSON text of 250 sparklines on every save cost five times SQLite's whole save. \
            Rows saved before keep their form and read as before; SQLite has nothing to change (its rows stay \
            the JSON text CoinGecko sent, never parsed)
            """,
        sqlite: "",
        postgres: """
            ALTER TABLE snapshot_sparkline ALTER COLUMN points SET STORAGE EXTERNAL;
            ALTER TABLE snapshot_sparkline SET (toast_tuple_target = 8160);
            """)
}
