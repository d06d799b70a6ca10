/// A sink whose receiver confirms the lines it holds (`TCPSink` with `coordlens listen`, docs/PROTOCOL.md): the
/// session's end waits for the confirmations, and what never came is counted, lost or unconfirmed, never guessed.
/// Internal, so an app's own sink implements two methods and inherits none of this.
protocol AcknowledgedSink: TraceSink {
    /// Called once when the session ends, before its last deliveries: a sink waiting out a retry delay tries again
    /// now, since `end()` gives up on a sink that takes nothing.
    func prepareForLastDelivery()
    /// Whether a delivery that took nothing may take more soon (a live connection whose buffer is full), so the
    /// session's end waits for it rather than giving up.
    var holdsLiveConnection: Bool { get }
    /// Whether the receiver was reached at least once this session: one that was there is tried until the session's
    /// end gives up, since it may be restarting or not answering yet after the network came back.
    var hasReachedReceiver: Bool { get }
    /// With no connection, when the next attempt to connect is due (monotonic nanoseconds), so an idle writer sleeps
    /// until then; nil while connected.
    var retryAt: UInt64? { get }
    /// Waits at most `milliseconds` until the connection can take more (or the receiver confirmed lines).
    func waitForRoom(milliseconds: Int32)
    /// Waits at most `timeout` seconds until the receiver has confirmed every line delivered; true when it has.
    func awaitAcknowledgements(timeout: Double) -> Bool
    /// Gives up on the lines surely lost (sent on a connection that failed and not sent again): returns them, no
    /// longer kept.
    func abandonLostLines() -> [[UInt8]]
    /// Lines sent on the connection that still works and not confirmed, and all lines sent to a receiver that confirms
    /// nothing: the receiver holds some, all or none of them.
    func unconfirmedLines() -> LostLines
    /// Whether the receiver confirms lines: nil until it was reached.
    var acknowledges: Bool? { get }
    /// The seq of the oldest line delivered and not confirmed yet; nil when every line delivered is confirmed.
    var oldestUnacknowledgedSeq: Int? { get }
    /// Waits at most `milliseconds` for the receiver's next confirmation, reading what it sends.
    func awaitAcknowledgement(milliseconds: Int32)
    /// Lines the receiver said it did not keep since the last call (too long, unreadable, a disk that refused them):
    /// no longer kept, to be counted dropped; with the receiver's first reason.
    func takeRefusedLines() -> (lines: LostLines, why: String?)
}
