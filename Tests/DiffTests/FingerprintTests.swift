import CoordinatorLens
import Testing

@Suite("Leak fingerprints")
struct FingerprintTests {
    @Test("the same leak in both runs is still leaking, not new")
    func stillLeaking() {
        let diff = TreeDiff(
            ShopFlow.run("a", leaksCheckout: true).snapshot,
            ShopFlow.run("b", firstID: 200, leaksCheckout: true).snapshot
        )
        #expect(!diff.hasNewLeaks)
        #expect(diff.newLeaks.isEmpty && diff.fixedLeaks.isEmpty)
        let fingerprint = LeakFingerprint(
            types: ["AppCoordinator", "MainTabCoordinator", "CheckoutCoordinator"], reasonKind: .stillChild
        )
        #expect(diff.stillLeaking == [LeakCount(fingerprint: fingerprint, count: 1)])
        let checkout = diff.entry(at: "AppCoordinator/MainTabCoordinator/CheckoutCoordinator[0]")
        #expect(checkout?.marker == .unchanged)
        #expect(checkout?.isStillLeaking == true)
        #expect(TreeDiffReport.summaryLine(for: diff) == "+0 -0, new leaks 0, fixed 0, still leaking 1 (CheckoutCoordinator)")
    }

    @Test("a fingerprint is the type path and the reason kind, printed as such")
    func fingerprintText() {
        let fingerprint = LeakFingerprint(types: ["AppCoordinator", "YellowCoordinator"], reasonKind: .detached)
        #expect(fingerprint.description == "AppCoordinator/YellowCoordinator (detached)")
        #expect(fingerprint.type == "YellowCoordinator")
    }

    @Test("the same coordinator retained for another reason is one new leak and one fixed")
    func otherReason() {
        var a = RunRecording(run: "a")
        let app = a.add("AppCoordinator", under: nil)
        let yellow = a.add("YellowCoordinator", under: app)
        a.dismiss(yellow)
        var b = RunRecording(run: "b", firstID: 10)
        let root = b.add("AppCoordinator", under: nil)
        let other = b.add("YellowCoordinator", under: root)
        b.dismiss(other)
        b.remove(other, from: root)

        let diff = TreeDiff(a.snapshot, b.snapshot)
        #expect(diff.newLeaks.map(\.fingerprint.description) == ["AppCoordinator/YellowCoordinator (detached)"])
        #expect(diff.fixedLeaks.map(\.fingerprint.description) == ["AppCoordinator/YellowCoordinator (still-child)"])
        #expect(diff.entry(at: "AppCoordinator/YellowCoordinator[0]")?.marker == .newLeak)
        #expect(diff.hasNewLeaks)
    }

    @Test("fingerprints are counted: one more of the same leak is one new leak")
    func counted() {
        func run(_ name: String, firstID: Int, yellows: Int) -> Snapshot {
            var run = RunRecording(run: name, firstID: firstID)
            let app = run.add("AppCoordinator", under: nil)
            for _ in 0..<yellows {
                let yellow = run.add("YellowCoordinator", under: app)
                run.dismiss(yellow)
            }
            return run.snapshot
        }
        let diff = TreeDiff(run("a", firstID: 1, yellows: 1), run("b", firstID: 50, yellows: 3))
        #expect(diff.summary.newLeaks == 2)
        #expect(diff.summary.stillLeaking == 1)
        // The one A had is the one still leaking; the two after it are the new ones.
        #expect(diff.entry(at: "AppCoordinator/YellowCoordinator[0]")?.isStillLeaking == true)
        #expect(diff.entry(at: "AppCoordinator/YellowCoordinator[1]")?.marker == .newLeak)
        #expect(diff.entry(at: "AppCoordinator/YellowCoordinator[2]")?.marker == .newLeak)
        #expect(TreeDiffReport.summaryLine(for: diff) == "+2 -0, new leaks 2 (YellowCoordinator ×2), fixed 0, still leaking 1 (YellowCoordinator)")

        let back = TreeDiff(run("b", firstID: 50, yellows: 3), run("a", firstID: 1, yellows: 1))
        #expect(!back.hasNewLeaks)
        #expect(back.summary.fixedLeaks == 2)
        #expect(back.markerCounts[.fixedLeak] == 2)
    }

    @Test("a leak that moved to another sibling slot is the same leak")
    func movedSlot() {
        var a = RunRecording(run: "a")
        let app = a.add("AppCoordinator", under: nil)
        let first = a.add("YellowCoordinator", under: app)
        a.dismiss(first)
        let second = a.add("YellowCoordinator", under: app)
        a.finish(second, from: app)

        var b = RunRecording(run: "b", firstID: 7)
        let root = b.add("AppCoordinator", under: nil)
        let one = b.add("YellowCoordinator", under: root)
        b.finish(one, from: root)
        let two = b.add("YellowCoordinator", under: root)
        b.dismiss(two)

        let diff = TreeDiff(a.snapshot, b.snapshot)
        #expect(!diff.hasNewLeaks)
        #expect(diff.summary.fixedLeaks == 0 && diff.summary.stillLeaking == 1)
        #expect(diff.markerCounts == [.changed: 2, .unchanged: 1])
    }

    @Test("the JSON form carries the same facts")
    func json() throws {
        let diff = TreeDiff(
            ShopFlow.run("a", leaksCheckout: false).snapshot,
            ShopFlow.run("b", firstID: 60, leaksCheckout: true).snapshot
        )
        let object = try JSONObject.encode(TreeDiffJSON(diff, sourceA: "a.ndjson", sourceB: "b.ndjson"))
        #expect((object["a"] as? [String: Any])?["source"] as? String == "a.ndjson")
        #expect((object["summary"] as? [String: Any])?["newLeaks"] as? Int == 1)
        #expect(object["hasNewLeaks"] as? Bool == true)
        let leaks = try #require((object["leaks"] as? [String: Any])?["new"] as? [[String: Any]])
        #expect(leaks.first?["fingerprint"] as? String == "AppCoordinator/MainTabCoordinator/CheckoutCoordinator (still-child)")
        #expect(leaks.first?["types"] as? [String] == ["AppCoordinator", "MainTabCoordinator", "CheckoutCoordinator"])
        let coordinators = try #require(object["coordinators"] as? [[String: Any]])
        #expect(coordinators.count == diff.entries.count)
        let checkout = try #require(coordinators.first { $0["path"] as? String == "AppCoordinator/MainTabCoordinator/CheckoutCoordinator[0]" })
        #expect(checkout["marker"] as? String == "!")
        #expect(checkout["change"] as? String == "new-leak")
        #expect((checkout["a"] as? [String: Any])?["verdict"] as? String == "released")
        #expect((checkout["b"] as? [String: Any])?["reasonKind"] as? String == "still-child")
        #expect((checkout["b"] as? [String: Any])?["screen"] as? String == "CheckoutScreen")
    }
}
