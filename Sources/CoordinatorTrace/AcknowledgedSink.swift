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
    /// Waits at most `milliseconds` until the connection can take more (or the receiver confirmed lines).
    func waitForRoom(milliseconds: Int32)
    /// Waits at most `timeout` seconds until the receiver has confirmed every line delivered; true when it has.
    func awaitAcknowledgements(timeout: Double) -> Bool
    /// Gives up on the lines surely lost (sent on a connection that failed and not sent again): returns them, no
    /// longer kept.
    func abandonLostLines() -> [[UInt8]]
    /// Lines sent on the connection that still works and not confirmed: the receiver holds some, all or none of them.
    func unconfirmedLines() -> [[UInt8]]
}
