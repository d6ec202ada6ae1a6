import Foundation

/// A prepared statement of a `Database`: bind `?N` parameters (1-based), then `run` it or step
/// its rows with `next`, reading columns (0-based) of the current row.
protocol DatabaseStatement {
    func bind(_ index: Int32, _ text: String)
    func bind(_ index: Int32, _ text: String?)
    func bind(_ index: Int32, _ value: Double)
    func bind(_ index: Int32, _ value: Int)
    func bind(_ index: Int32, _ value: Int64)
    /// Binds a blob without copying it: `bytes` must stay valid until the statement has run, so
    /// bind and run inside the buffer's `withUnsafeBytes`. nil binds NULL.
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer?)
    /// Binds an exact decimal as its shortest text (how the ledger stores it); nil binds NULL.
    func bind(_ index: Int32, _ value: ExactDecimal?)

    /// Runs a statement that returns no rows.
    /// - Returns: how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ context: @autoclosure () -> String) throws -> Int
    /// Steps once: true when a row is ready.
    func next() throws -> Bool
    /// Ends the statement's read.
    func reset()

    func text(_ column: Int32) -> String?
    func double(_ column: Int32) -> Double
    func int(_ column: Int32) -> Int
    func int64(_ column: Int32) -> Int64
    func isNull(_ column: Int32) -> Bool
    func blob(_ column: Int32) -> Data?
    /// A text column's bytes in place (valid until the next step), empty for NULL.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T
}

extension DatabaseStatement {
    /// The first column of the first row as an integer, with the statement reset after.
    func scalarInt() throws -> Int? {
        defer { reset() }
        return try next() ? int(0) : nil
    }
}
