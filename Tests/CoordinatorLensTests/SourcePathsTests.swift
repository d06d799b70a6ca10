import CoordinatorLens
import Testing

@Suite struct SourcePathsTests {
    @Test func pathsUnderTheRootBecomeRelativeOthersTheirFileID() {
        let site = CallSite(file: "Shop/Home.swift", line: 9, path: "/Users/me/shop/Sources/Shop/Home.swift")
        #expect(SourcePaths(root: "/Users/me/shop").file(for: site) == "Sources/Shop/Home.swift")
        #expect(SourcePaths(root: "/Users/me/shop/").file(for: site) == "Sources/Shop/Home.swift")
        #expect(
            SourcePaths(root: "/Users/me/sho").file(for: site) == "Shop/Home.swift",
            "a prefix of a folder's name is not its parent, and no path outside the root is printed")
        #expect(SourcePaths(root: "/").file(for: site) == "Users/me/shop/Sources/Shop/Home.swift")
        #expect(SourcePaths().file(for: site) == "Shop/Home.swift", "without a root, the #fileID as before")
    }

    @Test func withoutAUsablePathTheFileIDStays() {
        let root = SourcePaths(root: "/src")
        #expect(root.file(for: CallSite(file: "Shop/Home.swift", line: 9)) == "Shop/Home.swift")
        #expect(root.file(for: CallSite(file: "Shop/Home.swift", line: 9, path: "/src/Shop/Base.swift")) == "Shop/Home.swift")
        // A path the hook made relative with `TraceOptions.sourceRoot` is relative to the checkout already.
        #expect(root.file(for: CallSite(file: "Shop/Home.swift", line: 9, path: "relative/Home.swift")) == "relative/Home.swift")
        #expect(root.file(for: CallSite(file: "Shop/Home.swift", line: 9, path: "../outside/Home.swift")) == "Shop/Home.swift")
    }

    @Test func thePagesSitesKeepThePathOfTheirFileForOpenAndOnlyThat() {
        let root = SourcePaths(root: "/src")
        let own = CallSite(file: "Shop/Home.swift", line: 9, path: "/src/Sources/Shop/Home.swift")
        #expect(root.local(own).file == "Sources/Shop/Home.swift" && root.local(own).path == "/src/Sources/Shop/Home.swift")
        #expect(root.shared(own).path == nil, "shareable outputs still leave the full path out")
        let wrapper = CallSite(file: "Shop/Home.swift", line: 9, path: "/src/Sources/Shop/Base.swift")
        #expect(root.local(wrapper).file == "Shop/Home.swift" && root.local(wrapper).path == nil, "another file's path goes")
        let relative = CallSite(file: "Shop/Home.swift", line: 9, path: "Sources/Shop/Home.swift")
        #expect(root.local(relative).path == "Sources/Shop/Home.swift", "relative to the checkout: the page puts the root before it")
        #expect(SourcePaths().local(wrapper) == wrapper, "without a root the page gets the site as sent")
    }
}
