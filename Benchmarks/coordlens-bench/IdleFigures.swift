import CoordinatorTrace
import Foundation

/// The context switches of one of this process's threads so far (voluntary and not): each is a wake-up, however it
/// came about. Linux's /proc only; nil elsewhere.
private func contextSwitches(task: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").reduce(0) { total, line in
        guard line.contains("ctxt_switches:") else { return total }
        return total + (Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0)
    }
}

private func threadIDs() -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [])
}

/// How often an idle session's writer thread wakes: a session running, one coordinator alive, nothing happening for
/// five seconds. Counted by the kernel (the writer thread's context switches), so it sees every wake-up.
func idleWakeUps() {
    let before = threadIDs()
    let tracer = Tracer()
    tracer.start(app: "Idle", sink: MemorySink())
    let root = NSObject()
    tracer.added(root, to: nil)
    tracer.flush()
    guard let writer = threadIDs().subtracting(before).first, let first = contextSwitches(task: writer) else {
        print("idle hook: the writer thread's context switches are not readable here (/proc)")
        tracer.end()
        return
    }
    let seconds = 5.0
    Thread.sleep(forTimeInterval: seconds)
    let perSecond = Double((contextSwitches(task: writer) ?? first) - first) / seconds
    tracer.end()
    withExtendedLifetime(root) {}
    print(
        String(
            format: "idle hook: the writer thread woke %.1f times a second (context switches over %.0f s with a session running and nothing happening)  %@",
            perSecond, seconds, targetNote(perSecond, 2, "≤ 2 a second")))
}
