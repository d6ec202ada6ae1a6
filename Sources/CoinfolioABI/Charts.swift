// cf_engine_chart, cf_engine_portfolio_history, cf_engine_refresh_prices, cf_chart_svg.
@_spi(ABI) import Coinfolio

/// `cf_engine_chart` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_chart")
public func cf_engine_chart(
    _ engine: OpaquePointer?, _ coinID: CString?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        let id = try readString(coinID, "coin_id")
        return try engine.chart(coinID: id, ChartOptions(json: readOptionalString(optionsJSON, "options_json"))).jsonUTF8
    }
}

/// `cf_engine_portfolio_history` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_portfolio_history")
public func cf_engine_portfolio_history(_ engine: OpaquePointer?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?)
    -> Int32
{
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.portfolioHistory(PortfolioHistoryOptions(json: readOptionalString(optionsJSON, "options_json"))).jsonUTF8
    }
}

/// `cf_engine_refresh_prices` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_refresh_prices")
public func cf_engine_refresh_prices(_ engine: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(engine, as: PortfolioEngine.self, "engine").refreshPrices().jsonUTF8 }
}

/// `cf_chart_svg` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_chart_svg")
public func cf_chart_svg(_ chartJSON: CString?, _ optionsJSON: CString?, _ outSVG: OutString?, _ outError: OutString?) -> Int32 {
    call(outSVG, outError) {
        let options = try ChartSVGOptions(json: readOptionalString(optionsJSON, "options_json"))
        return Array(try ChartSVG.render(json: readString(chartJSON, "chart_json"), options: options).utf8)
    }
}
