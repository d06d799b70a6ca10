import ArgumentParser
import CoordinatorLens
import CoordinatorLensHistory
import Foundation

/// Where the leak history is: `--history PATH` (SQLite) or `--history postgres://user@host:port/database`.
struct HistoryStoreOption: ParsableArguments {
    @Option(
        name: .customLong("history"),
        help: "The leak history: a SQLite file (default .coordlens/history.sqlite) or postgres://user@host:port/database (password in PGPASSWORD)."
    )
    var location: String?

    @OptionGroup var connection: HistoryConnectionOptions

    /// Runs `body` on the store and closes it, also when `body` throws; a `HistoryError` becomes a usage failure (exit 2).
    func using<T>(_ body: (HistoryStore) async throws -> T) async throws -> T {
        try await HistoryStoreOption.using(location ?? HistoryLocation.defaultPath, busyTimeout: connection.busyTimeout, tls: connection.tls, body)
    }

    static func using<T>(
        _ text: String, busyTimeout: Double = HistoryStore.defaultBusyTimeout, tls: PostgresTLSOption,
        _ body: (HistoryStore) async throws -> T
    ) async throws -> T {
        let store = try await open(text, busyTimeout: busyTimeout, tls: tls)
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch let error as HistoryError {
            await store.close()
            throw UsageFailure(message: error.message)
        } catch {
            await store.close()
            throw error
        }
    }

    static func open(_ text: String, busyTimeout: Double, tls: PostgresTLSOption) async throws -> HistoryStore {
        guard busyTimeout >= 0, busyTimeout.isFinite else {
            throw UsageFailure(message: "--busy-timeout: give a number of seconds of at least 0, not \(busyTimeout)")
        }
        do {
            return try await HistoryStore.open(tls.applied(to: try HistoryLocation(text)), busyTimeout: busyTimeout)
        } catch {
            throw UsageFailure(message: error.message)
        }
    }
}

/// What a stored run is tagged with: `--commit`, `--branch` and `--label`.
struct RunTagOptions: ParsableArguments {
    @Option(help: "The commit the app was built from, stored with each run.")
    var commit: String?

    @Option(help: "The branch, stored with each run.")
    var branch: String?

    @Option(help: "Free text stored with each run, such as the CI job's name.")
    var label: String?
}

/// `check --history DB`: record the checked runs and mark each leak new or seen before.
struct CheckHistoryOptions: ParsableArguments {
    @Option(
        name: .customLong("history"),
        help: "Record the runs in this leak history (a SQLite file or postgres://…) and mark each leak new or seen before."
    )
    var location: String?

    @OptionGroup var connection: HistoryConnectionOptions

    @OptionGroup var tags: RunTagOptions
}

/// How a history is reached, whichever option names it: the wait for a locked SQLite file, TLS to PostgreSQL.
struct HistoryConnectionOptions: ParsableArguments {
    @Option(help: "Seconds to wait for a SQLite history that another process holds locked before giving up (exit 2).")
    var busyTimeout: Double = HistoryStore.defaultBusyTimeout

    @OptionGroup var tls: PostgresTLSOption
}

extension CheckHistoryOptions {
    /// With `--history`: stores every checked session and returns, per session, each leak fingerprint marked new or
    /// seen before in the earlier runs of the same app (and `--label`, when given); nil without `--history`.
    func record(_ checks: [SessionCheck]) async throws -> CheckHistoryMarks? {
        guard let location else { return nil }
        return try await HistoryStoreOption.using(location, busyTimeout: connection.busyTimeout, tls: connection.tls) { store in
            var sessions: [CheckHistoryMarks.Session] = []
            var notes = LeakNotes()
            for (index, check) in checks.enumerated() {
                let record = RunRecord(check: check, recordedAt: Date(), commit: tags.commit, branch: tags.branch, label: tags.label)
                let (id, _) = try await store.add(record)
                let earlier = try await store.history(HistoryFilter(app: record.app, label: record.label, upToRun: id))
                let leaks = record.leaks.map { leak in
                    let mark = HistoryReport.mark(leak.fingerprint, in: earlier)
                    return CheckHistoryMarks.Leak(fingerprint: leak.fingerprint, count: leak.count, isNew: mark.isNew, note: mark.text)
                }
                let noteOf = Dictionary(leaks.map { ($0.fingerprint, LeakNotes.Note(accepted: false, text: $0.note)) }) { first, _ in first }
                for group in check.snapshot.leakGroups {
                    guard let note = noteOf[group.fingerprint.description] else { continue }
                    for id in group.ids { notes.add(note, session: index, id: id) }
                }
                sessions.append(CheckHistoryMarks.Session(app: record.app, run: record.run, storedAs: id, leaks: leaks))
            }
            return CheckHistoryMarks(store: store.location.description, sessions: sessions, notes: notes)
        }
    }
}
