import CoordinatorLens
import CoordinatorLensRendering
import Foundation

/// One input through everything a command does with it except libgvc (too slow to fuzz): decode (on one thread and on
/// two, which must agree), replay and judge each session, write DOT, write JSON and read it back, diff the run against itself and print the diff. Throws when
/// an invariant fails; a crash or a hang shows as itself.
public enum StreamCheck {
    /// What an input turned into, for the fuzzer's counts.
    public struct Outcome: Sendable {
        public var sessions = 0
        public var coordinators = 0
        public var warnings = 0
    }

    /// An invariant an input broke, with what it was.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every line the hook-form reader takes must decode to the same record the general way.
    static func fastReaderAgrees(_ input: [UInt8]) throws {
        var fast = StringInterner()
        var general = StringInterner()
        for (index, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            try Array(line).withUnsafeBufferPointer { bytes in
                guard let record = HookLineReader.read(bytes, lineNumber: index + 1, strings: &fast) else { return }
                let expected = EventDecoder.decodeGenerally(bytes, lineNumber: index + 1, strings: &general)
                try expect(expected == .record(record), "line \(index + 1) read as \(record), generally as \(expected)")
            }
        }
    }

    /// Reading with the reader's second thread must hand out exactly what one thread does: every item, line and line
    /// count, whole and in chunks that cut lines anywhere.
    static func secondThreadAgrees(_ input: [UInt8], maxLineBytes: Int) throws {
        func read(chunk size: Int, onSecondThread: Bool) -> (items: [StreamReader.Item], lines: [[UInt8]], count: Int) {
            var reader = StreamReader(maxLineBytes: maxLineBytes)
            reader.concurrentRegionBytes = onSecondThread ? 0 : .max
            var items: [StreamReader.Item] = []
            var lines: [[UInt8]] = []
            func take(_ item: StreamReader.Item, _ line: UnsafeBufferPointer<UInt8>) {
                items.append(item)
                lines.append(Array(line))
            }
            var start = 0
            while start < input.count {
                let end = min(start + size, input.count)
                input[start..<end].withUnsafeBytes { reader.consume($0, take) }
                start = end
            }
            reader.finish(take)
            return (items, lines, reader.linesRead)
        }
        // At most about 16 chunks, so a large shape starts 16 threads, not one per 61 bytes.
        for size in [max(1, input.count), max(61, input.count / 16)] {
            let one = read(chunk: size, onSecondThread: false)
            let two = read(chunk: size, onSecondThread: true)
            try expect(one.count == two.count, "\(two.count) lines on two threads, \(one.count) on one (chunks of \(size))")
            try expect(one.items == two.items && one.lines == two.lines, "two threads read other items (chunks of \(size))")
        }
    }

    /// Checks `input` with `limits`.
    public static func run(_ input: [UInt8], limits: InputLimits = .default) throws -> Outcome {
        let lineCount = input.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        try fastReaderAgrees(input)
        try secondThreadAgrees(input, maxLineBytes: limits.maximumLineBytes)
        let recording = Recording(bytes: input, limits: limits)
        var outcome = Outcome()
        for log in recording.sessions {
            let snapshot = try log.snapshot()
            outcome.sessions += 1
            outcome.coordinators += snapshot.nodes.count
            outcome.warnings += snapshot.warnings.count
            try expect(snapshot.warnings.count <= limits.maximumWarnings + 1, "\(snapshot.warnings.count) warnings kept")
            for (index, warning) in snapshot.warnings.enumerated() {
                try expect((0...lineCount).contains(warning.line), "warning on line \(warning.line) of \(lineCount)")
                // Only the count of warnings left out belongs to no line.
                let isCount = index == snapshot.warnings.count - 1 && warning.message.hasPrefix("… and ")
                try expect(warning.line > 0 || isCount, "warning without a line: \(warning.message.prefix(200))")
            }
            try expect(snapshot.nodes.count < lineCount, "\(snapshot.nodes.count) coordinators from \(lineCount) lines")
            for node in snapshot.nodes {
                try expect(node.children.allSatisfy { snapshot.node($0)?.parent == node.id }, "children of \(node.id)")
            }
            try expect(snapshot.roots.allSatisfy { snapshot.node($0)?.parent == nil }, "roots with parents")
            // Cuts replay part of the log: never more coordinators than the whole, never a time past the cut.
            let halfway = try log.snapshot(until: .time(snapshot.evaluatedAt / 2))
            try expect(halfway.nodes.count <= snapshot.nodes.count && halfway.evaluatedAt <= snapshot.evaluatedAt, "a cut grew the tree")
            if let seq = snapshot.lastSeq { _ = try log.snapshot(until: .seq(seq / 2)) }
            if let mark = snapshot.marks.first { _ = try log.snapshot(until: .mark(mark.label)) }

            let dot = DOTWriter().write(snapshot)
            try expect(dot.hasPrefix("digraph") && dot.hasSuffix("}\n"), "DOT text not one graph")
            // A label's name in bold: never empty. (Tooltips are quoted strings and may carry the text `<B></B>` itself.)
            try expect(!dot.contains("label=<<B></B>"), "empty bold name in DOT")
            try valid(JSONEncoder().encode(snapshot), "snapshot JSON")

            let diff = TreeDiff(snapshot, snapshot)
            try expect(!diff.hasNewLeaks && diff.summary.added == 0 && diff.summary.gone == 0, "a run differs from itself")
            let text = TreeDiffReport.text(for: diff)
            try expect(
                !text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control },
                "control character in diff text")
            try valid(JSONEncoder().encode(TreeDiffJSON(diff)), "diff JSON")
        }
        return outcome
    }

    /// The process's peak resident memory so far, in MB.
    public static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // kilobytes here
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1024 / 1024  // bytes on Darwin
        #endif
    }

    private static func valid(_ data: Data, _ what: String) throws {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Failure(description: "\(what) is not valid JSON: \(error)")
        }
    }

    private static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(description: message()) }
    }
}
