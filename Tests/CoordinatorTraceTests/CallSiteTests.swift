import CoordinatorTrace
import Foundation
import Testing

/// A line's call site is the one the user sees: a wrapper that forwards `file`, `line` and `function` but not
/// `filePath` would pair the caller's file with the wrapper's path (and the page's Copy and Open would open the
/// wrapper), so such a path is left out; `TraceOptions.sourceRoot` keeps machines' folders out of recordings.
@Suite struct CallSiteTests {
    final class Coordinator {}

    /// A base class's adapter as five of the samples wrote it: `filePath` not forwarded, so it is the adapter's own.
    static func addForgettingThePath(
        _ tracer: Tracer, _ child: AnyObject, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        tracer.added(child, to: nil, file: file, line: line, function: function, filePath: "/elsewhere/Adapter+CoordinatorLens.swift")
    }

    private static func lines(options: TraceOptions = TraceOptions(grace: 0), _ body: (Tracer) -> Void) throws -> [[String: Any]] {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "CallSites", sink: sink, options: options)
        body(tracer)
        tracer.end()
        return try String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func aPathOfAnotherFileIsLeftOutAndTheFileKept() throws {
        let coordinator = Coordinator()
        let lines = try Self.lines { Self.addForgettingThePath($0, coordinator) }
        let add = try #require(lines.first { $0["event"] as? String == "add" })
        #expect(add["file"] as? String == "CoordinatorTraceTests/CallSiteTests.swift")
        #expect(add["path"] == nil, "\(add)")
    }

    @Test func aPathOfTheSameFileStays() throws {
        let coordinator = Coordinator()
        let lines = try Self.lines { $0.added(coordinator, to: nil) }
        let add = try #require(lines.first { $0["event"] as? String == "add" })
        #expect((add["path"] as? String)?.hasSuffix("/Tests/CoordinatorTraceTests/CallSiteTests.swift") == true, "\(add)")
    }

    @Test func theSourceRootIsTakenOffEveryPath() throws {
        let coordinator = Coordinator()
        let root = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let lines = try Self.lines(options: TraceOptions(grace: 0, sourceRoot: root)) { $0.added(coordinator, to: nil) }
        let add = try #require(lines.first { $0["event"] as? String == "add" })
        #expect(add["path"] as? String == "Tests/CoordinatorTraceTests/CallSiteTests.swift", "\(add)")
    }
}
