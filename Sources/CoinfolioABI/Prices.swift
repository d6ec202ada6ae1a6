// cf_engine_* of prices in the past (SPEC §17): PortfolioEngine+Prices of the core.
@_spi(ABI) import Coinfolio
import Foundation

/// `cf_engine_price_at` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_price_at")
public func cf_engine_price_at(_ engine: OpaquePointer?, _ queryJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.priceAt(json: readString(queryJSON, "query_json")).jsonUTF8
    }
}

/// `cf_engine_set_price` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_set_price")
public func cf_engine_set_price(_ engine: OpaquePointer?, _ priceJSON: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").setPrice(json: readString(priceJSON, "price_json"))
    }
}

/// `cf_engine_fill_prices` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_fill_prices")
public func cf_engine_fill_prices(_ engine: OpaquePointer?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?)
    -> Int32
{
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.fillPrices(json: readOptionalString(optionsJSON, "options_json")).jsonUTF8
    }
}
