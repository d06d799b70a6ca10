import CoordinatorLens
import Foundation

/// One judged session as the history stores it: when and where it ran, its counts per verdict, and its leaks by
/// fingerprint, each with one example call site.
package struct RunRecord: Sendable, Equatable {
    /// One leak fingerprint of the run.
    package struct Leak: Sendable, Equatable {
        /// The fingerprint as `diff` and `--summary` print it: `AppCoordinator/HomeCoordinator (still-child)`.
        package var fingerprint: String
        /// The type path it is on, `AppCoordinator/HomeCoordinator`: what a run must have exercised to count.
        package var path: String
        /// How many retained coordinators share it in this run.
        package var count: Int
        /// Where the first of them was added; nil when the producer sent no call site.
        package var example: CallSite?
    }

    /// When the run was stored (recordings carry no wall-clock time).
    package var recordedAt: Date
    /// The app's name from the session line.
    package var app: String
    /// The session's run id.
    package var run: String
    /// The recording it was read from.
    package var source: String
    /// The commit the app was built from, as given.
    package var commit: String?
    /// The branch, as given.
    package var branch: String?
    /// Free text, such as the CI job's name.
    package var label: String?
    /// How many coordinators ended with each verdict.
    package var counts: [Verdict: Int]
    /// Coordinators the run ended too early to judge.
    package var undecided: Int
    /// The leaks, in fingerprint order.
    package var leaks: [Leak]
    /// Every type path the run created a coordinator on, sorted.
    package var paths: [String]

    /// The record of one judged session.
    package init(check: SessionCheck, recordedAt: Date, commit: String?, branch: String?, label: String?) {
        let snapshot = check.snapshot
        self.recordedAt = recordedAt
        app = snapshot.app
        run = snapshot.run
        source = check.source
        self.commit = commit
        self.branch = branch
        self.label = label
        counts = snapshot.counts
        undecided = check.undecided.count
        leaks = snapshot.leakGroups
            .sorted { $0.fingerprint < $1.fingerprint }
            .map { group in
                Leak(
                    fingerprint: group.fingerprint.description, path: PathCensus.Path(group.fingerprint).description, count: group.ids.count,
                    example: group.ids.first.flatMap { snapshot.node($0)?.site })
            }
        paths = PathCensus(snapshot).alive.keys.map(\.description).sorted()
    }
}
