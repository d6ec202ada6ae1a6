// cf_engine_* of returns and taxes: PortfolioEngine+Returns of the core.
@_spi(ABI) import Coinfolio

/// `cf_engine_performance` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_performance")
public func cf_engine_performance(_ engine: OpaquePointer?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?)
    -> Int32
{
    call(outJSON, outError) {
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        return try engine.performance(PerformanceOptions(json: readOptionalString(optionsJSON, "options_json"))).jsonUTF8
    }
}

/// `cf_engine_realized` of include/coinfolio.h, which documents arguments, ownership and statuses.
@_cdecl("cf_engine_realized")
public func cf_engine_realized(_ engine: OpaquePointer?, _ optionsJSON: CString?, _ outJSON: OutString?, _ outError: OutString?) -> Int32 {
    call(outJSON, outError) { () throws -> (expected: Int, write: (AnswerBuffer) -> Void) in
        let engine = try handle(engine, as: PortfolioEngine.self, "engine")
        let options = try RealizedOptions(json: readOptionalString(optionsJSON, "options_json"))
        let answer = try engine.realizedAnswer(options)
        return (answer.expectedSize, { answer.write(into: $0) })
    }
}
