import CoordinatorLens
import CoordinatorLensPage
import CoordinatorLensRendering
import Foundation

/// What a request to the inspector page asks for, read from its target (`/api/tree?run=…&seq=…`).
enum PageRoute: Equatable {
    case asset(path: String)
    /// Every session's summary, as the feed's first message carries them.
    case sessions
    /// The Server-Sent Events stream of changes.
    case events
    /// A session's picture as SVG.
    case tree(ViewQuery)
    /// A session's picture as positions and lines (`LayoutJSON`), for the page to paint a big tree on a canvas.
    case layout(ViewQuery)
    /// A session's coordinators, leaks, marks and warnings as JSON.
    case model(ViewQuery)
    /// One coordinator's own events, in stream order; a nil id names a string id no session uses.
    case coordinator(run: String, id: CoordinatorID?)
    /// Two sessions compared as `coordlens diff` compares them.
    case compare(CompareQuery)
    case notFound
    case badRequest(String)

    init(target: String) {
        guard let components = URLComponents(string: target) else {
            self = .badRequest("the request target is not a URL path")
            return
        }
        var query: [String: String] = [:]
        // The page sends form encoding (URLSearchParams), where `+` is a space: decoded before the percent escapes.
        func decoded(_ text: String) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        for item in components.percentEncodedQueryItems ?? [] {
            guard let name = decoded(item.name), query[name] == nil else { continue }
            guard let value = decoded(item.value ?? "") else {
                self = .badRequest("the value of `\(name)` is not valid percent-encoded UTF-8")
                return
            }
            query[name] = value
        }
        switch components.path {
        case "/api/sessions": self = .sessions
        case "/api/events": self = .events
        case "/api/compare":
            switch CompareQuery.read(query) {
            case .success(let compare): self = .compare(compare)
            case .failure(let problem): self = .badRequest(problem.message)
            }
        case "/api/tree", "/api/layout", "/api/model", "/api/coordinator":
            guard let run = query["run"], !run.isEmpty else {
                self = .badRequest("`run` is missing")
                return
            }
            if components.path == "/api/coordinator" {
                // A producer's ids are integers or strings, and 5 is not "5": `id` names the one, `sid` the other.
                if let text = query["sid"] {
                    // Looked up, not interned: a request must not add to the spellings the server keeps.
                    self = .coordinator(run: run, id: CoordinatorID(existingText: text))
                } else if let number = query["id"].flatMap({ Int($0) }) {
                    self = .coordinator(run: run, id: CoordinatorID(number))
                } else {
                    self = .badRequest("`id` must be a whole number, or `sid` a string id")
                }
                return
            }
            switch ViewQuery.read(run: run, query) {
            case .success(let view):
                self = components.path == "/api/tree" ? .tree(view) : components.path == "/api/layout" ? .layout(view) : .model(view)
            case .failure(let problem): self = .badRequest(problem.message)
            }
        default:
            self = PageAssets.asset(at: components.path) == nil ? .notFound : .asset(path: components.path)
        }
    }
}

/// Which picture of a session the page wants: the point in time, the grace period and the filters.
struct ViewQuery: Hashable {
    struct Problem: Error {
        var message: String
    }

    var run: String
    /// Show the session right after this event; nil: the present.
    var seq: Int?
    /// nil: the inspector's grace period.
    var grace: Double?
    var showReleased = false
    var leaksOnly = false
    /// Draw every node even above the collapse threshold.
    var all = false
    /// Coordinators drawn as themselves even where the picture would summarise them (`reveal=c5`, by element name).
    var revealed: Set<CoordinatorID> = []
    /// Summaries opened, each named by its first member (`open=c5,c9`).
    var opened: Set<CoordinatorID> = []
    /// The width over the height of the page's picture frame, snapped to a power of 2^¼ from 1/4 to 4 (1, 1.19, 1.41,
    /// 1.68, 2, …) so that a few shapes share the answers: a small tree wraps its rows to it. nil: no wrapping.
    var aspect: Double?
    /// Opened summaries kept per request: each one is a walk of the drawn nodes.
    static let maximumOpened = 64

    init(run: String, seq: Int? = nil, grace: Double? = nil) {
        self.run = run
        self.seq = seq
        self.grace = grace
    }

    /// `value` as the nearest power of 2^¼ within 1/4 and 4.
    static func snapped(aspect value: Double) -> Double {
        let steps = min(8, max(-8, (4 * log2(value)).rounded()))
        return pow(2, steps / 4)
    }

    static func read(run: String, _ query: [String: String]) -> Result<ViewQuery, Problem> {
        var view = ViewQuery(run: run)
        if let seq = query["seq"], !seq.isEmpty {
            guard let value = Int(seq), value >= 0 else { return .failure(Problem(message: "`seq` must be a whole number")) }
            view.seq = value
        }
        if let grace = query["grace"], !grace.isEmpty {
            guard let value = Double(grace), value.isFinite, value >= 0, value <= 86_400 else {
                return .failure(Problem(message: "`grace` must be a number of seconds from 0 to 86400"))
            }
            view.grace = value
        }
        if let aspect = query["aspect"], !aspect.isEmpty {
            guard let value = Double(aspect), value.isFinite, value > 0 else {
                return .failure(Problem(message: "`aspect` must be a positive number: the picture frame's width over its height"))
            }
            view.aspect = snapped(aspect: value)
        }
        view.showReleased = query["released"] == "1"
        view.leaksOnly = query["leaks"] == "1"
        view.all = query["all"] == "1"
        for (key, limit) in [("reveal", 1), ("open", maximumOpened)] {
            guard let text = query[key], !text.isEmpty else { continue }
            let names = text.split(separator: ",", omittingEmptySubsequences: false)
            let ids = names.compactMap { DOTWriter.id(named: String($0)) }
            guard ids.count == names.count, ids.count <= limit else {
                let most = "at most \(limit) coordinator\(limit == 1 ? "" : "s")"
                return .failure(Problem(message: "`\(key)` must name \(most) as the picture does (c5, cn5, cs<hex>), joined by commas"))
            }
            if key == "reveal" { view.revealed = Set(ids) } else { view.opened = Set(ids) }
        }
        return .success(view)
    }
}
