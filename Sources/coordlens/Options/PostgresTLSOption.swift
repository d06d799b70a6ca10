import ArgumentParser
import CoordinatorLensHistory

/// `--postgres-tls` and `--postgres-ca`: how a history on PostgreSQL is reached.
struct PostgresTLSOption: ParsableArguments {
    @Option(
        name: .customLong("postgres-tls"),
        help: ArgumentHelp(
            "TLS to a PostgreSQL history: disable, prefer (when the server offers it; the default, as libpq's) or require (the certificate checked).",
            valueName: "mode"))
    var mode: String?

    @Option(
        name: .customLong("postgres-ca"),
        help: ArgumentHelp("With --postgres-tls require: a PEM file of the certificate authorities to trust instead of the system's.", valueName: "file"))
    var certificateAuthorities: String?

    func validate() throws {
        if let mode, PostgresTLS(rawValue: mode) == nil {
            throw ValidationError("--postgres-tls must be disable, prefer or require, not \(mode)")
        }
    }

    /// `location` with these settings applied over the address's own (`?sslmode=`, `?sslrootcert=`).
    func applied(to location: HistoryLocation) -> HistoryLocation {
        guard case .postgres(var address) = location else { return location }
        if let mode = mode.flatMap(PostgresTLS.init(rawValue:)) { address.tls = mode }
        if let certificateAuthorities { address.certificateAuthorities = certificateAuthorities }
        return .postgres(address)
    }
}
