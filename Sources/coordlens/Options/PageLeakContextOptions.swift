import ArgumentParser
import CoordinatorLens
import CoordinatorLensHistory
import CoordinatorLensPage

/// `view` and `listen` `--baseline FILE --history DB`: what the page marks each leak with (known or new, seen in how many runs) and
/// the runs its chart counts over.
struct PageLeakContextOptions: ParsableArguments {
    @Option(name: .customLong("baseline"), help: "A baseline (coordlens baseline): the page marks its leaks known and the rest new.")
    var baseline: String?

    @Option(
        name: .customLong("history"),
        help:
            "A leak history (a SQLite file or postgres://…): the page says per leak in how many stored runs it occurred since when, and charts its count per run."
    )
    var history: String?

    @OptionGroup var tls: PostgresTLSOption

    /// The most recent stored runs the page counts over and charts.
    static let chartedRuns = 50

    /// The context, read once at start (a history stored to later is not reread); nil when neither option is given.
    func context() async throws -> LeakContext? {
        guard baseline != nil || history != nil else { return nil }
        let accepted = try baseline.map(BaselineFile.read)
        guard let history else { return LeakContext(baseline: accepted) }
        let (runs, leaks) = try await HistoryStoreOption.using(history, tls: tls) { store in
            (try await store.runs(), try await store.leaks())
        }
        let recent = Array(runs.suffix(Self.chartedRuns))
        let position = Dictionary(uniqueKeysWithValues: recent.enumerated().map { ($0.element.id, $0.offset) })
        let lines = LeakHistory(runs: recent, leaks: leaks.filter { position[$0.runID] != nil })
        var seen: [String: LeakContext.Seen] = [:]
        for line in lines.lines {
            seen[line.fingerprint] = LeakContext.Seen(
                runs: line.runs, ofRuns: line.ofRuns, since: line.firstSeen.day, counts: Array(repeating: 0, count: recent.count))
        }
        for leak in leaks {
            guard let at = position[leak.runID] else { continue }
            seen[leak.fingerprint]?.counts[at] = leak.count
        }
        return LeakContext(baseline: accepted, runs: recent.map { LeakContext.Run(day: $0.day, commit: $0.commit) }, seen: seen)
    }
}
