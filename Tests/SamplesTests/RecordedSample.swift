import CoordinatorLens
import Foundation
import TestSupport
import Testing

/// A sample's session, recorded by running the sample's executable as a real process through the real hook.
enum RecordedSample {
    /// Runs `product` with `--file` into a temporary file and judges its one session at the end, as `coordlens check`
    /// does.
    static func run(_ product: String, _ arguments: [String] = [], grace: Double = VerdictRules.defaultGrace) async throws -> Snapshot {
        let binary = BuiltProduct.sample(product)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(product)-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await binary.runAsync(arguments + ["--file", output.path], timeout: BuiltProduct.sampleTimeout)
        try #require(run.status == 0, "\(product) exited with \(run.status): \(run.standardError)")
        return try snapshot(of: Data(contentsOf: output), grace: grace)
    }

    /// The verdicts of the single session in `bytes`.
    static func snapshot(of bytes: Data, grace: Double = VerdictRules.defaultGrace) throws -> Snapshot {
        let recording = Recording(bytes: bytes)
        try #require(recording.sessions.count == 1)
        return try recording.sessions[0].snapshot(grace: grace)
    }
}

extension BuiltProduct {
    /// A sample's executable; `SAMPLES_BIN_DIR`, when set, names the directory searched first.
    static func sample(_ product: String) -> BuiltProduct { BuiltProduct(product, directoryVariable: "SAMPLES_BIN_DIR") }

    /// How long a sample may run before it is killed and the test fails.
    static let sampleTimeout: Double = 60
}
