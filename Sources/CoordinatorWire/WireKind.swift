/// The kinds of line in wire format v1, spelled as they are on the wire: the one list the hook writes and the
/// inspector reads.
public enum WireKind: String, CaseIterable, Sendable {
    case session, add, remove, bind, dismiss
    case deinitialized = "deinit"
    case mark, dropped, heartbeat, end
    /// How many coordinators of a type may be alive at once; judged by the inspector like a verdict rule.
    case expect
    /// Who holds a retained coordinator, as the hook's retainer search found it.
    case held
    /// An object that should die with a coordinator (a view model, a screen), judged like one once it is done.
    case watch

    /// The wire format version this package writes and reads.
    public static let version = 1

    /// The kind's name as a static string, for encoders and decoders that work on bytes and never build a String.
    @inlinable
    public var name: StaticString {
        switch self {
        case .session: "session"
        case .add: "add"
        case .remove: "remove"
        case .bind: "bind"
        case .dismiss: "dismiss"
        case .deinitialized: "deinit"
        case .mark: "mark"
        case .dropped: "dropped"
        case .heartbeat: "heartbeat"
        case .end: "end"
        case .expect: "expect"
        case .held: "held"
        case .watch: "watch"
        }
    }

    /// The kind these UTF-8 bytes name, or nil for a kind this version does not know. The decoder calls it once per
    /// line, so it picks the kind by its first letters and compares bytes: no array, no String; inlinable, since the
    /// decoder lives in another module and the call alone was 5% of reading a line.
    ///
    /// `package`: only the core's decoders read kinds from bytes.
    @inlinable
    package init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2 else { return nil }
        let kind: WireKind
        switch bytes[0] {
        case UInt8(ascii: "a"): kind = .add
        case UInt8(ascii: "b"): kind = .bind
        case UInt8(ascii: "d"):
            switch bytes[1] {
            case UInt8(ascii: "i"): kind = .dismiss
            case UInt8(ascii: "r"): kind = .dropped
            default: kind = .deinitialized
            }
        case UInt8(ascii: "e"): kind = bytes[1] == UInt8(ascii: "x") ? .expect : .end
        case UInt8(ascii: "h"): kind = bytes.count > 2 && bytes[2] == UInt8(ascii: "l") ? .held : .heartbeat
        case UInt8(ascii: "m"): kind = .mark
        case UInt8(ascii: "r"): kind = .remove
        case UInt8(ascii: "s"): kind = .session
        case UInt8(ascii: "w"): kind = .watch
        default: return nil
        }
        guard kind.matches(bytes) else { return nil }
        self = kind
    }

    @usableFromInline
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = self.name
        guard name.utf8CodeUnitCount == bytes.count else { return false }
        for offset in 0..<bytes.count where name.utf8Start[offset] != bytes[offset] { return false }
        return true
    }
}
