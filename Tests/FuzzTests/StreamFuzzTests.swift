import CoordinatorLens
import Foundation
import StreamFuzzing
import Testing

/// The fuzzer's engine, seeded and bounded: `swift run coordlens-fuzz --seconds N --seed S` runs it for longer.
@Suite struct StreamFuzzTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var seeds: [[UInt8]] {
        let samples = repository.appendingPathComponent("samples")
        let folders = (try? FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)) ?? []
        return folders.sorted { $0.path < $1.path }
            .flatMap { folder in ["stream.ndjson", "before.ndjson", "after.ndjson"].map { folder.appendingPathComponent($0) } }
            .compactMap { FileManager.default.contents(atPath: $0.path).map(Array.init) }
    }

    // Whether the work stays linear is `make bench`'s figure ("fuzz shapes at 4× the size"): a wall-clock bound here
    // failed under load (24.5 s against 20 s beside a build) and measured the machine, not the code.
    @Test(arguments: HostileShapes.all(size: 5_000).map(\.name))
    func hostileShapesPassEveryInvariant(name: String) throws {
        let input = try #require(HostileShapes.all(size: 5_000).first { $0.name == name }?.bytes)
        let outcome = try StreamCheck.run(input)
        #expect(outcome.sessions >= 1)
    }

    @Test func theShapesCarryTheirProblemsAsWarningsWithLineNumbers() throws {
        let overLong = try Recording(bytes: HostileShapes.overLongLine(bytes: (1 << 20) + 10)).sessions[0].snapshot()
        #expect(overLong.nodes.map(\.type) == ["Before", "After"])
        #expect(overLong.warnings.contains { $0.line == 3 && $0.message.contains("longer than") })
        let flood = try Recording(bytes: HostileShapes.warningFlood(lines: 5_000)).sessions[0].snapshot()
        #expect(flood.warnings.count == InputLimits.default.maximumWarnings + 1)
        // No line of the flood reads, so one summary warning comes first and takes one of the kept places.
        #expect(flood.warnings.first?.message.hasPrefix("no event could be used: all 5,000 of its event lines failed to read") == true)
        #expect(flood.warnings.last?.message.hasPrefix("… and 4,001 more warnings (only the first 1,000 are kept)") == true)
        let huge = try Recording(bytes: HostileShapes.hugeIDs()).sessions[0].snapshot()
        #expect(huge.nodes.map(\.type) == ["Even", "Odd", "Max", "Min"])
        #expect(huge.warnings.filter { $0.message.contains("must be an integer") }.map(\.line) == [6, 7])
        let moved = try Recording(bytes: HostileShapes.deepMoves(depth: 2_000, moves: 8_000)).sessions[0].snapshot()
        // Every 97th move goes under the flow's own screen: refused, the flow stays where the move before put it.
        #expect(moved.warnings.filter { $0.message.contains("would make a parent cycle") }.count == 83)
        #expect(moved.nodes.first { $0.type == "Flow" }?.parent == CoordinatorID(2_000 - 7_999 % 50))
        let marks = try Recording(bytes: HostileShapes.bigLabels(marks: 20, bytes: 200_000)).sessions[0].snapshot()
        #expect(marks.marks.count == 20)
        #expect(marks.marks.allSatisfy { $0.label.utf8.count < InputLimits.maximumLabelBytes + 100 && $0.label.hasSuffix("cut to 1024)") })
    }

    @Test func mutatedSampleStreamsPassEveryInvariant() throws {
        let seeds = Self.seeds
        try #require(seeds.count >= 6, "the samples' streams are the seeds")
        var mutator = StreamMutator(seeds: seeds, seed: 20_261_122)
        var warnings = 0
        for index in 0..<200 {
            let input = mutator.next()
            do {
                warnings += try StreamCheck.run(input).warnings
            } catch {
                Issue.record("mutated input \(index): \(error)")
                return
            }
        }
        #expect(warnings > 0, "mutations that never produce a warning test nothing")
        #expect(StreamCheck.peakResidentMegabytes() < 3_000, "the whole test process, every suite included")
    }
}
