import CoordinatorWire

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

    /// 12 hex digits of `StableHash` over `text`'s UTF-8: stable across runs and platforms.
    package static func hash(_ text: String) -> String {
        StableHash.hex(text.utf8, digits: 12)
    }
}
