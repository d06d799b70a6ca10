import ArgumentParser
import CoordinatorLens
import CoordinatorLensHistory
import Foundation

/// `coordlens history`: the leak history across runs; `history add` stores runs, plain `history` lists fingerprints.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Store runs in a leak history (SQLite or PostgreSQL) and list each leak fingerprint's first and last sighting.",
        discussion: CommandHelp.history,
        subcommands: [HistoryListCommand.self, HistoryAddCommand.self],
        defaultSubcommand: HistoryListCommand.self
    )
}

/// `coordlens history [list]`: every fingerprint of the stored runs, with first seen, last seen and how often.
struct HistoryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List leak fingerprints per app and label with first seen (date, commit), last seen, in how many of the runs that reached them, and whether new in the newest."
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var store: HistoryStoreOption

    @Option(help: "text or json.")
    var format: OutputFormat = .text

    @Option(help: "Only runs stored on or after this date or time (2026-11-03, 2026-11-03T12:00:00Z; UTC).")
    var since: String?

    @Option(help: "Only runs of this branch.")
    var branch: String?

    @Option(help: "Only runs of this app.")
    var app: String?

    @Option(help: "Only runs stored with this --label (such as one UI test's name).")
    var label: String?

    func validate() throws {
        if let since, !HistoryListCommand.isTime(since) {
            throw ValidationError("--since takes a date such as 2026-11-03 or a UTC time such as 2026-11-03T12:00:00Z, not \(since)")
        }
    }

    /// `YYYY-MM-DD`, optionally followed by `THH:MM[:SS]` and `Z`: the prefixes of what the store keeps, which compare
    /// as text in the same order as in time.
    static func isTime(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$"#, options: .regularExpression) != nil
    }

    func run() async throws {
        let filter = HistoryFilter(since: since, branch: branch, app: app, label: label)
        let (listing, name) = try await store.using { history in
            (LeakHistory.grouped(runs: try await history.runs(filter), leaks: try await history.leaks(filter)), history.location.description)
        }
        switch format {
        case .text: print(HistoryReport.text(for: listing, store: name))
        case .json: print(HistoryReport.json(for: listing, store: name))
        }
    }
}

/// `coordlens history add RECORDING...`: judges each session at the end and stores it.
struct HistoryAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Store each session of the recordings in the leak history: counts per verdict and each leak fingerprint with one call site."
    )

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input.")
    var files: [String]

    @OptionGroup var store: HistoryStoreOption

    @OptionGroup var tags: RunTagOptions

    @OptionGroup var point: SnapshotOptions

    func run() async throws {
        let checks = try CheckedRuns.read(files, point: point)
        try await store.using { history in
            for check in checks {
                let record = RunRecord(check: check, recordedAt: Date(), commit: tags.commit, branch: tags.branch, label: tags.label)
                let (id, added) = try await history.add(record)
                let leaks = record.leaks.reduce(0) { $0 + $1.count }
                let fingerprints = record.leaks.count == 1 ? "1 fingerprint" : "\(record.leaks.count) fingerprints"
                print(
                    added
                        ? "stored run \(record.run) of \(record.app) from \(check.source) as #\(id): "
                            + (leaks == 0 ? "no leaks" : "\(leaks) retained in \(fingerprints)")
                        : "run \(record.run) of \(record.app) from \(check.source) was already stored as #\(id); left as it is")
            }
        }
    }
}

/// The sessions of `check`'s and `history add`'s inputs, judged as `check` judges them.
enum CheckedRuns {
    static func read(_ files: [String], point: SnapshotOptions) throws -> [SessionCheck] {
        let retention: Recording.Retention = point.cut == .end ? .treeAtEnd : .everyLine
        let sessions = try point.select(try RecordingInput.read(files, limits: point.limits, keeping: retention))
        return try sessions.map { SessionCheck(source: $0.source, snapshot: try point.snapshot(of: $0), atEnd: point.cut == .end) }
    }
}
