import Foundation
import TestSupport
import Testing

/// The shapes that once crashed `coordlens render` or ran it out of memory, at full size, through the real command
/// under a memory limit: each ends with exit 0, or with exit 2 and a message saying why; never a signal.
@Suite(.serialized) struct AnyShapeRenderTests {
    /// The address space each run may use (`ulimit -v`, KB): a debug build drawing a million coordinators needs
    /// about half of it.
    static let memoryLimitKB = 3_000_000

    enum Shape: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// A chain a million deep, every step dismissed and never freed.
        case leakingChain
        /// A million siblings under one hub, every tenth dismissed and never freed.
        case interleavedSiblings
        /// A 4-ary tree of 100,000, every one but the root dismissed and never freed.
        case retainedTree

        var testDescription: String { rawValue }

        /// The recording's event bodies, streamed to `handle` as NDJSON with an end 10 s after the last event.
        func write(to handle: FileHandle) throws {
            var buffer = #"{"event":"session","v":1,"app":"Shapes","run":"\#(rawValue)"}"# + "\n"
            var seq = 0
            func line(_ body: String) throws {
                seq += 1
                buffer += #"{"seq":\#(seq),"t":0.5,\#(body)}"# + "\n"
                if buffer.utf8.count > 1 << 20 {
                    try handle.write(contentsOf: Data(buffer.utf8))
                    buffer = ""
                }
            }
            switch self {
            case .leakingChain:
                try line(#""event":"add","id":1,"type":"AppCoordinator""#)
                for id in 2...1_000_000 { try line(#""event":"add","id":\#(id),"type":"StepCoordinator","parent":\#(id - 1)"#) }
                for id in 2...1_000_000 { try line(#""event":"dismiss","id":\#(id)"#) }
            case .interleavedSiblings:
                try line(#""event":"add","id":1,"type":"HubCoordinator""#)
                for id in 2...1_000_001 { try line(#""event":"add","id":\#(id),"type":"SpokeCoordinator","parent":1"#) }
                for id in stride(from: 10, through: 1_000_001, by: 10) { try line(#""event":"dismiss","id":\#(id)"#) }
            case .retainedTree:
                try line(#""event":"add","id":1,"type":"AppCoordinator""#)
                for id in 2...100_000 { try line(#""event":"add","id":\#(id),"type":"Flow\#(id % 7)Coordinator","parent":\#((id - 2) / 4 + 1)"#) }
                for id in 2...100_000 { try line(#""event":"dismiss","id":\#(id)"#) }
            }
            buffer += #"{"seq":\#(seq + 1),"t":10.5,"event":"end"}"# + "\n"
            try handle.write(contentsOf: Data(buffer.utf8))
        }

        /// What the default picture must say about the shape.
        var defaultPictureSays: String {
            switch self {
            case .leakingChain: "999,988 more …"
            case .interleavedSiblings: "SpokeCoordinator ×100,000"
            case .retainedTree: "capped at 500 nodes"
            }
        }
    }

    static func recording(_ shape: Shape) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-shapes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(shape.rawValue).ndjson").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try shape.write(to: handle)
        return path
    }

    /// `coordlens arguments…` under `ulimit -v`.
    static func limitedRun(_ arguments: [String]) async throws -> ProcessRun {
        let coordlens = try BuiltProduct.coordlens.locate()
        return try await ProcessRun.runAsync(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -v \(memoryLimitKB) && exec \"$0\" \"$@\"", coordlens.path] + arguments,
            timeout: 600
        )
    }

    @Test(.timeLimit(.minutes(10)), arguments: Shape.allCases)
    func theDefaultPictureIsSmallAndAllNeverCrashes(_ shape: Shape) async throws {
        let input = try Self.recording(shape)
        let folder = (input as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = input + ".svg"
        // An earlier file of that name stays as it was unless a whole new picture replaces it.
        let wholePath = input + "-all.svg"
        try Data("an earlier picture".utf8).write(to: URL(fileURLWithPath: wholePath))
        // Both renders at once: this suite's shapes are the longest chain of the parallel run (three shapes, each read
        // twice by a debug `coordlens`, one after another), and the two processes touch different files.
        async let defaultRun = Self.limitedRun(["render", input, "-o", output])
        // 100,000 drawn whole takes minutes in a debug build.
        async let wholeRun = shape == .retainedTree ? nil : Self.limitedRun(["render", input, "--all", "-o", wholePath])
        let (byDefault, whole) = try await (defaultRun, wholeRun)

        #expect(byDefault.status == 0, "\(byDefault.standardError)")
        let svg = try #require(FileManager.default.contents(atPath: output))
        #expect(svg.count < 2_000_000, "a picture for people: \(svg.count) bytes")
        #expect(String(decoding: svg, as: UTF8.self).contains(shape.defaultPictureSays))

        guard let whole else { return }
        let partials = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".partial-") }
        #expect(partials.isEmpty, "no half-written file is left behind: \(partials)")
        let written = try String(contentsOfFile: wholePath, encoding: .utf8)
        if whole.status == 0 {
            #expect(written.hasSuffix("</svg>\n"), "the whole picture replaced the earlier file")
            return
        }
        #expect(written == "an earlier picture")
        #expect(whole.status == 2, "exit 0, or 2 with the reason; never a signal: \(whole.status) \(whole.standardError)")
        #expect(whole.standardError.contains("too many to draw whole"), "\(whole.standardError)")
        #expect(whole.standardError.contains("--focus"), "it says what to do instead")
    }
}
