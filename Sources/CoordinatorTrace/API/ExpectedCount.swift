/// How many coordinators of one type may be alive at once, as LifetimeTracker's `maxCount` says it: in the whole
/// app, or under each parent. The inspector judges older ones beyond the count as leaks (`over-limit`).
///
/// ```swift
/// CoordinatorTrace.start(app: "Shop", sink: .tcp(port: 7420), options: TraceOptions(expectedCounts: [
///     ExpectedCount(ProductCoordinator.self, atMost: 1, per: .parent),
/// ]))
/// ```
public struct ExpectedCount: Sendable {
    /// Where the count is taken.
    public enum Scope: Sendable {
        /// Every coordinator of the type in the session.
        case session
        /// The type's coordinators under one parent at a time.
        case parent
    }

    let type: AnyObject.Type
    let maximum: Int
    let scope: Scope

    /// At most `maximum` coordinators of `type` alive at once within `scope`.
    public init(_ type: AnyObject.Type, atMost maximum: Int, per scope: Scope = .session) {
        self.type = type
        self.maximum = max(0, maximum)
        self.scope = scope
    }

    func rawEvent(at nanos: UInt64) -> RawEvent {
        RawEvent(kind: .expect, id: maximum, other: scope == .parent ? 1 : 0, nanos: nanos, type: type)
    }
}
