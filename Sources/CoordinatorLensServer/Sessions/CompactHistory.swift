import CoordinatorLens

/// A finished session's kept lines, encoded to a few bytes each, for the page's time travel to read back when asked:
/// an ended session keeps its tree and judgement in memory, and this instead of its whole list of events (about 150
/// bytes an event as `SessionLog.Entry` values, about 10 here).
///
/// Each common event (integer ids; add, remove, bind, dismiss, deinit, mark, dropped, heartbeat, end) is one tag byte
/// and varints: the seq and input line as steps from the last, the time in microseconds as a step from the last when
/// it is a whole number of them (else its 8 bytes), the call site and names as indexes into tables kept once. Anything
/// else (string ids, `expect`, `held`, unknown kinds, unreadable lines) is kept whole beside the bytes, in order.
/// Reading back gives exactly the entries encoded.
struct CompactHistory: Sendable {
    private var bytes: [UInt8] = []
    private var strings: [String] = []
    private var sites: [CallSite] = []
    /// Entries kept whole, in order; the bytes say where each goes (`Tag.whole`).
    private var whole: [SessionLog.Entry] = []
    /// Entries encoded.
    private(set) var count = 0
    /// The first event's seq and the last event, which the page asks for at every update.
    private(set) var firstSeq: Int?
    private(set) var lastRecord: EventRecord?

    private enum Tag: UInt8 {
        case whole = 0
        case add, remove, bind, dismiss, deinitialized, mark, dropped, heartbeat, end
    }

    /// Set on a tag when the time follows as its 8 bytes rather than a step in microseconds.
    private static let rawTime: UInt8 = 0x80

    /// Bytes it holds, roughly (tables included).
    var size: Int {
        bytes.count + strings.reduce(0) { $0 + $1.utf8.count + 16 } + sites.count * 64 + whole.count * 160
    }

