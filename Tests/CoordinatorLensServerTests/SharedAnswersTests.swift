import Foundation
import Testing

@testable import CoordinatorLensServer

/// The page's shared answers, called directly: built once per judgement of a session, never older than the latest
/// when asked, and while a newer one is built the last one is handed out at once, marked stale.
@Suite struct SharedAnswersTests {
    private static let model = SharedAnswers.Key.model(ViewQuery(run: "r"))

    private static func answer(_ text: String, status: Int = 200) -> PageAnswer {
        PageAnswer(InspectorPage.Response.text(status, text))
    }

    private static func text(_ answer: PageAnswer) -> String {
        String(decoding: answer.body.readableBytesView, as: UTF8.self)
    }

    /// Collects what a request is handed later (when it joined a build).
    private final class Delivered: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [PageAnswer] = []
        var texts: [String] { lock.withLock { answers.map(SharedAnswersTests.text) } }
        func deliver(_ answer: PageAnswer) { lock.withLock { answers.append(answer) } }
    }

    private static func stamp(_ judgement: Int, due: Bool = false) -> SharedAnswers.Stamp {
        SharedAnswers.Stamp(judgement: judgement, due: due)
    }

    @Test func aRequestWaitsForTheBuildInHandThenTakesTheLastAnswerStale() throws {
        let answers = SharedAnswers()
        let first = Delivered()
        let joining = Delivered()
        guard case .build(staleAfter: nil) = answers.request(Self.model, stamp: Self.stamp(1), deliver: first.deliver) else {
            Issue.record("the first request builds, with no earlier answer to fall back on")
            return
        }
        guard case .joined(staleAfter: nil) = answers.request(Self.model, stamp: Self.stamp(1), deliver: joining.deliver) else {
            Issue.record("a request during the first build waits for it")
            return
        }
        answers.finish(Self.model, Self.answer("v1"), judgement: 1)
        #expect(first.texts == ["v1\n"] && joining.texts == ["v1\n"])
        guard case .ready(let standing) = answers.request(Self.model, stamp: Self.stamp(1), deliver: { _ in }) else {
            Issue.record("the answer stands while the session keeps its version")
            return
        }
        #expect(Self.text(standing) == "v1\n" && !standing.stale)

        // The session moved on: one request builds; it and one that joins may each take v1, stale, after waiting.
        let builder = Delivered()
        let patient = Delivered()
        let impatient = Delivered()
        guard case .build(let builderNumber?) = answers.request(Self.model, stamp: Self.stamp(2), deliver: builder.deliver) else {
            Issue.record("the request that finds the session moved on builds, and may fall back on v1")
            return
        }
        guard case .joined(staleAfter: _?) = answers.request(Self.model, stamp: Self.stamp(2), deliver: patient.deliver),
            case .joined(let impatientNumber?) = answers.request(Self.model, stamp: Self.stamp(2), deliver: impatient.deliver)
        else {
            Issue.record("requests during the build wait for it, and may fall back on v1")
            return
        }
        let stale = try #require(answers.staleAnswer(Self.model, for: impatientNumber))
        #expect(Self.text(stale) == "v1\n" && stale.stale)
        #expect(answers.staleAnswer(Self.model, for: impatientNumber) == nil, "a request is answered once")
        #expect(try #require(answers.staleAnswer(Self.model, for: builderNumber)).stale)
        answers.finish(Self.model, Self.answer("v2"), judgement: 2)
        #expect(builder.texts.isEmpty && impatient.texts.isEmpty, "answered stale already, not again")
        #expect(patient.texts == ["v2\n"], "the one still waiting gets the new answer")
        guard case .ready(let fresh) = answers.request(Self.model, stamp: Self.stamp(2), deliver: { _ in }) else {
            Issue.record("the new answer stands")
            return
        }
        #expect(Self.text(fresh) == "v2\n" && !fresh.stale)
        let counts = answers.builds
        #expect(counts.built == 2 && counts.stale == 2, "\(counts)")
    }

    @Test func aBuildTurnedAwayKeepsTheLastAnswerForTheNextRequest() {
        let answers = SharedAnswers()
        _ = answers.request(Self.model, stamp: Self.stamp(1), deliver: { _ in })
        answers.finish(Self.model, Self.answer("v1"), judgement: 1)
        let turnedAway = Delivered()
        guard case .build(let number?) = answers.request(Self.model, stamp: Self.stamp(2), deliver: turnedAway.deliver) else {
            Issue.record("a build for version 2")
            return
        }
        answers.fail(Self.model, Self.answer("busy", status: 503))
        #expect(turnedAway.texts == ["busy\n"])
        #expect(answers.staleAnswer(Self.model, for: number) == nil, "answered once, with the 503")
        guard case .build(staleAfter: _?) = answers.request(Self.model, stamp: Self.stamp(2), deliver: { _ in }) else {
            Issue.record("the next request builds again, and still has v1 to fall back on")
            return
        }
    }

    @Test func aBuiltAnswerIsTaggedAndKnownByTheTagAClientSendsBack() throws {
        let answers = SharedAnswers()
        _ = answers.request(Self.model, stamp: Self.stamp(1), deliver: { _ in })
        answers.finish(Self.model, Self.answer("v1"), judgement: 1)
        guard case .ready(let first) = answers.request(Self.model, stamp: Self.stamp(1), deliver: { _ in }) else {
            Issue.record("v1 stands")
            return
        }
        let tag = try #require(first.tag)
        #expect(tag.hasPrefix("W/\"") && tag.hasSuffix("\""))
        #expect(first.isHeld(byClientSending: tag))
        #expect(first.isHeld(byClientSending: "\"other\", " + tag))
        #expect(first.isHeld(byClientSending: String(tag.dropFirst(2))), "weak comparison: the tag without W/ names it too")
        #expect(!first.isHeld(byClientSending: nil) && !first.isHeld(byClientSending: "W/\"other\""))

        _ = answers.request(Self.model, stamp: Self.stamp(2), deliver: { _ in })
        answers.finish(Self.model, Self.answer("v2"), judgement: 2)
        guard case .ready(let second) = answers.request(Self.model, stamp: Self.stamp(2), deliver: { _ in }) else {
            Issue.record("v2 stands")
            return
        }
        #expect(second.tag != first.tag && !second.isHeld(byClientSending: tag), "a new build has a new tag")
        #expect(PageAnswer(InspectorPage.Response.text(503, "busy")).tag == nil)
    }

    @Test func anAnswerStandsUntilANewJudgementIsDue() {
        let answers = SharedAnswers()
        _ = answers.request(Self.model, stamp: Self.stamp(4), deliver: { _ in })
        answers.finish(Self.model, Self.answer("j4"), judgement: 4)
        guard case .ready = answers.request(Self.model, stamp: Self.stamp(4), deliver: { _ in }) else {
            Issue.record("judgement 4 is the latest and none is due: its answer stands")
            return
        }
        // A pending coordinator's grace ran out (or a line came): judgement 4 no longer says what is true.
        guard case .build = answers.request(Self.model, stamp: Self.stamp(4, due: true), deliver: { _ in }) else {
            Issue.record("a new judgement is due: the answer is built again")
            return
        }
    }

    @Test func aRequestThatJoinsABuildOfAnOlderJudgementWaitsForTheNextBuild() {
        let answers = SharedAnswers()
        let early = Delivered()
        let late = Delivered()
        // The build starts while judgement 1 is the latest, a new one due; it judges (2) and builds from that.
        guard case .build = answers.request(Self.model, stamp: Self.stamp(1, due: true), deliver: early.deliver) else {
            Issue.record("the first request builds")
            return
        }
        // Meanwhile the feed judged again (3) and told a page, which asks: the build in hand may show only 2.
        guard case .joined = answers.request(Self.model, stamp: Self.stamp(3), deliver: late.deliver) else {
            Issue.record("a request during a build joins it")
            return
        }
        let again = answers.finish(Self.model, Self.answer("j2"), judgement: 2, last: false)
        #expect(again, "one request waits for a newer judgement: the builder builds again")
        #expect(early.texts == ["j2\n"] && late.texts.isEmpty, "judgement 2 is new enough for the first, not for the second")
        #expect(!answers.finish(Self.model, Self.answer("j3"), judgement: 3, last: false))
        #expect(late.texts == ["j3\n"], "never an answer older than the judgement the page was told of")
        guard case .ready = answers.request(Self.model, stamp: Self.stamp(3), deliver: { _ in }) else {
            Issue.record("judgement 3's answer stands")
            return
        }
    }

    @Test func theLastBuildInARowGoesToEveryRequestWaiting() {
        let answers = SharedAnswers()
        let waiting = Delivered()
        _ = answers.request(Self.model, stamp: Self.stamp(1, due: true), deliver: { _ in })
        _ = answers.request(Self.model, stamp: Self.stamp(9), deliver: waiting.deliver)
        #expect(!answers.finish(Self.model, Self.answer("j2"), judgement: 2, last: true))
        #expect(waiting.texts == ["j2\n"], "answered, older: its page asks again on the feed's next summary")
    }
}
