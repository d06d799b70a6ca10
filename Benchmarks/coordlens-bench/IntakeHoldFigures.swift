import CoordinatorLens
@_spi(Locking) import CoordinatorWire
import Foundation

// The trait, not canImport: a server module left in the build folder from another build would import but not link.
#if Tools
import CoordinatorLensServer

/// How long applying one line holds the live server's session table while the refresher judges the growing tree, as
/// `listen` does under a flood: every line a hook sends waits that long. One thread applies 1,000,000 adds under one
/// root (the hook event loop's part) while another takes the changed sessions and judges them, with resting off, so
/// a judgement follows every change it can; each apply is timed in the applying thread's CPU time.
func intakeHold() {
    let count = 1_000_000
    let sessions = LiveSessions()
    let run = "hold"
    _ = sessions.open(SessionHeader(app: "Bench", run: run))
    let records = (0..<count).map { index in
        EventRecord(
            seq: index + 1, time: Double(index) * 1e-5,
            event: .add(id: CoordinatorID(index + 1), type: "Screen", parent: index == 0 ? nil : 1), line: index + 2)
    }
    // Whether the flood is over, and the judgements made once the judging thread saw it.
    let judging = LockedBox((over: false, judgements: -1))
    let judge = Thread {
        var judgements = 0
        while !judging.withLock({ $0.over }) {
            judgements += sessions.changes(resting: false).count
        }
        judging.withLock { $0.judgements = judgements }
    }
    judge.start()
    var holds = [Double]()
    holds.reserveCapacity(count)
    let started = nanos()
    for record in records {
        let start = nanos()
        sessions.apply(record, run: run)
        holds.append(Double(nanos() - start))
    }
    let total = Double(nanos() - started)
    judging.withLock { $0.over = true }
    var judgements = -1
    while judgements < 0 {
        usleep(1_000)
        judgements = judging.withLock { $0.judgements }
    }
    let sorted = holds.sorted()
    print(
        String(
            format:
                "hook event loop's hold of the session table, 1,000,000 adds while %d judgements ran beside: median %.0f ns, p99.9 %.1f µs, longest %.2f ms; %.2f s in all  [target: longest ≤ 1 ms]",
            judgements, sorted[count / 2], sorted[count * 999 / 1000] / 1e3, sorted[count - 1] / 1e6, total / 1e9))
}
#else
/// bench-check's build has no server (the `Tools` trait off): the figure says so.
func intakeHold() {
    print("intake hold: not measured, this build has no CoordinatorLensServer (the Tools trait is off)")
}
#endif
