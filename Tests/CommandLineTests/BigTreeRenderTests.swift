import Foundation
import TestSupport
import Testing

/// Big trees through the real `coordlens render`: readable by default, legible when drawn whole.
@Suite struct BigTreeRenderTests {
    /// A 4-ary tree of `size` coordinators with leaks at `leaks`, as a recording.
    static func recording(size: Int, leaks: [Int]) -> String {
        let types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "ItemCoordinator"]
        var lines = [#"{"event":"session","v":1,"app":"BigApp","run":"big"}"#]
        var seq = 0
        func add(_ body: String, at time: Double) {
            seq += 1
            lines.append(#"{"seq":\#(seq),"t":\#(time),\#(body)}"#)
        }
        add(#""event":"add","id":1,"type":"AppCoordinator""#, at: 0)
        for id in 2...size {
            add(#""event":"add","id":\#(id),"type":"\#(types[(id - 2) % 4])","parent":\#((id - 2) / 4 + 1)"#, at: 0.001)
        }
        for id in leaks { add(#""event":"dismiss","id":\#(id)"#, at: 1) }
        // Ended, as a run that calls end() is: one that stops without it gets a note on standard error.
        add(#""event":"end""#, at: 10)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Width and height from a PNG's header.
    static func pngSize(_ bytes: Data) -> (width: Int, height: Int) {
        let field = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (field(16), field(20))
    }

    @Test func aThousandNodeTreeDrawnWholeWrapsIntoALegiblePNG() async throws {
        let input = try Streams.file(Self.recording(size: 1_000, leaks: [37, 402, 977]))
        let output = input + ".png"
        let result = try await BuiltProduct.coordlens.runAsync(["render", input, "--all", "-o", output])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "libgvc said nothing, such as that it scaled the bitmap: \(result.standardError)")
        let (width, height) = Self.pngSize(try #require(FileManager.default.contents(atPath: output)))
        #expect(width <= 16_000 && height <= 16_000, "\(width) × \(height)")
        // 1,000 nodes of about 170 × 50 points at 96 dpi need this much area when nothing is scaled down.
        #expect(width * height > 1_000 * 220 * 60, "\(width) × \(height) is too small to hold the labels at full size")
    }

    @Test func byDefaultTheSameTreeFitsOnAScreen() async throws {
        let input = try Streams.file(Self.recording(size: 1_000, leaks: [37, 402, 977]))
        let output = input + ".png"
        let result = try await BuiltProduct.coordlens.runAsync(["render", input, "-o", output])
        #expect(result.status == 0)
        let (width, height) = Self.pngSize(try #require(FileManager.default.contents(atPath: output)))
        #expect(width <= 5_000 && height <= 1_500, "\(width) × \(height)")
    }

    @Test(.timeLimit(.minutes(3)))
    func twentyThousandCoordinatorsDrawnWholeComplete() async throws {
        let input = try Streams.file(Self.recording(size: 20_000, leaks: [37]))
        let output = input + ".svg"
        let result = try await BuiltProduct.coordlens.runAsync(["render", input, "--all", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let svg = String(decoding: try #require(FileManager.default.contents(atPath: output)), as: UTF8.self)
        #expect(svg.contains("id=\"c20000\""))
    }
}
