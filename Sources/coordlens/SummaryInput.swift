import CoordinatorLens
import Dispatch
import Foundation

/// The recordings `check --summary` reads: files as given, directories searched recursively for `*.ndjson`; each read
/// and judged on its own core, then merged in input order.
enum SummaryInput {
    /// The files behind the arguments, in order: a directory's recordings sorted by path, so runs named by date or
    /// number come first to last.
    static func files(_ arguments: [String]) throws -> [String] {
        try arguments.flatMap { argument -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
                return [argument]
            }
            let base = argument.hasSuffix("/") ? argument : argument + "/"
            let found = (FileManager.default.enumerator(atPath: argument)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".ndjson") }
                .sorted()
                .map { base + $0 }
            guard !found.isEmpty else { throw UsageFailure(message: "\(argument): no *.ndjson recording in it or below it") }
            return found
        }
    }

    /// Every file summarised, using every core; the unreadable ones listed apart with the line that says why.
    static func summarise(_ files: [String], grace: Double, limits: InputLimits, cut: Cut)
        -> (summary: LeakSummary, unusable: [LeakSummaryReport.Unusable])
    {
        let slots = UnsafeMutableBufferPointer<Result<LeakSummary, LeakSummaryReport.Unusable>?>.allocate(capacity: files.count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize().deallocate() }
        nonisolated(unsafe) let shared = slots
        // Each iteration writes only its own slot; concurrentPerform runs as many at once as there are cores.
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let path = files[index]
            guard let data = FileManager.default.contents(atPath: path) else {
                shared[index] = .failure(LeakSummaryReport.Unusable(source: path, line: 0, message: "cannot read it"))
                return
            }
            shared[index] = Result { () throws(LeakSummaryReport.Unusable) in
                try LeakSummary(reading: data, source: path, grace: grace, limits: limits, cut: cut)
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
