import Foundation

/// A session summary ready for the feed, with when it was judged.
struct FeedSummary: Sendable {
    var run: String
    var judgedAt: Date
    var text: String
}

/// Keeps the feed's summaries of each run in the order they were judged. A round of the feed and the refresher judge
/// on two threads and hand their summaries over in either order: a pending one judged first and sent last had the page
/// believe a leak the feed had just called retained was pending again.
struct FeedOrder: Sendable {
    private var lastSent: [String: Date] = [:]

    /// The summaries judged no earlier than the last one let through for their run; the runs `gone` start afresh.
    mutating func fresh(_ summaries: [FeedSummary], gone: Set<String> = []) -> [FeedSummary] {
        for run in gone { lastSent[run] = nil }
        return summaries.filter { summary in
            if let last = lastSent[summary.run], summary.judgedAt < last { return false }
            lastSent[summary.run] = summary.judgedAt
            return true
        }
    }

    /// A judgement of `run` went out to a page by another way (a page's first message, every session at once): none
    /// judged before it is let through after it.
    mutating func sent(run: String, judgedAt: Date) {
        lastSent[run] = max(lastSent[run] ?? judgedAt, judgedAt)
    }
}
