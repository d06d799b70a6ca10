/// What the calling thread stores: ids, a clock reading and pointers, never text or JSON.
///
/// Type names and call sites stay as metatypes and static strings; the writer thread turns them into text.
struct RawEvent {
    enum Kind: UInt8 {
        case add, remove, bind, dismiss, deinitialized, mark, end
        /// A bound screen's probe fired; the writer decides whether that binding is still current.
        case screenGone
    }

    var kind: Kind
    var id: Int
    /// The parent's id for add and remove (0: none).
    var other: Int = 0
    var nanos: UInt64
    /// The coordinator's type for add, the screen's type for bind.
    var type: Any.Type?
    var label: String?
    /// A coordinator this session had not seen: the writer starts watching it for deallocation.
    var newBox: WeakBox?
    /// The same for a parent this session had not seen.
    var otherNewBox: WeakBox?
    /// The box the event is about: the screen of a bind or a screenGone, the coordinator of a probed deinit.
    var subject: WeakBox?
    var file: StaticString?
    var line: UInt = 0
    var function: StaticString?
}
