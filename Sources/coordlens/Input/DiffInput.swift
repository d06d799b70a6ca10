import CoordinatorLens
import Foundation

/// One input of `coordlens diff`: a recording (NDJSON lines with "event") or a snapshot written by
/// `coordlens render --format json` (one JSON object with "nodes"), told apart by their first line.
enum DiffInput {
    case recording([InputSession])
    case snapshot(Snapshot, source: String)

    /// A recording is read as `check` reads one, a chunk at a time through the line limit, with the same messages
    /// for an empty or unreadable input; only a snapshot (one JSON object) is read whole.
    static func read(_ path: String, limits: InputLimits = .default) throws -> DiffInput {
        let input = try RecordingInput.Input(path)
        defer { input.close() }
        let first = try input.chunk()
        if first.isEmpty || startsWithEvent(first) {
            var recording = Recording(limits: limits)
            first.withUnsafeBytes { recording.consume($0) }
            try input.rest { chunk in chunk.withUnsafeBytes { recording.consume($0) } }
            recording.finish()
            return .recording(try RecordingInput.sessions(of: recording, source: input.source))
        }
        var data = first
        try input.rest { data.append($0) }
        let source = input.source
        let snapshotError: any Error
        do {
            return .snapshot(try JSONDecoder().decode(Snapshot.self, from: data), source: source)
        } catch {
            snapshotError = error
        }
        // A recording whose first line is damaged is still a recording, if any later line is an event.
        let sessions = sessions(of: data, source: source, limits: limits)
        if sessions.contains(where: { $0.log.entries.contains { if case .record = $0 { true } else { false } } }) {
            return .recording(sessions)
        }
        throw UsageFailure(
            message: "\(source) is neither a recording (NDJSON lines with \"event\") nor a snapshot "
                + "(a JSON object with \"nodes\", as `coordlens render --format json` writes): \(describe(snapshotError))")
    }

    /// Whether the first non-blank line is a wire-format event or session line.
    private static func startsWithEvent(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(64 * 1024))
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
        guard let end = bytes[start...].firstIndex(of: 0x0A) else {
            // A first line longer than the window (a giant type name, say) is judged by how it starts.
            let head = bytes[start...].filter { $0 != 0x20 && $0 != 0x09 }
            return head.starts(with: Array(#"{"seq""#.utf8)) || head.starts(with: Array(#"{"event""#.utf8))
        }
        let line = Array(bytes[start..<end])
        switch line.withUnsafeBufferPointer({ EventDecoder.decode($0, lineNumber: 1) }) {
        case .session, .record: return true
        case .malformed, .blank: return false
        }
    }

    private static func sessions(of data: Data, source: String, limits: InputLimits) -> [InputSession] {
        Recording(bytes: data, limits: limits).sessions.map { InputSession(source: source, log: $0) }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        default: "\(error)"
        }
    }
}
