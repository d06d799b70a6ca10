import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The live inspector: accepts hook connections, keeps every session's tree, re-renders and reports as they change.
///
/// Its threads are `ServerExecutors`' (an event loop reads hook connections into `sessions`, another serves the page,
/// a pool does the blocking work and carries the judging lane), with the recorder's and the render queue's when `--record` and
/// `--out` ask for them. `refresh` only judges the sessions that changed, in the judging lane, and hands them to
/// the render queue.
package final class InspectorServer: Sendable {
    /// The options it was made with; they do not change while it runs.
    package let options: ListenOptions
    /// Every session held in memory.
    package let sessions: LiveSessions
    private let log: @Sendable (String) -> Void
    private let executors = ServerExecutors()
    private let renders: RenderQueue
    private let statusBoard: StatusBoard
    private let gate: ConnectionGate
    private let descriptors: DescriptorBudget
    /// Connections turned away (wrong tokens, page slots), said one status line per few seconds.
    private let refusals: RefusalSummary
    /// What `start` sets up and `stop` takes down: set by one task, read by the refresher's and by tests.
    private struct Running {
        var channel: (any Channel)?
        var recorder: StreamRecorder?
        var page: PageServer?
        var pagePort: Int?
        var stopped = false
    }

    private let running = NIOLockedValueBox(Running())
    /// The page's feed, for tests that watch its clients.
    var pageFeed: PageFeed? { running.withLockedValue { $0.page?.feed } }
    /// The port the inspector page is served on once `start()` returned; nil when `httpPort` is nil.
    package var pagePort: Int? { running.withLockedValue { $0.pagePort } }
    private var recorder: StreamRecorder? { running.withLockedValue { $0.recorder } }
    private var page: PageServer? { running.withLockedValue { $0.page } }

    /// A server that listens only once `start()` is called; `log` receives every status line.
    package init(options: ListenOptions, log: @escaping @Sendable (String) -> Void) {
        LiveSessions.limitAllocatorArenas()
        LiveSessions.mapLargeBlocksApart()
        self.options = options
        self.log = log
        sessions = LiveSessions(
            maxKeptMalformed: options.maxKeptMalformed, maxSessions: options.maxSessions, maxHistoryEvents: options.maxHistoryEvents,
            maxCoordinators: options.maxCoordinators, aliveLimits: options.aliveLimits, grace: options.grace
        )
        renders = RenderQueue(options: options, log: log)
        statusBoard = StatusBoard(outputDirectory: options.outputDirectory)
        descriptors = DescriptorBudget.current(
            reserved: options.reservedDescriptors, hookLimit: options.maxConnections, pageLimit: options.page.maxConnections,
            servesPage: options.httpPort != nil
        )
        refusals = RefusalSummary(timers: executors.hookLoops.next(), log: log)
        // With a token, connections that have not shown it wait in a share of their own, as on the page port, so
        // silent ones cannot take every place from the app that has it.
        let hookLimit = descriptors.hookConnections
        gate = ConnectionGate(
            limit: hookLimit, waitingLimit: options.token == nil ? nil : PageGate.waitingShare(of: hookLimit), summary: refusals, log: log)
    }

    /// Binds and starts accepting; returns the port actually bound.
    package func start() async throws -> Int {
        if let directory = options.outputDirectory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let acknowledged = AcknowledgedSeqs()
        let recorder = try options.recordPath.map {
            try StreamRecorder(path: $0, bufferBytes: options.recordBufferBytes, acknowledged: acknowledged)
        }
        running.withLockedValue { $0.recorder = recorder }
        if let recorder, let path = options.recordPath, recorder.existingBytes > 0 {
            log(
                "recording: appending to \(TextSanitizer.visible(path)), which already holds \(NumberText.grouped(recorder.existingBytes)) bytes; earlier runs stay, and a run that continues reads as one session"
            )
        }
        let page = options.httpPort.map { _ in
            PageServer(
                sessions: self.sessions, grace: options.grace, paths: options.sourcePaths, editorURL: options.editorURL,
                context: options.leakContext, token: options.token, limits: options.page, connectionLimit: self.descriptors.pageConnections,
                executors: self.executors, summary: self.refusals, log: self.log
            )
        }
        running.withLockedValue { $0.page = page }
        let feed = page?.feed
        let (sessions, gate, log, token, refusals) = (self.sessions, self.gate, self.log, options.token, self.refusals)
        let (maxLineBytes, hookIdleTimeout) = (options.maxLineBytes, options.hookIdleTimeout)
        let changed: @Sendable () -> Void = {
            gate.noteRead()
            feed?.changed()
        }
        let bootstrap = ServerBootstrap(group: executors.hookLoops)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                // Out of file descriptors, accept fails at once on every try: pause instead of spinning.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPauseHandler())
                    try channel.pipeline.syncOperations.addHandler(AcceptFailureHandler(gate: gate))
                }
            }
            .childChannelInitializer { channel in
                guard let number = gate.admit(channel) else {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler())
                    }
                }
                channel.closeFuture.whenComplete { _ in gate.release(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        LineDeadlineHandler(timeout: hookIdleTimeout, name: "connection-\(number)", log: log)
                    )
                    try channel.pipeline.syncOperations.addHandler(HookTokenGate(token: token, gate: gate, summary: refusals, log: log))
                    try channel.pipeline.syncOperations.addHandler(
                        HookConnectionHandler(
                            name: "connection-\(number)", sessions: sessions, recorder: recorder, maxLineBytes: maxLineBytes,
                            acknowledged: acknowledged, changed: changed, log: log
                        ))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: options.host, port: options.port).get()
            running.withLockedValue { $0.channel = channel }
        } catch {
            _ = recorder?.close(by: Date())
            throw ListenError.binding("listen", host: options.host, port: options.port, flag: "--port", error)
        }
        if let page, let httpPort = options.httpPort {
            do {
                let pagePort = try await page.start(host: options.host, port: httpPort)
                running.withLockedValue { $0.pagePort = pagePort }
            } catch {
                try? await channel.close()
                _ = recorder?.close(by: Date())
                var failure = ListenError.binding("serve the inspector page", host: options.host, port: httpPort, flag: "--http-port", error)
                failure.message += " (--no-http turns the page off)"
                throw failure
            }
        }
        return channel.localAddress?.port ?? options.port
    }

    /// Refreshes every `refreshInterval` until the task is cancelled or, when given, `endedSessions` sessions have
    /// ended and disconnected; then stops. Cancelled, it stops within about 2 s; otherwise it draws every last picture.
    /// The clock is an event loop's timer and the work runs in the judging lane, so no thread waits between passes.
    package func run(untilEnded endedSessions: Int? = nil) async {
        // The page loop keeps the clock, as it keeps every other: measured with this timer on the hook loop, a listen
        // out of descriptors spent 0.4 CPU seconds a second in the hook port's accept loop despite its backoff.
        let ended = executors.pageLoops.next().makePromise(of: Void.self)
        let passing = NIOLockedValueBox((queued: false, lastCompaction: Date.distantPast))
        let interval = TimeAmount.nanoseconds(Int64(options.refreshInterval * 1e9))
        let timer = executors.pageLoops.next().scheduleRepeatedTask(initialDelay: .zero, delay: interval) { [self] _ in
            // A pass that takes longer than the interval is not queued again behind itself.
            guard
                passing.withLockedValue({ state in
                    defer { state.queued = true }
                    return !state.queued
                })
            else { return }
            executors.judging.submit { [self] in
                let compact = passing.withLockedValue { state in
                    state.queued = false
                    guard Date().timeIntervalSince(state.lastCompaction) >= 1 else { return false }
                    state.lastCompaction = Date()
                    return true
                }
                pass(compacting: compact)
                if let endedSessions, sessions.finishedCount >= endedSessions { ended.succeed(()) }
            }
        }
        await withTaskCancellationHandler {
            try? await ended.futureResult.get()
        } onCancel: {
            ended.succeed(())
        }
        timer.cancel()
        await stop(drawingBy: Task.isCancelled ? Date(timeIntervalSinceNow: 1.5) : .distantFuture)
    }

    private func pass(compacting: Bool) {
        refresh()
        evictIdleSessions()
        reportRecordingProblems()
        if compacting {
            // Finished sessions give up their lists of events for a compact form, without holding up the next pass.
            let sessions = self.sessions
            ServerExecutors.run(on: executors.blocking) { sessions.compactFinished() }
        }
    }

    /// Calls `handler` at each SIGINT or SIGTERM until the server stops (then they take their default action again).
    package func onInterrupt(_ handler: @escaping @Sendable () -> Void) async throws {
        try await executors.onInterrupt(handler)
    }

    /// One pass: judges the sessions that changed (or whose pending coordinators may have turned retained) and queues
    /// their pictures and status lines; returns what it judged. A big live tree judged a moment ago rests (`resting`,
    /// `SessionTable.restFactor`) unless the server is stopping.
    @discardableResult
    package func refresh(now: Date? = nil, resting: Bool = true) -> [LiveSnapshot] {
        let changed = sessions.changes(now: now, resting: resting)
        for live in changed {
            if let line = statusBoard.line(for: live) { log(line) }
            if options.outputDirectory != nil { renders.submit(live) }
        }
        page?.feed.push(changed)
        return changed
    }

    /// Stops accepting, closes every connection, writes out the recording, then waits for the pictures until
    /// `deadline` (a render in progress is not interrupted, and pictures are written whole or not at all).
    package func stop(drawingBy deadline: Date = .distantFuture) async {
        let stopping = running.withLockedValue { running -> Running? in
            guard !running.stopped else { return nil }
            defer { (running.stopped, running.channel) = (true, nil) }
            return running
        }
        guard let stopping else { return }
        let (recorder, page) = (stopping.recorder, stopping.page)
        let started = Date()
        try? await stopping.channel?.close()
        // What hooks already sent is read and kept first, and hooks that asked are told what was kept, so they can
        // resend the rest to the next `listen` (docs/PROTOCOL.md).
        await gate.drain(by: started.addingTimeInterval(1))
        if let recorder { _ = await executors.onBlockingPool { recorder.flush(by: started.addingTimeInterval(1.5)) } }
        await gate.acknowledgeAll()
        await page?.stop()
        await gate.closeAll()
        refusals.flush()
        if let recorder {
            let flushed = await executors.onBlockingPool { recorder.close(by: started.addingTimeInterval(2)) }
            if !flushed { log("recording: the disk did not take everything within 2 s; the rest is lost") }
            reportRecordingProblems()
        }
        // The last pass runs where every other does: a pass the timer queued before is done first.
        _ = await executors.judged { self.refresh(resting: false) }
        let renders = self.renders
        if await !executors.onBlockingPool({ renders.drain(by: deadline) }) {
            log("stopped before every picture was drawn")
        }
        renders.stop()
        await executors.shutdown()
    }

    private func evictIdleSessions() {
        // A run whose last picture is not written yet stays until it is, so "its picture stays on disk" is true when said.
        let idle = sessions.evict(idleFor: options.evictAfter, sparing: renders.unfinished())
        for header in idle {
            log(
                "\(StatusLine.name(app: header.app, run: header.run)) evicted from memory after \(Seconds(options.evictAfter)) without a connection; its recording and picture stay on disk"
            )
        }
        let crowded = sessions.takeEvictedForRoom()
        for header in crowded {
            log(
                "\(StatusLine.name(app: header.app, run: header.run)) evicted from memory to make room: \(options.maxSessions) sessions held; its recording and picture stay on disk"
            )
        }
        if !idle.isEmpty || !crowded.isEmpty {
            let runs = Set(sessions.runs)
            renders.retainOnly(runs)
            statusBoard.retainOnly(runs)
            page?.forget(Set(idle.map(\.run) + crowded.map(\.run)))
            // What the evicted sessions held goes back to the system, not only to the allocator.
            ServerExecutors.run(on: executors.blocking) { LiveSessions.returnFreedMemory() }
        }
    }

    private func reportRecordingProblems() {
        guard let (dropped, failure, resumed) = recorder?.takeProblems() else { return }
        if dropped > 0 {
            log(
                "recording: \(dropped) lines dropped, the disk could not keep up (a gap line in the recording says how many; hooks that ask for acknowledgements count them dropped)"
            )
        }
        if let failure { log(TextSanitizer.visible(failure)) }
        if let resumed { log(resumed) }
    }
}
