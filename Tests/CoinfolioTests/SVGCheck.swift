import Foundation
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a host sees of an SVG: `Tests/tools/svg_check.py` parses it as XML, renders it with
/// rsvg-convert and reports the texts and where the line colours landed (the same checker the C
/// and Python suites use). The document is also parsed here with Foundation's XMLParser.
struct RenderedSVG {
    /// Text contents of the `<text>` elements, entities decoded.
    var texts: [String]
    var width: Int
    var height: Int
    /// By colour (`#16c784`, `#ea3943`): `[x: (yMin, yMax)]` of matching pixels.
    var columns: [String: [Int: (Int, Int)]]

    func count(_ colour: String) -> Int { columns[colour]?.count ?? 0 }

    static func render(_ svg: String, in test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> RenderedSVG {
        let parser = XMLParser(data: Data(svg.utf8))
        XCTAssertTrue(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
        let folder = try temporaryDirectory(test)
        let path = folder.appendingPathComponent("chart.svg")
        try Data(svg.utf8).write(to: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.root.appendingPathComponent("Tests/tools/svg_check.py").path, path.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "svg_check.py failed", file: file, line: line)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var columns: [String: [Int: (Int, Int)]] = [:]
        for (colour, value) in report["colours"] as? [String: [String: Any]] ?? [:] {
            var byX: [Int: (Int, Int)] = [:]
            for entry in value["columns"] as? [[Int]] ?? [] where entry.count == 3 { byX[entry[0]] = (entry[1], entry[2]) }
            columns[colour] = byX
        }
        return RenderedSVG(
            texts: report["texts"] as? [String] ?? [], width: report["width"] as? Int ?? 0, height: report["height"] as? Int ?? 0,
            columns: columns)
    }
}

extension RenderedSVG {
    /// The text contents of the `<text>` elements of `svg`, entities decoded, as Foundation's
    /// XMLParser reads them (no rendering: for tests of many labels); nil when not well-formed.
    static func texts(of svg: String) -> [String]? {
        final class Collector: NSObject, XMLParserDelegate {
            var texts: [String] = []
            var current: String?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "text" { current = "" }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
                if name == "text", let text = current { texts.append(text) }
                if name == "text" { current = nil }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        return parser.parse() ? collector.texts : nil
    }
}
