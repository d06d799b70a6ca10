#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
import CoordinatorWire

/// A dictionary key as a step names it (`[String#5e0a7c]`, or `["ShareViewController"]` with the text allowed, `[42]`,
/// `[ObjectIdentifier]`), decoded from the walker's copy of its bytes: strings from their 64-bit representation, never
/// through the app's `String` value, and no `description` of the app's own runs.
enum StringKey {
    private static let stringType = UInt(bitPattern: unsafeBitCast(String.self as Any.Type, to: Int.self))
    private static let intType = UInt(bitPattern: unsafeBitCast(Int.self as Any.Type, to: Int.self))

    /// The key at `bytes`, of the type whose metadata is `type`; `typeName` names any other type. A string's text only
    /// with `sendsText`; otherwise `String#` and a hash of its whole text, the same for the same key in every run.
    static func describe(
        _ bytes: UnsafeRawBufferPointer, type: UInt, reader: MemoryReader, sendsText: Bool, typeName: () -> String
    ) -> String {
        if type == intType, bytes.count >= 8 { return "\(bytes.loadUnaligned(as: Int.self))" }
        if type == stringType, bytes.count >= 16, let text = string(bytes, reader: reader, limit: sendsText ? 41 : hashedPrefix) {
            guard sendsText else { return "String#\(shortHash(text))" }
            let shown = String(decoding: text, as: UTF8.self)
            return shown.count > 40 ? "\"\(shown.prefix(40))…\"" : "\"\(shown)\""
        }
        return typeName()
    }

    /// Bytes of a key hashed: enough to tell the keys of one dictionary apart, bounded for a key that is a document.
    private static let hashedPrefix = 4_096

    /// Six hex digits of `StableHash` over `text`.
    static func shortHash(_ text: [UInt8]) -> String {
        StableHash.hex(text, digits: 6)
    }

    /// A string's text: small strings live in the two words themselves; large native and literal ones start 32 bytes
    /// past their storage address (the `nativeBias`); bridged and foreign ones are not read.
    private static func string(_ bytes: UnsafeRawBufferPointer, reader: MemoryReader, limit: Int) -> [UInt8]? {
        let countAndFlags = bytes.loadUnaligned(as: UInt64.self)
        let object = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let discriminator = object >> 56
        if discriminator & 0x20 != 0 {
            let count = Int(discriminator & 0x0F)
            guard count <= 15 else { return nil }
            return Array(bytes[0..<count])
        }
        // Bit 62 set: no contiguous UTF-8 (bridged or foreign).
        guard discriminator & 0x40 == 0 else { return nil }
        let count = Int(countAndFlags & 0x0000_FFFF_FFFF_FFFF)
        let start = UInt(object & 0x0FFF_FFFF_FFFF_FFFF) + 32
        return reader.bytes(start, count: min(count, limit))
    }
}
#endif
