import Foundation
import XCTest

@_spi(ABI) @testable import Coinfolio

/// Issue 11: the portfolio answer by reference (`"coins_by_reference"`), which the Python binding
/// joins with the market rows it kept; the core's side of the contract.
final class PortfolioByReferenceTests: XCTestCase {
    private func text(_ answer: JSONAnswer) -> String {
        var bytes = [UInt8](repeating: 0, count: answer.count)
        bytes.withUnsafeMutableBytes { answer.copyBytes(to: $0.baseAddress!) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func object(_ answer: JSONAnswer) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text(answer).utf8)) as? [String: Any])
    }

    func testTheQueryKeyIsReadStrictly() throws {
        XCTAssertFalse(try PortfolioQuery(json: nil).coinsByReference)
        XCTAssertTrue(try PortfolioQuery(json: #"{"coins_by_reference":true}"#).coinsByReference)
        assertThrows(.invalidArgument) { _ = try PortfolioQuery(json: #"{"coins_by_reference":1}"#) }
    }

    func testEachSnapshotCoinIsNamedAndTheRestIsThePlainAnswer() throws {
        let engine = try PortfolioEngine(configuration: EngineConfiguration(database: ":memory:"))
        try engine.setHolding(coinID: "bitcoin", amount: 0.5)
        try engine.setHolding(coinID: "delisted-coin", amount: 2)
        let empty = try object(engine.portfolioJSON(PortfolioQuery(coinsByReference: true)))
        XCTAssertTrue(empty["snapshot_version"] is NSNull, "no snapshot yet")
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        let query = PortfolioQuery(sparkline: false, coinsByReference: true)
        let answer = text(try engine.portfolioJSON(query))
        let plain = text(try engine.portfolioJSON(PortfolioQuery(sparkline: false)))
        let version = try XCTUnwrap(try object(engine.portfolioJSON(query))["snapshot_version"] as? Int)
        let value = 0.5 * (try XCTUnwrap(try engine.coins().coins.first { $0.id == "bitcoin" }?.currentPrice))
        var w = JSONWriter()
        w.number(value)
        let valueText = String(decoding: w.bytes, as: UTF8.self)
        // The delisted coin's element is the plain answer's, as it stands there.
        let start = try XCTUnwrap(plain.range(of: #"{"id":"delisted-coin""#)).lowerBound
        let element = plain[start...].prefix(through: try XCTUnwrap(plain[start...].firstIndex(of: "}")))
        XCTAssertEqual(
            answer,
            #"{"coins":["bitcoin",\#(element)],"price_available":[true,false],"current_holdings":[0.5,2],"#
                + #""current_holdings_value":[\#(valueText),null],"price_source":["coingecko",null],"#
                + #""total_value":\#(valueText),"unpriced_holdings":1,"#
                + String(plain[try XCTUnwrap(plain.range(of: #""as_of":"#)).lowerBound...].dropLast())
                + #","snapshot_version":\#(version)}"#)
        try engine.setHolding(coinID: "bitcoin", amount: 1)
        XCTAssertEqual(try object(engine.portfolioJSON(query))["snapshot_version"] as? Int, version, "holdings are not the snapshot")
        try engine.load(marketsBody: try Repository.fixture("markets.json"), globalBody: nil)
        XCTAssertNotEqual(try object(engine.portfolioJSON(query))["snapshot_version"] as? Int, version)
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
