import Coinfolio
import CoinfolioObservation
import Observation

/// The home screen drawn as text from a `HomeModel`. `watch()` follows the model with
/// Observation's `withObservationTracking`, as a SwiftUI view would be redrawn: every change of
/// a list the screen reads counts as one redraw.
@MainActor
final class HomeScreen {
    let model: HomeModel
    private(set) var changes = 0

    init(model: HomeModel) { self.model = model }

    /// Counts a redraw whenever a list or the statistics change, and follows again.
    func watch() {
        withObservationTracking {
            _ = (model.allCoins, model.portfolioCoins, model.statistics)
        } onChange: {
            Task { @MainActor in
                self.changes += 1
                self.watch()
            }
        }
    }

    /// Waits for lists that follow the new search or sort (a view would simply redraw when the
    /// update the change started lands).
    func settle() async {
        await model.update()
    }

    func drawStatistics() {
        for statistic in model.statistics {
            let change = statistic.percentageChange.map { " (\($0 > 0 ? "+" : "")\(NumberFormat.percent($0)))" } ?? ""
            print("\(statistic.title): \(statistic.value)\(change)")
        }
    }

    func drawPortfolio() {
        print("portfolio:")
        for entry in model.portfolioCoins {
            let value = entry.value.map { NumberFormat.value($0, vsCurrency: model.engine.configuration.vsCurrency) } ?? "n/a"
            print("  \(entry.coin?.symbol.uppercased() ?? entry.coinID) \(entry.amount) = \(value)")
        }
    }

    func drawCoins(title: String, limit: Int = 10) {
        print("\(title):")
        for coin in model.allCoins.prefix(limit) {
            let price = coin.currentPrice.map { NumberFormat.price($0, vsCurrency: model.engine.configuration.vsCurrency) } ?? "-"
            print("  \(coin.marketCapRank.map(String.init) ?? "-") \(coin.name) \(price)")
        }
    }
}
