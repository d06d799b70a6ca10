// `coordlens-fuzz [--seconds N] [--seed S] [--size N] [--samples DIR] [--max-input-seconds S] [--max-rss-mb M]`:
// the hostile shapes at full size, then mutated sample streams until the time is up, each through decode, replay,
// verdicts, DOT, JSON and a self-diff. Exit 1 on a broken invariant, an input slower than --max-input-seconds or
// memory past --max-rss-mb, with the input written out to replay it. Meant for `swift run -c release
// coordlens-fuzz`; a debug build needs `--size 20000` to stay under the time limit.
import CoordinatorLens
import Foundation
import StreamFuzzing

func option(_ name: String, default value: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

let seconds = Double(option("--seconds", default: "30")) ?? 30
let seed = UInt64(option("--seed", default: "1")) ?? 1
let size = Int(option("--size", default: "100000")) ?? 100_000
// 30 s: a chain 100,000 deep, every step leaking, takes 13 s in a release build on a 2-core machine, 70% of it
// Foundation's JSONEncoder and JSONSerialization on the self-diff's 225 MB of JSON (linear in the tree); a path
// quadratic in the depth would take minutes.
let maximumInputSeconds = Double(option("--max-input-seconds", default: "30")) ?? 30
let samples = URL(fileURLWithPath: option("--samples", default: "samples"))
let maximumMegabytes = Double(option("--max-rss-mb", default: "4096")) ?? 4096

func fail(_ message: String, input: [UInt8]) -> Never {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-fuzz-failure-\(seed).ndjson")
    try? Data(input).write(to: path)
    FileHandle.standardError.write(Data("FAILED: \(message)\n  input written to \(path.path)\n".utf8))
    exit(1)
}

/// Runs one input; returns its seconds.
func check(_ input: [UInt8], _ name: String) -> Double {
    let start = Date()
    do {
        _ = try StreamCheck.run(input)
    } catch {
        fail("\(name): \(error)", input: input)
    }
    let elapsed = Date().timeIntervalSince(start)
    if elapsed > maximumInputSeconds { fail("\(name) took \(elapsed) s", input: input) }
    let megabytes = StreamCheck.peakResidentMegabytes()
    if megabytes > maximumMegabytes { fail("\(name) took the process to \(Int(megabytes)) MB", input: input) }
    return elapsed
}

let seeds = ((try? FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)) ?? [])
    .flatMap { folder in ["stream.ndjson", "before.ndjson", "after.ndjson"].map { folder.appendingPathComponent($0) } }
    .compactMap { FileManager.default.contents(atPath: $0.path).map(Array.init) }
guard !seeds.isEmpty else {
    FileHandle.standardError.write(Data("no seed streams under \(samples.path) (give --samples DIR)\n".utf8))
    exit(2)
}
print("coordlens-fuzz: seed \(seed), \(seeds.count) seed streams, shapes at size \(size), \(seconds) s of mutations")
for (name, input) in HostileShapes.all(size: size) {
    let elapsed = check(input, name)
    let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
    print(padded + String(format: " %8.3f s  %9.1f KB", elapsed, Double(input.count) / 1024))
}
var mutator = StreamMutator(seeds: seeds, seed: seed)
let deadline = Date().addingTimeInterval(seconds)
var count = 0
var slowest = 0.0
while Date() < deadline {
    count += 1
    slowest = max(slowest, check(mutator.next(), "mutated input \(count) of seed \(seed)"))
}
print(String(format: "  %d mutated inputs, slowest %.3f s; max resident memory %.0f MB", count, slowest, StreamCheck.peakResidentMegabytes()))
