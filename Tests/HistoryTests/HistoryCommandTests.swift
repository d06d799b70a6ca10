import CoordinatorWire
import Foundation
import TestSupport
import Testing

/// `coordlens history add`, `history` and `check --history` as real processes, on a real SQLite file and a real
/// PostgreSQL server.
@Suite(.serialized)
struct HistoryCommandTests {
    static let postgresReady = HistoryStoreKind.server != nil

    func coordlens(_ arguments: [String], _ store: HistoryStoreKind, in folder: URL? = nil) throws -> ProcessRun {
        try store.coordlens.run(arguments, in: folder, timeout: 120, environment: store.environment)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Three runs, the second with a new leak: the listing gives its first-seen commit and 2 of 3 runs; `check
    /// --history` on the third marks it seen before, and a fourth run's own new fingerprint as new.
    @Test(arguments: HistoryStoreKind.available)
    func threeRunsTellFirstSeenAndHowOften(_ store: HistoryStoreKind) throws {
        try #require(store == .sqlite || Self.postgresReady, "\(HistoryStoreKind.MissingServer())")
        let folder = try HistoryRecordings.folder("history-three")
        let history = try store.create(in: folder)
        let runs = [
            try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder),
            try HistoryRecordings.write(HistoryRecordings.recording(run: "r2", extra: ["PaymentCoordinator"]), "r2.ndjson", in: folder),
            try HistoryRecordings.write(HistoryRecordings.recording(run: "r3", extra: ["PaymentCoordinator"]), "r3.ndjson", in: folder),
        ]
        for (number, run) in runs.enumerated() {
            let added = try coordlens(["history", "add", run, "--history", history, "--commit", "c\(number + 1)", "--branch", "main"], store)
            #expect(added.status == 0, "\(added.standardError)")
            #expect(added.standardOutput.contains("stored run r\(number + 1) of Shop"), "\(added.standardOutput)")
        }

        let listing = try coordlens(["history", "--history", history, "--format", "json"], store)
        #expect(listing.status == 0, "\(listing.standardError)")
        let document = try json(listing.standardOutput)
        #expect(document["runs"] as? Int == 3)
        let lines = try #require(document["fingerprints"] as? [[String: Any]])
        let payment = try #require(lines.first { ($0["fingerprint"] as? String)?.contains("PaymentCoordinator") == true })
        #expect(payment["fingerprint"] as? String == "AppCoordinator/PaymentCoordinator (detached)")
        #expect(payment["runs"] as? Int == 2)
        #expect(payment["ofRuns"] as? Int == 2, "the first run never created a PaymentCoordinator")
        #expect(payment["runsInGroup"] as? Int == 3)
        #expect((payment["firstSeen"] as? [String: Any])?["commit"] as? String == "c2")
        #expect((payment["lastSeen"] as? [String: Any])?["commit"] as? String == "c3")
        #expect(payment["newInNewestRun"] as? Bool == false)
        let settings = try #require(lines.first { ($0["fingerprint"] as? String)?.contains("SettingsCoordinator") == true })
        #expect(settings["runs"] as? Int == 3)
        #expect((settings["firstSeen"] as? [String: Any])?["commit"] as? String == "c1")
        #expect((settings["example"] as? [String: Any])?["file"] as? String == "Shop/Home.swift")
        #expect((settings["example"] as? [String: Any])?["line"] as? Int == 20)

        let text = try coordlens(["history", "--history", history], store)
        #expect(text.standardOutput.contains("seen AppCoordinator/PaymentCoordinator (detached)"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("in 2 of 2 runs that reached its path (1 more never did); first seen"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("in 3 of 3 runs; first seen"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("at c2 (main)"), "\(text.standardOutput)")

        // The third run again, through check: already stored, so it keeps its place and nothing is counted twice.
        let third = try coordlens(["check", runs[2], "--history", history, "--commit", "c3"], store)
        #expect(third.status == 1, "leaks still fail the run: \(third.standardError)")
        #expect(
            third.standardOutput.contains("seen AppCoordinator/PaymentCoordinator (detached) ×1: seen before: in 2 of the last 2 runs since"),
            "\(third.standardOutput)")
        #expect(third.standardOutput.contains("stored as #"), "\(third.standardOutput)")
        let checkedJSON = try coordlens(["check", runs[2], "--history", history, "--format", "json"], store)
        let notes = try #require(((try json(checkedJSON.standardOutput)["sessions"] as? [[String: Any]])?.first?["notes"]) as? [[String: Any]])
        #expect(notes.count == 2 && notes.allSatisfy { $0["known"] as? Bool == false })
        #expect(notes.contains { ($0["note"] as? String)?.hasPrefix("seen before: in 2 of the last 2 runs since") == true })
        // Every format carries the mark: in gcc, at the end of the leak's error.
        let gcc = try coordlens(["check", runs[2], "--history", history, "--format", "gcc"], store)
        #expect(gcc.status == 1)
        #expect(
            gcc.standardOutput.contains("error: PaymentCoordinator#10 retained: detached from AppCoordinator#1")
                && gcc.standardOutput.contains("(seen before: in 2 of the last 2 runs since"), "\(gcc.standardOutput)")

        let fourth = try HistoryRecordings.write(
            HistoryRecordings.recording(run: "r4", extra: ["PaymentCoordinator", "MapCoordinator"]), "r4.ndjson", in: folder)
        let checked = try coordlens(["check", fourth, "--history", history, "--commit", "c4"], store)
        #expect(checked.status == 1)
        #expect(checked.standardOutput.contains("NEW  AppCoordinator/MapCoordinator (detached) ×1: new"), "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("in 3 of the last 3 runs"), "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("in 4 of the last 4 runs"), "\(checked.standardOutput)")
        let after = try json(try coordlens(["history", "--history", history, "--format", "json"], store).standardOutput)
        #expect(after["runs"] as? Int == 4)
        let map = try #require((after["fingerprints"] as? [[String: Any]])?.first { ($0["fingerprint"] as? String)?.contains("Map") == true })
        #expect(map["newInNewestRun"] as? Bool == true)

        let filtered = try json(try coordlens(["history", "--history", history, "--format", "json", "--branch", "release"], store).standardOutput)
        #expect(filtered["runs"] as? Int == 0)
        #expect((filtered["fingerprints"] as? [Any])?.isEmpty == true)
    }

    /// 8 processes add 50 runs each at once: all 400 are stored and every count is exact.
    @Test(arguments: HistoryStoreKind.available)
    func eightWritersLoseNothing(_ store: HistoryStoreKind) async throws {
        try #require(store == .sqlite || Self.postgresReady, "\(HistoryStoreKind.MissingServer())")
        let folder = try HistoryRecordings.folder("history-writers")
        let history = try store.create(in: folder)
        var batches: [[String]] = []
        for writer in 0..<8 {
            var files: [String] = []
            for run in 0..<50 {
                let index = writer * 50 + run
                var extra: [String] = []
                if index % 2 == 0 { extra.append("EvenCoordinator") }
                if index % 5 == 0 { extra.append("FifthCoordinator") }
                files.append(
                    try HistoryRecordings.write(HistoryRecordings.recording(run: "w\(writer)-\(run)", extra: extra), "w\(writer)-\(run).ndjson", in: folder))
            }
            batches.append(files)
        }
        let environment = store.environment
        let results = try await withThrowingTaskGroup(of: ProcessRun.self) { group in
            for files in batches {
                group.addTask {
                    try await store.coordlens.runAsync(["history", "add", "--history", history] + files, timeout: 300, environment: environment)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("stored run") }.count == 50)
        }
        let document = try json(try coordlens(["history", "--history", history, "--format", "json"], store).standardOutput)
        #expect(document["runs"] as? Int == 400)
        let lines = try #require(document["fingerprints"] as? [[String: Any]])
        func runs(_ type: String) -> Int? { lines.first { ($0["fingerprint"] as? String)?.contains(type) == true }?["runs"] as? Int }
        #expect(runs("SettingsCoordinator") == 400)
        #expect(runs("EvenCoordinator") == 200)
        #expect(runs("FifthCoordinator") == 80)
        #expect(lines.count == 3)
    }

    /// A store whose schema is newer than this coordlens knows is refused with a clear message and left unchanged.
    @Test(arguments: HistoryStoreKind.available)
    func newerSchemaIsRefusedAndLeftAlone(_ store: HistoryStoreKind) throws {
        try #require(store == .sqlite || Self.postgresReady, "\(HistoryStoreKind.MissingServer())")
        let folder = try HistoryRecordings.folder("history-newer")
        let history = try store.create(in: folder)
        let run = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        #expect(try coordlens(["history", "add", run, "--history", history], store).status == 0)
        var before = Data()
        switch store {
        case .sqlite:
            let bump = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "python3", "-c",
                    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE coordlens_schema SET version = 99'); c.commit(); c.close()",
                    history,
                ])
            #expect(bump.status == 0, "\(bump.standardError)")
            before = try Data(contentsOf: URL(fileURLWithPath: history))
        case .postgres:
            let database = String(history.split(separator: "/").last!)
            try HistoryStoreKind.psql("UPDATE coordlens_schema SET version = 99", database: database)
        }
        let second = try HistoryRecordings.write(HistoryRecordings.recording(run: "r2"), "r2.ndjson", in: folder)
        for arguments in [["history", "--history", history], ["history", "add", second, "--history", history], ["check", second, "--history", history]] {
            let refused = try coordlens(arguments, store)
            #expect(refused.status == 2, "\(arguments): \(refused.standardOutput)")
            #expect(
                refused.standardError.contains(
                    "the history has schema version 99, newer than the 3 this coordlens knows; use a newer coordlens (the history was left unchanged)"),
                "\(refused.standardError)")
        }
        switch store {
        case .sqlite:
            #expect(try Data(contentsOf: URL(fileURLWithPath: history)) == before)
        case .postgres:
            let database = String(history.split(separator: "/").last!)
            #expect(try HistoryStoreKind.psql("SELECT count(*) FROM runs", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            #expect(
                try HistoryStoreKind.psql("SELECT version FROM coordlens_schema", database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "99")
        }
    }

    /// The PostgreSQL password comes from the environment only and is never printed, not even when it is wrong or
    /// put in the address by mistake.
    @Test(.enabled(if: HistoryCommandTests.postgresReady))
    func postgresPasswordIsNeverPrinted() throws {
        let server = try #require(HistoryStoreKind.server)
        let folder = try HistoryRecordings.folder("history-secret")
        let history = try HistoryStoreKind.postgres.create(in: folder)
        let run = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)

        let wrong = "not-the-password-\(UUID())"
        let refused = try HistoryStoreKind.postgres.coordlens.run(
            ["history", "add", run, "--history", history], timeout: 60, environment: ["PGPASSWORD": wrong])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("cannot connect"), "\(refused.standardError)")
        #expect(refused.standardError.contains("password authentication failed"), "\(refused.standardError)")
        #expect(!refused.standardError.contains(wrong) && !refused.standardOutput.contains(wrong))

        let inAddress = history.replacingOccurrences(of: "coordlens@", with: "coordlens:\(server.password)@")
        let mistaken = try HistoryStoreKind.postgres.coordlens.run(["history", "--history", inAddress], timeout: 60)
        #expect(mistaken.status == 2)
        #expect(mistaken.standardError.contains("put the PostgreSQL password in the PGPASSWORD environment variable"), "\(mistaken.standardError)")
        #expect(!mistaken.standardError.contains(server.password) && !mistaken.standardOutput.contains(server.password))

        let stored = try HistoryStoreKind.postgres.coordlens.run(
            ["history", "add", run, "--history", history], timeout: 60, environment: ["PGPASSWORD": server.password])
        #expect(stored.status == 0, "\(stored.standardError)")
        #expect(!stored.standardOutput.contains(server.password) && !stored.standardError.contains(server.password))
    }

    /// A file that is not a SQLite database is bad input (exit 2) that names the file; the file is not touched.
    @Test func notADatabaseIsRefused() throws {
        let folder = try HistoryRecordings.folder("history-bad")
        let notDatabase = try HistoryRecordings.write(String(repeating: "not a database\n", count: 200), "history.sqlite", in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: notDatabase))
        let refused = try BuiltProduct.coordlens.run(["history", "--history", notDatabase], timeout: 60)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains(notDatabase), "\(refused.standardError)")
        #expect(refused.standardError.contains("not a database"), "\(refused.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: notDatabase)) == before)
    }

    /// Without `--history`, the store is `.coordlens/history.sqlite` in the working folder, created with its folder.
    @Test func defaultStoreIsInTheWorkingFolder() throws {
        let folder = try HistoryRecordings.folder("history-default")
        let run = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        let added = try BuiltProduct.coordlens.run(["history", "add", run], in: folder, timeout: 60)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".coordlens/history.sqlite").path))
        let again = try BuiltProduct.coordlens.run(["history", "add", run], in: folder, timeout: 60)
        #expect(again.standardOutput.contains("was already stored as #1; left as it is"), "\(again.standardOutput)")
        let listing = try BuiltProduct.coordlens.run(["history"], in: folder, timeout: 60)
        #expect(listing.standardOutput.hasPrefix("history .coordlens/history.sqlite: 1 run from "), "\(listing.standardOutput)")
    }
}

