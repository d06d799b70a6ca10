import CoordinatorWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a long render or check is doing, on standard error while it is a terminal: nothing for the first second (a
/// quick command prints no progress), then one line rewritten in place (`coordlens: drawing 100,000 coordinators ·
/// 3.5 s`) until the command finishes and clears it. Pipes and files never get it, so CI logs and redirected output
/// stay clean.
final class TerminalProgress: Sendable {
    private struct State {
        var stage: String
        var finished = false
        /// Seconds since the start when the line was last written; nil before the first.
        var lastShown: Double?
    }

    private static let firstAfter = 1.0
    private static let every = 0.25

    private let box: ConditionBox<State>?

    /// Starts at `stage`; reports only when standard error is a terminal (`COORDLENS_PROGRESS=0` turns it off).
    init(_ stage: String) {
        let wanted = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["COORDLENS_PROGRESS"] != "0"
        box = wanted ? ConditionBox(State(stage: stage)) : nil
        guard let box else { return }
        let started = Date()
        let thread = JobThread(name: "coordlens-progress")
        thread.enqueue {
            // Written with the box held, so `finish` can never clear the line before a late write puts it back.
            box.wait { state -> ConditionBox<State>.Look<Void> in
                if state.finished { return .found(()) }
                let elapsed = Date().timeIntervalSince(started)
                let due = state.lastShown.map { $0 + Self.every } ?? Self.firstAfter
                if elapsed >= due {
                    state.lastShown = elapsed
                    FileHandle.standardError.write(Data("\r\u{1B}[Kcoordlens: \(state.stage) · \(String(format: "%.1f", elapsed)) s".utf8))
                }
                return .waiting(nanoseconds: UInt64(max(0.01, (state.lastShown.map { $0 + Self.every } ?? Self.firstAfter) - elapsed) * 1e9))
            }
        }
        thread.stop()
    }

    /// The command moved on to `stage` (`drawing 100,000 coordinators`).
    func stage(_ stage: String) {
        box?.withLockedValue { $0.stage = stage }
    }

    /// Done: the line, if one was shown, is cleared, so the command's own output starts on a clean line.
    func finish() {
        guard let box else { return }
        box.withLockedValue { state in
            state.finished = true
            if state.lastShown != nil { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
    }
}
