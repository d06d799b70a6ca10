/// A coordinator type the app keeps for reuse by design, such as a library screen's coordinator that stays a child
/// after a swipe-down so the next visit shows the same one. Up to `maximum` of them that are done but still held by
/// their parent are judged *kept*, not leaks; beyond that the oldest are retained. Shown again, one is alive.
///
/// ```swift
/// TraceOptions(reusableTypes: [ReusableType(LibraryCoordinator.self, keeping: 1)])
/// ```
public struct ReusableType: Sendable {
    let type: AnyObject.Type
    let maximum: Int

    /// At most `maximum` coordinators of `type` kept for reuse at once.
    public init(_ type: AnyObject.Type, keeping maximum: Int = 1) {
        self.type = type
        self.maximum = max(0, maximum)
    }

    func rawEvent(at nanos: UInt64) -> RawEvent {
        RawEvent(kind: .expect, id: maximum, other: RawEvent.reuseScope, nanos: nanos, type: type)
    }
}
