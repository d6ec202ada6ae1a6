// cf_store_*: PortfolioStore of the core.
@_spi(ABI) import Coinfolio

/// `cf_store_open` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_open")
public func cf_store_open(_ path: CString?, _ outStore: UnsafeMutablePointer<OpaquePointer?>?, _ outError: OutString?) -> Int32 {
    outStore?.pointee = nil
    return call(outError) {
        guard let outStore else { throw CoinfolioError(.invalidArgument, "out_store is NULL") }
        let store = try PortfolioStore(path: readString(path, "path"))
        outStore.pointee = retainHandle(store)
    }
}

/// `cf_store_close` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_close")
public func cf_store_close(_ store: OpaquePointer?) {
    guard let store else { return }
    (try? handle(store, as: PortfolioStore.self, "store"))?.close()
    releaseHandle(store, as: PortfolioStore.self)
}

/// `cf_store_set_holding` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_set_holding")
public func cf_store_set_holding(_ store: OpaquePointer?, _ coinID: CString?, _ amount: Double, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(store, as: PortfolioStore.self, "store").setHolding(coinID: readString(coinID, "coin_id"), amount: amount)
    }
}

/// `cf_store_set_holdings` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_set_holdings")
public func cf_store_set_holdings(_ store: OpaquePointer?, _ holdingsJSON: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        let store = try handle(store, as: PortfolioStore.self, "store")
        try store.setHoldings([Holding](json: readString(holdingsJSON, "holdings_json")))
    }
}

/// `cf_store_holdings` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_holdings")
public func cf_store_holdings(_ store: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(store, as: PortfolioStore.self, "store").holdings().jsonUTF8 }
}

/// `cf_store_open_v2` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_store_open_v2")
public func cf_store_open_v2(_ configJSON: CString?, _ outStore: UnsafeMutablePointer<OpaquePointer?>?, _ outError: OutString?) -> Int32 {
    outStore?.pointee = nil
    return call(outError) {
        guard let outStore else { throw CoinfolioError(.invalidArgument, "out_store is NULL") }
        let configuration = try StoreConfiguration(json: readOptionalString(configJSON, "config_json"))
        outStore.pointee = retainHandle(try PortfolioStore(configuration: configuration))
    }
}
