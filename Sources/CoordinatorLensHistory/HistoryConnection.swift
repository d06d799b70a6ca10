/// The two SQL dialects the history speaks; they differ in column types, locking and how a table is looked up.
enum HistoryDialect: Sendable {
    case sqlite, postgres
}

/// One open connection to a history store: SQL in, rows out. Statements number their parameters `$1`, `$2`, ….
protocol HistoryConnection: Sendable {
    var dialect: HistoryDialect { get }
    /// Runs `sql` with `binds` and returns every row it yields.
    func rows(_ sql: String, _ binds: [HistoryValue]) async throws(HistoryError) -> [[HistoryValue]]
    /// Closes the connection; errors on the way out are of no use to anyone.
    func close() async
}

extension HistoryConnection {
    /// Runs `sql` for its effect.
    func execute(_ sql: String, _ binds: [HistoryValue] = []) async throws(HistoryError) {
        _ = try await rows(sql, binds)
    }

    /// Runs `body` in one transaction that takes the write lock at once (SQLite: `BEGIN IMMEDIATE`, so two writers never
    /// both hold a read snapshot they then cannot upgrade), rolled back when `body` throws.
    func transaction<Result: Sendable>(_ body: () async throws(HistoryError) -> Result) async throws(HistoryError) -> Result {
        try await execute(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try await body()
            try await execute("COMMIT")
            return result
        } catch {
            // On a connection the server ended, a `ROLLBACK` would wait for an answer that never comes.
            if !error.connectionLost { try? await execute("ROLLBACK") }
            throw error
        }
    }
}
