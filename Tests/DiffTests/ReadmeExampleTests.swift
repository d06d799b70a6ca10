import CoordinatorLens
import Foundation
import Testing

@Suite("The README's diff example")
struct ReadmeExampleTests {
    /// samples/checkout-fix, recorded by `make samples` through the real hook: one checkout flow before and after its
    /// leak fix.
    private static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/checkout-fix")

    private static func snapshot(_ name: String) throws -> Snapshot {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        let sessions = Recording(bytes: data).sessions
        try #require(sessions.count == 1)
        return try sessions[0].snapshot()
    }

    @Test("the fixed leak is the only change")
    func onlyTheFixShows() throws {
        let diff = TreeDiff(try Self.snapshot("before.ndjson"), try Self.snapshot("after.ndjson"))
        #expect(diff.markerCounts == [.fixedLeak: 1, .unchanged: diff.entries.count - 1])
        #expect(diff.fixedLeaks.map(\.fingerprint.description) == ["AppCoordinator/MainTabCoordinator/CheckoutCoordinator (still-child)"])
        #expect(!diff.hasNewLeaks)
    }
}
