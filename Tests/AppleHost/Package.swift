// swift-tools-version:6.1
// A host for the tests that need UIKit: the iOS simulator runs them (.github/workflows/ci.yml). It depends on the hook
// and the core only, with the Tools trait off, so nothing that needs Graphviz or SwiftNIO is built for iOS.
import PackageDescription

let package = Package(
    name: "AppleHost",
    platforms: [.iOS(.v15), .macOS(.v11)],
    dependencies: [.package(name: "CoordinatorLens", path: "../..", traits: ["RetainerSearch"])],
    targets: [
        .testTarget(
            name: "ScreenDepartureWatchTests",
            dependencies: [
                .product(name: "CoordinatorTrace", package: "CoordinatorLens"),
                .product(name: "CoordinatorLens", package: "CoordinatorLens"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
