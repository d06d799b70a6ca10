import CSQLite
import CoordinatorWire
import Foundation

/// A history in one SQLite file, through the system's SQLite. Many processes may write at once: the file is in WAL
/// mode and writers take the lock when they begin. A file another process holds locked is waited for up to
/// `busyTimeout`, saying so on standard error after a second, then refused with a clear error that says how long it
/// waited: never waited on forever. Where SQLite answers "busy" without waiting (a file turning to WAL mode or being
/// created by another process at that moment, a statement outside a transaction), the statement is tried again within
/// the same time, so two processes creating one store at once both get their run in.
///
/// Text is bound and read with its byte length, so a name with a NUL in it is stored and read back whole.
///
/// Every SQLite call runs on the connection's own thread (as GRDB's serialized database does): a statement blocks, and
/// waits in its busy handler while another process holds the file, which must not hold a thread of the cooperative pool.
final class SQLiteHistoryConnection: HistoryConnection, @unchecked Sendable {
    // @unchecked: the handle and the busy wait are only touched on `thread`.
    let dialect = HistoryDialect.sqlite
    let path: String
    private let handle: OpaquePointer
    private let wait: BusyWait
    private let thread: JobThread

    private init(path: String, handle: OpaquePointer, wait: BusyWait, thread: JobThread) {
        self.path = path
        self.handle = handle
        self.wait = wait
        self.thread = thread
    }

