/// What lines lost (or left unconfirmed) at a session's end carried, so `sent = recorded + dropped` holds exactly: an event line carries
/// one event (heartbeats and the end included), a `dropped` line the count it reported (already in the hook's tally,
/// so reported again but not counted again), the session line nothing.
struct LostLines {
    var events = 0
    var reported = 0
    /// The first and last seq among the lines.
    var seqs: ClosedRange<Int>?

    mutating func add(_ lines: some Sequence<[UInt8]>) {
        for line in lines {
            if line.starts(with: Self.sessionPrefix) { continue }
            if let seq = TCPSink.seq(of: line) {
                seqs = seqs.map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq
            }
            if let count = Self.droppedCount(line) { reported += count } else { events += 1 }
        }
    }

    private static let sessionPrefix = Array(#"{"event":"session""#.utf8)
    private static let droppedMarker = Array(#""event":"dropped","count":"#.utf8)

    /// The count of a `dropped` line as the writer encodes it; nil for any other line.
    static func droppedCount(_ line: [UInt8]) -> Int? {
        guard line.count > droppedMarker.count else { return nil }
        var start = 0
        while start + droppedMarker.count <= line.count {
            if line[start..<start + droppedMarker.count].elementsEqual(droppedMarker) { break }
            start += 1
        }
        guard start + droppedMarker.count <= line.count else { return nil }
        var value = 0
        for byte in line[(start + droppedMarker.count)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
