// swift-tools-version:6.1
// CoordinatorLens is licensed under the Apache License, Version 2.0 (LICENSE). Its version is PackageVersion.current
// (Sources/CoordinatorWire/PackageVersion.swift); CHANGELOG.md says what each release changed.
import PackageDescription

let package = Package(
    name: "CoordinatorLens",
    platforms: [.macOS(.v11), .iOS(.v13)],
    products: [
        .library(name: "CoordinatorTrace", targets: ["CoordinatorTrace"]),
        .library(name: "CoordinatorLens", targets: ["CoordinatorLens"]),
        .library(name: "CoordinatorLensRendering", targets: ["CoordinatorLensRendering"]),
        .library(name: "CoordinatorTraceTesting", targets: ["CoordinatorTraceTesting"]),
        .executable(name: "coordlens", targets: ["coordlens"]),
    ],
    // An app that embeds only the hook depends on this package with `traits: []`: with the `Tools` trait off, nothing
    // uses swift-nio or swift-argument-parser, and SwiftPM does not even check them out (see README, "Hook only").
    traits: [
        .trait(
            name: "Tools",
            description: "The coordlens tool, its server and its SQLite leak history: needs swift-nio and swift-argument-parser."
        ),
        // Off by default: postgres-nio brings a TLS and crypto stack that takes most of a fresh build's time. `make test`
        // and CI turn it on (`swift build --traits Postgres`) in a build folder of their own.
        .trait(
            name: "Postgres",
            description: "A leak history on a PostgreSQL server that many CI machines share: needs postgres-nio.",
            enabledTraits: ["Tools"]
        ),
        // On by default, also for an app that names its traits: `traits: ["RetainerSearch"]` keeps it with the tools off.
        .trait(
            name: "RetainerSearch",
            description:
                "The hook's retainer search: reads the app's memory (faultless reads, Swift runtime look-ups) to say what holds a leak. Off, the hook keeps the tree and the verdicts, and each leak says the search was left out of the build."
        ),
        .default(enabledTraits: ["Tools", "RetainerSearch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // The leak history on a PostgreSQL server (the `Postgres` trait); SQLite is the system's library (CSQLite).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Its TLS, which the history configures (`--postgres-tls`); postgres-nio depends on it already.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
        // The real Combine shapes (subjects, `sink`, `AnyCancellable` sets) the retainer search is tested on; tests and the
        // stranger app only, under the `Tools` trait, so an app that embeds the hook resolves nothing new.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // `make docs`: the DocC catalogs of the hook and its test assertions (`swift package generate-documentation`).
        // A command plugin no target depends on: SwiftPM resolves it for this package's own commands only, so an app
        // resolves nothing new, with the `Tools` trait or without it (checked with an app depending on this package).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The wire format's vocabulary and JSON string escaping, shared by the hook and the core: no dependencies.
        .target(name: "CoordinatorWire"),
        // The hook apps embed: Foundation and the wire vocabulary only.
        .target(name: "CoordinatorTrace", dependencies: ["CoordinatorWire"]),
        // The inspector core: pure values in, values out.
        .target(name: "CoordinatorLens", dependencies: ["CoordinatorWire"]),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "CoordinatorLensRendering", dependencies: ["CoordinatorLens", "CoordinatorWire", "CGraphviz"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // The inspector page (plain HTML, CSS and JavaScript in Page/, compiled into the binary so it works offline and
        // wherever `coordlens` is copied), what it is sent, and its one-file static form (`render -o report.html`).
        .target(
            name: "CoordinatorLensPage",
            dependencies: ["CoordinatorLens", "CoordinatorLensRendering", "CoordinatorWire"],
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/inspector.css"), .embedInCode("Page/diff-report.css"),
                .embedInCode("Page/known-leaks.css"), .embedInCode("Page/lifetimes.css"), .embedInCode("Page/compare.css"),
                .embedInCode("Page/picture-dark.css"),
                // The script, one ES module per concern (PageAssets.modules lists them).
                .embedInCode("Page/main.js"), .embedInCode("Page/state.js"), .embedInCode("Page/dom.js"),
                .embedInCode("Page/format.js"), .embedInCode("Page/ids.js"), .embedInCode("Page/sanitise.js"),
                .embedInCode("Page/feed.js"), .embedInCode("Page/sessions.js"), .embedInCode("Page/tree-view.js"),
                .embedInCode("Page/outline.js"), .embedInCode("Page/legend.js"), .embedInCode("Page/zoom.js"),
                .embedInCode("Page/search.js"), .embedInCode("Page/details.js"), .embedInCode("Page/leaks.js"),
                .embedInCode("Page/slider.js"), .embedInCode("Page/known-leaks.js"), .embedInCode("Page/lifetimes.js"),
                .embedInCode("Page/compare.js"), .embedInCode("Page/tooltips.js"),
                .embedInCode("Page/site-actions.js"), .embedInCode("Page/leak-trace.js"), .embedInCode("Page/address.js"),
                .embedInCode("Page/view-filter.js"), .embedInCode("Page/tree-canvas.js"),
            ]
        ),
        .target(
            name: "CoordinatorLensServer",
            dependencies: [
                "CoordinatorLens", "CoordinatorLensRendering", "CoordinatorLensPage", "CoordinatorWire", "CZlib",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Tools"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Tools"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Tools"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Tools"])),
            ]
        ),
        // The leak history across runs (`coordlens history`, `check --history`): one store API over SQLite and PostgreSQL.
        .target(
            name: "CoordinatorLensHistory",
            dependencies: [
                "CoordinatorLens", "CoordinatorWire", "CSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Postgres"])),
            ]
        ),
        .executableTarget(
            name: "coordlens",
            dependencies: [
                "CoordinatorLens", "CoordinatorLensRendering", "CoordinatorLensPage", "CoordinatorLensServer", "CoordinatorLensHistory",
                "CoordinatorWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ]
        ),
        .executableTarget(
            name: "coordlens-bench",
            dependencies: [
                "CoordinatorTrace", "CoordinatorLens", "CoordinatorLensRendering", "CoordinatorLensPage", "CoordinatorWire", "StreamFuzzing",
                // The intake-hold figure's server; without `Tools` (bench-check's build) neither it nor swift-nio is compiled.
                .target(name: "CoordinatorLensServer", condition: .when(traits: ["Tools"])),
            ],
            path: "Benchmarks/coordlens-bench"
        ),
        // The fuzzing engine: hostile input shapes and a mutator over recordings, checked through the core and DOT.
        .target(
            name: "StreamFuzzing",
            dependencies: ["CoordinatorLens", "CoordinatorLensRendering"],
            path: "Benchmarks/StreamFuzzing"
        ),
        // `swift run coordlens-fuzz --seconds N --seed S`: the fuzzer for as long as a developer likes.
        .executableTarget(
            name: "coordlens-fuzz",
            dependencies: ["StreamFuzzing", "CoordinatorLens"],
            path: "Benchmarks/coordlens-fuzz"
        ),
        // Leak assertions for XCTest and Swift Testing, on the hook's memory sink and the core's verdicts.
        .target(name: "CoordinatorTraceTesting", dependencies: ["CoordinatorTrace", "CoordinatorLens", "CoordinatorWire"]),
        // Samples (samples/README.md): a UIKit stand-in for Linux and one executable per coordinator pattern.
        .target(name: "UIKitStandIn", path: "samples/UIKitStandIn"),
        .target(name: "SampleRun", dependencies: ["CoordinatorTrace", "UIKitStandIn"], path: "samples/SampleRun"),
        sample("DeliverooTraditionalSample", in: "deliveroo-traditional"),
        sample("ADCoordinatorSample", in: "ad-coordinator"),
        sample("DeliverooInvertedSample", in: "deliveroo-inverted"),
        sample("YuiSample", in: "yui"),
        sample("CoordinatorSampleStyle", in: "coordinator-sample"),
        sample("SegueSlotSample", in: "segue-slot"),
        sample("XCoordinatorRouterSample", in: "xcoordinator-router"),
        sample("RxFlowSample", in: "rxflow-flow"),
        sample("ElementFlowsSample", in: "element-flows"),
        sample(
            "BrowserTabsSample", in: "browser-tabs",
            alsoExcluding: ["fixed.ndjson", "flow-library.ndjson", "baseline.json", "fixed-baseline.json"]
        ),
        .executableTarget(
            name: "CheckoutFixSample",
            dependencies: ["UIKitStandIn", "SampleRun", "CoordinatorTrace"],
            path: "samples/checkout-fix",
            exclude: ["before.ndjson", "after.ndjson", "diff.svg", "diff.png", "diff.txt"]
        ),
        // A stranger-shaped app for the retainer search, built in debug as apps embed the hook: Combine-style view models
        // (OpenCombine), a generic router, a `[String: Any]` user info, a C callback, busy threads while it ends.
        .executableTarget(
            name: "StrangerCombineApp",
            dependencies: [
                "CoordinatorTrace",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["Tools"])),
            ],
            path: "Tests/StrangerApps/CombineRouter"
        ),
        // What the test targets share: SVG reading, finding built executables, running them as processes, waiting on events.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "CoordinatorTraceTests",
            dependencies: [
                "CoordinatorTrace", "CoordinatorLens", "TestSupport",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(traits: ["Tools"])),
            ]
        ),
        .testTarget(name: "CoordinatorLensTests", dependencies: ["CoordinatorLens"]),
        // Runs the built `coordlens` as a real process: exit codes, formats, listen over TCP.
        .testTarget(name: "CommandLineTests", dependencies: ["CoordinatorTrace", "CoordinatorLensServer", "coordlens", "TestSupport"]),
        // The leak history against a real SQLite file and a real PostgreSQL server (`make test` starts one).
        .testTarget(name: "HistoryTests", dependencies: ["CoordinatorLensHistory", "CoordinatorWire", "coordlens", "TestSupport"]),
        // The live server's session table, called directly.
        .testTarget(
            name: "CoordinatorLensServerTests",
            dependencies: [
                "CoordinatorLensServer", "CoordinatorLens", "CoordinatorWire", "TestSupport",
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Tools"])),
            ]
        ),
        .testTarget(name: "CoordinatorLensRenderingTests", dependencies: ["CoordinatorLensRendering", "TestSupport"]),
        .testTarget(name: "DiffTests", dependencies: ["CoordinatorLens", "CoordinatorLensRendering", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "CoordinatorTrace", "CoordinatorLens", "CoordinatorLensRendering", "CoordinatorLensPage", "CoordinatorLensServer",
                "TestSupport",
            ]
        ),
        .testTarget(name: "CoordinatorTraceTestingTests", dependencies: ["CoordinatorTraceTesting", "CoordinatorTrace"]),
        .testTarget(name: "SamplesTests", dependencies: ["CoordinatorLens", "SampleRun", "TestSupport"]),
        // A bounded, seeded run of the fuzzer in the normal test suite.
        .testTarget(name: "FuzzTests", dependencies: ["StreamFuzzing", "CoordinatorLens"]),
    ],
    swiftLanguageModes: [.v6]
)

// `make test-thread-sanitizer` and `make test-address-sanitizer` name the test targets they run in
// COORDLENS_TEST_TARGETS (comma-separated): the package is then those and what they depend on. Their sanitized builds
// compiled every test target, sample and tool, most of their time, for suites they never ran.
if let only = Context.environment["COORDLENS_TEST_TARGETS"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set(only.split(separator: ",").map(String.init))
    var unvisited = Array(needed)
    while let name = unvisited.popLast() {
        for dependency in byName[name]?.dependencies ?? [] {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _):
                if byName[name] != nil, needed.insert(name).inserted { unvisited.append(name) }
            default:
                break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return !targets.allSatisfy(needed.contains)
    }
}

/// A sample app: an executable over the UIKit stand-in that records itself through the hook; `make samples` writes its
/// stream, pictures and report beside its sources.
func sample(_ name: String, in folder: String, alsoExcluding extra: [String] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["UIKitStandIn", "SampleRun", "CoordinatorTrace"],
        path: "samples/\(folder)",
        exclude: ["stream.ndjson", "tree.svg", "tree.png", "report.txt"] + extra
    )
}
