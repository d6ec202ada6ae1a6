// cf_engine_* of the ledger: PortfolioEngine+Ledger of the core.
@_spi(ABI) import Coinfolio
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cf_engine_add_transaction` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_add_transaction")
public func cf_engine_add_transaction(
    _ engine: OpaquePointer?, _ transactionJSON: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.addTransaction(json: readString(transactionJSON, "transaction_json")).jsonUTF8
    }
}

/// `cf_engine_add_trade` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_add_trade")
public func cf_engine_add_trade(_ engine: OpaquePointer?, _ tradeJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.addTrade(json: readString(tradeJSON, "trade_json")).jsonUTF8
    }
}

/// `cf_engine_move` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_move")
public func cf_engine_move(_ engine: OpaquePointer?, _ moveJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.move(json: readString(moveJSON, "move_json")).jsonUTF8
    }
}

/// `cf_engine_delete_transaction` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_delete_transaction")
public func cf_engine_delete_transaction(_ engine: OpaquePointer?, _ transactionID: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").deleteTransaction(id: readString(transactionID, "transaction_id"))
    }
}

/// `cf_engine_transactions` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_transactions")
public func cf_engine_transactions(_ engine: OpaquePointer?, _ queryJSON: CString?, _ outJSON: OutString?, _ outError: OutString?)
    -> Int32
{
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.transactions(TransactionQuery(json: readOptionalString(queryJSON, "query_json"))).jsonUTF8
    }
}

/// `cf_engine_pnl` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_pnl")
public func cf_engine_pnl(_ engine: OpaquePointer?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.pnl(PnLOptions(json: readOptionalString(optionsJSON, "options_json"))).jsonUTF8
    }
}

/// `cf_engine_portfolios` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_portfolios")
public func cf_engine_portfolios(_ engine: OpaquePointer?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { try handle(engine, as: PortfolioEngine.self, "engine").portfolios().jsonUTF8 }
}

/// `cf_engine_create_portfolio` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_create_portfolio")
public func cf_engine_create_portfolio(_ engine: OpaquePointer?, _ portfolioJSON: CString?, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").createPortfolio(json: readString(portfolioJSON, "portfolio_json"))
    }
}

/// `cf_engine_rename_portfolio` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_rename_portfolio")
public func cf_engine_rename_portfolio(_ engine: OpaquePointer?, _ name: CString?, _ newName: CString?, _ outError: OutString?)
    -> Int32
{
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").renamePortfolio(
            readString(name, "name"), to: readString(newName, "new_name"))
    }
}

/// `cf_engine_delete_portfolio` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_delete_portfolio")
public func cf_engine_delete_portfolio(_ engine: OpaquePointer?, _ name: CString?, _ force: Int32, _ outError: OutString?) -> Int32 {
    call(outError) {
        try handle(engine, as: PortfolioEngine.self, "engine").deletePortfolio(readString(name, "name"), force: force != 0)
    }
}

/// `cf_engine_import_csv` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_import_csv")
public func cf_engine_import_csv(_ engine: OpaquePointer?, _ csv: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        guard let csv else { throw CoinfolioError(.invalidArgument, "csv is NULL") }
        // Borrowed in place; the core reads it in chunks and checks UTF-8 field by field.
        return try engine.importCSV(UnsafeRawBufferPointer(start: csv, count: strlen(csv))).jsonUTF8
    }
}

/// `cf_engine_import` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_import")
public func cf_engine_import(
    _ engine: OpaquePointer?, _ optionsJSON: CString?, _ data: CString?, _ outJSON: OutString?, _ outError: OutString?
) -> Int32 {
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        let options = try readOptionalString(optionsJSON, "options_json")
        guard let data else { throw CoinfolioError(.invalidArgument, "data is NULL") }
        // Borrowed in place; the core reads it in chunks and checks UTF-8 field by field.
        return try engine.importFile(UnsafeRawBufferPointer(start: data, count: strlen(data)), optionsJSON: options).jsonUTF8
    }
}

/// `cf_engine_export_csv` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_export_csv")
public func cf_engine_export_csv(_ engine: OpaquePointer?, _ queryJSON: CString?, _ outCSV: OutString?, _ outError: OutString?) -> Int32 {
    call(outCSV, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.exportCSV(portfolio: ExportQuery(json: readOptionalString(queryJSON, "query_json")).portfolio)
    }
}
