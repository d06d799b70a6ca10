import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import NIOCore
import NIOPosix

/// How `coordlens listen` runs.
public struct ListenOptions: Sendable {
    /// The address to bind; loopback unless the user asks for more.
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 7420
    /// Where `<run>.svg` files are written; nil renders nothing.
    public var outputDirectory: String?
    /// Where the raw stream is recorded; nil records nothing.
    public var recordPath: String?
    /// Seconds a done coordinator may take to deinit before it counts as retained.
    public var grace = VerdictRules.defaultGrace
    /// Whether the SVGs draw released and late coordinators too, not only as ancestors of live ones.
    public var showReleased = false
    /// How often trees are checked for changes; renders and status lines are coalesced to this pace.
    public var refreshInterval = 0.25

    /// 127.0.0.1:7420, nothing rendered or recorded, the default grace, a refresh every 0.25 s.
    public init() {}
}

/// The live inspector: accepts hook connections, keeps every session's tree, re-renders and reports as they change.
public final class InspectorServer: @unchecked Sendable {
    /// The options it was made with; they do not change while it runs.
    public let options: ListenOptions
    /// Every session heard from so far.
    public let sessions = LiveSessions()
    private let log: @Sendable (String) -> Void
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: (any Channel)?
    private var recorder: StreamRecorder?
    private let refreshLock = NSLock()
    private var rendered: [String: RenderState] = [:]

    private struct RenderState: Equatable {
        var version: Int
        var counts: [Verdict: Int]
        var connected: Bool
    }

    /// A server that listens only once `start()` is called; `log` receives every status line.
    public init(options: ListenOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
    }

    /// Binds and starts accepting; returns the port actually bound.
    public func start() throws -> Int {
        if let directory = options.outputDirectory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let recorder = try options.recordPath.map { try StreamRecorder(path: $0) }
        self.recorder = recorder
        let sessions = self.sessions
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        HookConnectionHandler(sessions: sessions, recorder: recorder)
                    )
                }
            }
        do {
            let channel = try bootstrap.bind(host: options.host, port: options.port).wait()
            self.channel = channel
            return channel.localAddress?.port ?? options.port
        } catch {
            throw ListenError(message: "cannot listen on \(options.host):\(options.port): \(error)")
        }
    }

    /// Refreshes every `refreshInterval` until the task is cancelled or, when given, `endedSessions` sessions have
    /// ended and disconnected; then a last pass, so a coordinator that just turned retained is drawn, and stops.
    public func run(untilEnded endedSessions: Int? = nil) async {
        while !Task.isCancelled {
            let live = refresh()
            if let endedSessions, live.filter({ $0.snapshot.ended && !$0.connected }).count >= endedSessions { break }
            try? await Task.sleep(nanoseconds: UInt64(options.refreshInterval * 1e9))
        }
        refresh()
        stop()
    }

    /// One pass: judge every session now; for each whose tree or verdicts changed, re-render it and print its status.
    @discardableResult
    public func refresh(now: Date = Date()) -> [LiveSnapshot] {
        refreshLock.lock()
        defer { refreshLock.unlock() }
        let live = sessions.snapshots(grace: options.grace, now: now)
        for session in live {
            let state = RenderState(version: session.version, counts: session.snapshot.counts, connected: session.connected)
            guard rendered[session.snapshot.run] != state else { continue }
            rendered[session.snapshot.run] = state
            var status = StatusLine.describe(session)
            if let directory = options.outputDirectory {
                let path = (directory as NSString).appendingPathComponent(FileName.safe(session.snapshot.run) + ".svg")
                do {
                    let svg = try SnapshotRenderer.render(
                        session.snapshot, format: .svg, options: RenderOptions(showReleased: options.showReleased)
                    )
                    try Data(svg).write(to: URL(fileURLWithPath: path), options: .atomic)
                    status += " → \(path)"
                } catch {
                    status += " (render failed: \(error))"
                }
            }
            log(status)
        }
        return live
    }

    /// Stops accepting and closes the recording.
    public func stop() {
        try? channel?.close().wait()
        channel = nil
        recorder?.close()
        try? group.syncShutdownGracefully()
    }
}
