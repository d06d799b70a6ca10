#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands out one shared String for text that repeats from line to line (type names, screens, files, functions), so
/// a million events that name fifty types allocate fifty strings, not a million.
///
/// A direct-mapped cache: each slot keeps the last string that hashed there, and a collision only costs a fresh
/// String, never a wrong one, since a hit compares every byte. Strings of up to 15 bytes are built inline by String
/// itself without allocating, and long ones rarely repeat, so only the lengths in between are cached.
///
/// Call sites repeat the same way (an app calls the hook from a few dozen places), so it shares those too: one
/// `CallSite` box per place rather than one allocation per event.
package struct StringInterner: Sendable {
    /// Holds the string ids decoded with this interner; nil keeps them for good (see `IDSpellings`).
    package var idScope: IDSpellingScope?
    private var slots: [String?]
    private var sites: [CallSite?]
    private static let slotCount = 1_024
    // As many as the strings': with 256, an app calling the hook from more than 256 places (the bench's recording has
    // 400) evicted each site before it came again, and every event with one made a box of its own (10 MB of a
    // million-event `check`).
    private static let siteSlotCount = 1_024
    private static let cachedLengths = 16...256

    /// An empty cache.
    package init() {
        slots = Array(repeating: nil, count: Self.slotCount)
        sites = Array(repeating: nil, count: Self.siteSlotCount)
    }

    private init(slots: [String?]) {
        self.slots = slots
        sites = []
    }

    /// An interner that caches nothing, for a single line decoded on its own.
    static var uncached: StringInterner { StringInterner(slots: []) }

    /// The string these UTF-8 bytes spell (invalid sequences repaired, as `String(decoding:as:)` does).
    package mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard !slots.isEmpty, Self.cachedLengths.contains(bytes.count), let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let slot = Int(truncatingIfNeeded: Self.hash(base, bytes.count)) & (Self.slotCount - 1)
        if let cached = slots[slot], Self.equal(cached, base, bytes.count) { return cached }
        let made = String(decoding: bytes, as: UTF8.self)
        // Repaired text no longer matches its bytes: caching it would never hit.
        if made.utf8.count == bytes.count { slots[slot] = made }
        return made
    }

    /// The call site with these fields, shared with the last one like it that hashed to the same slot. The strings
    /// come from `string(_:)`, so a repeat is usually the very same storage and compares at once.
    package mutating func callSite(file: String, line: Int, function: String?, path: String?) -> CallSite {
        guard !sites.isEmpty else { return CallSite(file: file, line: line, function: function, path: path) }
        let mix = line &* 0x9E37_79B9 ^ file.utf8.count &* 31 ^ (function?.utf8.count ?? 0) &* 131 ^ (path?.utf8.count ?? 0)
        let slot = mix & (Self.siteSlotCount - 1)
        if let cached = sites[slot], cached.line == line, cached.file == file, cached.function == function, cached.path == path {
            return cached
        }
        let made = CallSite(file: file, line: line, function: function, path: path)
        sites[slot] = made
        return made
    }

    /// FNV-1a over 8-byte words (the last one overlapping), enough to spread names that differ in one character.
    private static func hash(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(count)
        var offset = 0
        while offset + 8 < count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
            offset += 8
        }
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0x100_0000_01b3
        return hash ^ (hash >> 29)
    }

    private static func equal(_ string: String, _ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard string.utf8.count == count else { return false }
        return string.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, base, count) == 0 } ?? false
    }
}
