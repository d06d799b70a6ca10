import NIOConcurrencyHelpers

/// The highest `seq` of each run that `listen` holds for good: written to the recording when there is one (from
/// earlier runs of `listen` on the same file too), otherwise applied to the live session. Hook connections that ask
/// for acknowledgements are told this number, so a hook resends exactly what was not kept (docs/PROTOCOL.md).
final class AcknowledgedSeqs: Sendable {
    private let highest = NIOLockedValueBox<[String: Int]>([:])

    /// Raises `run`'s number to `seq` if it is higher.
    func note(_ seq: Int, of run: String) {
        highest.withLockedValue { highest in
            if seq > highest[run, default: 0] { highest[run] = seq }
        }
    }

    /// Raises several runs' numbers at once.
    func note(_ seqs: [String: Int]) {
        highest.withLockedValue { highest in
            for (run, seq) in seqs where seq > highest[run, default: 0] { highest[run] = seq }
        }
    }

    /// The highest seq of `run` held for good; 0 when none.
    func highest(of run: String) -> Int {
        highest.withLockedValue { $0[run, default: 0] }
    }
}
