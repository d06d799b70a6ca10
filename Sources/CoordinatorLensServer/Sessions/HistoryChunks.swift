import CoordinatorLens

/// A live session's kept lines in chunks of a fixed size: appending touches the last chunk only, so a reader that holds
/// a copy (the page's time travel) costs the next append at most one chunk's copy, never the whole history's. Once the
/// session is over they can be compacted (`compact()`): encoded to a few bytes each and read back when asked.
package struct HistoryChunks: Sendable {
    static let chunkSize = 4_096

    private(set) var chunks: [[SessionLog.Entry]] = []
    /// The lines encoded instead, once compacted.
    private var compacted: CompactHistory?
    /// Lines kept.
    package private(set) var count = 0

    /// Whether the lines are kept encoded.
    var isCompact: Bool { compacted != nil }

    mutating func append(_ entry: SessionLog.Entry) {
        // A finished session that goes on after all (a line after its end): back to chunks.
        if let compacted {
            self.compacted = nil
            count = 0
            for kept in compacted.entries() { append(kept) }
        }
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk: [SessionLog.Entry] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(entry)
        count += 1
    }

    /// The same lines encoded (`CompactHistory`), the chunks let go.
    func compact() -> HistoryChunks {
        guard compacted == nil else { return self }
        var compact = HistoryChunks()
        compact.compacted = CompactHistory(chunks.joined())
        compact.count = count
        return compact
    }

    /// The seqs of the first and last event kept, without a copy of the lines.
    var seqs: (first: Int?, last: Int?) {
        if let compacted { return (compacted.firstSeq, compacted.lastRecord?.seq) }
        return (chunks.lazy.flatMap { $0 }.compactMap(Self.seq).first, chunks.reversed().lazy.flatMap { $0.reversed() }.compactMap(Self.seq).first)
    }

    /// The event kept with `seq` (the latest, if several), looked for from the end, without a copy of the lines.
    func record(seq: Int) -> EventRecord? {
        if let compacted {
            if let last = compacted.lastRecord, last.seq == seq { return last }
            return compacted.entries().reversed().lazy.compactMap(Self.record).first { $0.seq == seq }
        }
        return chunks.reversed().lazy.flatMap { $0.reversed() }.compactMap(Self.record).first { $0.seq == seq }
    }

    private static func record(_ entry: SessionLog.Entry) -> EventRecord? {
        if case .record(let record) = entry { record } else { nil }
    }

    private static func seq(_ entry: SessionLog.Entry) -> Int? { record(entry)?.seq }

    /// The lines as one session log, built by whoever asks, outside any lock.
    func log(header: SessionHeader, notes: [Diagnostic], idScope: IDSpellingScope?) -> SessionLog {
        var log = SessionLog(header: header)
        log.idScope = idScope
        if let compacted {
            log.entries = compacted.entries()
        } else {
            log.entries.reserveCapacity(count)
            for chunk in chunks { log.entries.append(contentsOf: chunk) }
        }
        log.notes = notes
        return log
    }

    /// A recording's lines, in chunks.
    init(_ entries: [SessionLog.Entry] = []) {
        for entry in entries { append(entry) }
    }
}
