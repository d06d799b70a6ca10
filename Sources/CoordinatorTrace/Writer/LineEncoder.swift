import CoordinatorWire

/// Writes wire-format v1 lines by hand, on the writer thread: a line is a few appends, with no Foundation encoder.
struct LineEncoder {
    private(set) var bytes: [UInt8] = []

    /// Room for a line with a call site (about 250 bytes), so a line is one allocation, never a regrowth.
    init() {
        bytes.reserveCapacity(384)
    }

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and ends the line.
    mutating func close() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    mutating func key(_ name: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        integer(value)
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value.utf8)
    }

    mutating func field(_ name: StaticString, quoted value: [UInt8]) {
        key(name)
        bytes.append(contentsOf: value)
    }

    mutating func field(_ name: StaticString, _ value: StaticString) {
        key(name)
        if value.hasPointerRepresentation {
            string(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        } else {
            string(String(value.unicodeScalar).utf8)
        }
    }

    /// Seconds with microsecond precision, from nanoseconds, without going through floating point text.
    mutating func seconds(_ name: StaticString, nanoseconds: UInt64) {
        key(name)
        let micros = nanoseconds / 1_000
        integer(Int(micros / 1_000_000))
        bytes.append(UInt8(ascii: "."))
        let fraction = Int(micros % 1_000_000)
        var divisor = 100_000
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            integer(-value)
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        integer(value / 10)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    mutating func string(_ text: some Sequence<UInt8>) {
        if text.withContiguousStorageIfAvailable({ JSONString.append($0, quotedTo: &bytes) }) == nil {
            bytes.append(contentsOf: LineEncoder.quoted(text))
        }
    }

    mutating func string(_ text: UnsafeBufferPointer<UInt8>) {
        JSONString.append(text, quotedTo: &bytes)
    }

    /// A JSON string literal for `text`, quotes included; cached by callers for type names.
    static func quoted(_ text: some Sequence<UInt8>) -> [UInt8] {
        JSONString.quoted(text)
    }
}
