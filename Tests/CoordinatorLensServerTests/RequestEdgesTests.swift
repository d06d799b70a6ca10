import Foundation
import NIOConcurrencyHelpers
import NIOEmbedded
import Testing

@testable import CoordinatorLensServer

/// The edges of what the two ports accept: a session line's acknowledgement flag read as JSON, one Host header, an
/// absolute-form target for this inspector only, the Bearer scheme in any case, and a status line that names the
/// limit that made room.
@Suite struct RequestEdgesTests {
    @Test(arguments: [
        (#"{"type":"session","acks":1}"#, true), (#"{"type":"session","acks": 1}"#, true),
        (#"{ "acks" :1.0 , "type":"session"}"#, true), (#"{"type":"session","acks":10}"#, false),
        (#"{"type":"session","label":"\"acks\":1"}"#, false), (#"{"type":"session"}"#, false), (#"{"acks":1"#, false),
    ])
    func theAcknowledgementFlagIsReadAsJSON(line: String, asks: Bool) {
        let bytes = Array(line.utf8)
        let read = bytes.withUnsafeBufferPointer { HookConnectionHandler.asksForAcknowledgements($0) }
        #expect(read == asks, "\(line)")
    }

    @Test func aSecondHostHeaderIsRefused() {
        let check = HostCheck(port: 7421)
        #expect(check.destination(target: "/", hostHeaders: ["127.0.0.1:7421"]) == .route("/"))
        guard case .refuse(400, _) = check.destination(target: "/", hostHeaders: ["127.0.0.1:7421", "evil.example:7421"]) else {
            Issue.record("two Host headers were not refused")
            return
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:7421/api/sessions", "/api/sessions"), ("HTTP://localhost:7421", "/"),
        ("http://127.0.0.1:7421?x=1", "/?x=1"),
    ])
    func anAbsoluteTargetForThisInspectorIsRoutedByItsPath(target: String, path: String) {
        #expect(HostCheck(port: 7421).destination(target: target, hostHeaders: ["127.0.0.1:7421"]) == .route(path))
    }

    @Test(arguments: ["http://other.example/api/sessions", "http://127.0.0.1:80/", "http://u@127.0.0.1:7421/", "api/sessions", "*"])
    func anyOtherTargetIsRefused(target: String) {
        let destination = HostCheck(port: 7421).destination(target: target, hostHeaders: ["127.0.0.1:7421"])
        guard case .refuse(let status, _) = destination, status == 421 || status == 400 else {
            Issue.record("\(target): \(destination)")
            return
        }
    }

    @Test func theBearerSchemeIsReadInAnyCase() throws {
        let token = try #require(AccessToken("abcdefghijklmnopqrstuvwxyz012345"))
        let access = PageAccess(token: token, port: 7421)
        for header in ["Bearer abcdefghijklmnopqrstuvwxyz012345", "bearer abcdefghijklmnopqrstuvwxyz012345", "BEARER  abcdefghijklmnopqrstuvwxyz012345"] {
            #expect(access.decide(target: "/", cookieHeader: nil, authorization: header) == .allow, "\(header)")
        }
        for header in ["Basic abcdefghijklmnopqrstuvwxyz012345", "Bearer wrong", "Bearer", "Bearerabcdefghijklmnopqrstuvwxyz012345"] {
            #expect(access.decide(target: "/", cookieHeader: nil, authorization: header) == .refuse, "\(header)")
        }
    }

    @Test func theStatusLineNamesTheWaitingPlacesWhenTheyAreWhatIsFull() throws {
        let loop = EmbeddedEventLoop()
        let lines = NIOLockedValueBox<[String]>([])
        let log: @Sendable (String) -> Void = { line in lines.withLockedValue { $0.append(line) } }
        let gate = PageGate(limit: 1_024, waitingLimit: 4, summary: RefusalSummary(timers: loop, log: log), log: log)
        for _ in 0..<5 { #expect(gate.admit(EmbeddedChannel())) }
        let said = lines.withLockedValue { $0 }
        #expect(said.count == 1)
        #expect(said.first?.contains("all 4 places for page connections waiting for a request taken") == true, "\(said)")
        #expect(said.first?.contains("limit of 1024 reached") == false)
    }

    @Test func theHookPortSaysTheSameOfItsWaitingPlaces() {
        let loop = EmbeddedEventLoop()
        let lines = NIOLockedValueBox<[String]>([])
        let log: @Sendable (String) -> Void = { line in lines.withLockedValue { $0.append(line) } }
        let gate = ConnectionGate(limit: 1_024, waitingLimit: 4, summary: RefusalSummary(timers: loop, log: log), log: log)
        for _ in 0..<5 { #expect(gate.admit(EmbeddedChannel()) != nil) }
        let said = lines.withLockedValue { $0 }
        #expect(said == ["all 4 places for connections waiting for a token taken: closing the connections that have waited longest to make room"])
    }
}
