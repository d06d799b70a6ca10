import CoordinatorLens
import Foundation

/// The recordings `check --summary` reads: files as given, directories searched recursively for `*.ndjson`; each read
/// and judged on its own core (`LeakSummary.summarising`), then merged in input order.
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
    static func summarise(_ files: [String], grace: Double, limits: InputLimits, cut: Cut, aliveLimits: [AliveLimit] = [])
        -> (summary: LeakSummary, unusable: [LeakSummaryReport.Unusable])
    {
        LeakSummary.summarising(count: files.count, grace: grace, limits: limits, cut: cut, aliveLimits: aliveLimits) { index in
            (files[index], FileManager.default.contents(atPath: files[index]).map { [UInt8]($0) })
        }
    }
}
