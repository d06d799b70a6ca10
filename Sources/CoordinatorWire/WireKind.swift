/// The kinds of line in wire format v1, spelled as they are on the wire: the one list the hook writes and the
/// inspector reads.
public enum WireKind: String, CaseIterable, Sendable {
    case session, add, remove, bind, dismiss
    case deinitialized = "deinit"
    case mark, dropped, heartbeat, end

    /// The wire format version this package writes and reads.
    public static let version = 1

    /// The kind's name as a static string, for encoders and decoders that work on bytes and never build a String.
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
        }
    }

    /// The kind these UTF-8 bytes name, or nil for a kind this version does not know.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        for kind in WireKind.allCases {
            let name = kind.name
            guard name.utf8CodeUnitCount == bytes.count else { continue }
            if bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) {
                self = kind
                return
            }
        }
        return nil
    }
}
