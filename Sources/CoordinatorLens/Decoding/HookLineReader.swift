import CoordinatorWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a line written exactly as the hook writes it, and nothing else: keys in the hook's order, no spaces,
/// integer ids, plain strings, `t` with at most 15 digits. It builds the record straight from the bytes, without the
/// general decoder's key lookup and optional fields, and gives nil for anything it does not expect, which the general
/// decoder then reads (errors included). Every record it returns equals what `EventDecoder` builds from the same line:
/// `DecoderAgreementTests` and the stream fuzzer check that.
package struct HookLineReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var at = 0

    private init(_ line: UnsafeBufferPointer<UInt8>) {
        base = line.baseAddress!
        end = line.count
    }

    /// The record the line holds, or nil when the line is not in the hook's exact form.
    @inline(__always)
    package static func read(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, strings: inout StringInterner) -> EventRecord? {
        guard line.count > 0 else { return nil }
        var reader = HookLineReader(line)
        return reader.record(lineNumber: lineNumber, strings: &strings)
    }

    @inline(__always)
    private mutating func record(lineNumber: Int, strings: inout StringInterner) -> EventRecord? {
        guard take(#"{"seq":"#), let seq = integer(), take(#","t":"#), let time = seconds(), take(#","event":""#),
            let kind = kind()
        else { return nil }
        let event: Event
        switch kind {
        case .add:
            guard take(#","id":"#), let id = integer(), take(#","type":""#), let type = text(&strings) else { return nil }
            var parent: Int?
            if take(#","parent":"#) {
                guard let number = integer() else { return nil }
                parent = number
            }
            event = .add(id: CoordinatorID(id), type: type, parent: parent.map { CoordinatorID($0) })
        case .remove:
            guard take(#","id":"#), let id = integer() else { return nil }
            var parent: Int?
            if take(#","parent":"#) {
                guard let number = integer() else { return nil }
                parent = number
            }
            event = .remove(id: CoordinatorID(id), parent: parent.map { CoordinatorID($0) })
        case .bind:
            guard take(#","id":"#), let id = integer(), take(#","screen":""#), let screen = text(&strings) else { return nil }
            event = .bind(id: CoordinatorID(id), screen: screen)
        case .dismiss:
            guard take(#","id":"#), let id = integer() else { return nil }
            var via = DismissalCause.reported
            if take(#","via":""#) {
                guard let text = text(&strings) else { return nil }
                via = DismissalCause(rawValue: text) ?? .reported
            }
            event = .dismiss(id: CoordinatorID(id), via: via)
        case .deinitialized:
            guard take(#","id":"#), let id = integer() else { return nil }
            event = .deinitialized(id: CoordinatorID(id))
        case .mark:
            guard take(#","label":""#), let label = text(&strings) else { return nil }
            event = .mark(label: InputLimits.bounded(label: label))
        case .heartbeat: event = .heartbeat
        case .end: event = .end
        case .watch:
            guard take(#","id":"#), let id = integer(), take(#","type":""#), let type = text(&strings), take(#","parent":"#),
                let owner = integer()
            else { return nil }
            event = .watch(id: CoordinatorID(id), type: type, owner: CoordinatorID(owner))
        case .session, .dropped, .expect, .held: return nil
        }
        var site: CallSite?
        if take(#","file":""#) {
            guard let file = text(&strings), take(#","line":"#), let line = integer() else { return nil }
            var function: String?
            var path: String?
            if take(#","function":""#) {
                guard let text = text(&strings) else { return nil }
                function = text
            }
            if take(#","path":""#) {
                guard let text = text(&strings) else { return nil }
                path = text
            }
            site = strings.callSite(file: file, line: line, function: function, path: path)
        }
        guard at + 1 == end, base[at] == UInt8(ascii: "}") else { return nil }
        return EventRecord(seq: seq, time: time, event: event, site: site, line: lineNumber)
    }

    /// Consumes `literal` when the line goes on with it.
    @inline(__always)
    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard at + count <= end, memcmp(base + at, literal.utf8Start, count) == 0 else { return false }
        at += count
        return true
    }

    /// A non-negative integer of 1 to 18 digits, which cannot overflow.
    @inline(__always)
    private mutating func integer() -> Int? {
        let start = at
        var value = 0
        while at < end, at - start < 18 {
            let digit = base[at] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            value = value &* 10 &+ Int(digit)
            at += 1
        }
        guard at > start, at < end, base[at] &- UInt8(ascii: "0") >= 10, base[at] != UInt8(ascii: "."),
            base[at] | 0x20 != UInt8(ascii: "e")
        else { return nil }
        return value
    }

    /// Digits, a point and digits, 15 digits at most: exact from its digits as `JSONScanner.readNumber` reads it.
    @inline(__always)
    private mutating func seconds() -> Double? {
        let start = at
        var mantissa: UInt64 = 0
        while at < end, base[at] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(base[at] &- UInt8(ascii: "0"))
            at += 1
        }
        let integerDigits = at - start
        guard integerDigits > 0, at < end, base[at] == UInt8(ascii: ".") else { return nil }
        at += 1
        let fractionStart = at
        while at < end, base[at] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(base[at] &- UInt8(ascii: "0"))
            at += 1
        }
        let fractionDigits = at - fractionStart
        guard fractionDigits > 0, integerDigits + fractionDigits <= 15, at < end, base[at] | 0x20 != UInt8(ascii: "e") else {
            return nil
        }
        return Double(mantissa) / JSONScanner.powersOfTen[fractionDigits]
    }

    /// The kind named up to the closing quote; nil for one this version does not know.
    @inline(__always)
    private mutating func kind() -> WireKind? {
        let start = at
        while at < end, base[at] != UInt8(ascii: "\"") { at += 1 }
        guard at < end else { return nil }
        let kind = WireKind(utf8: UnsafeBufferPointer(start: base + start, count: at - start))
        at += 1
        return kind
    }

    /// A string value's text up to its closing quote (the opening one taken with the key); nil when it holds an
    /// escape or a control character, which the general decoder reads or reports.
    @inline(__always)
    private mutating func text(_ strings: inout StringInterner) -> String? {
        let start = at
        while at < end {
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                let text = strings.string(UnsafeBufferPointer(start: base + start, count: at - start))
                at += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            at += 1
        }
        return nil
    }
}
