// swift-tools-version:6.1
//
// Coinfolio: a crypto portfolio engine in Swift, exported through a C ABI (include/coinfolio.h).
//
//   Coinfolio       the core (models, formatting, store, CoinGecko client, engine), pure Swift
//   coinfolio       libcoinfolio.so: the @_cdecl thunks of CoinfolioABI over the core
//   CoinfolioObservation  an @Observable HomeModel for SwiftUI apps, over the core's async API
//   coinfolio-cli   a terminal tracker built on the Swift API
//   CSimdJSON       C++ over Debian's simdjson (libsimdjson-dev): the one-pass decoder's scanner
//
// Traits (SPEC §21), both on by default: `PostgreSQL` (libpq: `postgresql://` databases) and
// `SimdJSON` (the one-pass `/coins/markets` decoder). With both off
// (`swift build --disable-default-traits`, or `.package(…, traits: [])` in an app) Coinfolio links
// only SQLite: `/coins/markets` decodes through the strict Swift reader (`MarketsTreeDecoder`)
// and a `postgresql://` URL is `.invalidArgument` with `details.reason` "postgres_disabled".
import PackageDescription

/// libcoinfolio.so exports the C ABI and nothing else: the version script
/// Sources/CoinfolioABI/coinfolio.map keeps every `cf_*` function global and every other symbol
/// (the Swift core linked into the library) local. The script takes `cf_*` by pattern, so a new
/// function needs no edit here; the symbol tests hold the exports equal to the header's functions.
/// lld, which ships with the Swift toolchain, links the library: gold (the default on Linux) leaves
/// the hidden symbols listed, as local entries, in the dynamic symbol table. These are unsafe
/// flags, but only this target has them: the `Coinfolio` product that Swift packages depend on
/// (by path, as Examples/swift-consumer does, or by URL) does not contain it and builds for them.
let exportedCSymbolsOnly: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/CoinfolioABI/coinfolio.map"],
        .when(platforms: [.linux])
    )
]

let package = Package(
    name: "Coinfolio",
    products: [
        .library(name: "Coinfolio", targets: ["Coinfolio"]),
        .library(name: "CoinfolioObservation", targets: ["CoinfolioObservation"]),
        .library(name: "coinfolio", type: .dynamic, targets: ["CoinfolioABI"]),
        .executable(name: "coinfolio-cli", targets: ["coinfolio-cli"]),
    ],
    traits: [
        .trait(name: "PostgreSQL", description: "PostgreSQL databases through libpq (Debian libpq-dev)"),
        .trait(name: "SimdJSON", description: "The one-pass /coins/markets decoder over simdjson (Debian libsimdjson-dev)"),
        .default(enabledTraits: ["PostgreSQL", "SimdJSON"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // simdjson On-Demand (Debian libsimdjson-dev) behind a C surface: the one-pass decoder.
        // No unsafe flags: packages depending on the Coinfolio product build it too. Its C
        // functions are declared with hidden visibility, so libcoinfolio.so never exports them.
        .target(
            name: "CSimdJSON",
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(
            name: "Coinfolio",
            dependencies: [
                "CSQLite",
                .target(name: "CSimdJSON", condition: .when(traits: ["SimdJSON"])),
                .target(name: "CPostgres", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        .target(
            name: "CoinfolioABI",
            dependencies: ["Coinfolio"],
            exclude: ["coinfolio.map"],
            linkerSettings: exportedCSymbolsOnly
        ),
        .target(name: "CoinfolioObservation", dependencies: ["Coinfolio"]),
        .executableTarget(name: "coinfolio-cli", dependencies: ["Coinfolio"]),
        // `make bench`'s measure of the async API's hop (SPEC §21); not part of any product users link.
        .executableTarget(name: "coinfolio-async-bench", dependencies: ["Coinfolio"], path: "bench/async"),
        .testTarget(name: "CoinfolioTests", dependencies: ["Coinfolio", "CoinfolioObservation"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
