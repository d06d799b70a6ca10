@_spi(Locking) import CoordinatorWire

extension SessionWriter {
    /// With nothing to do (no events taken or waiting, every line delivered), tells the callers to wake the writer
    /// for their next event and returns when it must look again by itself: a heartbeat due, the sink's next attempt to
    /// connect, never later. Nil while there is work, or while a sweep must run every tick: where sweeps find deaths
    /// (no probes), a finished coordinator still in its grace period is looked at every tick, so its release is
    /// stamped within a tick and its verdict is the same as with a busy app. A death while asleep that decides
    /// nothing (a living coordinator freed) is stamped when the next heartbeat's sweep finds it.
    func fallAsleep() -> UInt64? {
        guard !hasPending, lastDrained == 0 || drainedOnlyHeartbeat, let tracer else { return nil }
        let now = MonotonicClock.now()
        var until = lastEventNanos &+ UInt64(options.heartbeatInterval * 1e9)
        if backlogStart < backlog.count {
            guard let acknowledged, !acknowledged.holdsLiveConnection, let retry = acknowledged.retryAt else { return nil }
            until = min(until, retry)
        }
        #if !canImport(ObjectiveC)
        guard sweepCursor.isFresh, (decidesAt ?? 0) <= now else { return nil }
        #endif
        guard until > now else { return nil }
        let asleep = tracer.withLock { state -> Bool in
            guard state.session?.writer === self, state.session!.queue.isEmpty else { return false }
            state.session!.writerAsleep = true
            return true
        }
        return asleep ? until : nil
    }
}
