/// A hash that is the same in every run and on every platform, unlike `Hasher`: the listen server's picture names and
/// the hook's dictionary keys in `held` lines use it.
package enum StableHash {
    /// FNV-1a, 64 bits, of `bytes`, its bits spread by MurmurHash3's finaliser, as the first `digits` (at most 16) of
    /// its 16 hex digits.
    package static func hex(_ bytes: some Sequence<UInt8>, digits: Int) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        // FNV-1a alone leaves texts that differ in their last character with hashes that differ in a digit or two.
        value ^= value >> 33
        value &*= 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value &*= 0xc4ce_b9fe_1a85_ec53
        value ^= value >> 33
        let hex = String(value, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(digits))
    }
}
