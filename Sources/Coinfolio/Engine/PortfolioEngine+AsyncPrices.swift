import Foundation

/// The async counterparts of the engine's calls for prices of the past (SPEC §17) and file
/// imports (SPEC §18), SPEC §21: the same names, answers and errors as the blocking calls, run on
/// a Coinfolio worker thread (`BlockingCall`). A call whose task is cancelled before its work
/// begins throws `CancellationError` having done nothing. Once running: a `fillPrices` stops its
/// range requests (the points of a request that finished stay stored, whole, for every owner) and
/// fills no row; a `priceAt` stops its request; an `importFile` stops within 1,000 rows (reading
/// the file or writing it) and rolls back whole; each then throws `CancellationError`. A
/// `setPrice` is one short write: once begun it finishes.
extension PortfolioEngine {
    /// The async counterpart of `priceAt(_:fetch:)`; cancelling the task stops the range request
    /// in flight and throws `CancellationError`.
    public func priceAt(_ query: PriceQuery, fetch: Bool = true) async throws -> HistoricalPrice {
        try await BlockingCall.run { try self.priceAt(query, fetch: fetch) }
    }

    /// The async counterpart of `priceAt(json:)`.
    public func priceAt(json: String) async throws -> HistoricalPrice {
        try await BlockingCall.run { try self.priceAt(json: json) }
    }

    /// The async counterpart of `setPrice(_:)`.
    public func setPrice(_ setting: PriceSetting) async throws {
        try await BlockingCall.run { try self.setPrice(setting) }
    }

    /// The async counterpart of `setPrice(json:)`.
    public func setPrice(json: String) async throws {
        try await BlockingCall.run { try self.setPrice(json: json) }
    }

    /// The async counterpart of `fillPrices(_:)`; cancelling the task stops the requests and
    /// throws `CancellationError`, every pending row left pending.
    public func fillPrices(_ options: FillOptions = FillOptions()) async throws -> PriceFill {
        try await BlockingCall.run { try self.fillPrices(options) }
    }

    /// The async counterpart of `fillPrices(json:)`.
    public func fillPrices(json: String?) async throws -> PriceFill {
        try await BlockingCall.run { try self.fillPrices(json: json) }
    }

    /// The async counterpart of `importFile(_:options:)`, over the file's bytes (UTF-8);
    /// cancelling the task stops the import within 1,000 rows and throws `CancellationError`
    /// (nothing written).
    public func importFile(_ bytes: Data, options: ImportOptions = ImportOptions()) async throws -> ImportReport {
        try await BlockingCall.run { try bytes.withUnsafeBytes { try self.importFile($0, options: options) } }
    }

    /// The async counterpart of `importFile(_:optionsJSON:)`, over the file's bytes (UTF-8).
    public func importFile(_ bytes: Data, optionsJSON: String?) async throws -> ImportReport {
        try await BlockingCall.run { try bytes.withUnsafeBytes { try self.importFile($0, optionsJSON: optionsJSON) } }
    }

    /// The async counterpart of `importFile(contentsOf:options:)`; cancelling the task stops the
    /// import within 1,000 rows and throws `CancellationError` (nothing written).
    public func importFile(contentsOf url: URL, options: ImportOptions = ImportOptions()) async throws -> ImportReport {
        try await BlockingCall.run { try self.importFile(contentsOf: url, options: options) }
    }
}
