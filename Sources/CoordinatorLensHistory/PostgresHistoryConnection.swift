#if Postgres
import Logging
import NIOSSL
import PostgresNIO

/// A history on a PostgreSQL server that many CI machines share, through postgres-nio. Errors name the address
/// without its password.
struct PostgresHistoryConnection: HistoryConnection {
    let dialect = HistoryDialect.postgres
    let address: PostgresAddress
    private let connection: PostgresConnection
    private static let logger = Logger(label: "coordlens.history")

    /// Connects to `address` with its TLS setting; the password is the environment's.
    static func open(_ address: PostgresAddress) async throws(HistoryError) -> PostgresHistoryConnection {
        let configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: try tls(for: address)
        )
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            return PostgresHistoryConnection(address: address, connection: connection)
        } catch {
            throw HistoryError("\(address): cannot connect: \(Self.explain(error))")
        }
    }

    private static func tls(for address: PostgresAddress) throws(HistoryError) -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch address.tls {
        case .disable: return .disable
        case .prefer: configuration.certificateVerification = .none
        case .require:
            configuration.certificateVerification = .fullVerification
            if let file = address.certificateAuthorities { configuration.trustRoots = .file(file) }
        }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return address.tls == .require ? .require(context) : .prefer(context)
        } catch {
            throw HistoryError("\(address): cannot set up TLS: \(error)\(address.certificateAuthorities.map { " (certificate authorities from \($0))" } ?? "")")
        }
    }

    func rows(_ sql: String, _ binds: [HistoryValue]) async throws(HistoryError) -> [[HistoryValue]] {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .integer(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .null: bindings.appendNull()
            }
        }
        guard !connection.isClosed else { throw HistoryError("\(address): the connection to the server is closed", connectionLost: true) }
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Self.logger).collect()
            return try rows.map { row in
                try row.map { cell -> HistoryValue in
                    guard cell.bytes != nil else { return .null }
                    switch cell.dataType {
                    case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
                    default: return .text(try cell.decode(String.self))
                    }
                }
            }
        } catch {
            throw HistoryError("\(address): \(Self.explain(error))", connectionLost: connection.isClosed || Self.endsTheSession(error))
        }
    }

    /// Closes the connection, waiting at most 2 s: one the server just ended may never confirm its close, and
    /// `coordlens` must not wait forever for it.
    func close() async {
        guard !connection.isClosed else { return }
        let connection = connection
        Task { try? await connection.close() }
        for _ in 0..<200 where !connection.isClosed {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Whether the server ended the session (SQLSTATE class 57, operator intervention, as on a shutdown) or the
    /// connection failed (class 08): the session, and its transaction, are gone.
    private static func endsTheSession(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("57") || state.hasPrefix("08") }
        return error.code == .serverClosedConnection || error.code == .connectionError || error.code == .uncleanShutdown
    }

    /// The server's own message when there is one (PSQLError's description hides it on purpose).
    private static func explain(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
#endif
