import CoordinatorLens
import Testing

@Suite("One marker per coordinator")
struct MarkerTests {
    /// A: App holding Home (Cart, Banner) and Legacy; B changes each of them in one way.
    private static func diff() -> TreeDiff {
        var a = RunRecording(run: "a")
        let app = a.add("AppCoordinator", under: nil)
        let home = a.add("HomeCoordinator", under: app)
        a.bind(home, screen: "HomeScreen")
        let cart = a.add("CartCoordinator", under: home)
        a.dismiss(cart)
        let banner = a.add("BannerCoordinator", under: home)
        a.add("LegacyCoordinator", under: app)
        a.add("SettingsCoordinator", under: app)

        var b = RunRecording(run: "b", firstID: 100)
        let root = b.add("AppCoordinator", under: nil)
        let newHome = b.add("HomeCoordinator", under: root)
        b.bind(newHome, screen: "HomeScreenV2")
        let newCart = b.add("CartCoordinator", under: newHome)
        b.finish(newCart, from: newHome)
        let newBanner = b.add("BannerCoordinator", under: newHome)
        b.dismiss(newBanner)
        let settings = b.add("SettingsCoordinator", under: root)
        b.dismiss(settings)
        b.remove(settings, from: root)
        b.deinitialize(settings)
        b.add("PromoCoordinator", under: root)
        _ = banner
        return TreeDiff(a.snapshot, b.snapshot)
    }

    @Test("= unchanged")
    func unchanged() {
        #expect(Self.diff().entry(at: "AppCoordinator[0]")?.marker == .unchanged)
    }

    @Test("~ for a changed screen and for a changed verdict")
    func changed() {
        let diff = Self.diff()
        let home = diff.entry(at: "AppCoordinator/HomeCoordinator[0]")
        #expect(home?.marker == .changed)
        #expect(home.map { TreeDiffReport.detail($0, in: diff) } == "alive; screen HomeScreen → HomeScreenV2")
        let settings = diff.entry(at: "AppCoordinator/SettingsCoordinator[0]")
        #expect(settings?.marker == .changed)
        #expect(settings.map { TreeDiffReport.detail($0, in: diff) } == "alive → released")
    }

    @Test("+ added and - gone")
    func addedAndGone() {
        let diff = Self.diff()
        #expect(diff.entry(at: "AppCoordinator/PromoCoordinator[0]")?.marker == .added)
        #expect(diff.entry(at: "AppCoordinator/LegacyCoordinator[0]")?.marker == .gone)
        #expect(diff.summary.added == 1 && diff.summary.gone == 1)
    }

    @Test("! newly retained")
    func newLeak() {
        let diff = Self.diff()
        let banner = diff.entry(at: "AppCoordinator/HomeCoordinator/BannerCoordinator[0]")
        #expect(banner?.marker == .newLeak)
        #expect(banner?.isNewLeak == true)
        #expect(banner.map { TreeDiffReport.detail($0, in: diff) } == "alive → retained (still-child)")
    }

    @Test("✓ leak fixed")
    func fixedLeak() {
        let diff = Self.diff()
        let cart = diff.entry(at: "AppCoordinator/HomeCoordinator/CartCoordinator[0]")
        #expect(cart?.marker == .fixedLeak)
        #expect(cart.map { TreeDiffReport.detail($0, in: diff) } == "retained (still-child) → released")
    }

    @Test("the text tree prints each marker before its coordinator, and the summary last")
    func text() {
        let diff = Self.diff()
        let text = TreeDiffReport.text(for: diff, sourceA: "main.ndjson", sourceB: "branch.ndjson")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("A  main.ndjson · Shop run a · evaluated at"))
        #expect(lines[1].hasPrefix("B  branch.ndjson · Shop run b"))
        #expect(lines[2].isEmpty)
        let tree = Array(lines[3..<(3 + diff.entries.count)])
        #expect(tree.map { $0.split(separator: " ", maxSplits: 1)[0] } == ["=", "~", "✓", "!", "-", "~", "+"])
        #expect(tree[2].hasPrefix("✓     CartCoordinator "))
        #expect(tree[3].contains("BannerCoordinator"))
        #expect(text.contains("new leaks:\n  ! AppCoordinator/HomeCoordinator/BannerCoordinator (still-child)"))
        #expect(text.contains("fixed leaks:\n  ✓ AppCoordinator/HomeCoordinator/CartCoordinator (still-child)"))
        #expect(lines.last == "+1 -1 ~2, new leaks 1 (BannerCoordinator), fixed 1 (CartCoordinator)")
        #expect(lines.last == TreeDiffReport.summaryLine(for: diff))
    }

    @Test("a newly retained coordinator that only B has is marked ! and still counted as added")
    func newLeakOnlyInB() {
        let a = ShopFlow.run("a", leaksCheckout: false).snapshot
        var run = ShopFlow.run("b", firstID: 30, leaksCheckout: false)
        let wizard = run.add("WizardCoordinator", under: 30)
        run.dismiss(wizard)
        let diff = TreeDiff(a, run.snapshot)
        let entry = diff.entry(at: "AppCoordinator/WizardCoordinator[0]")
        #expect(entry?.marker == .newLeak)
        #expect(entry.map { TreeDiffReport.detail($0, in: diff) } == "retained (still-child), only in B")
        #expect(diff.summary.added == 1)
        #expect(diff.summary.newLeaks == 1)
    }
}
