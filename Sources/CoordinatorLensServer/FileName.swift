/// Turns a run id from the network into a file name that stays inside its folder and never collides with another
/// run's: a readable, sanitised prefix plus a hash of the whole id (`a/b` → `a_b-<hash>`, `a_b` → `a_b-<hash'>`).
package enum FileName {
    /// Characters of the run id kept, sanitised, before the hash.
    package static let prefixLength = 40

    /// The file name, without extension, of `run`'s picture: `[A-Za-z0-9._-]` kept, anything else `_`, no leading
    /// dot, then `-` and 12 hex digits of a 64-bit hash of the whole run id (`hash`).
    package static func forRun(_ run: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        var prefix = String(run.prefix(prefixLength).map { allowed.contains($0) ? $0 : "_" })
        while prefix.hasPrefix(".") { prefix = "_" + prefix.dropFirst() }
        if prefix.isEmpty { prefix = "session" }
        return prefix + "-" + hash(run)
    }

    /// FNV-1a, 64 bits, of `text`'s UTF-8, bits spread by MurmurHash3's finaliser, as 12 hex digits: stable across
    /// runs and platforms, unlike `Hasher`.
    package static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        // FNV-1a alone leaves ids that differ in their last character with hashes that differ in a digit or two.
        value ^= value >> 33
        value &*= 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value &*= 0xc4ce_b9fe_1a85_ec53
        value ^= value >> 33
        let hex = String(value, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
