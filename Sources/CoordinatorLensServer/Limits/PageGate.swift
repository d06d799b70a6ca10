import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// The page port's connections: at most `limit` open, idle ones included, so descriptors stay free for hooks.
///
/// A connection *waits* until it shows a request the page takes: any whole request head on loopback, one that brings
/// the token (by cookie, header or address) beyond it. At most `waitingLimit` wait at once (beyond loopback a small
/// share), and a new connection that finds either limit reached takes the place of the one that has waited longest,
/// which is closed: clients that send nothing, drip their requests or lack the token can never keep a browser that
/// does from the page, however many connections they open. Only when every connection has shown a request is a new
/// one turned away. Refusals and replacements are said on one status line per few seconds (`RefusalSummary`).
final class PageGate: Sendable {
    private struct State {
        var room = WaitingRoom()
        var full = false
    }

    let limit: Int
    let waitingLimit: Int
    private let summary: RefusalSummary
    private let log: @Sendable (String) -> Void
    private let state = NIOLockedValueBox(State())

    init(limit: Int, waitingLimit: Int, summary: RefusalSummary, log: @escaping @Sendable (String) -> Void) {
        self.limit = max(1, limit)
        self.waitingLimit = max(1, min(limit, waitingLimit))
        self.summary = summary
        self.log = log
    }

    /// The share of `limit` that may wait at once beyond loopback: a quarter of it, 8 to 256. A browser shows its token
    /// at once, so it needs few; the more there are, the longer a newcomer survives clients that churn through them.
    static func waitingShare(of limit: Int) -> Int {
        max(8, min(256, limit / 4))
    }

    /// Whether a newly accepted connection may stay (when it may not, the caller closes it); makes room by closing
    /// the connection that has waited longest.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, replaced, firstFull, waitersFull) = state.withLockedValue { state -> (Bool, (any Channel)?, Bool, Bool) in
            var replaced: (any Channel)?
            let waitersFull = state.room.count < limit
            if state.room.count >= limit || state.room.waiting >= waitingLimit {
                guard let oldest = state.room.takeOldestWaiting() else {
                    defer { state.full = true }
                    return (false, nil, !state.full, false)
                }
                replaced = oldest
            }
            _ = state.room.add(channel, waits: true)
            return (true, replaced, false, waitersFull)
        }
        if firstFull {
            log("page connection limit of \(limit) reached, every one showing a request: closing new page connections until one ends")
        }
        if let replaced {
            replaced.close(promise: nil)
            // Which limit made room is what the line names: the waiting places fill long before the connection limit.
            let full =
                waitersFull
                ? "all \(waitingLimit) places for page connections waiting for a request taken"
                : "page connection limit of \(limit) reached (at most \(waitingLimit) waiting for a request)"
            summary.note(
                "\(full): closing the page connections that have waited longest to make room",
                reason: "page connections closed to make room, having sent no request")
        } else if !admitted {
            summary.note("page connection turned away: all \(limit) show requests", reason: "page connections over the limit")
        }
        return admitted
    }

    /// The connection showed a request the page takes: it no longer waits, and is never closed to make room.
    func prove(_ channel: any Channel) {
        state.withLockedValue { $0.room.prove(channel) }
    }

    func release(_ channel: any Channel) {
        let message = state.withLockedValue { state -> String? in
            guard state.room.remove(channel), state.full, state.room.count < limit else { return nil }
            state.full = false
            return "accepting page connections again"
        }
        message.map(log)
    }

    /// Closes every open connection.
    func closeAll() async {
        for channel in state.withLockedValue({ $0.room.channels }) {
            try? await channel.close()
        }
    }

    /// Connections open now, and how many of them wait for a request (for tests).
    var counts: (open: Int, waiting: Int) {
        state.withLockedValue { ($0.room.count, $0.room.waiting) }
    }

}
