import Foundation
import TestSupport
import Testing

/// The two stores the history tests run against: a new SQLite file, or a new database on the PostgreSQL server that
/// `make test` starts (scripts/postgres-test-server.sh), reached with its password in the environment only.
enum HistoryStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// The stores the tests can reach: SQLite always; PostgreSQL when a server is configured (`make test` starts one).
    /// Where none is, the PostgreSQL cases are left out rather than failed (the Apple workflow starts no server).
    static var available: [HistoryStoreKind] { server == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// The `coordlens` that reaches this store: the default build for SQLite; for PostgreSQL the build with the
    /// `Postgres` trait, which `make test` puts in its own folder and names in COORDLENS_POSTGRES_BIN_DIR.
    var coordlens: BuiltProduct {
        self == .postgres ? BuiltProduct("coordlens", directoryVariable: "COORDLENS_POSTGRES_BIN_DIR") : .coordlens
    }

    /// The server's address (no password) and password, from `make test`'s environment.
    static var server: (address: String, password: String, bin: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let address = environment["COORDLENS_TEST_POSTGRES"], let password = environment["COORDLENS_TEST_PGPASSWORD"] else {
            return nil
        }
        return (address, password, environment["COORDLENS_TEST_POSTGRES_BIN"] ?? "/usr/bin")
    }

    /// The environment a `coordlens` process needs for this store: the PostgreSQL password, or nothing.
    var environment: [String: String] {
        guard self == .postgres, let server = Self.server else { return [:] }
        return ["PGPASSWORD": server.password]
    }

    /// A new, empty store: its `--history` value.
    func create(in folder: URL) throws -> String {
        switch self {
        case .sqlite:
            return folder.appendingPathComponent("history.sqlite").path
        case .postgres:
            guard let server = Self.server else { throw MissingServer() }
            let name = "history_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            try Self.psql("CREATE DATABASE \(name)", database: "postgres")
            return server.address.replacingOccurrences(of: "/postgres", with: "/\(name)")
        }
    }

    /// Runs `sql` with `psql` (PostgreSQL's own client, a real process) on `database`.
    @discardableResult
    static func psql(_ sql: String, database: String) throws -> String {
        let (executable, arguments, environment) = try psqlCommand(sql, database: database)
        let run = try ProcessRun.run(executable, arguments, timeout: 60, environment: environment)
        guard run.status == 0 else { throw PsqlFailed(message: run.standardError) }
        return run.standardOutput
    }

    private static func psqlCommand(_ sql: String, database: String) throws -> (URL, [String], [String: String]) {
        guard let server else { throw MissingServer() }
        let address = URLComponents(string: server.address)!
        return (
            URL(fileURLWithPath: server.bin + "/psql"),
            ["-h", address.host!, "-p", "\(address.port!)", "-U", address.user!, "-d", database, "-v", "ON_ERROR_STOP=1", "-tA", "-c", sql],
            ["PGPASSWORD": server.password]
        )
    }

    struct MissingServer: Error, CustomStringConvertible {
        var description: String {
            "no PostgreSQL server for the tests: run `make test` (or scripts/postgres-test-server.sh, then source .build/postgres/env)"
        }
    }

    struct PsqlFailed: Error, CustomStringConvertible {
        var message: String
        var description: String { "psql failed: \(message)" }
    }
}

/// Recordings whose leaks are known by construction.
enum HistoryRecordings {
    /// One session of app `Shop` with run id `run`, leaking one `SettingsCoordinator` under Home (still-child) and,
    /// for each name in `extra`, one coordinator of that type detached from the app coordinator.
    static func recording(run: String, extra: [String] = []) -> String {
        var lines = [#"{"event":"session","v":1,"app":"Shop","run":"\#(run)"}"#]
        var seq = 0
        func event(_ time: Double, _ body: String) {
            seq += 1
            lines.append("{\"seq\":\(seq),\"t\":\(time),\(body)}")
        }
        event(0.1, #""event":"add","id":1,"type":"AppCoordinator","file":"Shop/App.swift","line":1"#)
        event(0.1, #""event":"add","id":2,"type":"HomeCoordinator","parent":1,"file":"Shop/App.swift","line":5"#)
        event(0.2, #""event":"add","id":3,"type":"SettingsCoordinator","parent":2,"file":"Shop/Home.swift","line":20,"function":"showSettings()""#)
        event(1, #""event":"dismiss","id":3"#)
        for (offset, type) in extra.enumerated() {
            let id = 10 + offset
            event(1, "\"event\":\"add\",\"id\":\(id),\"type\":\"\(type)\",\"parent\":1,\"file\":\"Shop/\(type).swift\",\"line\":\(30 + offset)")
            event(1.5, "\"event\":\"remove\",\"id\":\(id),\"parent\":1")
        }
        event(10, #""event":"end""#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A new folder under the temporary directory.
    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` to `name` in `folder` and returns its path.
    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
