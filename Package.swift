// swift-tools-version:6.0
//
// Coinfolio: a crypto portfolio engine in Swift, exported through a C ABI (include/coinfolio.h).
//
//   Coinfolio       the core (models, formatting, store, CoinGecko client, engine), pure Swift
//   coinfolio       libcoinfolio.so: the @_cdecl thunks of CoinfolioABI over the core
//   coinfolio-cli   a terminal tracker built on the Swift API
//   CSimdJSON       C++ over Debian's simdjson (libsimdjson-dev): the one-pass decoder's scanner
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
        // simdjson On-Demand (Debian libsimdjson-dev) behind a C surface: the one-pass decoder.
        .target(
            name: "CSimdJSON",
            // Optimized even in debug builds (the tests decode megabytes); nothing exported from
            // libcoinfolio.so beyond include/coinfolio.h.
            cxxSettings: [.unsafeFlags(["-O2", "-fvisibility=hidden", "-fvisibility-inlines-hidden"])],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(name: "Coinfolio", dependencies: ["CSQLite", "CSimdJSON"]),
        .target(name: "CoinfolioABI", dependencies: ["Coinfolio"]),
        .executableTarget(name: "coinfolio-cli", dependencies: ["Coinfolio"]),
        .testTarget(name: "CoinfolioTests", dependencies: ["Coinfolio"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
