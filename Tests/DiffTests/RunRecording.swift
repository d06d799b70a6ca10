import CoordinatorLens

/// One run of a flow written the way the hook writes it, as wire-format v1 lines, so snapshots come from the core's
/// own decoder and `SessionTree` replay, and the same text can be handed to the `coordlens` binary.
///
/// Ids start at `firstID`, so two runs of the same flow get different ids, as real runs do. Every event is 0.1 s after
/// the one before; the session ends 5 s after the last event, past the 2 s grace, so a coordinator dismissed and
/// never deinited is judged retained.
struct RunRecording {
    let app: String
    let run: String
    private var nextID: Int
    private var time = 0.0
    private var lines: [String] = []

    init(app: String = "Shop", run: String, firstID: Int = 1) {
        self.app = app
        self.run = run
        self.nextID = firstID
    }

    /// Adds a coordinator under `parent` (nil: a root) and returns its id.
    @discardableResult
    mutating func add(_ type: String, under parent: Int?) -> Int {
        let id = nextID
        nextID += 1
        var fields = ["\"id\":\(id)", "\"type\":\(quoted(type))"]
        if let parent { fields.append("\"parent\":\(parent)") }
        event("add", fields)
        return id
    }

    /// Attaches an existing coordinator under `parent`, moving it.
    mutating func move(_ id: Int, _ type: String, under parent: Int) {
        event("add", ["\"id\":\(id)", "\"type\":\(quoted(type))", "\"parent\":\(parent)"])
    }

    mutating func bind(_ id: Int, screen: String) { event("bind", ["\"id\":\(id)", "\"screen\":\(quoted(screen))"]) }
    mutating func dismiss(_ id: Int) { event("dismiss", ["\"id\":\(id)"]) }
    mutating func remove(_ id: Int, from parent: Int) { event("remove", ["\"id\":\(id)", "\"parent\":\(parent)"]) }
    mutating func deinitialize(_ id: Int) { event("deinit", ["\"id\":\(id)"]) }
    mutating func mark(_ label: String) { event("mark", ["\"label\":\(quoted(label))"]) }

    /// A child that finishes properly: dismissed, removed from its parent, deinited.
    mutating func finish(_ id: Int, from parent: Int) {
        dismiss(id)
        remove(id, from: parent)
        deinitialize(id)
    }

    /// The run as NDJSON: the session line, the events, and an `end` 5 s after the last one.
    var ndjson: String {
        let header = "{\"event\":\"session\",\"v\":1,\"app\":\(quoted(app)),\"run\":\(quoted(run)),\"pid\":1}"
        let end = "{\"seq\":\(lines.count + 1),\"t\":\(time + 5),\"event\":\"end\"}"
        return ([header] + lines + [end]).joined(separator: "\n") + "\n"
    }

    /// The session as the core reads it.
    var log: SessionLog { Recording(bytes: Array(ndjson.utf8)).sessions[0] }

    /// The tree at the end of the run, judged with the default 2 s grace.
    var snapshot: Snapshot { try! log.snapshot(until: .end) }

    private mutating func event(_ kind: String, _ fields: [String]) {
        time += 0.1
        let head = ["\"seq\":\(lines.count + 1)", "\"t\":\(time)", "\"event\":\"\(kind)\""]
        lines.append("{" + (head + fields).joined(separator: ",") + "}")
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The flow most tests diff: an app with a tab bar holding a feed and a profile, where a checkout was opened and
/// closed. With `leaksCheckout`, the checkout is dismissed but never removed or deinited (a still-child leak).
enum ShopFlow {
    static func run(_ name: String, firstID: Int = 1, leaksCheckout: Bool, feeds: Int = 1) -> RunRecording {
        var run = RunRecording(run: name, firstID: firstID)
        let app = run.add("AppCoordinator", under: nil)
        let tabs = run.add("MainTabCoordinator", under: app)
        for _ in 0..<feeds { run.add("FeedCoordinator", under: tabs) }
        let profile = run.add("ProfileCoordinator", under: tabs)
        run.bind(profile, screen: "ProfileScreen")
        let checkout = run.add("CheckoutCoordinator", under: tabs)
        run.bind(checkout, screen: "CheckoutScreen")
        if leaksCheckout {
            run.dismiss(checkout)
        } else {
            run.finish(checkout, from: tabs)
        }
        return run
    }
}

extension TreeDiff {
    /// The entries whose type path prints as `path`.
    func entries(at path: String) -> [Entry] {
        entries.indices.filter { self.path(of: $0).description == path }.map { entries[$0] }
    }

    /// The one entry at `path`; fails the test's expectation with a nil when there is none or several.
    func entry(at path: String) -> Entry? {
        let found = entries(at: path)
        return found.count == 1 ? found[0] : nil
    }

    /// How many entries carry each marker.
    var markerCounts: [DiffMarker: Int] {
        entries.reduce(into: [:]) { $0[$1.marker, default: 0] += 1 }
    }
}