/// The default build has no PostgreSQL client (the `Postgres` trait is opt-in): it says so, and how to rebuild.
@Suite struct DefaultBuildHistoryTests {
    @Test func aDefaultBuildRefusesAPostgresHistoryWithTheWayToRebuild() throws {
        let version = try BuiltProduct.coordlens.run(["--version"], timeout: 60)
        #expect(version.status == 0)
        #expect(version.standardOutput.contains("PostgreSQL not built in (rebuild with --traits Postgres)"), "\(version.standardOutput)")
        #expect(version.standardOutput.hasPrefix("coordlens \(PackageVersion.current) "), "the one version: \(version.standardOutput)")
        let refused = try BuiltProduct.coordlens.run(["history", "--history", "postgres://coordlens@127.0.0.1:1/history"], timeout: 60)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("built without PostgreSQL support"), "\(refused.standardError)")
        #expect(refused.standardError.contains("--traits Postgres"), "\(refused.standardError)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["COORDLENS_POSTGRES_BIN_DIR"] != nil, "no Postgres-trait build named"))
    func thePostgresBuildSaysItHasPostgreSQL() throws {
        let version = try HistoryStoreKind.postgres.coordlens.run(["--version"], timeout: 60)
        #expect(version.standardOutput.contains("PostgreSQL built in"), "\(version.standardOutput)")
    }

