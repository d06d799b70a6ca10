import Foundation
import TestSupport
import Testing

/// TLS to a PostgreSQL history, against the test server's self-signed certificate (`make test` starts the server with
/// TLS on and names the certificate in COORDLENS_TEST_POSTGRES_CA): `require` checks the certificate, so it connects
/// with that certificate as the authority and fails with any other; `prefer` and `disable` connect.
@Suite(.serialized, .enabled(if: HistoryStoreKind.server != nil && ProcessInfo.processInfo.environment["COORDLENS_TEST_POSTGRES_CA"] != nil))
struct HistoryTLSTests {
    private let store = HistoryStoreKind.postgres
    private var authority: String { ProcessInfo.processInfo.environment["COORDLENS_TEST_POSTGRES_CA"]! }

    private func list(_ history: String, _ extra: [String]) throws -> ProcessRun {
        try store.coordlens.run(["history", "--history", history, "--format", "json"] + extra, timeout: 60, environment: store.environment)
    }

    /// A certificate of its own, for an authority the server's certificate was not signed by.
    private func strangerAuthority(in folder: URL) throws -> String {
        let certificate = folder.appendingPathComponent("stranger.crt").path
        let made = try ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=stranger",
                "-keyout", folder.appendingPathComponent("stranger.key").path, "-out", certificate,
            ], timeout: 60)
        #expect(made.status == 0, "\(made.standardError)")
        return certificate
    }

    @Test func requireChecksTheCertificateAndTheOtherModesConnect() throws {
        let folder = try HistoryRecordings.folder("history-tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = try store.create(in: folder)

        let verified = try list(history, ["--postgres-tls", "require", "--postgres-ca", authority])
        #expect(verified.status == 0, "with the server's certificate as the authority: \(verified.standardError)")

        let stranger = try list(history, ["--postgres-tls", "require", "--postgres-ca", try strangerAuthority(in: folder)])
        #expect(stranger.status == 2)
        #expect(stranger.standardError.contains("cannot connect"), "\(stranger.standardError)")
        #expect(stranger.standardError.lowercased().contains("certificate"), "says why: \(stranger.standardError)")

        let systemRoots = try list(history, ["--postgres-tls", "require"])
        #expect(systemRoots.status == 2, "a self-signed certificate is no system authority's: \(systemRoots.standardOutput)")

        for mode in ["prefer", "disable"] {
            let run = try list(history, ["--postgres-tls", mode])
            #expect(run.status == 0, "\(mode): \(run.standardError)")
        }
        let inAddress = try list(history + "?sslmode=require&sslrootcert=" + authority, [])
        #expect(inAddress.status == 0, "libpq's settings in the address: \(inAddress.standardError)")
    }

    @Test func anUnknownModeIsAUsageError() throws {
        let run = try list("postgres://nobody@127.0.0.1:1/none", ["--postgres-tls", "always"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--postgres-tls must be disable, prefer or require, not always"), "\(run.standardError)")
        let address = try list("postgres://nobody@127.0.0.1:1/none?sslmode=maybe", [])
        #expect(address.status == 2)
        #expect(address.standardError.contains("sslmode must be disable, prefer or require, not maybe"), "\(address.standardError)")
    }
}
