import CoordinatorWire
import Foundation

extension ConditionBox.Look {
    /// Nothing yet: look again once woken, or at `date` (nil: only when woken); the server keeps its deadlines as dates.
    static func waiting(until date: Date?) -> Self {
        .waiting(nanoseconds: date.map { UInt64(max(0, min($0.timeIntervalSinceNow, 3_600)) * 1e9) })
    }
}
