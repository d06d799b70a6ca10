import Foundation

/// The writer's delivery: the backlog of encoded lines to the sink, what the receiver confirmed or refused, and, at
/// the session's end, the last lines within `endTimeout`, with what was surely lost counted and said.
extension SessionWriter {
    /// How far the receiver confirmed the session's lines: every seq below the oldest line still held here (in the
    /// backlog, or delivered and not confirmed) is confirmed or counted dropped. Whether the receiver confirms at all.
    func noteConfirmation() -> Bool {
        guard let acknowledged else {
            confirmedThrough = .max
            return true
        }
        var oldest = acknowledged.oldestUnacknowledgedSeq
        // The session line, unsent until a connection opens, has no seq: the line after it does.
        for line in backlog[backlogStart...].prefix(2) {
            if let waiting = TCPSink.seq(of: line) {
                oldest = min(oldest ?? waiting, waiting)
                break
            }
        }
        confirmedThrough = oldest.map { $0 - 1 } ?? seq
        return acknowledged.acknowledges != false
    }

    /// Lines the receiver took and did not keep (too long, unreadable, a recording its disk refused): counted dropped,
    /// and said once on the app's console with the receiver's reason.
    func takeRefusedLines() {
        guard let acknowledged else { return }
        let (lines, why) = acknowledged.takeRefusedLines()
        guard lines.events > 0 else { return }
        count(dropped: lines.events)
        guard !refusalTold else { return }
        refusalTold = true
        let receiver = (sink as? TCPSink).map { " at \($0.host):\($0.port)" } ?? ""
        let message =
            "CoordinatorTrace: coordlens listen\(receiver) did not keep \(lines.events) event\(lines.events == 1 ? "" : "s") it was sent (\(why ?? "no reason given")); "
            + "counted dropped (Tracer.counts.dropped), and later ones too without a word\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// `endTimeout` split: the time to deliver what is left, then the reserve for the last lines of a session that gives
    /// up (its `dropped` line and the `end` again).
    var endBudget: (delivering: UInt64, total: UInt64) {
        let total = UInt64(options.endTimeout * 1e9)
        return (total - min(total / 2, 1_000_000_000), total)
    }

    /// Delivers what is left within `endTimeout` from `start`, giving up on a sink that takes nothing three times
    /// running with no live connection and no receiver reached this session, and waits for the receiver's
    /// acknowledgements; then closes the sink. Giving up, it keeps the last half of the time (at most 1 s: a loaded machine behind a slow link needs it) to send one
    /// `dropped` line counting every line surely lost, and the `end` again.
    func deliverRest(startedAt start: UInt64) {
        acknowledged?.prepareForLastDelivery()
        deliver()
        let total = endBudget.total
        let deadline = start + endBudget.delivering
        deliverBacklog(until: deadline)
        awaitAcknowledgements(until: deadline)
        var lost = LostLines()
        lost.add(backlog[backlogStart...])
        if let acknowledged { lost.add(acknowledged.abandonLostLines()) }
        if lost.events + lost.reported > 0 {
            backlog.removeAll()
            backlogStart = 0
            reportLastLosses(lost)
            acknowledged?.prepareForLastDelivery()
            deliverBacklog(until: start + total)
            awaitAcknowledgements(until: start + total)
            // Nothing took even the last lines (no inspector at all): the end they carried is lost too, and counted;
            // the `dropped` line's count is in the tally already.
            var unsent = LostLines()
            unsent.add(backlog[backlogStart...])
            count(dropped: unsent.events)
            if unsent.events > 0, acknowledged?.holdsLiveConnection == true {
                let message =
                    "CoordinatorTrace: the session's end did not go out within \(options.endTimeout) s (TraceOptions.endTimeout): "
                    + "the inspector is slower than this app's events; \(tally.dropped) events were counted dropped\n"
                FileHandle.standardError.write(Data(message.utf8))
            }
        }
        takeRefusedLines()
        if let acknowledged { countUnconfirmed(acknowledged.unconfirmedLines(), confirming: acknowledged.acknowledges != false) }
        sink.close()
    }

    /// Waits for the receiver to confirm what it took, when it took everything, until `deadline`.
    func awaitAcknowledgements(until deadline: UInt64) {
        guard let acknowledged, backlogStart == backlog.count else { return }
        let left = Double(deadline - min(deadline, MonotonicClock.now())) / 1e9
        _ = acknowledged.awaitAcknowledgements(timeout: left)
    }

    /// Lines the inspector never confirmed are neither recorded for sure nor lost for sure: counted apart, and said
    /// once on the app's console, since a recording that lacks them lacks its end too. `confirming`: false when the
    /// receiver confirms nothing at all (one older than acknowledgements, or another program).
    func countUnconfirmed(_ unconfirmed: LostLines, confirming: Bool) {
        // A `dropped` line among them reports events counted dropped already: only event lines count here.
        guard unconfirmed.events > 0 else { return }
        tally.unconfirmed = unconfirmed.events
        tally.unconfirmedSeqs = unconfirmed.seqs
        let receiver = (sink as? TCPSink).map { " at \($0.host):\($0.port)" } ?? ""
        let message =
            confirming
            ? "CoordinatorTrace: coordlens listen\(receiver) had not confirmed the last \(tally.unconfirmed) events when end() "
                + "stopped waiting after \(options.endTimeout) s (TraceOptions.endTimeout): a recording may lack them and its end "
                + "(Tracer.counts.unconfirmed)\n"
            : "CoordinatorTrace: the receiver\(receiver) confirms nothing it is sent (not coordlens listen, or one older than "
                + "acknowledgements): the session's \(tally.unconfirmed) events sent there are counted unconfirmed (Tracer.counts.unconfirmed)\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// How long before a delivery deadline no new connection is tried: a connection that opens waits up to half a
    /// second for the inspector's first acknowledgement (`TCPSink.firstAcknowledgementMilliseconds`).
    static let lastAttemptReserve: UInt64 = 600_000_000

    func deliverBacklog(until deadline: UInt64) {
        var idle = 0
        while backlogStart < backlog.count, MonotonicClock.now() < deadline, idle < 3 {
            let before = backlogStart
            deliver()
            if backlogStart == before {
                // A connection whose buffer is full is waited for, only until it can take more; the sink drops it once
                // it stalls.
                if let acknowledged, acknowledged.holdsLiveConnection {
                    acknowledged.waitForRoom(milliseconds: 20)
                } else if let acknowledged, acknowledged.hasReachedReceiver,
                    MonotonicClock.now() &+ Self.lastAttemptReserve < deadline
                {
                    // An inspector reached before may be restarting, or its address may not answer yet after the
                    // network came back (a neighbour that failed to resolve reads as "no route" for a moment): tried
                    // again until the deadline, since giving up counts as lost lines it would take a moment later.
                    // Not within the reserve of it: an attempt that connects may wait that long for its first
                    // acknowledgement, and `end()` waits for this thread only a second past its timeout.
                    acknowledged.prepareForLastDelivery()
                    Thread.sleep(forTimeInterval: 0.05)
                } else {
                    idle += 1
                    Thread.sleep(forTimeInterval: 0.02)
                }
            } else {
                idle = 0
            }
        }
    }

    func deliver() {
        guard backlogStart < backlog.count else { return }
        let taken = sink.deliver(backlog[backlogStart...])
        takeRefusedLines()
        backlogStart += max(0, min(taken, backlog.count - backlogStart))
        if backlogStart == backlog.count {
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
        } else if backlogStart > 4_096, backlogStart * 2 > backlog.count {
            backlog.removeFirst(backlogStart)
            backlogStart = 0
        }
    }
}
