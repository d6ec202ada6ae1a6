// swift-tools-version:6.0
//
// Coinfolio: a crypto portfolio engine in Swift, exported through a C ABI (include/coinfolio.h).
//
//   Coinfolio       the core (models, formatting, store, CoinGecko client, engine), pure Swift
//   coinfolio       libcoinfolio.so: the @_cdecl thunks of CoinfolioABI over the core
//   coinfolio-cli   a terminal tracker built on the Swift API
import PackageDescription

let package = Package(
    name: "Coinfolio",
    products: [
        .library(name: "Coinfolio", targets: ["Coinfolio"]),
        .library(name: "coinfolio", type: .dynamic, targets: ["CoinfolioABI"]),
        .executable(name: "coinfolio-cli", targets: ["coinfolio-cli"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "Coinfolio", dependencies: ["CSQLite"]),
        .target(name: "CoinfolioABI", dependencies: ["Coinfolio"]),
        .executableTarget(name: "coinfolio-cli", dependencies: ["Coinfolio"]),
        .testTarget(name: "CoinfolioTests", dependencies: ["Coinfolio"]),
    ],
    swiftLanguageModes: [.v6]
)
