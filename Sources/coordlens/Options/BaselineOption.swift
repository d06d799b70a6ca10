import ArgumentParser
import CoordinatorLens

/// `--baseline FILE` for `check` and `check --summary`: the leaks accepted for now.
struct BaselineOption: ParsableArguments {
    @Option(
        name: .customLong("baseline"),
        help: "A baseline (coordlens baseline -o coordlens-baseline.json): its leaks are listed as known and do not fail; new fingerprints and grown counts do."
    )
    var path: String?

    /// The baseline, read; nil without `--baseline`.
    func read() throws -> LeakBaseline? {
        try path.map(BaselineFile.read)
    }
}
