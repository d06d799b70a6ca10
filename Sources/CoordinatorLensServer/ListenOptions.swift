import CoordinatorLens
import CoordinatorLensPage

/// How `coordlens listen` runs, and the limit on every resource it holds (docs/PROTOCOL.md, "Limits of listen").
package struct ListenOptions: Sendable {
    /// The address to bind; loopback unless the user asks for more.
    package var host = "127.0.0.1"
    /// 0 picks a free port.
    package var port = 7420
    /// The inspector page's port on the same address (0 picks a free one); nil, the default here, serves no page
    /// (`coordlens listen` serves it on 7421 unless `--no-http`).
    package var httpPort: Int?
    /// Where `<run>-<hash>.svg` files are written; nil renders nothing.
    package var outputDirectory: String?
    /// Where the raw stream is recorded; nil records nothing.
    package var recordPath: String?
    /// Seconds a done coordinator may take to deinit before it counts as retained.
    package var grace = VerdictRules.defaultGrace
    /// Counts every judgement adds to the app's own: `--max-alive`, `--max-alive-per-parent`, `--reusable`.
    package var aliveLimits: [AliveLimit] = []
    /// Whether the SVGs draw released and late coordinators too, not only as ancestors of live ones.
    package var showReleased = false
    /// How often trees are checked for changes; renders and status lines are coalesced to this pace.
    package var refreshInterval = 0.25

    /// The longest line a connection may send, newline excluded; a longer one is skipped up to its newline.
    package var maxLineBytes = 1 << 20
    /// Malformed and over-long lines kept as warnings per session; further ones are only counted.
    package var maxKeptMalformed = 100
    /// Seconds an ended or disconnected session stays in memory; its recording and picture stay on disk.
    package var evictAfter = 300.0
    /// Sessions kept in memory at once; a new run past it evicts the oldest one without a connection, or, when all
    /// are connected, its connection is closed.
    package var maxSessions = 1_000
    /// Open hook connections at once; nil: the open-file limit less `reservedDescriptors` and the page's share, at
    /// most 1,024 (`DescriptorBudget`).
    package var maxConnections: Int?
    /// File descriptors kept free for the recording, pictures and the process itself.
    package var reservedDescriptors = 32
    /// Seconds a hook connection may send no complete line before it is closed; well above the hook's heartbeat
    /// (every second by default, at most every 60 s).
    package var hookIdleTimeout = 180.0
    /// The page's connection limit and deadlines.
    package var page = PageLimits()
    /// Bytes of recorded lines waiting for the disk; past it lines are dropped from the recording and counted.
    package var recordBufferBytes = 16 << 20
    /// Coordinators one session may hold in memory; past it new ones are counted (and recorded), not kept.
    package var maxCoordinators = 1_000_000
    /// Events of one session kept for the page's time travel; past it the slider covers the first part.
    package var maxHistoryEvents = 1_000_000
    /// Above this many drawn coordinators a picture is laid out by CoordinatorLens, not by Graphviz's `dot`.
    package var largeTreeThreshold = 500
    /// How the page and pictures print call sites (`--source-root`).
    package var sourcePaths = SourcePaths()
    /// What the page asks of every request; nil lets anyone who reaches the port in (loopback).
    package var token: AccessToken?
    /// A baseline's and a history's knowledge of leaks (`--baseline`, `--history`): the page marks each leak known or new.
    package var leakContext: LeakContext?
    /// How the page opens a call site (`--editor-url`): a URL template, or a command it copies; nil offers a copy only.
    package var editorURL: String?

    /// 127.0.0.1:7420, nothing rendered or recorded, the default grace and limits, a refresh every 0.25 s.
    package init() {}
}
