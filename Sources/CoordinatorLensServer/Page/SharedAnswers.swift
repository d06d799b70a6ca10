import CoordinatorLens
import NIOConcurrencyHelpers
import NIOCore

/// One answer ready to be written to any number of connections: its body (and, when large, its gzip form) made once
/// and shared by every response that carries it, never copied per request.
struct PageAnswer: Sendable {
    var status: Int
    var contentType: String
    var body: ByteBuffer
    var gzipped: ByteBuffer?
    /// The last event the answer shows, sent as `X-Lens-Seq`.
    var seq: Int?
    var headers: [(String, String)]

    init(status: Int, contentType: String, body: ByteBuffer, seq: Int?, headers: [(String, String)]) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.seq = seq
        self.headers = headers
    }

    /// `response`, with its gzip form made once when it is large.
    init(_ response: InspectorPage.Response) {
        let allocator = ByteBufferAllocator()
        status = response.status
        contentType = response.contentType
        body = allocator.buffer(bytes: response.body)
        seq = response.seq
        headers = response.headers
        if response.body.count >= Gzip.threshold, let compressed = response.body.withUnsafeBytes({ Gzip.compress($0) }),
            compressed.count < response.body.count
        {
            gzipped = allocator.buffer(bytes: compressed)
        }
    }

    /// Bytes it holds.
    var size: Int { body.readableBytes + (gzipped?.readableBytes ?? 0) }
}

/// The page's answers that take work (every session's summary, a session's model and picture), built once and handed
/// to every request that asks while they are built or while they stand, so 200 pages polling one session cost one
/// build per change of it rather than 200.
///
/// An answer stands while the session it shows has the version it was built from and, for a session whose clock
/// still runs (connected, not ended: a pending coordinator may turn retained with time alone), for `lifetime`; the
/// sessions' list stands for `lifetime`. A request that finds one being built waits for that build, whatever changed
/// since it began: it gets an answer at most one build old, never waits for two. Built answers are kept up to
/// `maximumBytes` in all, the oldest dropped first.
final class SharedAnswers: Sendable {
    /// What a request asks for, answered alike for every page.
    enum Key: Hashable, Sendable {
        case sessions
        case tree(ViewQuery)
        case layout(ViewQuery)
        case model(ViewQuery)

        /// The answers shared; nil for a route answered per request.
        init?(_ route: PageRoute) {
            switch route {
            case .sessions: self = .sessions
            case .tree(let view): self = .tree(view)
            case .layout(let view): self = .layout(view)
            case .model(let view): self = .model(view)
            default: return nil
            }
        }

        /// The run the answer shows, if one.
        var run: String? {
            switch self {
            case .sessions: nil
            case .tree(let view), .layout(let view), .model(let view): view.run
            }
        }
    }

    /// What an answer was built from: the session's version, and whether its clock runs on.
    struct Stamp: Equatable, Sendable {
        var version: Int
        var ticking: Bool
    }

    /// What a request is to do.
    enum Outcome {
        /// An answer stands: write it.
        case ready(PageAnswer)
        /// One is being built: `deliver` hears it when done.
        case joined
        /// None stands and none is being built: the caller builds it and hands it to `finish` (or `fail`).
        case build
    }

    private enum Slot {
        case building([@Sendable (PageAnswer) -> Void])
        case built(PageAnswer, stamp: Stamp?, at: NIODeadline)
    }

    private let slots = NIOLockedValueBox<[Key: Slot]>([:])
    /// How long an answer about a session whose clock runs on stands: as long as a judgement does.
    static let lifetime = TimeAmount.nanoseconds(Int64(SessionTable.judgementLifetime * 1e9))
    static let maximumBytes = 64 << 20
    /// Built answers older than this are dropped when another is stored.
    static let keptAtMost = TimeAmount.seconds(30)

    /// Builds and joins so far, for tests and `make bench`.
    private let counts = NIOLockedValueBox((built: 0, shared: 0))
    var builds: (built: Int, shared: Int) { counts.withLockedValue { $0 } }

    /// What to do for a request of `key` while the session is at `stamp` (nil: not held, or the sessions' list).
    func request(_ key: Key, stamp: Stamp?, now: NIODeadline = .now(), deliver: @escaping @Sendable (PageAnswer) -> Void) -> Outcome {
        let outcome = slots.withLockedValue { slots -> Outcome in
            switch slots[key] {
            case .building(let waiting):
                slots[key] = .building(waiting + [deliver])
                return .joined
            case .built(let answer, let built, let at) where Self.stands(key, built: built, at: at, current: stamp, now: now):
                return .ready(answer)
            default:
                slots[key] = .building([deliver])
                return .build
            }
        }
        if case .build = outcome {
            counts.withLockedValue { $0.built += 1 }
        } else {
            counts.withLockedValue { $0.shared += 1 }
        }
        return outcome
    }

    /// The answer built for `key` from a session at `stamp`: kept, and handed to every request waiting for it.
    func finish(_ key: Key, _ answer: PageAnswer, stamp: Stamp?, now: NIODeadline = .now()) {
        let waiting = slots.withLockedValue { slots -> [@Sendable (PageAnswer) -> Void] in
            guard case .building(let waiting) = slots[key] else { return [] }
            // Only an answer worth keeping is kept: a 200 (a 404 for a run not held yet is asked again).
            if answer.status == 200 {
                slots[key] = .built(answer, stamp: stamp, at: now)
                Self.trim(&slots, now: now)
            } else {
                slots[key] = nil
            }
            return waiting
        }
        for deliver in waiting { deliver(answer) }
    }

    /// No answer could be built (the page's work was full): every request waiting gets `answer`, nothing is kept.
    func fail(_ key: Key, _ answer: PageAnswer) {
        let waiting = slots.withLockedValue { slots -> [@Sendable (PageAnswer) -> Void] in
            guard case .building(let waiting) = slots[key] else { return [] }
            slots[key] = nil
            return waiting
        }
        for deliver in waiting { deliver(answer) }
    }

    /// Drops every built answer (a session evicted, the server stopping).
    func removeAll() {
        slots.withLockedValue { slots in slots = slots.filter { if case .building = $0.value { true } else { false } } }
    }

    private static func stands(_ key: Key, built: Stamp?, at: NIODeadline, current: Stamp?, now: NIODeadline) -> Bool {
        let fresh = now - at < lifetime
        if key == .sessions { return fresh }
        guard let built, let current, built == current else { return false }
        return !current.ticking || fresh
    }

    /// Drops built answers kept too long, then the oldest until the rest fit in `maximumBytes`.
    private static func trim(_ slots: inout [Key: Slot], now: NIODeadline) {
        var built: [(key: Key, at: NIODeadline, size: Int)] = []
        for (key, slot) in slots {
            guard case .built(let answer, _, let at) = slot else { continue }
            if now - at > keptAtMost {
                slots[key] = nil
            } else {
                built.append((key, at, answer.size))
            }
        }
        var total = built.reduce(0) { $0 + $1.size }
        for entry in built.sorted(by: { $0.at < $1.at }) where total > maximumBytes {
            slots[entry.key] = nil
            total -= entry.size
        }
    }
}
