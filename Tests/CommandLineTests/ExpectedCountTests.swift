import Foundation
import TestSupport
import Testing

/// Expected counts, as LifetimeTracker has them: declared by the app (`expect` events) or on the command line
/// (`--max-alive`, `--max-alive-per-parent`), and the crowd note that suggests one.
@Suite struct ExpectedCountTests {
    /// A router that presented `count` products, each bound to a screen of its own and never dismissed or removed:
    /// a design whose screens never report leaving (nothing calls `screenLeft`), so only a count can catch it.
    private static func router(products count: Int, expect: String? = nil) -> String {
        var lines = [#"{"event":"session","v":1,"app":"Router","run":"r"}"#]
        var seq = 0
        func event(_ body: String) {
            seq += 1
            lines.append(#"{"seq":\#(seq),"t":\#(Double(seq) / 10),"# + body + "}")
        }
        if let expect { event(expect) }
        event(#""event":"add","id":1,"type":"Router""#)
        for product in 2...(count + 1) {
            event(#""event":"add","id":\#(product),"type":"ProductCoordinator","parent":1,"file":"Shop/Router.swift","line":42"#)
            event(#""event":"bind","id":\#(product),"screen":"ProductViewController""#)
        }
        event(#""event":"end""#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func anExpectedCountExceededFailsAndNamesTheOlderOnes() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(
            ["check", "-", "--max-alive-per-parent", "ProductCoordinator=1"], input: Self.router(products: 4)
        )
        #expect(result.status == 1, "\(result.standardOutput)")
        for id in 2...4 {
            #expect(
                result.standardOutput.contains(
                    "RETAINED ProductCoordinator#\(id): one of 4 ProductCoordinator alive at once under Router#1, where at most 1 is expected"
                ), "\(result.standardOutput)")
        }
        #expect(!result.standardOutput.contains("RETAINED ProductCoordinator#5"), "the newest is the one on screen")
        let json = try await BuiltProduct.coordlens.runAsync(
            ["check", "-", "--max-alive", "ProductCoordinator=2", "--format", "sarif"], input: Self.router(products: 4)
        )
        #expect(json.status == 1)
        #expect(json.standardOutput.contains("\"ruleId\":\"over-limit\""))
    }

    @Test func anExpectedCountKeptPasses() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--max-alive", "ProductCoordinator=4"], input: Self.router(products: 4))
        #expect(result.status == 0, "\(result.standardOutput)")
    }

    @Test func theAppsOwnDeclarationCountsAndTheCommandLineOverridesIt() async throws {
        let declared = Self.router(products: 3, expect: #""event":"expect","type":"ProductCoordinator","max":1,"per":"parent""#)
        let failing = try await BuiltProduct.coordlens.runAsync(["check", "-"], input: declared)
        #expect(failing.status == 1)
        #expect(failing.standardOutput.contains("2 retained in 1 session"), "\(failing.standardOutput)")
        let overridden = try await BuiltProduct.coordlens.runAsync(["check", "-", "--max-alive-per-parent", "ProductCoordinator=3"], input: declared)
        #expect(overridden.status == 0, "\(overridden.standardOutput)")
    }

    @Test func aBadCountIsBadUsage() async throws {
        for argument in ["ProductCoordinator", "=1", "ProductCoordinator=-1", "ProductCoordinator=many"] {
            let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--max-alive", argument], input: Self.router(products: 1))
            #expect(result.status == 2, "--max-alive \(argument)")
            #expect(result.standardError.contains("--max-alive takes TYPE=N"))
        }
    }

    @Test func manyLivingSiblingsBoundToScreensGetANoteNotAFailure() async throws {
        let crowded = try await BuiltProduct.coordlens.runAsync(["check", "-"], input: Self.router(products: 6))
        #expect(crowded.status == 0)
        #expect(crowded.standardOutput.contains("note: 6 ProductCoordinator alive side by side under Router#1"), "\(crowded.standardOutput)")
        let few = try await BuiltProduct.coordlens.runAsync(["check", "-"], input: Self.router(products: 5))
        #expect(!few.standardOutput.contains("note:"), "five, as many as a tab bar shows, is no crowd")
    }

    @Test func aFileWithTwoRunsOfOneAppIsNamedOnStandardError() async throws {
        let first = #"{"event":"session","v":1,"app":"Shop","run":"old"}"# + "\n" + #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"# + "\n"
        let second = #"{"event":"session","v":1,"app":"Shop","run":"new"}"# + "\n" + #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"# + "\n"
        let path = try Streams.file(first + second)
        let result = try await BuiltProduct.coordlens.runAsync(["check", path])
        #expect(result.status == 0)
        #expect(result.standardError.contains("holds 2 runs of Shop (old, new)"), "\(result.standardError)")
    }
}
