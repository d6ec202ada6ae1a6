import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// The portfolio answer's JSON as the ABI writes it (`PortfolioEngine.portfolioJSON`). Issue 23 §4:
/// one wire shape; issue 11's second one (`"coins_by_reference"`, for a binding that kept rows of
/// its own) is gone.
final class PortfolioJSONTests: XCTestCase {
    private func text(_ answer: JSONAnswer) -> String {
        var bytes = [UInt8](repeating: 0, count: answer.count)
        bytes.withUnsafeMutableBytes { answer.copyBytes(to: $0.baseAddress!) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testTheOldReferenceKeyIsAnUnknownKeyAndTheAnswerIsThePlainOne() throws {
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "delisted-coin", amount: 2)
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let plain = PortfolioQuery(sparkline: false)
        for json in [#"{"sparkline":false,"coins_by_reference":true}"#, #"{"sparkline":false,"coins_by_reference":1}"#] {
            let query = try PortfolioQuery(json: json)
            XCTAssertEqual(text(try engine.portfolioJSON(query)), text(try engine.portfolioJSON(plain)))
        }
        let answer = text(try engine.portfolioJSON(plain))
        XCTAssertEqual(answer, try engine.portfolio(plain).json, "the ABI's answer is the value's JSON")
        XCTAssertFalse(answer.contains("snapshot_version"))
    }

    func testStringsAreEscapedWhereNeededAndCopiedWholeElsewhere() {
        var w = JSONWriter()
        w.beginArray()
        for text in ["plain", "quote \" and \\", "tab\tnew\nline\r", "\u{01}\u{1F}\u{7F}", "Pokémon 🚀", ""] { w.string(text) }
        w.endArray()
        XCTAssertEqual(
            String(decoding: w.bytes, as: UTF8.self),
            #"["plain","quote \" and \\","tab\tnew\nline\r","\u0001\u001f\u007f","Pokémon 🚀",""]"#)
    }
}
