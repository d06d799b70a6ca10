import Foundation

/// Where a leak history lives: one SQLite file, or a PostgreSQL database that many CI machines share.
package enum HistoryLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file, created with its folder when missing.
    case sqlite(path: String)
    /// A PostgreSQL server; the password comes from the environment (`PGPASSWORD`), never from the address.
    case postgres(PostgresAddress)

    /// The file used when no `--history` is given.
    package static let defaultPath = ".coordlens/history.sqlite"

    /// Reads `--history`'s value: `postgres://` or `postgresql://` addresses are PostgreSQL, anything else a file path.
    /// `environment` supplies `PGUSER` and `PGPASSWORD`.
    package init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(HistoryError) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresAddress(text, environment: environment))
        } else {
            guard !text.isEmpty else { throw HistoryError("--history needs a file path or a postgres:// address") }
            self = .sqlite(path: text)
        }
    }

    /// The path or the address without credentials: safe to print in CI logs.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let address): address.description
        }
    }
}

/// How a history connection to PostgreSQL uses TLS (`--postgres-tls`, or the address's `?sslmode=`).
package enum PostgresTLS: String, Sendable, CaseIterable {
    /// Never: a loopback or private-network server.
    case disable
    /// When the server offers it, without checking its certificate (libpq's default): encrypted against listeners,
    /// not against a server that pretends.
    case prefer
    /// Always, and the server's certificate must be signed by a trusted authority (the system's, or
    /// `--postgres-ca FILE`) for the address's host: the connection fails otherwise.
    case require
}

/// A `postgres://user@host:port/database` address with the password taken from the environment.
package struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// The server's host name or IP literal.
    package var host: String
    /// The server's port; 5432 unless the address names one.
    package var port: Int
    /// The role to log in as: the address's user, else `PGUSER`, else `postgres`.
    package var user: String
    /// The database; the user's name when the address names none, as `psql` does.
    package var database: String
    /// `PGPASSWORD`, or nil for a server that asks for none; never printed.
    var password: String?
    /// Whether the connection is encrypted: the address's `?sslmode=`, else `prefer`, as libpq does.
    package var tls = PostgresTLS.prefer
    /// A PEM file of the certificate authorities `require` trusts (the address's `?sslrootcert=`); nil: the system's.
    package var certificateAuthorities: String?

    /// Parses `text`; an address that carries a password is refused, so that the secret never sits in a command line,
    /// a shell history or a CI log.
    package init(_ text: String, environment: [String: String]) throws(HistoryError) {
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            throw HistoryError("--history: \(Self.redacted(text)) is not a postgres://user@host:port/database address")
        }
        guard components.password == nil else {
            throw HistoryError(
                "--history: put the PostgreSQL password in the PGPASSWORD environment variable, not in the address (\(Self.redacted(text)))"
            )
        }
        self.host = host
        self.port = components.port ?? 5432
        let user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"] ?? "postgres"
        self.user = user
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? user : path
        self.password = environment["PGPASSWORD"]
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = PostgresTLS(rawValue: value) else {
                    throw HistoryError("--history: sslmode must be disable, prefer or require, not \(item.value ?? "nothing")")
                }
                tls = mode
            case "sslrootcert": certificateAuthorities = item.value
            default: throw HistoryError("--history: \(Self.redacted(text)) has a setting this coordlens does not know: \(item.name)")
            }
        }
    }

    /// `postgres://user@host:port/database`, never with a password.
    package var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// An address as typed, with anything between `://` and `@` dropped, for messages about an address that failed to
    /// parse.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex) else {
            return text
        }
        return String(text[..<scheme.upperBound]) + "…" + String(text[at.lowerBound...])
    }
}
