import Foundation
import Testing

@testable import CoordinatorLensServer

/// The feed's summaries of a run reach the pages in the order they were judged, whichever thread hands them over first.
@Suite struct FeedOrderTests {
    private let t0 = Date(timeIntervalSinceReferenceDate: 1_000_000)

    private func summary(_ run: String, _ seconds: Double, _ text: String) -> FeedSummary {
        FeedSummary(run: run, judgedAt: t0.addingTimeInterval(seconds), text: text)
    }

    @Test func aSummaryJudgedBeforeTheLastOneSentIsDropped() {
        var order = FeedOrder()
        #expect(order.fresh([summary("a", 1, "a retained")]).map(\.text) == ["a retained"])
        // The round judged "pending" before the refresher judged "retained", and handed it over after.
        #expect(order.fresh([summary("a", 0.5, "a pending"), summary("b", 0.5, "b")]).map(\.text) == ["b"])
        #expect(order.fresh([summary("a", 1, "a again")]).map(\.text) == ["a again"], "the same judgement, sent again")
    }

    @Test func aRunThatWentStartsAfresh() {
        var order = FeedOrder()
        _ = order.fresh([summary("a", 5, "old a")])
        #expect(order.fresh([summary("a", 1, "new a")], gone: ["a"]).map(\.text) == ["new a"])
    }

    @Test func aJudgementSentToANewPageHoldsBackOlderOnesHandedOverLater() {
        var order = FeedOrder()
        _ = order.fresh([summary("a", 1, "a pending")])
        // A page connects and is sent the latest judgement (retained); a round's judgement from between, handed over
        // after, would tell that page "pending" again.
        order.sent(run: "a", judgedAt: t0.addingTimeInterval(3))
        #expect(order.fresh([summary("a", 2, "a pending, later")]).isEmpty)
        order.sent(run: "a", judgedAt: t0.addingTimeInterval(2))
        #expect(order.fresh([summary("a", 2.5, "a between")]).isEmpty, "an earlier page's first message moves nothing back")
        #expect(order.fresh([summary("a", 3, "a retained")]).map(\.text) == ["a retained"])
    }
}
