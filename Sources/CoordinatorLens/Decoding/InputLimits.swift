/// How much of a hostile or broken input the inspector keeps: past these limits it reports and skips, so memory stays
/// proportional to what is kept, never to what a producer sends.
public struct InputLimits: Hashable, Sendable {
    /// The longest line read, in bytes without its newline; a longer one is skipped to its newline with a warning.
    public var maximumLineBytes: Int
    /// The most warnings a session keeps; the rest are counted, and the count is a last warning of its own.
    public var maximumWarnings: Int

    /// The longest string id (`id`, `parent`) read, in UTF-8 bytes; a line with a longer one is reported and skipped.
    /// Fixed, as ids are read line by line before any limits apply; ids are names, not payloads.
    public static let maximumIDBytes = 1_024

    /// 1 MiB lines and 1,000 warnings per session.
    public static let `default` = InputLimits()

    /// Limits; each defaults to the documented value (docs/PROTOCOL.md, "Limits").
    public init(maximumLineBytes: Int = 1 << 20, maximumWarnings: Int = 1_000) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumWarnings = maximumWarnings
    }
}
