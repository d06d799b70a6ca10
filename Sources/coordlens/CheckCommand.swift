import ArgumentParser
import CoordinatorLens
import Foundation

/// `coordlens check`: the verdicts, for people and for CI (exit 1 when anything is retained).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report retained coordinators; exit 0 when none, 1 when some, 2 on bad usage or input."
    )

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input.")
    var files: [String]

    @Option(help: "text or json.")
    var format: ReportFormat = .text

    @OptionGroup var point: SnapshotOptions

    func run() throws {
        let sessions = try point.select(try RecordingInput.read(files, limits: point.limits))
        let snapshots = try sessions.map { (source: $0.source, snapshot: try point.snapshot(of: $0)) }
        let retained = snapshots.reduce(0) { $0 + $1.snapshot.retained.count }
        switch format {
        case .text:
            var blocks = snapshots.map { LeakReport.text(for: $0.snapshot, source: $0.source) }
            let sessionWord = snapshots.count == 1 ? "session" : "sessions"
            blocks.append("\(retained) retained in \(snapshots.count) \(sessionWord)")
            print(blocks.joined(separator: "\n\n"))
        case .json:
            print(CheckJSON.encode(snapshots.map(\.snapshot), grace: point.grace, retained: retained))
        }
        if retained > 0 { throw ExitCode(1) }
    }
}

/// The exact JSON `check --format json` prints, keys in the documented order (Foundation's encoder does not keep it).
enum CheckJSON {
    static func encode(_ snapshots: [Snapshot], grace: Double, retained: Int) -> String {
        var out = "{\"grace\":\(number(grace)),\"sessions\":["
        out += snapshots.map(session).joined(separator: ",")
        out += "],\"retained\":\(retained)}"
        return out
    }

    private static func session(_ snapshot: Snapshot) -> String {
        var out = "{\"app\":\(quote(snapshot.app)),\"run\":\(quote(snapshot.run)),\"evaluatedAt\":\(number(snapshot.evaluatedAt)),"
        out += "\"coordinators\":[" + snapshot.nodes.map(coordinator).joined(separator: ",") + "],"
        out += "\"warnings\":[" + snapshot.warnings.map { "{\"line\":\($0.line),\"message\":\(quote($0.message))}" }.joined(separator: ",") + "]}"
        return out
    }

    private static func coordinator(_ node: SnapshotNode) -> String {
        "{\"id\":\(node.id),\"type\":\(quote(node.type)),\"parent\":\(node.parent.map(String.init) ?? "null"),"
            + "\"verdict\":\"\(node.verdict.rawValue)\",\"reason\":\(node.reason.map(quote) ?? "null")}"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
