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
}
