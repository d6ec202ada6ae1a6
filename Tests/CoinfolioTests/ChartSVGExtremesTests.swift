import Foundation
import XCTest

@testable import Coinfolio

/// Hostile charts for the SVG renderer: extreme times and values still draw on the page.
final class ChartSVGExtremesTests: XCTestCase {
    /// The `d` attribute of the line.
    private func path(_ svg: String) -> String? {
        guard let start = svg.range(of: " d=\"") else { return nil }
        return String(svg[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Before: times ±1.7e308 apart made the span infinite, and the last point was drawn at x 0,
    /// left of the plot (its x was NaN).
    func testTimesAtTheEndsOfADoubleStillSpanThePlot() throws {
        let svg = try ChartSVG.render(json: #"{"points":[[-1.7e308,5],[1.7e308,6]]}"#)
        XCTAssertEqual(path(svg), "M49.2,300L634,12")
        XCTAssertEqual(try RenderedSVG.render(svg, in: self).texts.suffix(2), ["n/a", "n/a"])
    }

    func testValuesAtTheEndsOfADoubleAndASinglePointStayOnThePage() throws {
        let extremes = try ChartSVG.render(json: #"{"points":[[0,1.7e308],[1,-1.7e308]]}"#)
        XCTAssertEqual(path(extremes), "M324,12L634,300")
        let single = try ChartSVG.render(json: #"{"points":[[1734000000000,5]]}"#)
        XCTAssertEqual(path(single), "M341.6,156")
        XCTAssertTrue(single.contains(##"<circle cx="341.6" cy="156" r="1.5" fill="#16c784"/>"##))
        let level = try ChartSVG.render(json: #"{"points":[[1,5],[2,5]]}"#)
        XCTAssertEqual(path(level), "M49.2,156L634,156")
    }
}
