import Foundation

/// The `/coins/markets` decoder of builds without simdjson (SPEC §21): the strict Swift reader
/// (`JSONValue`) reads the body, each element is decoded by `Coin(from:warnings:)` with the
/// tolerance rules of SPEC §2 and §10, and the rows go into the one merge (`MarketRows`). Its
/// pages equal the simdjson decoder's (`MarketsDecoder`) for every body
/// (`MarketsTreeDecoderTests`), only slower and with sparklines decoded at once.
/// `CoinGeckoBody.markets` picks it in a build without the `SimdJSON` trait.
enum MarketsTreeDecoder {
    /// Decodes a body as it came (a UTF-8 BOM is dropped; offsets count from the first byte)
    /// into `rows`, the merge a refresh's pages share (`MarketRows`).
    /// - Throws: `.invalidArgument` for bytes that are not strict JSON, `.decode` when the top
    ///   level is not an array; `DecodeDeadline.Passed` when a client call's time ran out.
    static func decode(_ body: Data, into rows: inout MarketRows) throws {
        guard case .array(let elements) = try JSONValue.parse(body: body) else {
            throw CoinfolioError(.decode, "expected a JSON array of coins (/coins/markets): the top level is not an array")
        }
        rows.beginBody()
        rows.reserve(elements.count)
        for (index, element) in elements.enumerated() {
            try DecodeDeadline.check()
            rows.add(element: index, MarketsRow(element))
        }
    }

    /// A body decoded on its own: its page.
    static func decode(_ body: Data) throws -> MarketsPage {
        var rows = MarketRows()
        try decode(body, into: &rows)
        return rows.page()
    }
}

/// One `/coins/markets` element, decoded tolerantly: its coin, or why it was skipped; and the
/// warnings about its fields.
struct MarketsRow {
    /// Why an element was skipped (`MarketsPage.Skipped.reason`).
    struct Skip: Error { var text: String }

    var result: Result<Coin, Skip>
    var warnings = FieldWarnings()

    init(result: Result<Coin, Skip>, warnings: FieldWarnings = FieldWarnings()) {
        self.result = result
        self.warnings = warnings
    }

    /// An element as the strict reader read it; skipped with the simdjson decoder's reasons
    /// ("not an object", "missing id", "id is not a string", the id rule's message).
    init(_ element: JSONValue) {
        guard case .object = element else {
            result = .failure(Skip(text: "not an object"))
            return
        }
        switch element["id"] {
        case nil, .null?:
            result = .failure(Skip(text: "missing id"))
            return
        case .string?:
            break
        default:
            result = .failure(Skip(text: "id is not a string"))
            return
        }
        do {
            result = .success(try Coin(from: JSONValueDecoder.decoder(for: element), warnings: &warnings))
        } catch let error as CoinfolioError {
            result = .failure(Skip(text: error.message))
        } catch {
            result = .failure(Skip(text: describe(error, droppingFirst: 0)))
        }
    }
}
