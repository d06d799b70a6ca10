import Foundation
import Testing

/// The public surface of each module users import, as a committed dump in `api/` (in the spirit of LeakCanary's API
/// dumps): a change to it shows in review as a change to that file. `COORDLENS_UPDATE_API=1 swift test --filter
/// PublicSurfaceTests` writes the dumps anew after an intended change.
struct PublicSurfaceTests {
    /// What an app, a test writer, or someone reading recordings from Swift imports; the project's other modules
    /// share what they need with `package` and have no public surface.
    static let modules = ["CoordinatorTrace", "CoordinatorTraceTesting", "CoordinatorWire", "CoordinatorLens", "CoordinatorLensRendering"]
    static let internalModules = ["CoordinatorLensPage", "CoordinatorLensServer", "CoordinatorLensHistory"]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every line of the module's sources that declares something public or open, trimmed and sorted, so moving a
    /// declaration between files changes nothing and adding one adds a line.
    static func declarations(of module: String) throws -> [String] {
        let folder = root.appendingPathComponent("Sources/\(module)")
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                // `public` or `open` among the first three words, as a modifier: `open = nil` is a variable named open.
                let words = text.split(separator: " ").prefix(4).map(String.init)
                let declares = words.indices.prefix(3).contains { index in
                    ["public", "open"].contains(words[index]) && (index + 1 == words.count || ![":", "="].contains(words[index + 1]))
                }
                guard declares else { continue }
                guard !text.hasPrefix("//") else { continue }
                found.append(text.hasSuffix("{") ? String(text.dropLast()).trimmingCharacters(in: .whitespaces) : text)
            }
        }
        return found.sorted()
    }

    @Test(arguments: modules) func theDumpMatches(_ module: String) throws {
        let dump = Self.root.appendingPathComponent("api/\(module).txt")
        let now = try Self.declarations(of: module).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["COORDLENS_UPDATE_API"] == "1" {
            try now.write(to: dump, atomically: true, encoding: .utf8)
            return
        }
        let committed = (try? String(contentsOf: dump, encoding: .utf8)) ?? ""
        let (was, isNow) = (Set(committed.split(separator: "\n")), Set(now.split(separator: "\n")))
        #expect(
            committed == now,
            """
            \(module)'s public surface changed; if meant, run COORDLENS_UPDATE_API=1 swift test --filter PublicSurfaceTests \
            and commit api/\(module).txt. Added: \(isNow.subtracting(was).sorted().prefix(10)); removed: \(was.subtracting(isNow).sorted().prefix(10))
            """)
    }

    @Test(arguments: internalModules) func theProjectsOwnModulesHaveNoPublicSurface(_ module: String) throws {
        #expect(try Self.declarations(of: module).isEmpty, "\(module) shares with the project's modules through `package`")
    }
}
