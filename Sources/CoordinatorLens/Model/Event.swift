/// The header line that opens a session.
public struct SessionHeader: Hashable, Sendable, Codable {
    /// The app's name, for people.
    public var app: String
    /// Unique per run of the app: the key that keeps sessions apart and lets a reconnect continue one.
    public var run: String
    /// The app's process id; nil when the session line has none.
    public var pid: Int?
    /// The wire format version (`v`); readers of v1 refuse any other.
    public var version: Int
    /// What wrote the recording when not the app's own sink: `listen` for `coordlens listen --record`, whose files
    /// hold many runs by design.
    public var recorder: String?

    /// A session line's content; `version` defaults to 1, the only one this package reads.
    package init(app: String, run: String, pid: Int? = nil, version: Int = 1, recorder: String? = nil) {
        self.app = app
        self.run = run
        self.pid = pid
        self.version = version
        self.recorder = recorder
    }
}

/// One thing that happened to the coordinator tree, as wire format v1 names it.
public enum Event: Hashable, Sendable {
    /// `id` of Swift type `type` joins the tree under `parent` (nil: a root); an add of a known id moves it.
    case add(id: CoordinatorID, type: String, parent: CoordinatorID?)
    /// Object `id` of Swift type `type` (a view model, a screen) should die with coordinator `owner`: it is drawn under
    /// it and judged like a coordinator, done when `owner` is done.
    case watch(id: CoordinatorID, type: String, owner: CoordinatorID)
    /// `id` is detached from `parent` (nil: from whichever parent holds it); it is then done.
    case remove(id: CoordinatorID, parent: CoordinatorID?)
    /// `id` now drives `screen`, for example the type of its first view controller.
    case bind(id: CoordinatorID, screen: String)
    /// `id`'s screen is gone or its flow finished; it is then done. `via` says how the producer knew.
    case dismiss(id: CoordinatorID, via: DismissalCause = .reported)
    /// `id` was deallocated; `deinit` on the wire.
    case deinitialized(id: CoordinatorID)
    /// A named checkpoint that cuts (`--at-mark`) and growth reports refer to.
    case mark(label: String)
    /// The producer had to drop `count` events, so the tree may be incomplete.
    case dropped(count: Int)
    /// The producer is still running; it says nothing about the tree, but moves the session's time on, so a run that
    /// stops without `end` is judged at its last sign of life.
    case heartbeat
    /// The app declares how many coordinators of a type may be alive at once; more is a leak (`over-limit`).
    case expect(AliveLimit)
    /// The hook's retainer search found who holds `id` (or that nothing it could see does).
    case held(id: CoordinatorID, by: HeldBy)
    /// The session ended normally; any event after it is reported.
    case end
    /// A kind this version does not know; kept so it can be reported, never applied.
    case unknown(kind: String)
}

/// An event with its place in the session and in the input.
public struct EventRecord: Hashable, Sendable {
    /// Grows by one per event within the session; a gap means lost events.
    public var seq: Int
    /// Seconds since the session started, on the app's monotonic clock.
    public var time: Double
    /// What happened, and to which coordinator ids.
    public var event: Event
    /// Where the producer reported it from; nil when the line names no file.
    public var site: CallSite?
    /// 1-based line in the input it came from; 0 when it did not come from text.
    public var line: Int

    /// A record; `line` stays 0 for events that were not read from text.
    package init(seq: Int, time: Double, event: Event, site: CallSite? = nil, line: Int = 0) {
        self.seq = seq
        self.time = time
        self.event = event
        self.site = site
        self.line = line
    }
}
