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
/// build per judgement of it rather than 200.
///
/// An answer about a session says the judgement it was built from (`LiveSessions`: judgements are numbered in the
/// order made), and stands while that is the session's latest and no new one is due; the sessions' list stands for
/// `lifetime`. A request is never handed an answer from a judgement older than the latest when it asked: one that
/// joins a build begun earlier, which turns out older, waits for the next build, which the builder starts at once.
/// When the build in hand takes longer than `patience`, a request gets the last answer built instead, marked stale
/// (`X-Lens-Stale`) so the page asks again. On a big session that changes ten times a second a build is always under
/// way and takes seconds under load; waiting for it made every reader wait for most of one. Built answers are kept up
/// to `maximumBytes` in all, the oldest dropped first.
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

    /// Where a session's judgements stand when a request comes: its latest judgement's id (nil before its first) and
    /// whether a new one is due (it changed, or a pending coordinator's grace ran out).
    struct Stamp: Equatable, Sendable {
        var judgement: Int?
        var due: Bool

        /// The oldest judgement an answer to this request may come from.
        var least: Int { (judgement ?? 0) + (due || judgement == nil ? 1 : 0) }
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
        /// The judgement it was built from; nil for the sessions' list.
        var judgement: Int?
        var at: NIODeadline
    }

    private struct Waiter {
        var number: Int
        /// The oldest judgement its answer may come from (`Stamp.least`); 0 for any.
        var least: Int
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
    /// How long the sessions' list stands (each session in it as its latest judgement says).
    static let lifetime = TimeAmount.milliseconds(250)
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
        let waiter = Waiter(number: number, least: stamp?.least ?? 0, deliver: deliver)
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

    /// The answer built for `key` from judgement `judgement` (nil: the sessions' list, or no session): kept, and handed
    /// to every request waiting for it that may have one that old. True when some wait on for a newer one: the caller
    /// builds again (unless `last`, when every request waiting gets this one).
    @discardableResult
    func finish(_ key: Key, _ answer: PageAnswer, judgement: Int?, last: Bool = true, now: NIODeadline = .now()) -> Bool {
        var answer = answer
        if answer.status == 200 {
            let number = tags.withLockedValue {
                $0 += 1
                return $0
            }
            answer.tag = "W/\"\(epoch)-\(number)\""
        }
        let (served, again) = slots.withLockedValue { slots -> ([Waiter], Bool) in
            guard case .building(let waiting, _) = slots[key] else { return ([], false) }
            // Only an answer worth keeping is kept: a 200 (a 404 for a run not held yet is asked again).
            guard answer.status == 200 else {
                slots[key] = nil
                return (waiting, false)
            }
            let built = Built(answer: answer, judgement: judgement, at: now)
            let later = last || judgement == nil ? [] : waiting.filter { $0.least > judgement! }
            slots[key] = later.isEmpty ? .built(built) : .building(later, previous: built)
            Self.trim(&slots, now: now)
            return (later.isEmpty ? waiting : waiting.filter { $0.least <= judgement! }, !later.isEmpty)
        }
        for waiter in served { waiter.deliver(answer) }
        if again { counts.withLockedValue { $0.built += 1 } }
        return again
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
        guard key != .sessions else { return now - built.at < lifetime }
        guard let judgement = built.judgement, let current else { return false }
        return judgement >= current.least
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