    /// `work`'s result, from the connection's thread.
    private static func onThread<Value: Sendable>(
        _ thread: JobThread, _ work: @escaping @Sendable () throws(HistoryError) -> Value
    ) async throws(HistoryError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, HistoryError>, Never>) in
            thread.enqueue { continuation.resume(returning: Result { () throws(HistoryError) -> Value in try work() }) }
        }
        return try result.get()
    }

    /// Opens `path`, creating the file and its folder when missing; a locked file is waited for up to `busyTimeout`
    /// seconds.
    static func open(path: String, busyTimeout: Double) async throws(HistoryError) -> SQLiteHistoryConnection {
        let thread = JobThread(name: "coordlens-sqlite")
        do {
            return try await onThread(thread) { () throws(HistoryError) in try openOnThread(path: path, busyTimeout: busyTimeout, thread: thread) }
        } catch {
            thread.stop()
            throw error
        }
    }

    private static func openOnThread(path: String, busyTimeout: Double, thread: JobThread) throws(HistoryError) -> SQLiteHistoryConnection {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw HistoryError("\(path): cannot create its folder: \(error.localizedDescription)")
            }
        }
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let handle { sqlite3_close_v2(handle) }
            throw HistoryError("\(path): cannot open as a SQLite history: \(message)")
        }
        let wait = BusyWait(path: path, limit: busyTimeout)
        sqlite3_busy_handler(handle, BusyWait.handler, Unmanaged.passUnretained(wait).toOpaque())
        let connection = SQLiteHistoryConnection(path: path, handle: handle, wait: wait, thread: thread)
        // Without it SQLite accepts ON DELETE CASCADE and then ignores it.
        _ = try connection.run("PRAGMA foreign_keys = ON", [])
        return connection
    }

    func rows(_ sql: String, _ binds: [HistoryValue]) async throws(HistoryError) -> [[HistoryValue]] {
        try await Self.onThread(thread) { [self] () throws(HistoryError) in try run(sql, binds) }
    }

    private func run(_ sql: String, _ binds: [HistoryValue]) throws(HistoryError) -> [[HistoryValue]] {
        wait.start()
        var statement: OpaquePointer?
        while true {
            let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            if status == SQLITE_OK, statement != nil { break }
            // Reading the schema found the file locked.
            guard Self.isBusy(status), wait.mayTryAgain() else { throw failure(status) }
        }
        guard let statement else { throw failure(sqlite3_errcode(handle)) }
        defer { sqlite3_finalize(statement) }
        guard Int(sqlite3_bind_parameter_count(statement)) <= binds.count else {
            throw HistoryError("\(path): a statement has more parameters than the \(binds.count) values given: \(sql)")
        }
        for (offset, value) in binds.enumerated() {
            // SQLite reads `$1` as a parameter named "$1", so each value goes to its parameter by that name, wherever
            // (and however often) the statement uses it; the SQL is never rewritten.
            let position = sqlite3_bind_parameter_index(statement, "$\(offset + 1)")
            guard position > 0 else { throw HistoryError("\(path): a statement does not use the value $\(offset + 1) it is given: \(sql)") }
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, position, number)
            case .text(let text):
                var text = text
                status = text.withUTF8 { bytes in
                    sqlite3_bind_text64(
                        statement, position,
                        UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                            .assumingMemoryBound(to: CChar.self),
                        sqlite3_uint64(bytes.count), coordlens_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            case .null: status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [[HistoryValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            // Outside a transaction (or its COMMIT, which stays open when busy) nothing was done yet: tried again.
            if Self.isBusy(status), rows.isEmpty, sqlite3_get_autocommit(handle) != 0 || sql == "COMMIT", wait.mayTryAgain() {
                sqlite3_reset(statement)
                continue
            }
            guard status == SQLITE_ROW else { throw failure(status) }
            let count = sqlite3_column_count(statement)
            var row: [HistoryValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: row.append(.null)
                case SQLITE_TEXT:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_text(statement, column).map { UnsafeBufferPointer(start: $0, count: length) }
                    row.append(.text(bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""))
                case let type:
                    // The schema stores integers and text only: anything else is a store this coordlens did not write.
                    let kind = type == SQLITE_FLOAT ? "a real number" : "a blob"
                    throw HistoryError("\(path): column \(column + 1) of a row holds \(kind), which no history column takes")
                }
            }
            rows.append(row)
        }
    }

    private static func isBusy(_ status: Int32) -> Bool {
        status & 0xff == SQLITE_BUSY || status & 0xff == SQLITE_LOCKED
    }

    private func failure(_ status: Int32) -> HistoryError {
        if Self.isBusy(status) {
            return HistoryError(
                "\(path): another process held the history locked; gave up after waiting \(seconds(wait.waited, decimals: 1)) "
                    + "(--busy-timeout \(seconds(wait.limit)); raise it to wait longer)")
        }
        return HistoryError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
    }

    func close() async {
        _ = try? await Self.onThread(thread) { [self] in sqlite3_close_v2(handle) }
        thread.stop()
    }
}

/// How long a statement has waited for a lock another process holds: says so once after a second, gives up at `limit`.
private final class BusyWait: @unchecked Sendable {
    // @unchecked: only touched on the connection's thread.
    let path: String
    let limit: Double
    private var began = Date()
    private var told = false

    init(path: String, limit: Double) {
        self.path = path
        self.limit = limit
    }

    /// Starts a statement's clock.
    func start() {
        began = Date()
        told = false
    }

    /// How long the statement has waited so far.
    var waited: Double { Date().timeIntervalSince(began) }

    /// Within the limit: says so once after a second, sleeps a moment and returns true; past it, false.
    func mayTryAgain() -> Bool {
        let waited = self.waited
        if waited >= limit { return false }
        if waited >= 1, !told {
            told = true
            let line = "coordlens: \(path) is locked by another process; waiting up to \(seconds(limit)) for it\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        usleep(20_000)
        return true
    }

    /// SQLite's busy handler: non-zero to try again after a short sleep, zero to give up with SQLITE_BUSY.
    static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, _ in
        guard let context else { return 0 }
        return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().mayTryAgain() ? 1 : 0
    }
}

/// `10 s`, `0.5 s`: a bound as the user gave it; with `decimals`, a time measured, rounded to that many.
private func seconds(_ value: Double, decimals: Int? = nil) -> String {
    if let decimals { return String(format: "%.\(decimals)f s", value) }
    return value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
}
