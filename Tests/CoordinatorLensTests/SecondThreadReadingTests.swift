import Foundation
import Testing

@testable import CoordinatorLens

/// A chunk's whole lines may be split and decoded on a second thread (`RegionDecoder`) while the reader's thread
/// hands on their items. Whatever the chunking, what comes out must be what one thread makes: the same items in the
/// same order, each with the same line bytes, the same line count and the same run for the next chunk.
@Suite struct SecondThreadReadingTests {
    /// What a reader handed out: every item with its line's bytes, then its line count and current run.
    private struct Reading: Equatable {
        var items: [StreamReader.Item] = []
        var lines: [[UInt8]] = []
        var linesRead = 0
        var run: String?
        var regionsDecodedElsewhere = 0
    }

    /// Feeds `bytes` in chunks of `size`; with `onSecondThread` every chunk's whole lines go to a second thread.
    private func read(_ bytes: [UInt8], chunk size: Int, maxLineBytes: Int = .max, onSecondThread: Bool) -> Reading {
        var reader = StreamReader(maxLineBytes: maxLineBytes, inventedRunPrefix: "t2-")
        reader.concurrentRegionBytes = onSecondThread ? 0 : .max
        var reading = Reading()
        func take(_ item: StreamReader.Item, _ line: UnsafeBufferPointer<UInt8>) {
            reading.items.append(item)
            reading.lines.append(Array(line))
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { reader.consume($0, take) }
            start = end
        }
        reader.finish(take)
        reading.linesRead = reader.linesRead
        reading.run = reader.run
        reading.regionsDecodedElsewhere = reader.regionsDecodedElsewhere
        return reading
    }

    /// Every kind of line a reader meets: events before any session line, two runs taking turns, a byte order mark,
    /// blank and whitespace lines, CRLF, escapes the general decoder reads, malformed lines, lines over the limit in
    /// the middle, and a last line with no newline.
    private var mixedInput: [UInt8] {
        var text = "\u{FEFF}{\"seq\":1,\"t\":0.5,\"event\":\"add\",\"id\":1,\"type\":\"Early\"}\n"
        for round in 0..<40 {
            let run = round % 3 == 0 ? "b" : "a"
            text += "{\"event\":\"session\",\"v\":1,\"app\":\"App\",\"run\":\"\(run)\"}\n"
            text +=
                "{\"seq\":\(round * 10 + 2),\"t\":\(round).25,\"event\":\"add\",\"id\":\(round + 2),\"type\":\"Flow\(round % 4)Coordinator\",\"parent\":1,\"file\":\"App/Flows.swift\",\"line\":\(round),\"function\":\"start()\"}\n"
            text += "\n   \n"
            text += "{\"seq\":\(round * 10 + 3),\"t\":\(round).5,\"event\":\"bind\",\"id\":\(round + 2),\"screen\":\"Screen\\u0041\(round)\"}\r\n"
            text += "not json at all \(round)\n"
            text += "{ \"event\" : \"dismiss\" , \"id\" : \(round + 2), \"seq\" : \(round * 10 + 4), \"t\" : \(round).75 }\n"
            text += "{\"seq\":\(round * 10 + 5),\"t\":\(round).9,\"event\":\"mark\",\"label\":\"" + String(repeating: "x", count: round * 9) + "\"}\n"
            text += "{\"seq\":\(round * 10 + 6),\"t\":\(round).95,\"event\":\"deinit\",\"id\":\(round + 2)}\n"
        }
        text += "{\"seq\":999,\"t\":99.5,\"event\":\"end\"}"
        return Array(text.utf8)
    }

