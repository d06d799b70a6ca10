import Foundation
import TestSupport
import Testing

/// The store as its libraries mean it: migrations recorded by name in the store itself, and a run's leaks stored
/// many to a statement, past the statement's size, on SQLite and on a real PostgreSQL server.
@Suite(.serialized)
struct HistorySchemaTests {
    /// A recording of app `Many` leaking `count` coordinators of `count` different types, each its own fingerprint.
    private static func manyLeaks(_ count: Int) -> String {
        var lines = [#"{"event":"session","v":1,"app":"Many","run":"many-1"}"#, #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#]
        var seq = 1
        for index in 0..<count {
            seq += 1
            lines.append(
                #"{"seq":\#(seq),"t":0.1,"event":"add","id":\#(index + 2),"type":"Flow\#(index)Coordinator","parent":1,"file":"Many/Flow.swift","line":\#(index + 1)}"#
            )
            seq += 1
            lines.append(#"{"seq":\#(seq),"t":0.2,"event":"remove","id":\#(index + 2),"parent":1}"#)
        }
        lines.append(#"{"seq":\#(seq + 1),"t":10,"event":"end"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The store's recorded migrations, as `version|name` lines.
    private static func migrations(_ store: HistoryStoreKind, _ history: String) throws -> [String] {
        let query = "SELECT version, name FROM coordlens_migrations ORDER BY version"
        switch store {
        case .sqlite:
            let run = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", "-c", "import sqlite3, sys; [print(*r, sep='|') for r in sqlite3.connect(sys.argv[1]).execute('\(query)')]", history])
            return run.standardOutput.split(separator: "\n").map(String.init)
        case .postgres:
            let database = String(history.split(separator: "/").last!)
            return try HistoryStoreKind.psql(query, database: database).split(separator: "\n").map(String.init)
        }
    }

    @Test(arguments: HistoryStoreKind.available)
    func aNewStoreRecordsEveryMigrationAndStoresSixHundredLeaksOfOneRun(_ store: HistoryStoreKind) throws {
        let folder = try HistoryRecordings.folder("history-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = try store.create(in: folder)
        let file = try HistoryRecordings.write(Self.manyLeaks(600), "many.ndjson", in: folder)
        let added = try store.coordlens.run(["history", "add", file, "--history", history], timeout: 120, environment: store.environment)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(try Self.migrations(store, history) == ["1|runs-and-leaks", "2|paths-per-run", "3|migrations-recorded"])

        let listed = try store.coordlens.run(["history", "--history", history, "--format", "json"], timeout: 120, environment: store.environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        let fingerprints = try #require(json["fingerprints"] as? [[String: Any]])
        #expect(fingerprints.count == 600, "every leak of the run, across the 500-row statements")
        let last = try #require(fingerprints.first { ($0["fingerprint"] as? String)?.contains("Flow599Coordinator") == true })
        #expect(last["runs"] as? Int == 1)
    }
}
