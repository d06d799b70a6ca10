import NIOConcurrencyHelpers

/// The highest `seq` of each run that `listen` holds for good: written to the recording when there is one (from
/// earlier runs of `listen` on the same file too), otherwise applied to the live session. Hook connections that ask
/// for acknowledgements are told this number, so a hook resends exactly what was not kept (docs/PROTOCOL.md).
///
/// Beside it, the seqs `listen` took and will never keep (a line too long or unreadable, a recording that could not
/// be written): each is told to the hook before an acknowledgement passes it, so the hook counts it dropped rather than
/// recorded. Both are read under one lock, so an acknowledgement never passes a refusal not yet told.
final class AcknowledgedSeqs: Sendable {
    /// One refusal: the seqs of a run `listen` did not keep, and why.
    struct Refusal: Equatable, Sendable {
        var seqs: ClosedRange<Int>
        var why: String
    }

    private struct Run {
        var highest = 0
        var refusals: [Refusal] = []
    }

    /// Refusals kept per run until a connection of that run tells them; past this many, adjacent ones merge and the
    /// oldest are forgotten (a hook that never reconnects to hear them).
    static let maximumRefusals = 1_024

    private let runs = NIOLockedValueBox<[String: Run]>([:])

    /// Raises `run`'s number to `seq` if it is higher.
    func note(_ seq: Int, of run: String) {
        runs.withLockedValue { runs in
            if seq > runs[run, default: Run()].highest { runs[run, default: Run()].highest = seq }
        }
    }

    /// Raises several runs' numbers at once.
    func note(_ seqs: [String: Int]) {
        runs.withLockedValue { runs in
            for (run, seq) in seqs where seq > runs[run, default: Run()].highest { runs[run, default: Run()].highest = seq }
        }
    }

    /// Notes that the lines of `run` with these seqs were not kept, and why; told to the run's hook with its next
    /// acknowledgement, before it.
    func refuse(_ seqs: ClosedRange<Int>, of run: String, why: String) {
        runs.withLockedValue { runs in
            var entry = runs[run, default: Run()]
            defer { runs[run] = entry }
            if var last = entry.refusals.last, last.why == why, last.seqs.upperBound + 1 >= seqs.lowerBound,
                seqs.upperBound + 1 >= last.seqs.lowerBound
            {
                last.seqs = min(last.seqs.lowerBound, seqs.lowerBound)...max(last.seqs.upperBound, seqs.upperBound)
                entry.refusals[entry.refusals.count - 1] = last
                return
            }
            if entry.refusals.count >= Self.maximumRefusals { entry.refusals.removeFirst() }
            entry.refusals.append(Refusal(seqs: seqs, why: why))
        }
    }

    /// The highest seq of `run` held for good; 0 when none.
    func highest(of run: String) -> Int {
        runs.withLockedValue { $0[run]?.highest ?? 0 }
    }

    /// What a connection of `run` tells its hook next: the refusals not told yet (taken), then the highest seq held.
    func take(of run: String) -> (refusals: [Refusal], highest: Int) {
        runs.withLockedValue { runs in
            guard var entry = runs[run] else { return ([], 0) }
            let refusals = entry.refusals
            if !refusals.isEmpty {
                entry.refusals = []
                runs[run] = entry
            }
            return (refusals, entry.highest)
        }
    }

    /// The seq of a line as a producer writes it (`"seq":N`, the hook first of all), from its first bytes: nil when
    /// none is there.
    static func seq(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Array(#""seq":"#.utf8)
        guard line.count > key.count else { return nil }
        var start = 0
        while start + key.count < line.count {
            if line[start] == 0x22, line[start..<(start + key.count)].elementsEqual(key) { break }
            start += 1
        }
        var index = start + key.count
        guard index < line.count else { return nil }
        while index < line.count, line[index] == 0x20 { index += 1 }
        var value = 0
        let first = index
        while index < line.count, (0x30...0x39).contains(line[index]), index - first < 18 {
            value = value * 10 + Int(line[index] - 0x30)
            index += 1
        }
        return index > first ? value : nil
    }
}
