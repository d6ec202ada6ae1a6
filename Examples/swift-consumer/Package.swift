// swift-tools-version:6.0
//
// A Swift program that uses Coinfolio as a package dependency, the way an app would:
// `.package(path:)` to the Coinfolio checkout (a URL and a version for a published copy) and
// `.product(name: "Coinfolio", package: "Coinfolio")`, plus `CoinfolioObservation` for its
// `@Observable` HomeModel, the home screen of a tracker app.
import PackageDescription

let package = Package(
    name: "swift-consumer",
    dependencies: [
        .package(name: "Coinfolio", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "swift-consumer",
            dependencies: [
                .product(name: "Coinfolio", package: "Coinfolio"),
                .product(name: "CoinfolioObservation", package: "Coinfolio"),
            ]
        ),
    ]
)
