import CoordinatorLens

/// A live session's kept lines in chunks of a fixed size: appending touches the last chunk only, so a reader that holds
/// a copy (the page's time travel) costs the next append at most one chunk's copy, never the whole history's.
package struct HistoryChunks: Sendable {
    static let chunkSize = 4_096

    private(set) var chunks: [[SessionLog.Entry]] = []
    /// Lines kept.
    package private(set) var count = 0

    mutating func append(_ entry: SessionLog.Entry) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk: [SessionLog.Entry] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(entry)
        count += 1
    }

    /// The lines as one session log, built by whoever asks, outside any lock.
    func log(header: SessionHeader, notes: [Diagnostic], idScope: IDSpellingScope?) -> SessionLog {
        var log = SessionLog(header: header)
        log.idScope = idScope
        log.entries.reserveCapacity(count)
        for chunk in chunks { log.entries.append(contentsOf: chunk) }
        log.notes = notes
        return log
    }

    /// A recording's lines, in chunks.
    init(_ entries: [SessionLog.Entry] = []) {
        for entry in entries { append(entry) }
    }
}
