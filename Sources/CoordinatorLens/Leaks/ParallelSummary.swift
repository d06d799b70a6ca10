import Dispatch

extension LeakSummary {
    /// Summarises `count` recordings on every core and merges them in index order. `recording(i)` brings recording
    /// i's name and bytes (nil bytes: it could not be read), so the caller does the I/O and this stays pure; an
    /// unusable recording is listed apart with the line that says why, and the rest are still counted.
    package static func summarising(
        count: Int, grace: Double = VerdictRules.defaultGrace, limits: InputLimits = .default, cut: Cut = .end,
        aliveLimits: [AliveLimit] = [], recording: @Sendable (Int) -> (source: String, bytes: [UInt8]?)
    ) -> (summary: LeakSummary, unusable: [LeakSummaryReport.Unusable]) {
        let slots = UnsafeMutableBufferPointer<Result<LeakSummary, LeakSummaryReport.Unusable>?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize().deallocate() }
        nonisolated(unsafe) let shared = slots
        // Each iteration writes only its own slot; concurrentPerform runs as many at once as there are cores, so at
        // most that many recordings are in memory at a time.
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let (source, bytes) = recording(index)
            guard let bytes else {
                shared[index] = .failure(LeakSummaryReport.Unusable(source: source, line: 0, message: "cannot read it"))
                return
            }
            shared[index] = Result { () throws(LeakSummaryReport.Unusable) in
                try LeakSummary(reading: bytes, source: source, grace: grace, limits: limits, cut: cut, aliveLimits: aliveLimits)
            }
        }
        var summary = LeakSummary()
        var unusable: [LeakSummaryReport.Unusable] = []
        for slot in slots {
            switch slot {
            case .success(let part): summary.merge(part)
            case .failure(let problem): unusable.append(problem)
            case nil: break
            }
        }
        return (summary, unusable)
    }
}
