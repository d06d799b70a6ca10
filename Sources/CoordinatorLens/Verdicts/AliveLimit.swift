/// How many coordinators of one type may be alive (not yet deinited) at once: in the whole session, or under each
/// parent. Declared by the app (`expect` events, `TraceOptions.expectedCounts`) or by `--max-alive`.
public struct AliveLimit: Hashable, Sendable, Codable {
    /// Where the count is taken.
    public enum Scope: String, Hashable, Sendable, Codable, CaseIterable {
        /// Every coordinator of the type in the session.
        case session
        /// The type's coordinators under one parent at a time.
        case parent
        /// Kept for reuse by design: up to `maximum` done coordinators of the type that their parent still holds are
        /// kept, not leaks (`--reusable`, `ReusableType`, `per: "reuse"` on the wire).
        case reuse
    }

    /// The Swift type name, as `add` events carry it.
    public var type: String
    /// The most that may be alive at once; at least 0.
    public var maximum: Int
    /// Where the count is taken.
    public var scope: Scope

    /// A limit of `maximum` coordinators of `type` alive at once within `scope`.
    public init(type: String, maximum: Int, scope: Scope = .session) {
        self.type = type
        self.maximum = Swift.max(0, maximum)
        self.scope = scope
    }

    /// Parses `TYPE=N` as `--max-alive` takes it; nil when it is not of that form.
    package init?(argument: String, scope: Scope) {
        guard let equals = argument.lastIndex(of: "=") else { return nil }
        let type = String(argument[..<equals]).trimmingWhitespace
        guard !type.isEmpty, let maximum = Int(argument[argument.index(after: equals)...].trimmingWhitespace), maximum >= 0
        else { return nil }
        self.init(type: type, maximum: maximum, scope: scope)
    }

    /// `ProductCoordinator ≤ 1`, `ProductCoordinator ≤ 1 per parent` or `LibraryCoordinator ≤ 1 kept for reuse`.
    public var description: String {
        switch scope {
        case .session: "\(type) ≤ \(maximum)"
        case .parent: "\(type) ≤ \(maximum) per parent"
        case .reuse: "\(type) ≤ \(maximum) kept for reuse"
        }
    }

    /// Later limits for the same type and scope replace earlier ones: a `--max-alive` given on the command line
    /// overrides what the app declared.
    static func merged(_ limits: [AliveLimit]) -> [AliveLimit] {
        var order: [Key] = []
        var latest: [Key: AliveLimit] = [:]
        for limit in limits {
            let key = Key(type: limit.type, scope: limit.scope)
            if latest.updateValue(limit, forKey: key) == nil { order.append(key) }
        }
        return order.map { latest[$0]! }
    }

    private struct Key: Hashable {
        var type: String
        var scope: Scope
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
