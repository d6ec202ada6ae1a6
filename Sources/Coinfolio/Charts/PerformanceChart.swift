/// The value chart of a `performance` report: its points' values over time (a point without a
/// value is a gap), drawn by `ChartSVG` like every chart of the library.
extension PerformanceReport {
    /// A standalone SVG document of the values (see `ChartSVG`); the currency's symbol labels the
    /// value axis (a currency CoinGecko does not price in is labelled as USD is).
    public func svg(_ options: ChartSVGOptions = ChartSVGOptions()) -> String {
        let series = ChartSeries(times: points.map { Double($0.time) }, values: points.map { $0.value?.double ?? .nan })
        return ChartSVG.render(series, vsCurrency: (try? VsCurrency(vsCurrency)) ?? .usd, options: options)
    }
}