    init(_ entries: some Sequence<SessionLog.Entry>) {
        var stringIndex: [String: Int] = [:]
        var siteIndex: [CallSite: Int] = [:]
        var last = (seq: 0, line: 0, micros: Int64(0))
        func string(_ text: String) -> Int {
            if let index = stringIndex[text] { return index }
            strings.append(text)
            stringIndex[text] = strings.count - 1
            return strings.count - 1
        }
        for entry in entries {
            count += 1
            if case .record(let record) = entry {
                if firstSeq == nil { firstSeq = record.seq }
                lastRecord = record
            }
            guard case .record(let record) = entry, let (tag, payload) = Self.encode(record.event, string) else {
                bytes.append(Tag.whole.rawValue)
                whole.append(entry)
                continue
            }
            let micros = (record.time * 1e6).rounded()
            let exact = micros.magnitude < 1e15 && micros / 1e6 == record.time
            bytes.append(tag.rawValue | (exact ? 0 : Self.rawTime))
            Self.append(signed: Int64(record.seq) &- Int64(last.seq) &- 1, to: &bytes)
            Self.append(signed: Int64(record.line) &- Int64(last.line) &- 1, to: &bytes)
            if exact {
                Self.append(signed: Int64(micros) &- last.micros, to: &bytes)
                last.micros = Int64(micros)
            } else {
                withUnsafeBytes(of: record.time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
            var site = 0
            if let callSite = record.site {
                if let index = siteIndex[callSite] {
                    site = index + 1
                } else {
                    sites.append(callSite)
                    siteIndex[callSite] = sites.count - 1
                    site = sites.count
                }
            }
            Self.append(UInt64(site), to: &bytes)
            for value in payload { Self.append(signed: value, to: &bytes) }
            (last.seq, last.line) = (record.seq, record.line)
        }
        // Exactly as long as it is: the spare room growing left would outweigh the saving on a small session.
        bytes = Array(bytes[...])
    }

    /// The entries, as encoded.
    func entries() -> [SessionLog.Entry] {
        var entries: [SessionLog.Entry] = []
        entries.reserveCapacity(count)
        var offset = 0
        var nextWhole = 0
        var last = (seq: 0, line: 0, micros: Int64(0))
        bytes.withUnsafeBufferPointer { bytes in
            func signed() -> Int64 {
                let raw = Self.unsigned(bytes, &offset)
                return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
            }
            func id() -> CoordinatorID { CoordinatorID(Int(signed())) }
            func optionalID() -> CoordinatorID? {
                let value = signed()
                return value == 0 ? nil : CoordinatorID(Int(value > 0 ? value - 1 : value))
            }
            func string() -> String { strings[Int(signed())] }
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                guard let tag = Tag(rawValue: byte & ~Self.rawTime), tag != .whole else {
                    entries.append(whole[nextWhole])
                    nextWhole += 1
                    continue
                }
                // Steps wrap as they were taken: any seq and line, however far apart, read back exactly.
                let seq = last.seq &+ 1 &+ Int(truncatingIfNeeded: signed())
                let line = last.line &+ 1 &+ Int(truncatingIfNeeded: signed())
                let time: Double
                if byte & Self.rawTime == 0 {
                    last.micros &+= signed()
                    time = Double(last.micros) / 1e6
                } else {
                    var pattern: UInt64 = 0
                    for shift in 0..<8 { pattern |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
                    offset += 8
                    time = Double(bitPattern: pattern)
                }
                let site = Int(Self.unsigned(bytes, &offset))
                let event: Event
                switch tag {
                case .whole: preconditionFailure("handled above")
                case .add:
                    let id = id()
                    let type = string()
                    event = .add(id: id, type: type, parent: optionalID())
                case .remove:
                    let id = id()
                    event = .remove(id: id, parent: optionalID())
                case .bind:
                    let id = id()
                    event = .bind(id: id, screen: string())
                case .dismiss:
                    let id = id()
                    let via = DismissalCause.allCases[Int(signed())]
                    event = .dismiss(id: id, via: via)
                case .deinitialized: event = .deinitialized(id: id())
                case .mark: event = .mark(label: string())
                case .dropped: event = .dropped(count: Int(signed()))
                case .heartbeat: event = .heartbeat
                case .end: event = .end
                }
                entries.append(.record(EventRecord(seq: seq, time: time, event: event, site: site == 0 ? nil : sites[site - 1], line: line)))
                (last.seq, last.line) = (seq, line)
            }
        }
        return entries
    }

    /// The tag and numbers of an event this encoding takes; nil for one kept whole.
    private static func encode(_ event: Event, _ string: (String) -> Int) -> (Tag, [Int64])? {
        func number(_ id: CoordinatorID) -> Int64? { id.integer.map(Int64.init) }
        // An optional id: 0 for none, else the id moved one away from 0 so that 0 stays free; nil for a string id.
        func optional(_ id: CoordinatorID?) -> Int64? {
            guard let id else { return 0 }
            guard let value = number(id) else { return nil }
            return value >= 0 ? value + 1 : value
        }
        switch event {
        case .add(let id, let type, let parent):
            guard let id = number(id), let parent = optional(parent) else { return nil }
            return (.add, [id, Int64(string(type)), parent])
        case .remove(let id, let parent):
            guard let id = number(id), let parent = optional(parent) else { return nil }
            return (.remove, [id, parent])
        case .bind(let id, let screen):
            guard let id = number(id) else { return nil }
            return (.bind, [id, Int64(string(screen))])
        case .dismiss(let id, let via):
            guard let id = number(id), let cause = DismissalCause.allCases.firstIndex(of: via) else { return nil }
            return (.dismiss, [id, Int64(cause)])
        case .deinitialized(let id):
            guard let id = number(id) else { return nil }
            return (.deinitialized, [id])
        case .mark(let label): return (.mark, [Int64(string(label))])
        case .dropped(let count): return (.dropped, [Int64(count)])
        case .heartbeat: return (.heartbeat, [])
        case .end: return (.end, [])
        case .watch, .expect, .held, .unknown: return nil
        }
    }

    private static func append(signed value: Int64, to bytes: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
