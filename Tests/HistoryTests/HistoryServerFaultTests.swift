import Foundation
import TestSupport
import Testing

/// A PostgreSQL server that goes away in the middle of `history add`: the server ends the session that is writing (as
/// it does to every session when it shuts down), and the run is stored whole or not at all.
@Suite(.serialized)
struct HistoryServerFaultTests {
    /// The writing session is made to wait inside its transaction (another session holds the leaks table), then the
    /// server terminates it: `history add` fails with a clear error and exit 2, no half of the run is left, and the
    /// same run is stored whole once the server takes it.
    ///
    /// Synchronous, with every process on a thread of its own: nothing here waits for the cooperative pool, which the
    /// whole suite running in parallel on two cores can leave without a free thread for minutes.
    @Test(.enabled(if: HistoryStoreKind.server != nil, "\(HistoryStoreKind.MissingServer())"), .timeLimit(.minutes(2)))
    func aServerThatEndsTheSessionMidWriteLeavesNoHalfStoredRun() throws {
        let store = HistoryStoreKind.postgres
        let folder = try HistoryRecordings.folder("history-fault")
        let history = try store.create(in: folder)
        let database = try #require(URL(string: history)?.lastPathComponent)
        let first = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        let second = try HistoryRecordings.write(HistoryRecordings.recording(run: "r2", extra: ["PaymentCoordinator"]), "r2.ndjson", in: folder)
        let ready = try store.coordlens.run(["history", "add", first, "--history", history], timeout: 120, environment: store.environment)
        #expect(ready.status == 0, "\(ready.standardError)")

        // Another session takes the leaks table and keeps it.
        let holder = OnItsOwnThread {
            // clock: not a wait: the lock is held until the test ends this session; 60 s only bounds it.
            try HistoryStoreKind.psql("BEGIN; LOCK TABLE leaks IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;", database: database)
        }
        #expect(
            try Self.poll {
                try Self.count(
                    "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'leaks' AND l.granted AND l.mode = 'AccessExclusiveLock'",
                    database) == 1
            })

        let writing = OnItsOwnThread {
            try store.coordlens.run(["history", "add", second, "--history", history], timeout: 90, environment: store.environment)
        }
        // `history add` has stored the run's row and waits to add its leaks: its session is ended there.
        let waiting = "datname = '\(database)' AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO leaks%'"
        #expect(try Self.poll { try Self.count("SELECT count(*) FROM pg_stat_activity WHERE \(waiting)", database) == 1 })
        try HistoryStoreKind.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE \(waiting)", database: "postgres")
        let failed = try writing.value()
        #expect(failed.status == 2, "\(failed.standardOutput) \(failed.standardError)")
        #expect(
            failed.standardError.contains("\(history): terminating connection due to administrator command"),
            "names the store and the server's reason: \(failed.standardError)")
        #expect(!failed.standardError.contains("Fatal error"), "no crash: \(failed.standardError)")

        try HistoryStoreKind.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND query LIKE '%pg_sleep%'", database: "postgres")
        _ = try? holder.value()
        #expect(try Self.count("SELECT count(*) FROM runs WHERE run = 'r2'", database) == 0, "no half-stored run")
        #expect(try Self.count("SELECT count(*) FROM leaks", database) == 1, "only the first run's leak")

        let again = try store.coordlens.run(["history", "add", second, "--history", history], timeout: 120, environment: store.environment)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Self.count("SELECT count(*) FROM runs WHERE run = 'r2'", database) == 1)
        #expect(try Self.count("SELECT count(*) FROM leaks", database) == 3, "the second run whole: its two leaks")
    }

    private static func count(_ sql: String, _ database: String) throws -> Int {
        Int(try HistoryStoreKind.psql(sql, database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Polls `condition` every 50 ms for at most 30 s.
    private static func poll(_ condition: () throws -> Bool) throws -> Bool {
        try waitUntil(seconds: 30, every: 0.05, condition)
    }
}

/// `body` run on a thread of its own; `value()` waits for it.
private final class OnItsOwnThread<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread { [self] in
            result = Result { try body() }
            done.signal()
        }.start()
    }

    func value() throws -> Value {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
