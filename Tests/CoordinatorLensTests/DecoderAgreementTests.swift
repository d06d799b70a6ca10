import CoordinatorLens
import Foundation
import Testing

/// `HookLineReader` reads lines in the hook's exact form without the general decoder; whatever it accepts must decode
/// to the very record the general decoder makes, and the hook's real output must all take that way.
@Suite struct DecoderAgreementTests {
    /// Every event line of every recorded sample stream, as the hook wrote it.
    static let hookLines: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples").standardized
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "ndjson" }.sorted { $0.path < $1.path }.flatMap { file in
            (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
    }()

    private static func agree(_ line: [UInt8], _ note: @autoclosure () -> String) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            var fast = StringInterner()
            var general = StringInterner()
            guard let record = HookLineReader.read(bytes, lineNumber: 4, strings: &fast) else { return false }
            let expected = EventDecoder.decodeGenerally(bytes, lineNumber: 4, strings: &general)
            #expect(expected == .record(record), "\(note())")
            return true
        }
    }

    @Test func theHooksOwnLinesAllTakeTheShortWayAndAgree() {
        #expect(Self.hookLines.count > 200)
        for line in Self.hookLines where !line.contains(#""event":"session""#) {
            // Only `expect`, `dropped` and `held` lines, rare (a few per run), are left to the general decoder.
            let rare = line.contains(#""event":"expect""#) || line.contains(#""event":"dropped""#) || line.contains(#""event":"held""#)
            #expect(Self.agree(Array(line.utf8), line) != rare, "\(line)")
        }
    }

    /// Each sample line cut short, and with each byte in turn replaced by one that ends, escapes, nests, spaces or
    /// changes a number: the reader may refuse the result, but what it accepts must agree.
    @Test func damagedHookLinesAgreeOrAreLeftToTheGeneralDecoder() {
        let replacements: [UInt8] = Array(#""\},: -.e09"#.utf8) + [0x01, 0xC3, 0x7F]
        var accepted = 0
        var variants = 0
        var seenShapes = Set<String>()
        for line in Self.hookLines where !line.contains(#""event":"session""#) {
            // One line per kind and field layout is enough to reach every branch.
            let shape = line.replacingOccurrences(of: #"[0-9]+"#, with: "#", options: .regularExpression)
            guard seenShapes.insert(String(shape.prefix(60))).inserted else { continue }
            let bytes = Array(line.utf8)
            for position in bytes.indices {
                variants += 1
                if Self.agree(Array(bytes[..<position]), "cut at \(position): \(line)") { accepted += 1 }
                for replacement in replacements where replacement != bytes[position] {
                    var changed = bytes
                    changed[position] = replacement
                    variants += 1
                    if Self.agree(changed, "byte \(position) → \(replacement): \(line)") { accepted += 1 }
                }
            }
        }
        #expect(variants > 10_000)
        // Digits swapped for digits and some text bytes keep the hook's form: the reader must still take many.
        #expect(accepted > variants / 20, "\(accepted) of \(variants)")
    }

    @Test func numbersAndStringsAtTheReadersLimitsAgree() {
        let lines = [
            #"{"seq":999999999999999999,"t":0.5,"event":"heartbeat"}"#,
            #"{"seq":1000000000000000000,"t":0.5,"event":"heartbeat"}"#,
            #"{"seq":1,"t":123456789.012345,"event":"heartbeat"}"#,
            #"{"seq":1,"t":1234567890.123456,"event":"heartbeat"}"#,
            #"{"seq":1,"t":5,"event":"heartbeat"}"#,
            #"{"seq":01,"t":00.50,"event":"end"}"#,
            #"{"seq":1,"t":0.5,"event":"add","id":2,"type":"Ü\u00fc","parent":1}"#,
            #"{"seq":1,"t":0.5,"event":"add","id":2,"type":"Über","parent":null}"#,
            #"{"seq":1,"t":0.5,"event":"dismiss","id":2,"via":"teleport"}"#,
            #"{"seq":1,"t":0.5,"event":"mark","label":"","file":"","line":0}"#,
            #"{"seq":1,"t":0.5,"event":"bind","id":2,"screen":"S","file":"F","line":1,"path":"/p"}"#,
            #"{"seq":1,"t":0.5,"event":"bind","id":2,"screen":"S","file":"F","line":1,"function":"f","function":"g"}"#,
            #"{"seq":1,"t":0.5,"event":"end"} "#,
        ]
        let accepted = lines.filter { Self.agree(Array($0.utf8), $0) }.count
        #expect(accepted == 6, "the plain ones are read the short way")
    }
}
