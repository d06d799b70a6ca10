import CoordinatorLens
import Foundation
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
    /// Built from an earlier state of the session while a newer answer is built, sent as `X-Lens-Stale: 1` so the
    /// page asks again.
    var stale = false
    /// Names this build of a shared answer (`ETag`), so a page that has it already is answered `304 Not Modified`
    /// without the body: a page asking again while the session's next answer is built gets the one it holds.
    var tag: String?

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

    /// The same answer, said to be stale.
    var markedStale: PageAnswer {
        var answer = self
        answer.stale = true
        return answer
    }

    /// Whether a request's `If-None-Match` names this answer (weak comparison, as RFC 9110 asks of it).
    func isHeld(byClientSending ifNoneMatch: String?) -> Bool {
        guard let tag, let ifNoneMatch else { return false }
        let opaque = tag.dropFirst(2)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) == opaque : trimmed[...] == opaque
        }
    }

    /// Bytes it holds.
    var size: Int { body.readableBytes + (gzipped?.readableBytes ?? 0) }
}

/// The page's answers that take work (every session's summary, a session's model and picture), built once and handed
/// to every request that asks while they are built or while they stand, so 200 pages polling one session cost one
/// build per change of it rather than 200.
///
/// An answer stands while the session it shows has the version and verdict counts it was built from and, for a
/// session whose clock still runs (connected, not ended: a pending coordinator may turn retained with time alone), for
/// `lifetime`; the sessions' list stands for `lifetime`. When it no longer stands, the next request starts a build, and every request
/// until it is done waits for that build, whatever changed since it began (an answer at most one build old, never
/// two), but at most `patience`: then it gets the last answer built, marked stale (`X-Lens-Stale`) so the page asks
/// again. On a big session that changes ten times a second a build is always under way and takes seconds under load;
/// waiting for it made every reader wait for most of one. Built answers are kept up to `maximumBytes` in all, the
/// oldest dropped first.
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

    /// What an answer was built from: the session's version and the verdict counts it was judged with (a coordinator
    /// turned retained by its grace running out changes them and no version, and the feed announces it), and whether
    /// its clock runs on.
    struct Stamp: Equatable, Sendable {
        var version: Int
        /// Nil before the version is judged.
        var verdicts: Verdicts?
        var ticking: Bool
    }

    /// A judgement's verdict counts, and the grace they were judged with (a view may ask for another grace, and its
    /// counts differ for that alone).
    struct Verdicts: Equatable, Sendable {
        var counts: [Verdict: Int]
        var grace: Double
    }

    /// What a request is to do.
    enum Outcome {
        /// An answer stands: write it.
        case ready(PageAnswer)
        /// One is being built: `deliver` hears it when done. With `staleAfter`, once `patience` has passed the caller
        /// asks `staleAnswer(key, for:)` for the last answer built instead.
        case joined(staleAfter: Int?)
        /// None stands and none is being built: the caller builds it and hands it to `finish` (or `fail`), and waits as
        /// `joined` does.
        case build(staleAfter: Int?)
    }

    private struct Built {
        var answer: PageAnswer
        var stamp: Stamp?
        var at: NIODeadline
    }

    private struct Waiter {
        var number: Int
        var deliver: @Sendable (PageAnswer) -> Void
    }

    private enum Slot {
        /// A build under way: the requests waiting for it, and the last answer built, to be served stale meanwhile.
        case building([Waiter], previous: Built?)
        case built(Built)
    }

    private let slots = NIOLockedValueBox<[Key: Slot]>([:])
    private let waiters = NIOLockedValueBox(0)
    /// Tags differ between two servers on one port: a page kept open across a restart never takes a new answer for
    /// the one it holds.
    private let epoch = String(UInt32.random(in: .min ... .max), radix: 36)
    private let tags = NIOLockedValueBox(0)
    /// How long an answer about a session whose clock runs on stands: as long as a judgement does.
    static let lifetime = TimeAmount.nanoseconds(Int64(SessionTable.judgementLifetime * 1e9))
    /// How long a request waits for a build before it takes the last answer built, stale: long enough for a small or
    /// middling session's build, so its page is not answered twice per change.
    static let patience = TimeAmount.milliseconds(500)
    static let maximumBytes = 64 << 20
    /// Built answers older than this are dropped when another is stored, and never served stale.
    static let keptAtMost = TimeAmount.seconds(30)

    /// Builds, joins and stale answers so far, for tests and `make bench`.
    private let counts = NIOLockedValueBox((built: 0, shared: 0, stale: 0))
    var builds: (built: Int, shared: Int, stale: Int) { counts.withLockedValue { $0 } }

    /// What to do for a request of `key` while the session is at `stamp` (nil: not held, or the sessions' list).
    func request(_ key: Key, stamp: Stamp?, now: NIODeadline = .now(), deliver: @escaping @Sendable (PageAnswer) -> Void) -> Outcome {
        let number = waiters.withLockedValue {
            $0 += 1
            return $0
        }
        let waiter = Waiter(number: number, deliver: deliver)
        let outcome = slots.withLockedValue { slots -> Outcome in
            switch slots[key] {
            case .building(let waiting, let previous):
                slots[key] = .building(waiting + [waiter], previous: previous)
                return .joined(staleAfter: previous.map { Self.servesStale($0, now: now) } == true ? number : nil)
            case .built(let built) where Self.stands(key, built, current: stamp, now: now):
                return .ready(built.answer)
            case .built(let built):
                slots[key] = .building([waiter], previous: built)
                return .build(staleAfter: Self.servesStale(built, now: now) ? number : nil)
            case nil:
                slots[key] = .building([waiter], previous: nil)
                return .build(staleAfter: nil)
            }
        }
        if case .build = outcome {
            counts.withLockedValue { $0.built += 1 }
        } else {
            counts.withLockedValue { $0.shared += 1 }
        }
        return outcome
    }

    /// The last answer built for `key`, marked stale, for the request `number` that has waited `patience` for the
    /// build in hand: it waits no longer. Nil when that build is done (the request got it) or no answer was built.
    func staleAnswer(_ key: Key, for number: Int) -> PageAnswer? {
        let answer = slots.withLockedValue { slots -> PageAnswer? in
            guard case .building(var waiting, let previous?) = slots[key], let index = waiting.firstIndex(where: { $0.number == number })
            else { return nil }
            waiting.remove(at: index)
            slots[key] = .building(waiting, previous: previous)
            return previous.answer.markedStale
        }
        if answer != nil { counts.withLockedValue { $0.stale += 1 } }
        return answer
    }

    /// The answer built for `key` from a session at `stamp` (the judgement it was made from, when it says one):
    /// kept, and handed to every request waiting for it.
    func finish(_ key: Key, _ answer: PageAnswer, stamp: Stamp?, now: NIODeadline = .now()) {
        var answer = answer
        if answer.status == 200 {
            let number = tags.withLockedValue {
                $0 += 1
                return $0
            }
            answer.tag = "W/\"\(epoch)-\(number)\""
        }
        let waiting = slots.withLockedValue { slots -> [Waiter] in
            guard case .building(let waiting, _) = slots[key] else { return [] }
            // Only an answer worth keeping is kept: a 200 (a 404 for a run not held yet is asked again).
            if answer.status == 200 {
                slots[key] = .built(Built(answer: answer, stamp: stamp, at: now))
                Self.trim(&slots, now: now)
            } else {
                slots[key] = nil
            }
            return waiting
        }
        for waiter in waiting { waiter.deliver(answer) }
    }

    /// No answer could be built (the page's work was full): every request waiting gets `answer`, and the last answer
    /// built stays, to be served stale again and rebuilt by a later request.
    func fail(_ key: Key, _ answer: PageAnswer) {
        let waiting = slots.withLockedValue { slots -> [Waiter] in
            guard case .building(let waiting, let previous) = slots[key] else { return [] }
            slots[key] = previous.map { .built($0) }
            return waiting
        }
        for waiter in waiting { waiter.deliver(answer) }
    }

    /// Drops every built answer (a session evicted, the server stopping).
    func removeAll() {
        slots.withLockedValue { slots in
            for (key, slot) in slots {
                switch slot {
                case .building(let waiting, _): slots[key] = .building(waiting, previous: nil)
                case .built: slots[key] = nil
                }
            }
        }
    }

    private static func stands(_ key: Key, _ built: Built, current: Stamp?, now: NIODeadline) -> Bool {
        let fresh = now - built.at < lifetime
        if key == .sessions { return fresh }
        guard let stamp = built.stamp, let current, stamp.version == current.version, stamp.ticking == current.ticking
        else { return false }
        // Judged again since with the same grace, and the counts moved (a coordinator's grace ran out).
        if let now = current.verdicts, let then = stamp.verdicts, now.grace == then.grace, now.counts != then.counts { return false }
        return !current.ticking || fresh
    }

    /// Whether `built` may be written, stale, to a request that has waited `patience` for a newer one.
    private static func servesStale(_ built: Built, now: NIODeadline) -> Bool {
        now - built.at <= keptAtMost
    }

    /// Drops built answers kept too long, then the oldest until the rest fit in `maximumBytes`; an answer kept to be
    /// served stale during a build counts too.
    private static func trim(_ slots: inout [Key: Slot], now: NIODeadline) {
        var kept: [(key: Key, at: NIODeadline, size: Int)] = []
        for (key, slot) in slots {
            switch slot {
            case .built(let built) where now - built.at > keptAtMost:
                slots[key] = nil
            case .building(let waiting, let previous?) where now - previous.at > keptAtMost:
                slots[key] = .building(waiting, previous: nil)
            case .built(let built), .building(_, let built?):
                kept.append((key, built.at, built.answer.size))
            case .building(_, nil):
                break
            }
        }
        var total = kept.reduce(0) { $0 + $1.size }
        for entry in kept.sorted(by: { $0.at < $1.at }) where total > maximumBytes {
            switch slots[entry.key] {
            case .building(let waiting, _): slots[entry.key] = .building(waiting, previous: nil)
            default: slots[entry.key] = nil
            }
            total -= entry.size
        }
    }
}
