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

    /// The longest mark label kept, in UTF-8 bytes: a longer one is cut there and says so, so memory follows the
    /// marks, not what a producer puts in them (20,001 marks of 200 KB took `check` to 1.94 GB).
    public static let maximumLabelBytes = 1_024

    /// `label`, or its first `maximumLabelBytes` (whole characters) and what was cut.
    static func bounded(label: String) -> String {
        let bytes = label.utf8.count
        guard bytes > maximumLabelBytes else { return label }
        var kept = Substring(label)
        while kept.utf8.count > maximumLabelBytes { kept = kept.dropLast(max(1, (kept.utf8.count - maximumLabelBytes) / 4)) }
        return "\(kept)… (a label of \(bytes) bytes, cut to \(maximumLabelBytes))"
    }

    /// 1 MiB lines and 1,000 warnings per session.
    public static let `default` = InputLimits()

    /// Limits; each defaults to the documented value (docs/PROTOCOL.md, "Limits").
    public init(maximumLineBytes: Int = 1 << 20, maximumWarnings: Int = 1_000) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumWarnings = maximumWarnings
    }
}
