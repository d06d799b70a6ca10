import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import NIOConcurrencyHelpers

/// Which status line each run last printed: the refresher prints a run's line when its text changes, so lines come
/// in the order the runs changed and once per change (an end and the disconnect after it print one line).
final class StatusBoard: Sendable {
    private let printed = NIOLockedValueBox([String: String]())
    private let outputDirectory: String?

    init(outputDirectory: String?) {
        self.outputDirectory = outputDirectory
    }

    /// The line to print for `live`, or nil when its run last printed the same one.
    func line(for live: LiveSnapshot) -> String? {
        let line = Self.describe(live, outputDirectory: outputDirectory)
        return printed.withLockedValue { printed in
            guard printed[live.snapshot.run] != line else { return nil }
            printed[live.snapshot.run] = line
            return line
        }
    }

    /// Forgets runs no longer held in memory.
    func retainOnly(_ runs: Set<String>) {
        printed.withLockedValue { printed in printed = printed.filter { runs.contains($0.key) } }
    }

    /// The status, and with `--out` where its picture goes (the render queue writes it next; a failure or a slow
    /// drawing gets a line of its own).
    static func describe(_ live: LiveSnapshot, outputDirectory: String?) -> String {
        var line = StatusLine.describe(live)
        guard let outputDirectory else { return line }
        let snapshot = live.snapshot
        let cap = DOTEscaping.maximumLabelCharacters
        let cut = ([snapshot.app, snapshot.run] + snapshot.nodes.flatMap { [$0.type, $0.screen ?? "", $0.reason ?? ""] })
            .filter { $0.utf8.count > cap && $0.count > cap }.count
        if cut > 0 { line += ", \(cut) names cut to \(cap) characters in the picture" }
        return line + " → " + RenderQueue.picturePath(for: snapshot.run, in: outputDirectory)
    }
}
