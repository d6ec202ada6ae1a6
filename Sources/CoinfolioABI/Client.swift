// cf_client_*: CoinGeckoClient of the core.
@_spi(ABI) import Coinfolio

/// `cf_client_open` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_open")
public func cf_client_open(_ configJSON: CString?, _ outClient: UnsafeMutablePointer<OpaquePointer?>?, _ outError: OutString?) -> Int32 {
    outClient?.pointee = nil
    return call(outError) {
        guard let outClient else { throw CoinfolioError(.invalidArgument, "out_client is NULL") }
        let configuration = try ClientConfiguration(json: readOptionalString(configJSON, "config_json"))
        outClient.pointee = retainHandle(CoinGeckoClient(configuration: configuration))
    }
}

/// `cf_client_close` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_close")
public func cf_client_close(_ client: OpaquePointer?) {
    releaseHandle(client, as: CoinGeckoClient.self)
}

/// `cf_client_markets` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_markets")
public func cf_client_markets(_ client: OpaquePointer?, _ requestJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let client = try handle(client, as: CoinGeckoClient.self, "client")
        return try client.markets(MarketsRequest(json: readOptionalString(requestJSON, "request_json"))).jsonUTF8
    }
}

/// `cf_client_global` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_global")
public func cf_client_global(_ client: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(client, as: CoinGeckoClient.self, "client").global().jsonUTF8 }
}

/// `cf_client_coin_detail` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_coin_detail")
public func cf_client_coin_detail(_ client: OpaquePointer?, _ coinID: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        try handle(client, as: CoinGeckoClient.self, "client").coinDetail(id: readString(coinID, "coin_id")).jsonUTF8
    }
}

/// `cf_client_market_chart` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_market_chart")
public func cf_client_market_chart(
    _ client: OpaquePointer?, _ coinID: CString?, _ requestJSON: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        let client = try handle(client, as: CoinGeckoClient.self, "client")
        let id = try readString(coinID, "coin_id")
        return try client.marketChart(id: id, MarketChartRequest(json: readOptionalString(requestJSON, "request_json"))).jsonUTF8
    }
}

/// `cf_client_market_chart_range` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_market_chart_range")
public func cf_client_market_chart_range(
    _ client: OpaquePointer?, _ coinID: CString?, _ requestJSON: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        let client = try handle(client, as: CoinGeckoClient.self, "client")
        let id = try readString(coinID, "coin_id")
        return try client.marketChartRange(id: id, MarketChartRangeRequest(json: readString(requestJSON, "request_json"))).jsonUTF8
    }
}

/// `cf_client_simple_price` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_client_simple_price")
public func cf_client_simple_price(_ client: OpaquePointer?, _ requestJSON: CString?, _ outJSON: OutString?, _ outError: OutString?)
    -> Int32
{
    call(outJSON, outError) {
        let client = try handle(client, as: CoinGeckoClient.self, "client")
        return try client.simplePrice(SimplePriceRequest(json: readString(requestJSON, "request_json"))).jsonUTF8
    }
}
