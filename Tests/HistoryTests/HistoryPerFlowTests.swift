import Foundation
import TestSupport
import Testing

/// One recording per UI test: the history keeps each run's label and exercised paths, lists one block per app and
/// label, filters by `--label`, and counts a leak only against the runs that reached its path.
@Suite(.serialized)
struct HistoryPerFlowTests {
    func coordlens(_ arguments: [String], _ store: HistoryStoreKind) throws -> ProcessRun {
        try store.coordlens.run(arguments, timeout: 120, environment: store.environment)
    }

    func json(_ run: ProcessRun) throws -> [String: Any] {
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    /// Two UI tests, two runs each: the payment test leaks a PaymentCoordinator in both, the settings test never
    /// opens payment. The listing is two blocks; `--label` keeps one; the leak is in 2 of the 2 runs that reached it.
    @Test(arguments: HistoryStoreKind.available)
    func labelsGroupAndFilterAndPathsCountRuns(_ store: HistoryStoreKind) throws {
        try #require(store == .sqlite || HistoryCommandTests.postgresReady, "\(HistoryStoreKind.MissingServer())")
        let folder = try HistoryRecordings.folder("history-flows")
        let history = try store.create(in: folder)
        for (number, label) in ["payment", "settings", "payment", "settings"].enumerated() {
            let extra = label == "payment" ? ["PaymentCoordinator"] : []
            let file = try HistoryRecordings.write(HistoryRecordings.recording(run: "r\(number)", extra: extra), "r\(number).ndjson", in: folder)
            let added = try coordlens(["history", "add", file, "--history", history, "--label", label], store)
            #expect(added.status == 0, "\(added.standardError)")
        }

        let text = try coordlens(["history", "--history", history], store)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("4 runs from"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("in 2 groups by app and label"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("Shop (label payment): 2 runs"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("Shop (label settings): 2 runs"), "\(text.standardOutput)")

        let all = try json(try coordlens(["history", "--history", history, "--format", "json"], store))
        let groups = try #require(all["groups"] as? [[String: Any]])
        #expect(groups.map { $0["label"] as? String } == ["payment", "settings"])
        let lines = try #require(all["fingerprints"] as? [[String: Any]])
        let payment = lines.filter { ($0["fingerprint"] as? String)?.contains("PaymentCoordinator") == true }
        #expect(payment.count == 1, "only the payment test has it: \(payment)")
        #expect(payment.first?["runs"] as? Int == 2)
        #expect(payment.first?["ofRuns"] as? Int == 2)
        #expect(payment.first?["label"] as? String == "payment")
        let settings = lines.filter { ($0["fingerprint"] as? String)?.contains("SettingsCoordinator") == true }
        #expect(settings.map { $0["label"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["payment", "settings"])

        let filtered = try json(try coordlens(["history", "--history", history, "--format", "json", "--label", "settings"], store))
        #expect(filtered["runs"] as? Int == 2)
        let kept = try #require(filtered["fingerprints"] as? [[String: Any]])
        #expect(kept.count == 1 && (kept.first?["fingerprint"] as? String)?.contains("SettingsCoordinator") == true, "\(kept)")
        let filteredText = try coordlens(["history", "--history", history, "--label", "settings"], store)
        #expect(!filteredText.standardOutput.contains("groups by app and label"), "one group is one block: \(filteredText.standardOutput)")
        #expect(!filteredText.standardOutput.contains("PaymentCoordinator"), "\(filteredText.standardOutput)")

        // Without labels, the settings runs still do not count against the payment leak: they never reached its path.
        let mixed = try HistoryRecordings.folder("history-flows-mixed")
        let unlabelled = try store.create(in: mixed)
        for (number, extra) in [["PaymentCoordinator"], [], []].enumerated() {
            let file = try HistoryRecordings.write(HistoryRecordings.recording(run: "m\(number)", extra: extra), "m\(number).ndjson", in: mixed)
            #expect(try coordlens(["history", "add", file, "--history", unlabelled], store).status == 0)
        }
        let listing = try coordlens(["history", "--history", unlabelled], store)
        #expect(listing.standardOutput.contains("in 1 of 1 run that reached its path (2 more never did)"), "\(listing.standardOutput)")
        let checked = try coordlens(
            [
                "check", try HistoryRecordings.write(HistoryRecordings.recording(run: "m3", extra: ["PaymentCoordinator"]), "m3.ndjson", in: mixed),
                "--history", unlabelled,
            ], store)
        #expect(checked.standardOutput.contains("PaymentCoordinator (detached) ×1: seen before: in 2 of the last 2 runs since"), "\(checked.standardOutput)")
    }

    /// A history written by the coordlens before paths were kept (schema 1) is brought up to date in place: its runs
    /// are kept and count for every path, since nobody knows which they reached.
    @Test func aVersionOneHistoryIsMigratedAndItsRunsCountEverywhere() throws {
        let folder = try HistoryRecordings.folder("history-migrate")
        let history = folder.appendingPathComponent("history.sqlite").path
        // The tables as schema version 1 created them, with one run that leaked a PaymentCoordinator.
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.executescript('''
            CREATE TABLE coordlens_schema (version INTEGER NOT NULL);
            INSERT INTO coordlens_schema (version) VALUES (1);
            CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, recorded_at TEXT NOT NULL, app TEXT NOT NULL, run TEXT NOT NULL,
                source TEXT NOT NULL, commit_sha TEXT, branch TEXT, label TEXT, alive INTEGER NOT NULL, pending INTEGER NOT NULL,
                retained INTEGER NOT NULL, released INTEGER NOT NULL, late INTEGER NOT NULL, undecided INTEGER NOT NULL, UNIQUE (app, run));
            CREATE TABLE leaks (run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, fingerprint TEXT NOT NULL,
                count INTEGER NOT NULL, example_file TEXT, example_line INTEGER, example_function TEXT, PRIMARY KEY (run_id, fingerprint));
            CREATE INDEX leaks_by_fingerprint ON leaks (fingerprint);
            CREATE INDEX runs_by_time ON runs (recorded_at);
            INSERT INTO runs VALUES (1, '2026-11-01T10:00:00Z', 'Shop', 'old', 'old.ndjson', 'c0', 'main', NULL, 2, 0, 1, 0, 0, 0);
            INSERT INTO leaks VALUES (1, 'AppCoordinator/PaymentCoordinator (detached)', 1, 'Shop/PaymentCoordinator.swift', 30, NULL);
            ''')
            c.commit()
            """
        let created = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, history])
        #expect(created.status == 0, "\(created.standardError)")

        let file = try HistoryRecordings.write(HistoryRecordings.recording(run: "new"), "new.ndjson", in: folder)
        let added = try BuiltProduct.coordlens.run(["history", "add", file, "--history", history], timeout: 60)
        #expect(added.status == 0, "\(added.standardError)")
        let listing = try json(try BuiltProduct.coordlens.run(["history", "--history", history, "--format", "json"], timeout: 60))
        #expect(listing["runs"] as? Int == 2)
        let lines = try #require(listing["fingerprints"] as? [[String: Any]])
        let payment = try #require(lines.first { ($0["fingerprint"] as? String)?.contains("PaymentCoordinator") == true })
        #expect(payment["runs"] as? Int == 1)
        #expect(payment["ofRuns"] as? Int == 1, "the new run never reached the path; the old one counts as it cannot tell")
        let settings = try #require(lines.first { ($0["fingerprint"] as? String)?.contains("SettingsCoordinator") == true })
        #expect(settings["ofRuns"] as? Int == 2, "the old run counts for a path it may have reached")
        let version = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT version FROM coordlens_schema').fetchone()[0])",
                history,
            ])
        #expect(version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        let recorded = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import sqlite3, sys; [print(*r, sep='|') for r in sqlite3.connect(sys.argv[1]).execute('SELECT version, name, applied_at FROM coordlens_migrations ORDER BY version')]",
                history,
            ])
        let rows = recorded.standardOutput.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(rows.map { $0.prefix(2) } == [["1", "runs-and-leaks"], ["2", "paths-per-run"], ["3", "migrations-recorded"]], "\(rows)")
        #expect(rows.first?.last?.hasPrefix("before ") == true, "the migration that ran before the record says so: \(rows)")
        #expect(rows.dropFirst().allSatisfy { $0.last?.hasPrefix("20") == true }, "the two this opening ran, when: \(rows)")
    }
}