    @Test func itemsAreTheSameAsOnOneThreadWhateverTheChunking() {
        let input = mixedInput
        for size in [1, 2, 7, 64, 100, 333, 1_000, 4_096, input.count] {
            let oneThread = read(input, chunk: size, onSecondThread: false)
            let twoThreads = read(input, chunk: size, onSecondThread: true)
            #expect(oneThread.regionsDecodedElsewhere == 0)
            #expect(
                oneThread
                    == Reading(
                        items: twoThreads.items, lines: twoThreads.lines, linesRead: twoThreads.linesRead, run: twoThreads.run),
                "chunks of \(size) bytes")
            if size >= 100 { #expect(twoThreads.regionsDecodedElsewhere > 0, "chunks of \(size) bytes went to a second thread") }
        }
    }

    @Test func linesOverTheLimitAreSkippedAlikeInsideARegionAndAcrossChunks() {
        let input = mixedInput
        // 200 bytes: the longer marks and adds are over it, in the middle of regions and across chunk boundaries.
        let longLines = input.split(separator: 0x0A, omittingEmptySubsequences: false).filter { $0.count > 200 }.count
        #expect(longLines >= 10)
        for size in [50, 199, 201, 1_000, input.count] {
            let oneThread = read(input, chunk: size, maxLineBytes: 200, onSecondThread: false)
            let twoThreads = read(input, chunk: size, maxLineBytes: 200, onSecondThread: true)
            let overlong = oneThread.items.filter { if case .overlong = $0 { true } else { false } }.count
            #expect(overlong == longLines)
            #expect(oneThread.items == twoThreads.items && oneThread.lines == twoThreads.lines, "chunks of \(size) bytes")
            #expect(oneThread.linesRead == twoThreads.linesRead)
        }
    }

    @Test func aRecordingReadInLargeChunksIsTheSameOnTwoThreads() throws {
        // Over the default threshold, so the default reader takes the second thread (on a machine with two cores).
        var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Big\",\"run\":\"big\"}\n"
        text += "{\"seq\":1,\"t\":0.001,\"event\":\"add\",\"id\":1,\"type\":\"AppCoordinator\"}\n"
        var seq = 1
        for id in 2..<20_000 {
            seq += 1
            text += "{\"seq\":\(seq),\"t\":\(Double(seq) / 1000),\"event\":\"add\",\"id\":\(id),\"type\":\"Feature\(id % 7)Coordinator\",\"parent\":1}\n"
            seq += 1
            text += "{\"seq\":\(seq),\"t\":\(Double(seq) / 1000),\"event\":\"dismiss\",\"id\":\(id)}\n"
            if id % 9 != 0 {
                seq += 1
                text += "{\"seq\":\(seq),\"t\":\(Double(seq) / 1000),\"event\":\"deinit\",\"id\":\(id)}\n"
            }
            if id % 5_000 == 0 { text += "{\"seq\":\"broken\"}\n" }
        }
        let bytes = Array(text.utf8)
        for retention in [Recording.Retention.everyLine, .treeAtEnd] {
            func recording(concurrentRegionBytes: Int) -> Recording {
                var recording = Recording(keeping: retention)
                recording.concurrentRegionBytes = concurrentRegionBytes
                var start = 0
                while start < bytes.count {
                    let end = min(start + (1 << 20), bytes.count)
                    bytes[start..<end].withUnsafeBytes { recording.consume($0) }
                    start = end
                }
                recording.finish()
                return recording
            }
            let oneThread = recording(concurrentRegionBytes: .max)
            let twoThreads = recording(concurrentRegionBytes: 1 << 18)
            #expect(twoThreads.regionsDecodedElsewhere > 0)
            #expect(oneThread.sessions.map(\.entries) == twoThreads.sessions.map(\.entries))
            #expect(oneThread.sessions.map(\.notes) == twoThreads.sessions.map(\.notes))
            let snapshot = try #require(try oneThread.sessions.first?.snapshot())
            #expect(try twoThreads.sessions.first?.snapshot() == snapshot)
            #expect(snapshot.nodes.count == 19_999 && snapshot.warnings.count == 3, "every line read, the broken ones reported")
        }
    }
}
