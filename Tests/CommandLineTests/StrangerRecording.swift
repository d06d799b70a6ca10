import CoordinatorTrace
import Foundation

/// The Stranger app's leaking run recorded to a file through the real hook, on a thread of its own: `end()` waits out
/// the grace period, which must not hold a thread of the cooperative pool that other tests need.
enum StrangerRecording {
    /// The recording's path; the run has ended, so the app's later deallocation adds nothing to it.
    static func file(grace: Double = 0.3) async throws -> String {
        let path = try Streams.file("")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                let tracer = Tracer()
                tracer.start(app: "Stranger", sink: .file(path), options: TraceOptions(grace: grace))
                withExtendedLifetime(StrangerApp.runAndQuit(tracer: tracer)) {}
                done.resume()
            }.start()
        }
        return path
    }
}
