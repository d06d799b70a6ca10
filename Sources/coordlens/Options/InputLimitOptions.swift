import ArgumentParser
import CoordinatorLens

/// `--max-line-bytes` and `--max-warnings`: how much of a broken input is kept (docs/PROTOCOL.md, "Limits").
struct InputLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-line-bytes"), help: "Skip input lines longer than this many bytes, with a warning.")
    var maximumLineBytes = InputLimits.default.maximumLineBytes

    @Option(name: .customLong("max-warnings"), help: "Keep at most this many warnings per session; count the rest.")
    var maximumWarnings = InputLimits.default.maximumWarnings

    func validate() throws {
        guard maximumLineBytes > 0 else { throw ValidationError("--max-line-bytes must be at least 1") }
        guard maximumWarnings >= 0 else { throw ValidationError("--max-warnings must not be negative") }
    }

    var limits: InputLimits { InputLimits(maximumLineBytes: maximumLineBytes, maximumWarnings: maximumWarnings) }
}
