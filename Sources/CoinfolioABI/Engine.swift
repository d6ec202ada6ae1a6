// cf_engine_*: PortfolioEngine of the core.
@_spi(ABI) import Coinfolio
import Foundation

/// `cf_engine_open` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_open")
public func cf_engine_open(_ configJSON: CString?, _ outEngine: UnsafeMutablePointer<OpaquePointer?>?, _ outError: OutString?) -> Int32 {
    outEngine?.pointee = nil
    return call(outError) {
        guard let outEngine else { throw CoinfolioError(.invalidArgument, "out_engine is NULL") }
        let configuration = try EngineConfiguration(json: readOptionalString(configJSON, "config_json"))
        outEngine.pointee = retainHandle(try PortfolioEngine(configuration: configuration))
    }
}

/// `cf_engine_close` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_close")
public func cf_engine_close(_ engine: OpaquePointer?) {
    guard let engine else { return }
    (try? handle(engine, as: PortfolioEngine.self, "engine"))?.close()
    releaseHandle(engine, as: PortfolioEngine.self)
}

/// `cf_engine_refresh` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_refresh")
public func cf_engine_refresh(_ engine: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(engine, as: PortfolioEngine.self, "engine").refresh().jsonUTF8 }
}

/// `cf_engine_load` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_load")
public func cf_engine_load(_ engine: OpaquePointer?, _ marketsBody: CString?, _ globalBody: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        let markets = try readBody(marketsBody, "markets_body")
        let global = try globalBody.map { try readBody($0, "global_body") }
        try engine.load(marketsBody: markets, globalBody: global)
    }
}

/// `cf_engine_coins` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_coins")
public func cf_engine_coins(_ engine: OpaquePointer?, _ queryJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.coinsJSON(CoinQuery(json: readOptionalString(queryJSON, "query_json")))
    }
}

/// `cf_engine_portfolio` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_portfolio")
public func cf_engine_portfolio(_ engine: OpaquePointer?, _ queryJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.portfolioJSON(PortfolioQuery(json: readOptionalString(queryJSON, "query_json")))
    }
}

/// `cf_engine_statistics` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_statistics")
public func cf_engine_statistics(_ engine: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(engine, as: PortfolioEngine.self, "engine").statistics().jsonUTF8 }
}

/// `cf_engine_set_holding` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_set_holding")
public func cf_engine_set_holding(_ engine: OpaquePointer?, _ coinID: CString?, _ amount: Double, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").setHolding(coinID: readString(coinID, "coin_id"), amount: amount)
    }
}

/// `cf_engine_set_holdings` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_set_holdings")
public func cf_engine_set_holdings(_ engine: OpaquePointer?, _ holdingsJSON: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        try engine.setHoldings([Holding](json: readString(holdingsJSON, "holdings_json")))
    }
}

/// `cf_engine_coin_statistics` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_coin_statistics")
public func cf_engine_coin_statistics(
    _ engine: OpaquePointer?, _ coinID: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").coinStatistics(id: readString(coinID, "coin_id")).jsonUTF8
    }
}

/// `cf_engine_coin_detail` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_coin_detail")
public func cf_engine_coin_detail(_ engine: OpaquePointer?, _ coinID: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").coinDetail(id: readString(coinID, "coin_id")).jsonUTF8
    }
}

/// `cf_engine_metrics` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_metrics")
public func cf_engine_metrics(_ engine: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(engine, as: PortfolioEngine.self, "engine").metrics().jsonUTF8 }
}

/// `cf_progress_fn` of include/coinfolio.h.
public typealias ProgressFunction = @convention(c) (CString?, UnsafeMutableRawPointer?) -> Void

/// The host's `user` pointer, handed back untouched on the calling thread.
private struct UserPointer: @unchecked Sendable { let raw: UnsafeMutableRawPointer? }

/// `cf_engine_set_progress` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_set_progress")
public func cf_engine_set_progress(
    _ engine: OpaquePointer?, _ function: ProgressFunction?, _ user: UnsafeMutableRawPointer?, _ outError: OutString?
) -> Int32 {
    call(outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        guard let function else { return engine.setProgressHandler(nil) }
        let user = UserPointer(raw: user)
        engine.setProgressHandler { progress in
            var bytes = progress.jsonUTF8
            bytes.append(0)
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { function($0.baseAddress, user.raw) }
            }
        }
    }
}