    /// A history another process holds locked is waited for up to --busy-timeout, said after a second, then refused.
    @Test func aLockedHistoryIsWaitedForThenRefusedWithAClearError() throws {
        let folder = try HistoryRecordings.folder("history-locked")
        let history = folder.appendingPathComponent("history.sqlite").path
        let run = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        #expect(try BuiltProduct.coordlens.run(["history", "add", run, "--history", history], timeout: 60).status == 0)
        // Python's sqlite3 holds a write transaction while coordlens tries to add a second run, and lets go when told
        // (its standard input ends), once coordlens has given up.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); "
                + "print('locked', flush=True); sys.stdin.read(); c.execute('ROLLBACK')",
            history,
        ]
        let ready = Pipe()
        let release = Pipe()
        holder.standardOutput = ready
        holder.standardInput = release
        try holder.run()
        _ = ready.fileHandleForReading.availableData
        let second = try HistoryRecordings.write(HistoryRecordings.recording(run: "r2"), "r2.ndjson", in: folder)
        let refused = try BuiltProduct.coordlens.run(["history", "add", second, "--history", history, "--busy-timeout", "2"], timeout: 60)
        try release.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("is locked by another process; waiting up to 2 s"), "\(refused.standardError)")
        // The time it says it waited is the time it waited.
        let waited = refused.standardError.firstRange(of: /gave up after waiting (\d+\.\d) s \(--busy-timeout 2 s/).flatMap {
            Double(refused.standardError[$0].split(separator: " ")[4])
        }
        #expect(waited.map { (2.0...3.0).contains($0) } == true, "\(refused.standardError)")
        #expect(try BuiltProduct.coordlens.run(["history", "add", second, "--history", history], timeout: 60).status == 0, "free again")
    }

    /// A new history file another process holds locked while `coordlens` turns it to WAL mode: SQLite answers that
    /// statement "busy" at once, without waiting (how one of two processes creating a store at once lost its run);
    /// it is tried again within the busy timeout, and the run is stored once the other lets go.
    @Test func aStoreBeingCreatedByAnotherProcessIsWaitedForNotRefused() throws {
        let folder = try HistoryRecordings.folder("history-creating")
        let history = folder.appendingPathComponent("history.sqlite").path
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); "
                // clock: the lock must outlast coordlens's first try at WAL mode (answered busy at once) and end within its busy timeout.
                + "print('locked', flush=True); time.sleep(1.5); c.execute('ROLLBACK')",
            history,
        ]
        let ready = Pipe()
        holder.standardOutput = ready
        try holder.run()
        _ = ready.fileHandleForReading.availableData
        let run = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        let added = try BuiltProduct.coordlens.run(["history", "add", run, "--history", history, "--busy-timeout", "10"], timeout: 60)
        holder.waitUntilExit()
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("stored run r1"), "\(added.standardOutput)")
    }

    /// Two processes add a run each to a history file that does not exist yet, at the same moment: one creates the
    /// store, the other waits for it and adds its run; no run is lost, however the two interleave.
    @Test(.timeLimit(.minutes(2)))
    func twoProcessesCreatingOneHistoryAtOnceBothKeepTheirRun() async throws {
        let folder = try HistoryRecordings.folder("history-race")
        let first = try HistoryRecordings.write(HistoryRecordings.recording(run: "r1"), "r1.ndjson", in: folder)
        let second = try HistoryRecordings.write(HistoryRecordings.recording(run: "r2"), "r2.ndjson", in: folder)
        for trial in 0..<8 {
            let history = folder.appendingPathComponent("history-\(trial).sqlite").path
            async let one = BuiltProduct.coordlens.runAsync(["history", "add", first, "--history", history], timeout: 60)
            async let two = BuiltProduct.coordlens.runAsync(["history", "add", second, "--history", history], timeout: 60)
            let (a, b) = try await (one, two)
            #expect(a.status == 0 && b.status == 0, "trial \(trial): \(a.standardError) \(b.standardError)")
            let listing = try await BuiltProduct.coordlens.runAsync(["history", "--history", history, "--format", "json"], timeout: 60)
            #expect(listing.standardOutput.contains(#""runs" : 2,"#), "trial \(trial): both runs stored: \(listing.standardOutput)")
            if a.status != 0 || b.status != 0 { break }
        }
    }

    /// Names are stored and read back whole, NUL included: two types that differ after a NUL stay two fingerprints.
    @Test func namesWithANulRoundTripWhole() throws {
        let folder = try HistoryRecordings.folder("history-nul")
        let history = folder.appendingPathComponent("history.sqlite").path
        let run = try HistoryRecordings.write(
            HistoryRecordings.recording(run: "r1", extra: ["x\\u0000y", "x\\u0000z"]), "r1.ndjson", in: folder)
        #expect(try BuiltProduct.coordlens.run(["history", "add", run, "--history", history], timeout: 60).status == 0)
        let listing = try BuiltProduct.coordlens.run(["history", "--history", history, "--format", "json"], timeout: 60)
        #expect(listing.standardOutput.contains(#"AppCoordinator/x\u0000y (detached)"#), "\(listing.standardOutput)")
        #expect(listing.standardOutput.contains(#"AppCoordinator/x\u0000z (detached)"#), "\(listing.standardOutput)")
    }
}
