import CoordinatorLens
import Foundation
import Testing

/// A sample's session, recorded by running the sample's executable as a real process through the real hook.
enum RecordedSample {
    /// Runs `product` with `--file` into a temporary file and judges its one session at the end, as `coordlens check`
    /// does.
    static func run(_ product: String, grace: Double = VerdictRules.defaultGrace) async throws -> Snapshot {
        let binary = try SampleBinaries.url(for: product)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(product)-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try await SampleProcess.run(binary, arguments: ["--file", output.path])
        try #require(status == 0, "\(product) exited with \(status)")
        return try snapshot(of: Data(contentsOf: output), grace: grace)
    }

    /// The verdicts of the single session in `bytes`.
    static func snapshot(of bytes: Data, grace: Double = VerdictRules.defaultGrace) throws -> Snapshot {
        let recording = Recording(bytes: bytes)
        try #require(recording.sessions.count == 1)
        return try recording.sessions[0].snapshot(grace: grace)
    }
}
