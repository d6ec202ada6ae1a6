// swift-tools-version:6.0
//
// A Swift program that uses Coinfolio as a package dependency, the way an app would:
// `.package(path:)` to the Coinfolio checkout (a URL and a version for a published copy) and
// `.product(name: "Coinfolio", package: "Coinfolio")`.
import PackageDescription

let package = Package(
    name: "swift-consumer",
    dependencies: [
        .package(name: "Coinfolio", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "swift-consumer",
            dependencies: [.product(name: "Coinfolio", package: "Coinfolio")]
        ),
    ]
)
