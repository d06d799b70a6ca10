import Foundation
import TestSupport
import Testing

/// A render that takes over a second says what it is doing on standard error when that is a terminal (a real
/// pseudo-terminal here), clears the line when done, and says nothing into a pipe.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux's script makes the terminal"))
struct ProgressTests {
    /// A recording of `count` coordinators under one root, big enough that a debug build renders it for seconds.
    private static func bigRecording(_ count: Int) throws -> URL {
        var text = #"{"event":"session","v":1,"app":"Slow","run":"slow"}"# + "\n"
        text += #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"# + "\n"
        for id in 2...count {
            text += #"{"seq":\#(id),"t":0.001,"event":"add","id":\#(id),"type":"Flow\#(id % 9)Coordinator","parent":\#(id / 4 + 1)}"# + "\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-progress-\(UUID()).ndjson")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Runs coordlens with its standard error on a pseudo-terminal, through util-linux's `script` (in every Debian, as
    /// `bsdutils`), which copies what the terminal got to its own standard output; the command's own output is dropped.
    private static func runOnTerminal(_ arguments: [String]) async throws -> (status: Int32, terminal: String) {
        let coordlens = try BuiltProduct.coordlens.locate().path
        let command = ([coordlens] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try await ProcessRun.runAsync(
            URL(fileURLWithPath: "/usr/bin/script"), ["--quiet", "--return", "--command", command + " >/dev/null", "/dev/null"], timeout: 120)
        return (run.status, run.standardOutput)
    }

    @Test(.timeLimit(.minutes(2)))
    func aLongRenderSaysWhatItDoesOnATerminalAndNothingIntoAPipe() async throws {
        let recording = try Self.bigRecording(60_000)
        defer { try? FileManager.default.removeItem(at: recording) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-progress-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let started = Date()
        let (status, terminal) = try await Self.runOnTerminal(["render", recording.path, "--all", "-o", folder.appendingPathComponent("all.svg").path])
        let took = Date().timeIntervalSince(started)
        #expect(status == 0, "\(terminal)")
        try #require(took > 1.5, "the render must outlast the first second for this test to mean anything (took \(took) s)")
        #expect(terminal.contains("coordlens: "), "\(terminal.debugDescription)")
        #expect(terminal.contains(" coordinators into "), "the stage it reached: \(terminal.debugDescription)")
        #expect(terminal.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end: \(terminal.suffix(80).debugDescription)")

        let piped = try await BuiltProduct.coordlens.runAsync(["render", recording.path, "--all", "-o", folder.appendingPathComponent("piped.svg").path])
        #expect(piped.status == 0)
        #expect(!piped.standardError.contains("coordlens: "), "no progress into a pipe: \(piped.standardError)")
    }
}
