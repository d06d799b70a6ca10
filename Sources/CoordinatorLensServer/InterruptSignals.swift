import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM as events on an event loop: the signal handler writes a byte to a pipe whose read end is a NIO
/// channel, so no thread (not even Dispatch's manager thread, which a signal source needs) waits for a signal.
final class InterruptSignals: Sendable {
    private let channel: any Channel
    private let writeEnd: Int32

    private init(channel: any Channel, writeEnd: Int32) {
        self.channel = channel
        self.writeEnd = writeEnd
    }

    /// Calls `handler` on `loop` each time the process gets SIGINT or SIGTERM, until `stop()`.
    static func watch(on loop: any EventLoop, _ handler: @escaping @Sendable () -> Void) async throws -> InterruptSignals {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw InterruptSignalsFailure(message: "pipe: \(String(cString: strerror(errno)))") }
        // The handler must never block: a full pipe already says that a signal came.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let channel: any Channel
        do {
            channel = try await NIOPipeBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(SignalByteHandler(handler)) }
                }
                .takingOwnershipOfDescriptor(input: ends[0])
                .get()
        } catch {
            _ = close(ends[0])
            _ = close(ends[1])
            throw error
        }
        signalPipe = ends[1]
        for number in [SIGINT, SIGTERM] { _ = signal(number, onSignal) }
        // A process started from a thread that blocks them inherits the mask on every thread: the loop's thread takes
        // them, whatever the others block.
        try? await loop.submit {
            var wanted = sigset_t()
            sigemptyset(&wanted)
            for number in [SIGINT, SIGTERM] { sigaddset(&wanted, number) }
            _ = pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
        }.get()
        return InterruptSignals(channel: channel, writeEnd: ends[1])
    }

    /// Gives the signals back their default action and closes the pipe; before the loop shuts down.
    func stop() async {
        for number in [SIGINT, SIGTERM] { _ = signal(number, SIG_DFL) }
        signalPipe = -1
        try? await channel.close()
        _ = close(writeEnd)
    }
}

struct InterruptSignalsFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The pipe's write end, for the handler: set before the handlers are installed and reset after they are removed, by
/// one watcher at a time (a lock is not async-signal-safe).
nonisolated(unsafe) private var signalPipe: Int32 = -1

private func onSignal(_: Int32) {
    let saved = errno
    var byte: UInt8 = 1
    _ = write(signalPipe, &byte, 1)
    errno = saved
}

private final class SignalByteHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let handler: @Sendable () -> Void

    init(_ handler: @escaping @Sendable () -> Void) { self.handler = handler }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handler()
    }
}
