import ArgumentParser
import CoordinatorLens
import CoordinatorLensHistory
import CoordinatorWire
import Foundation

/// `coordlens`: the command line over the inspector core and the renderer.
@main
struct Coordlens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordlens",
        abstract: "See your app's coordinator tree and catch coordinators that outlive their screens.",
        version: versionText,
        subcommands: [
            RenderCommand.self, CheckCommand.self, ListenCommand.self, ViewCommand.self, DiffCommand.self, GrowthCommand.self,
            HistoryCommand.self, BaselineCommand.self,
        ]
    )

    /// The subcommands' names, as typed.
    static var subcommandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// What `--version` prints: the release, and which leak-history stores this build reaches.
    static var versionText: String {
        let postgres =
            HistoryStore.postgresBuiltIn
            ? "PostgreSQL built in" : "PostgreSQL not built in (rebuild with --traits Postgres)"
        return "coordlens \(PackageVersion.current) (leak history: SQLite; \(postgres))"
    }

    /// Runs the command; bad usage exits 2 (not ArgumentParser's 64) so CI can tell it from a found leak (1).
    static func main() async {
        if let unknown = UnknownSubcommand(arguments: Array(CommandLine.arguments.dropFirst()), known: subcommandNames) {
            FileHandle.standardError.write(Data((unknown.message + "\n").utf8))
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(NegativeNumbers.joined(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(2)
        }
    }
}

/// Bad usage or unreadable input the user can act on: printed as `Error: <message>`, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A result that could not be drawn or written (Graphviz failed, the output file is not writable): exit status 2.
struct OutputFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The note `check` gives a recording that stops without its `end`, for the commands that only print warnings.
enum StoppedWithoutEnd {
    /// The note as a warning without a line, when `snapshot` is the end of a recording that never ended; else none.
    static func note(_ snapshot: Snapshot, atEnd: Bool) -> [Diagnostic] {
        guard atEnd, !snapshot.ended else { return [] }
        return SessionCheck(source: "", snapshot: snapshot, atEnd: true).stoppedWithoutEnd.map { [Diagnostic(line: 0, message: $0)] } ?? []
    }
}

/// Prints a session's warnings to standard error as `source:line: message` (`source: message` without a line), the
/// form editors and CI logs link to.
enum WarningPrinter {
    static func print(_ warnings: [Diagnostic], source: String) {
        for warning in warnings {
            let place = warning.line > 0 ? "\(source):\(warning.line)" : source
            FileHandle.standardError.write(Data("\(place): \(TextSanitizer.visible(warning.message))\n".utf8))
        }
    }
}
