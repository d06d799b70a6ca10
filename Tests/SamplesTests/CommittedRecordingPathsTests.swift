import Foundation
import Testing

/// The recordings committed under samples/ are what people open and copy: an event's `path` (what the page's Copy and
/// Open use) must name the file its `file` names, as an adapter that forwards `file`, `line` and `function` but not
/// `filePath` pairs the app's line with the adapter's own path; and no path may carry the folders of the machine that
/// recorded it (`SampleRun` sets `TraceOptions.sourceRoot` to the package's root).
@Suite struct CommittedRecordingPathsTests {
    /// Every `.ndjson` under samples/, relative to it (`yui/stream.ndjson`).
    static let recordings: [String] = {
        let root = SamplesTests.samplesDirectory.standardizedFileURL.path
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".ndjson") }.sorted()
    }()

    @Test func everySampleRecordingIsChecked() {
        let expected = SampleExpectation.all.map { "\($0.folder)/stream.ndjson" } + ["checkout-fix/before.ndjson", "checkout-fix/after.ndjson"]
        #expect(Set(expected).subtracting(Self.recordings).isEmpty, "found only \(Self.recordings)")
    }

    @Test(arguments: recordings)
    func everyPathNamesItsEventsFileRelativeToTheCheckout(_ recording: String) throws {
        let text = try String(contentsOf: SamplesTests.samplesDirectory.appendingPathComponent(recording), encoding: .utf8)
        let folder = "samples/" + recording.split(separator: "/").dropLast().joined(separator: "/") + "/"
        var problems: [String] = []
        var paths = 0
        for (index, line) in text.split(separator: "\n").enumerated() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "line \(index + 1)")
            guard let path = event["path"] as? String else { continue }
            paths += 1
            let file = event["file"] as? String ?? ""
            let place = "\(recording):\(index + 1)"
            if Self.fileName(path) != Self.fileName(file) { problems.append("\(place): path \(path) names another file than \(file)") }
            if path.hasPrefix("/") { problems.append("\(place): path \(path) is absolute") }
            if !path.hasPrefix(folder) { problems.append("\(place): path \(path) is not under \(folder)") }
        }
        #expect(paths > 0, "the hook sends a path with every call site")
        if !problems.isEmpty {
            Issue.record("\(problems.count) problems, the first: \(problems.prefix(4).joined(separator: "; "))")
        }
    }

    private static func fileName(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }
}
