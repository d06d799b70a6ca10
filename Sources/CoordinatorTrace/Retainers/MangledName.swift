#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// A mangled type name from reflection metadata, copied through `MemoryReader`: what a closure's capture descriptor
/// says of a capture when the runtime cannot resolve it alone.
struct MangledName {
    /// Where the name lies in its image (symbolic references are relative to it).
    let address: UInt
    /// The name's bytes, symbolic references included.
    let bytes: [UInt8]

    var length: Int { bytes.count }

    /// Reads the name at `address`: it ends at a zero byte, but a symbolic reference (a control byte, then a 4-byte
    /// relative offset or a pointer) may hold zeros, so it is stepped over whole.
    init?(reader: MemoryReader, at address: UInt, limit: Int = 1024) {
        guard let chunk = reader.bytes(address, count: 1), !chunk.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var read = 0
        var index = 0
        while index < limit {
            if index >= read {
                let got = buffer.withUnsafeMutableBytes { reader.read(address + UInt(read), count: 256, into: $0.baseAddress!) }
                guard got > 0 else { return nil }
                bytes += buffer[0..<got]
                read += got
            }
            switch bytes[index] {
            case 0:
                self.address = address
                self.bytes = Array(bytes[0..<index])
                return
            case 0x01...0x17: index += 5
            case 0x18...0x1F: index += 9
            default: index += 1
            }
        }
        return nil
    }

    /// How a capture is stored when it is not a plain value.
    enum ReferenceStorage { case box, notStrong, thickFunction }

    /// Names end in `Xx`/`XX`/`Xb` (a box), `Xw` (weak), `Xo` or `Xu` (unowned, unowned(unsafe)); or the capture is
    /// an escaping thick function at its lowered type (`Ieg_`, `ytIegr_`: callee-guaranteed, owned or unowned, with
    /// no block, C, method or witness representation): two words, the code and the context.
    var referenceStorage: ReferenceStorage? {
        if isThickFunction { return .thickFunction }
        guard length >= 2, bytes[length - 2] == UInt8(ascii: "X") else { return nil }
        switch bytes[length - 1] {
        case UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "b"): return .box
        case UInt8(ascii: "w"), UInt8(ascii: "o"), UInt8(ascii: "u"): return .notStrong
        default: return nil
        }
    }

    private var isThickFunction: Bool {
        guard length >= 4, bytes[length - 1] == UInt8(ascii: "_") else { return false }
        var index = 0
        var found = false
        while index < length {
            switch bytes[index] {
            case 0x01...0x17: index += 5
            case 0x18...0x1F: index += 9
            case UInt8(ascii: "I") where index + 3 < length && bytes[index + 1] == UInt8(ascii: "e"):
                let callee = bytes[index + 2]
                let representation = bytes[index + 3]
                let thick = callee == UInt8(ascii: "g") || callee == UInt8(ascii: "x") || callee == UInt8(ascii: "y")
                let special = [UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "M"), UInt8(ascii: "J"), UInt8(ascii: "W")].contains(representation)
                found = thick && !special
                index += 1
            default: index += 1
            }
        }
        return found
    }

    /// Whether the name is a class (generic or not) given by a symbolic reference to its descriptor, with generic
    /// arguments after it (`<ref>y…G`): one strong reference, whatever the arguments are.
    func namesGenericClass(reader: MemoryReader, isClass: (UInt) -> Bool) -> Bool {
        guard length >= 5, bytes[0] == 0x01 || bytes[0] == 0x02 else { return false }
        guard length == 5 || (bytes[5] == UInt8(ascii: "y") && bytes[length - 1] == UInt8(ascii: "G")) else { return false }
        let offset = bytes[1...4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let target = UInt(bitPattern: Int(bitPattern: address + 1) &+ Int(Int32(bitPattern: offset)))
        // An indirect reference points at the descriptor's address; the direct one at the descriptor.
        guard let descriptor = bytes[0] == 0x01 ? target : reader.word(target) else { return false }
        return isClass(descriptor)
    }
}
#endif
