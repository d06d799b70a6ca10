import CoordinatorLens
import CoordinatorLensPage
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import CoordinatorLensServer

/// `listen` judges a run once per version and once more when a pending coordinator's grace runs out, and everything
/// about the run (the feed's summary, the picture, the model) says that judgement's id. On a clock the test moves: no
/// sleeps.
@Suite struct OneJudgementTests {
    /// The inspector's clock, moved by the test.
    private final class TestClock: Sendable {
        private let now = NIOLockedValueBox(Date(timeIntervalSinceReferenceDate: 1_000_000))
        var read: @Sendable () -> Date { { self.now.withLockedValue { $0 } } }
        func advance(by seconds: Double) { now.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// A live run whose modal was dismissed 0.5 s before its last line: pending, retained once 2 s of grace pass.
    private static func sessions(clock: TestClock) -> LiveSessions {
        let sessions = LiveSessions(grace: 2, clock: clock.read)
        _ = sessions.open(SessionHeader(app: "Shop", run: "r"), now: clock.read())
        let lines: [Event] = [.add(id: 1, type: "AppCoordinator", parent: nil), .add(id: 2, type: "CheckoutCoordinator", parent: 1), .dismiss(id: 2)]
        for (index, event) in lines.enumerated() {
            sessions.apply(EventRecord(seq: index + 1, time: index == 2 ? 1.0 : 0.5, event: event, line: index + 2), run: "r", now: clock.read())
        }
        sessions.apply(EventRecord(seq: 4, time: 1.5, event: .mark(label: "idle"), line: 5), run: "r", now: clock.read())
        return sessions
    }

    private static func header(_ name: String, of response: InspectorPage.Response) -> String? {
        response.headers.first { $0.0 == name }?.1
    }

    @Test func aGraceRunningOutMakesExactlyOneNewJudgementThatEveryAnswerSays() throws {
        let clock = TestClock()
        let sessions = Self.sessions(clock: clock)
        let page = InspectorPage(sessions: sessions, grace: 2)

        let first = try #require(sessions.judgement(run: "r"))
        #expect(first.counts[.pending] == 1 && first.counts[.retained] == nil, "\(first.counts)")
        // Dismissed at 1.0, judged at 1.5 (its last line, no time since): retained 1.5 s from now, and a hair after.
        let deadline = try #require(first.deadline)
        #expect(abs(deadline.timeIntervalSince(clock.read()) - 1.51) < 1e-6)

        clock.advance(by: 1.5)
        #expect(sessions.judgement(run: "r")?.id == first.id, "nothing changed and no grace ran out: the same judgement")
        #expect(sessions.stamp(run: "r") == SharedAnswers.Stamp(judgement: first.id, due: false))

        clock.advance(by: 0.01)
        #expect(sessions.stamp(run: "r") == SharedAnswers.Stamp(judgement: first.id, due: true), "the deadline passed")
        let turned = try #require(sessions.judgement(run: "r"))
        #expect(turned.id == first.id + 1 && turned.version == first.version, "one new judgement of the same version")
        #expect(turned.counts[.retained] == 1 && turned.counts[.pending] == nil, "\(turned.counts)")
        #expect(turned.deadline == nil, "nothing pending is left to turn")

        // The feed's summary, the model and the picture, asked after it: all from that judgement.
        let summary = PageFeed.message("session", SessionSummary(try #require(sessions.live(run: "r", grace: 2))))
        #expect(summary.contains("\"judgement\":\(turned.id)"), "\(summary)")
        let model = page.respond(to: .model(ViewQuery(run: "r")))
        #expect(model.status == 200 && Self.header("X-Lens-Judgement", of: model) == String(turned.id))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(model.body)) as? [String: Any])
        let modelSummary = try #require(json["summary"] as? [String: Any])
        #expect(modelSummary["judgement"] as? Int == turned.id)
        #expect((modelSummary["counts"] as? [String: Int])?["retained"] == 1)
        let picture = page.respond(to: .tree(ViewQuery(run: "r")))
        #expect(picture.status == 200 && Self.header("X-Lens-Judgement", of: picture) == String(turned.id))

        clock.advance(by: 60)
        #expect(sessions.judgement(run: "r")?.id == turned.id, "a minute of quiet later, still the same judgement")
    }

    @Test func anotherGraceIsTheSameMomentJudgedWithItAndNamedByTheSameJudgement() throws {
        let clock = TestClock()
        let sessions = Self.sessions(clock: clock)
        clock.advance(by: 1.6)
        let judgement = try #require(sessions.judgement(run: "r"))
        #expect(judgement.counts[.retained] == 1)
        clock.advance(by: 5)
        let patient = try #require(sessions.live(run: "r", grace: 30))
        #expect(patient.judgement == judgement.id)
        #expect(patient.snapshot.counts[.pending] == 1, "judged at the judgement's moment, with 30 s of grace")
        #expect(patient.snapshot.evaluatedAt == judgement.live.snapshot.evaluatedAt)
    }

    @Test func theFeedTakesARunWhoseDeadlinePassedAsChanged() throws {
        let clock = TestClock()
        let sessions = Self.sessions(clock: clock)
        _ = sessions.takeChangedRuns()
        #expect(sessions.takeChangedRuns().changed.isEmpty)
        sessions.markDue(run: "r")
        #expect(sessions.takeChangedRuns().changed == ["r"])
        sessions.markDue(run: "not held")
        #expect(sessions.takeChangedRuns() == (changed: [], gone: []))
    }
}
