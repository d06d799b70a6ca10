import CoordinatorLens
import Foundation

/// A leak history: runs with their leak fingerprints, in a SQLite file or on a PostgreSQL server, behind one API.
///
/// Opening brings an older store up to `HistorySchema.current` in one transaction (on PostgreSQL under an advisory
/// lock, so machines that start at once migrate it once) and refuses a store written by a newer coordlens.
package struct HistoryStore: Sendable {
    /// Where it is.
    package let location: HistoryLocation
    let connection: any HistoryConnection

    /// How long a statement waits for a SQLite file another process holds locked, unless told otherwise.
    package static let defaultBusyTimeout: Double = 10

    /// Whether this build can reach a PostgreSQL history (the package's `Postgres` trait).
    package static var postgresBuiltIn: Bool {
        #if Postgres
        true
        #else
        false
        #endif
    }

    /// Opens (creating when missing) the store at `location`; a locked SQLite file is waited for up to `busyTimeout`
    /// seconds.
    package static func open(_ location: HistoryLocation, busyTimeout: Double = defaultBusyTimeout) async throws(HistoryError) -> HistoryStore {
        let connection: any HistoryConnection
        switch location {
        case .sqlite(let path): connection = try await SQLiteHistoryConnection.open(path: path, busyTimeout: busyTimeout)
        case .postgres(let address):
            #if Postgres
            connection = try await PostgresHistoryConnection.open(address)
            #else
            throw HistoryError(
                "\(address): this coordlens was built without PostgreSQL support. Rebuild it with the Postgres trait: "
                    + "`swift build -c release --product coordlens --traits Postgres` (or `make install TRAITS=Postgres`), "
                    + "or use a SQLite file: --history .coordlens/history.sqlite")
            #endif
        }
        let store = HistoryStore(location: location, connection: connection)
        do {
            try await store.migrate()
        } catch {
            await connection.close()
            throw error
        }
        return store
    }

    /// Closes the connection.
    package func close() async {
        await connection.close()
    }

    private func migrate() async throws(HistoryError) {
        // Read before anything is written: a newer store must be left exactly as it is.
        let found = try await schemaVersion()
        try refuseNewer(found)
        if connection.dialect == .sqlite {
            // Readers never block the writer and the writer never blocks readers; kept in the file once set.
            try await connection.execute("PRAGMA journal_mode = WAL")
        }
        guard found < HistorySchema.current else { return }
        try await connection.transaction { () async throws(HistoryError) in
            if connection.dialect == .postgres {
                try await connection.execute("SELECT pg_advisory_xact_lock(7421017)")
            }
            let now = try await schemaVersion()
            try refuseNewer(now)
            guard now < HistorySchema.current else { return }
            let appliedAt = Self.timestamp(Date())
            for version in (now + 1)...HistorySchema.current {
                for statement in try HistorySchema.migration(to: version, in: connection.dialect) {
                    try await connection.execute(statement)
                }
                if version == 3 {
                    // The two that come before the table are entered with it: when this opening ran them, or, for a
                    // store that had them already, as run at some time before.
                    for earlier in 1...2 {
                        try await recordMigration(earlier, at: earlier > now ? appliedAt : "before \(appliedAt)")
                    }
                }
                if version >= 3 { try await recordMigration(version, at: appliedAt) }
            }
            try await connection.execute("UPDATE coordlens_schema SET version = $1", [HistoryValue(HistorySchema.current)])
        }
    }

    private func recordMigration(_ version: Int, at appliedAt: String) async throws(HistoryError) {
        try await connection.execute(
            "INSERT INTO coordlens_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            [HistoryValue(version), .text(HistorySchema.names[version] ?? "unnamed"), .text(appliedAt)])
    }

    /// The migrations recorded in the store, oldest first: version, name and when it ran.
    package func migrations() async throws(HistoryError) -> [(version: Int, name: String, appliedAt: String)] {
        try await connection.rows("SELECT version, name, applied_at FROM coordlens_migrations ORDER BY version", []).map {
            row throws(HistoryError) in
            guard row.count == 3, let version = row[0].integer, let name = row[1].text, let at = row[2].text else {
                throw HistoryError("\(location): a row of table coordlens_migrations does not read: \(row)")
            }
            return (version, name, at)
        }
    }

    /// The store's schema version; 0 for a store with no tables yet.
    func schemaVersion() async throws(HistoryError) -> Int {
        let tables = try await connection.rows(HistorySchema.versionTableQuery(in: connection.dialect), [])
        guard tables.first?.first?.integer ?? 0 > 0 else { return 0 }
        let rows = try await connection.rows("SELECT version FROM coordlens_schema", [])
        guard let version = rows.first?.first?.integer else {
            throw HistoryError("\(location): its coordlens_schema table holds no version; this is not a history coordlens wrote")
        }
        return version
    }

    private func refuseNewer(_ version: Int) throws(HistoryError) {
        guard version > HistorySchema.current else { return }
        throw HistoryError(
            "\(location): the history has schema version \(version), newer than the \(HistorySchema.current) this coordlens "
                + "knows; use a newer coordlens (the history was left unchanged)"
        )
    }

    /// Stores `record` with its leaks in one transaction. A run already stored (same app and run id) is left as it is:
    /// `added` is false and `id` is the stored run's.
    @discardableResult
    package func add(_ record: RunRecord) async throws(HistoryError) -> (id: Int, added: Bool) {
        try await connection.transaction { () async throws(HistoryError) -> (id: Int, added: Bool) in
            let counts = record.counts
            let inserted = try await connection.rows(
                """
                INSERT INTO runs (recorded_at, app, run, source, commit_sha, branch, label, alive, pending, retained, released, late, undecided,
                    paths_recorded)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1)
                ON CONFLICT (app, run) DO NOTHING RETURNING id
                """,
                [
                    .text(Self.timestamp(record.recordedAt)), .text(record.app), .text(record.run), .text(record.source),
                    HistoryValue(record.commit), HistoryValue(record.branch), HistoryValue(record.label),
                    HistoryValue(counts[.alive] ?? 0), HistoryValue(counts[.pending] ?? 0), HistoryValue(counts[.retained] ?? 0),
                    HistoryValue(counts[.released] ?? 0), HistoryValue(counts[.late] ?? 0), HistoryValue(record.undecided),
                ]
            )
            guard let id = inserted.first?.first?.integer else {
                let existing = try await connection.rows("SELECT id FROM runs WHERE app = $1 AND run = $2", [.text(record.app), .text(record.run)])
                guard let id = existing.first?.first?.integer else {
                    throw HistoryError("\(location): run \(record.run) of \(record.app) was neither stored nor found")
                }
                return (id, false)
            }
            try await addLeaks(record.leaks, run: id)
            try await addPaths(record.paths, run: id)
            return (id, true)
        }
    }

    /// A run's leaks, many rows to a statement: a server is a round trip away, and a run can have hundreds of kinds.
    private func addLeaks(_ leaks: [RunRecord.Leak], run id: Int) async throws(HistoryError) {
        var start = 0
        while start < leaks.count {
            let chunk = leaks[start..<Swift.min(start + Self.leaksPerStatement, leaks.count)]
            let rows = (0..<chunk.count).map { row in "($1, " + (2...7).map { "$\(row * 6 + $0)" }.joined(separator: ", ") + ")" }
            let binds = chunk.flatMap { leak -> [HistoryValue] in
                [
                    .text(leak.fingerprint), .text(leak.path), HistoryValue(leak.count), HistoryValue(leak.example?.file),
                    leak.example.map { HistoryValue($0.line) } ?? .null, HistoryValue(leak.example?.function),
                ]
            }
            try await connection.execute(
                "INSERT INTO leaks (run_id, fingerprint, path, count, example_file, example_line, example_function) VALUES "
                    + rows.joined(separator: ", "), [HistoryValue(id)] + binds)
            start += chunk.count
        }
    }

    /// Six values a leak: within SQLite's limit of 32,766 bound values and PostgreSQL's 65,535.
    static let leaksPerStatement = 500

    /// A run's exercised paths, many rows to a statement: a deep tree has thousands and a server is a round trip away.
    private func addPaths(_ paths: [String], run id: Int) async throws(HistoryError) {
        var start = 0
        while start < paths.count {
            let chunk = paths[start..<Swift.min(start + Self.pathsPerStatement, paths.count)]
            let rows = (0..<chunk.count).map { "($1, $\($0 + 2))" }.joined(separator: ", ")
            try await connection.execute("INSERT INTO run_paths (run_id, path) VALUES \(rows)", [HistoryValue(id)] + chunk.map { .text($0) })
            start += chunk.count
        }
    }

    /// Within SQLite's default limit of 32,766 bound values and PostgreSQL's 65,535.
    static let pathsPerStatement = 500

    /// The runs `filter` picks, oldest first, with the paths each exercised.
    package func runs(_ filter: HistoryFilter = HistoryFilter()) async throws(HistoryError) -> [StoredRun] {
        let (clause, binds) = filter.sql
        let rows = try await connection.rows(
            "SELECT r.id, r.recorded_at, r.app, r.run, r.commit_sha, r.branch, r.label, r.retained, r.paths_recorded FROM runs AS r\(clause) ORDER BY r.id",
            binds
        )
        let pathRows = try await connection.rows(
            "SELECT p.run_id, p.path FROM run_paths AS p JOIN runs AS r ON r.id = p.run_id\(clause) ORDER BY p.run_id", binds)
        var paths: [Int: Set<String>] = [:]
        for row in pathRows {
            guard row.count == 2, let run = row[0].integer, let path = row[1].text else {
                throw HistoryError("\(location): a row of table run_paths does not read: \(row)")
            }
            paths[run, default: []].insert(path)
        }
        return try rows.map { row throws(HistoryError) in
            guard row.count == 9, let id = row[0].integer, let at = row[1].text, let app = row[2].text, let run = row[3].text,
                let retained = row[7].integer, let recorded = row[8].integer
            else { throw HistoryError("\(location): a row of table runs does not read: \(row)") }
            return StoredRun(
                id: id, recordedAt: at, app: app, run: run, commit: row[4].text, branch: row[5].text, label: row[6].text, retained: retained,
                paths: recorded == 0 ? nil : paths[id, default: []])
        }
    }

    /// The leak rows of the runs `filter` picks, in run order.
    package func leaks(_ filter: HistoryFilter = HistoryFilter()) async throws(HistoryError) -> [StoredLeak] {
        let (clause, binds) = filter.sql
        let rows = try await connection.rows(
            """
            SELECT l.run_id, l.fingerprint, l.count, l.example_file, l.example_line, l.example_function, l.path
            FROM leaks AS l JOIN runs AS r ON r.id = l.run_id\(clause) ORDER BY l.run_id, l.fingerprint
            """,
            binds
        )
        return try rows.map { row throws(HistoryError) in
            guard row.count == 7, let run = row[0].integer, let fingerprint = row[1].text, let count = row[2].integer else {
                throw HistoryError("\(location): a row of table leaks does not read: \(row)")
            }
            return StoredLeak(
                runID: run, fingerprint: fingerprint, count: count, path: row[6].text, exampleFile: row[3].text, exampleLine: row[4].integer,
                exampleFunction: row[5].text)
        }
    }

    /// Every fingerprint of the runs `filter` picks, with when and how often it occurred.
    package func history(_ filter: HistoryFilter = HistoryFilter()) async throws(HistoryError) -> LeakHistory {
        LeakHistory(runs: try await runs(filter), leaks: try await leaks(filter))
    }

    /// `2026-11-23T10:15:00Z`: text that sorts as time does, in both stores. One format style, a value, for every
    /// timestamp (a formatter per call cost more than the statement).
    static func timestamp(_ date: Date) -> String {
        date.formatted(timestampStyle)
    }

    private static let timestampStyle = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
}
