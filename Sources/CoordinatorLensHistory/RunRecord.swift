import CoordinatorLens
import Foundation

/// One judged session as the history stores it: when and where it ran, its counts per verdict, and its leaks by
/// fingerprint, each with one example call site.
public struct RunRecord: Sendable, Equatable {
    /// One leak fingerprint of the run.
    public struct Leak: Sendable, Equatable {
        /// The fingerprint as `diff` and `--summary` print it: `AppCoordinator/HomeCoordinator (still-child)`.
        public var fingerprint: String
        /// How many retained coordinators share it in this run.
        public var count: Int
        /// Where the first of them was added; nil when the producer sent no call site.
        public var example: CallSite?
    }

    /// When the run was stored (recordings carry no wall-clock time).
    public var recordedAt: Date
    /// The app's name from the session line.
    public var app: String
    /// The session's run id.
    public var run: String
    /// The recording it was read from.
    public var source: String
    /// The commit the app was built from, as given.
    public var commit: String?
    /// The branch, as given.
    public var branch: String?
    /// Free text, such as the CI job's name.
    public var label: String?
    /// How many coordinators ended with each verdict.
    public var counts: [Verdict: Int]
    /// Coordinators the run ended too early to judge.
    public var undecided: Int
    /// The leaks, in fingerprint order.
    public var leaks: [Leak]

    /// The record of one judged session.
    public init(check: SessionCheck, recordedAt: Date, commit: String?, branch: String?, label: String?) {
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
                Leak(fingerprint: group.fingerprint.description, count: group.ids.count, example: group.ids.first.flatMap { snapshot.node($0)?.site })
            }
    }
}
