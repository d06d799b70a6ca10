/// A coordinator's id: unique within its session, never reused.
public typealias CoordinatorID = Int

/// Where the app called the hook.
public struct CallSite: Hashable, Sendable, Codable {
    public var file: String
    public var line: Int
    public var function: String?

    public init(file: String, line: Int, function: String? = nil) {
        self.file = file
        self.line = line
        self.function = function
    }

    /// `file:line`, as a report shows it.
    public var description: String { "\(file):\(line)" }
}

/// The header line that opens a session.
public struct SessionHeader: Hashable, Sendable, Codable {
    public var app: String
    public var run: String
    public var pid: Int?
    public var version: Int

    public init(app: String, run: String, pid: Int? = nil, version: Int = 1) {
        self.app = app
        self.run = run
        self.pid = pid
        self.version = version
    }
}

/// One thing that happened to the coordinator tree, as wire format v1 names it.
public enum Event: Hashable, Sendable {
    case add(id: CoordinatorID, type: String, parent: CoordinatorID?)
    case remove(id: CoordinatorID, parent: CoordinatorID?)
    case bind(id: CoordinatorID, screen: String)
    case dismiss(id: CoordinatorID)
    case deinitialized(id: CoordinatorID)
    case mark(label: String)
    case dropped(count: Int)
    case end
    /// A kind this version does not know; kept so it can be reported, never applied.
    case unknown(kind: String)
}

/// An event with its place in the session and in the input.
public struct EventRecord: Hashable, Sendable {
    public var seq: Int
    /// Seconds since the session started, on the app's monotonic clock.
    public var time: Double
    public var event: Event
    public var site: CallSite?
    /// 1-based line in the input it came from; 0 when it did not come from text.
    public var line: Int

    public init(seq: Int, time: Double, event: Event, site: CallSite? = nil, line: Int = 0) {
        self.seq = seq
        self.time = time
        self.event = event
        self.site = site
        self.line = line
    }
}
