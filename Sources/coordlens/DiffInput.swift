import CoordinatorLens
import Foundation

/// One input of `coordlens diff`: a recording (NDJSON lines with "event") or a snapshot written by
/// `coordlens render --format json` (one JSON object with "nodes"), told apart by their first line.
enum DiffInput {
    case recording([InputSession])
    case snapshot(Snapshot, source: String)

    static func read(_ path: String, limits: InputLimits = .default) throws -> DiffInput {
        let (data, source) = try RecordingInput.contents(of: path)
        if startsWithEvent(data) { return .recording(sessions(of: data, source: source, limits: limits)) }
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
        throw UsageFailure(message: "\(source) is neither a recording (NDJSON lines with \"event\") nor a snapshot "
            + "(a JSON object with \"nodes\", as `coordlens render --format json` writes): \(describe(snapshotError))")
    }

    /// Whether the first non-blank line is a wire-format event or session line.
    private static func startsWithEvent(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(64 * 1024))
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
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
