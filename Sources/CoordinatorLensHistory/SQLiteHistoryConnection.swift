#if Tools
import Foundation
import SQLiteNIO

/// A history in one SQLite file, through sqlite-nio (which builds its own SQLite, so no system library is needed).
/// Many processes may write at once: the file is in WAL mode, writers take the lock when they begin, and a busy file
/// is waited for, not failed on.
struct SQLiteHistoryConnection: HistoryConnection {
    let dialect = HistoryDialect.sqlite
    let path: String
    private let connection: SQLiteConnection

    /// Opens `path`, creating the file and its folder when missing.
    static func open(path: String) async throws(HistoryError) -> SQLiteHistoryConnection {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw HistoryError("\(path): cannot create its folder: \(error.localizedDescription)")
            }
        }
        do {
            return SQLiteHistoryConnection(path: path, connection: try await SQLiteConnection.open(storage: .file(path: path)))
        } catch {
            throw HistoryError("\(path): cannot open as a SQLite history: \(error)")
        }
    }

    func rows(_ sql: String, _ binds: [HistoryValue]) async throws(HistoryError) -> [[HistoryValue]] {
        // SQLite reads `$1` as a parameter *named* "$1"; `?1` is the one that means "the first".
        let numbered = sql.replacingOccurrences(of: "$", with: "?")
        let values: [SQLiteData] = binds.map {
            switch $0 {
            case .integer(let number): .integer(SQLiteInt64(number))
            case .text(let text): .text(text)
            case .null: .null
            }
        }
        do {
            return try await connection.query(numbered, values).map { row in
                row.columns.map { column in
                    switch column.data {
                    case .integer(let number): .integer(Int64(number))
                    case .text(let text): .text(text)
                    case .float(let number): .integer(Int64(number))
                    case .blob, .null: .null
                    }
                }
            }
        } catch {
            throw HistoryError("\(path): \(error)")
        }
    }

    func close() async {
        try? await connection.close()
    }
}
#endif
