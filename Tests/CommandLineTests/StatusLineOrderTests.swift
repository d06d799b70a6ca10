import Foundation
import TestSupport
import Testing

/// `listen`'s status lines come in the order the runs changed, one per change, however sessions and connections
/// interleave.
@Suite struct StatusLineOrderTests {
    private static func session(_ run: String) -> String {
        #"{"event":"session","v":1,"app":"Order","run":"\#(run)"}"# + "\n" + #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n"
    }

    private static let end = #"{"seq":2,"t":0.01,"event":"end"}"# + "\n"

    @Test(.timeLimit(.minutes(1)))
    func twoInterleavedRunsPrintInTheOrderTheyEndedOnceEach() throws {
        let listen = try ListenProcess([])
        defer { listen.stop() }
        let first = try RawConnection(port: listen.port)
        try first.send(Self.session("first"))
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" first [live]") } != nil, "\(listen.lines)")
        let second = try RawConnection(port: listen.port)
        try second.send(Self.session("second"))
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" second [live]") } != nil, "\(listen.lines)")

        // The run opened second ends first, both within one refresh: its line comes first all the same.
        try second.send(Self.end)
        // clock: the gap orders the two ends within one refresh, on two connections no event orders.
        Thread.sleep(forTimeInterval: 0.03)
        try first.send(Self.end)
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" first [ended]") } != nil, "\(listen.lines)")
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" second [ended]") } != nil, "\(listen.lines)")
        // The disconnects after the ends change nothing a status line shows: no line again.
        first.close()
        second.close()
        // clock: what is checked is that no line comes: the wait is for a line that must not, so it is a length of time.
        Thread.sleep(forTimeInterval: 0.8)

        let ended = listen.lines.filter { $0.contains("[ended]") }
        #expect(ended.count == 2, "one line per change: \(ended)")
        #expect(ended.first?.contains(" second [ended]") == true, "in the order the runs ended: \(ended)")
        #expect(listen.lines.filter { $0.contains(" first [live]") }.count == 1, "\(listen.lines)")
    }
}
