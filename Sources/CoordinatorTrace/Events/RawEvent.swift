/// What the calling thread stores: ids, a clock reading and pointers, never text or JSON.
///
/// Type names and call sites stay as metatypes and static strings; the writer thread turns them into text.
struct RawEvent {
    enum Kind: UInt8 {
        case add, remove, bind, dismiss, deinitialized, mark, heartbeat, end
        /// A dismiss because the bound screen left the screen, or was freed: the wire's `via`.
        case screenLeft, screenFreed
        /// An expected count: `type` at most `id` alive at once, per parent when `other` is 1; at most `id` kept for
        /// reuse when `other` is `reuseScope`.
        case expect
        /// A retainer search's result for coordinator `id`, in `retainers`.
        case held
        /// Object `id` should die with coordinator `other`.
        case watch
    }

    /// `other` of an `expect` that declares a reusable type (`per: "reuse"` on the wire).
    static let reuseScope = 2

    var kind: Kind
    var id: Int
    /// The parent's id for add and remove (0: none); the coordinator a watched object belongs to.
    var other: Int = 0
    /// The clock reading, taken under the tracer's lock so that times grow with the order of events.
    var nanos: UInt64
    /// The coordinator's type for add and expect, the screen's type for bind, the object's type for watch.
    var type: Any.Type?
    var label: String?
    var file: StaticString?
    /// The caller's `#filePath`, sent as `path` beside `file`.
    var path: StaticString?
    var line: UInt = 0
    var function: StaticString?
    /// A `held` event's path: a reference, so the events the calling threads queue stay as small as they were.
    var retainers: HeldPath?
}

/// A retainer search's result on its way to the writer.
final class HeldPath: @unchecked Sendable {
    let path: RetainerPath

    init(_ path: RetainerPath) {
        self.path = path
    }
}
