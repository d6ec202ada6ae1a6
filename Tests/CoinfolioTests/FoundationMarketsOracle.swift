import Foundation

@testable import Coinfolio

/// The reference the markets decoders are compared against: the same body through Foundation's
/// `JSONDecoder` and `Coin(from:warnings:)` (the decoder before the one-pass one), after the
/// strict check Foundation's parser does not make. Test code only: the library reads no JSON
/// with Foundation.
extension CoinGeckoBody {
    static func marketsWithFoundation(_ body: Data) throws -> MarketsPage {
        let elements: [FoundationRow]
        do {
            elements = try JSONDecoder().decode([FoundationRow].self, from: prepared(body))
        } catch let error as CoinfolioError {
            throw error
        } catch {
            throw CoinfolioError(.decode, "expected a JSON array of coins (/coins/markets): \(describe(error))")
        }
        var rows = MarketRows()
        rows.beginBody()
        for (index, element) in elements.enumerated() { rows.add(element: index, element.row) }
        return rows.page()
    }

    /// The body without its BOM, after the strict checks (UTF-8, RFC 8259).
    static func prepared(_ body: Data) throws -> Data {
        let data = withoutBOM(body)
        try data.withUnsafeBytes { bytes in
            try JSONSyntax.checkUTF8(bytes)
            try JSONSyntax.checkStrict(bytes, offsetBase: body.count - data.count)
        }
        return data
    }

    /// One markets element through Foundation, without letting its failure fail the array.
    private struct FoundationRow: Decodable {
        var row: MarketsRow

        init(from decoder: Decoder) throws {
            var warnings = FieldWarnings()
            do {
                row = MarketsRow(result: .success(try Coin(from: decoder, warnings: &warnings)), warnings: warnings)
            } catch let error as CoinfolioError {
                row = MarketsRow(result: .failure(.init(text: error.message)))
            } catch {
                row = MarketsRow(result: .failure(.init(text: describe(error, droppingFirst: decoder.codingPath.count))))
            }
        }
    }
}
