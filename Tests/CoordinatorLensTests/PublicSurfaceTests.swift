import Foundation
import Testing

/// The project's own modules share with `package` and declare nothing public. The public surface of the modules users
/// import is checked from the compiler's symbol graphs by `make api-check` (scripts/api_dump.py), against `api/`.
struct PublicSurfaceTests {
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

    @Test(arguments: internalModules) func theProjectsOwnModulesHaveNoPublicSurface(_ module: String) throws {
        #expect(try Self.declarations(of: module).isEmpty, "\(module) shares with the project's modules through `package`")
    }
}
