import CoordinatorLens
import CoordinatorLensRendering
import Foundation

/// The inspector page's static form, one self-contained HTML file: the tree as inline SVG, the leak list, the
/// warnings and every coordinator's details and events, with the page's own styles and script inlined; nothing is
/// fetched. What a CI job attaches as an artifact (`coordlens render FILE -o report.html`).
package enum InspectorReport {
    /// The report of `snapshot`, taken from `log` (for each coordinator's events); `atEnd` says the snapshot is the
    /// end of the recording, where pending means undecided, as `check` judges it.
    package static func html(
        _ snapshot: Snapshot, log: SessionLog, atEnd: Bool, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> [UInt8] {
        // A report is shared: call sites as --source-root prints them, and no full path of the build machine unless
        // the options keep them.
        let snapshot = options.sourcePaths.applied(to: snapshot)
        var drawing = options
        // The page draws with CoordinatorLens's own layout, as the live page does, so both look the same; its script
        // writes the coordinators' tooltips from the model.
        drawing.largeTreeThreshold = 0
        drawing.nodeTooltips = false
        drawing.drawsTitleAndLegend = false
        // Laid out for the page's frame on a laptop's screen (about 790 × 660 px at 1440 × 900), where it is opened.
        drawing.aspect = options.aspect ?? 1.19
        let svg = String(decoding: try SnapshotRenderer.render(snapshot, format: .svg, options: drawing), as: UTF8.self)
        let summary = SessionSummary(snapshot, state: "recorded", version: 0, events: snapshot.lastSeq ?? 0)
        let model = TreeModel(snapshot, summary: summary, seq: nil, history: nil, historyComplete: true, atEnd: atEnd)
        let events = CoordinatorEvent.byCoordinator(in: log, paths: options.sourcePaths).sorted { $0.key < $1.key }.map {
            CoordinatorEvents(id: $0.key, events: $0.value)
        }
        let json: String
        do {
            json = try Self.contents(model: model, svg: svg, events: events)
        } catch {
            throw .encodingFailed(message: "\(error)")
        }
        return Array(try document(data: json, title: "\(snapshot.app) · \(snapshot.run)").utf8)
    }

    /// `{"model":…,"svg":…,"events":[…]}`, the model's nodes written by hand and the events encoded a slice at a time:
    /// Foundation's encoder holds a tree of everything it encodes at once, about ten times the text, which for a
    /// million coordinators was 6.7 GB.
    private static func contents(model: TreeModel, svg: String, events: [CoordinatorEvents]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func sliced<Element: Encodable>(_ items: [Element]) throws -> String {
            var out = "["
            var start = 0
            while start < items.count {
                let end = min(start + 10_000, items.count)
                let slice = String(decoding: try encoder.encode(Array(items[start..<end])), as: UTF8.self)
                if start > 0 { out += "," }
                out += slice.dropFirst().dropLast()
                start = end
            }
            return out + "]"
        }
        var out = "{\"model\":" + String(decoding: try model.json(), as: UTF8.self)
        out += ",\"svg\":" + String(decoding: try encoder.encode(svg), as: UTF8.self)
        out += ",\"events\":" + (try sliced(events)) + "}"
        return out
    }

    /// One coordinator's events; a list, not a dictionary: ids are integers or strings, and JSONEncoder writes other
    /// keys as a flat array.
    private struct CoordinatorEvents: Encodable {
        var id: CoordinatorID
        var events: [CoordinatorEvent]
    }

    /// The page's modules as the report's two inline scripts, joined once: they are compiled in, so this fails only
    /// for a page module the joining cannot read, which `PageModuleTests` catches before a release.
    static let joinedModules: Result<InlineModules, InlineModules.Problem> = Result { () throws(InlineModules.Problem) in
        try InlineModules.join(
            entry: PageAssets.entryModule, sources: PageAssets.modules.mapValues { String(decoding: $0, as: UTF8.self) })
    }

    /// The page's HTML with its stylesheet and script inlined and the data in a JSON script element. `<` is escaped
    /// in the JSON (as `\u003c`) so no name can close that element; the script and styles are the project's own.
    static func document(data json: String, title: String) throws(RenderError) -> String {
        let modules: InlineModules
        switch joinedModules {
        case .success(let joined): modules = joined
        case .failure(let problem): throw .encodingFailed(message: "the page's script modules could not be joined: \(problem)")
        }
        let page = String(decoding: PackageResources.index_html, as: UTF8.self)
        let style = String(decoding: PackageResources.inspector_css, as: UTF8.self)
        // Each script element's exact text, as hashed for the policy: a byte more or less and the browser runs nothing.
        // A file cannot load modules, so they come as two classic scripts: every module but main.js, then main.js.
        let library = "\n" + modules.library
        let entry = "\n" + modules.entry
        // The lifetimes view works from the model alone, so the report carries it too.
        let lifetimesStyle = String(decoding: PackageResources.lifetimes_css, as: UTF8.self)
        let pictureDark = String(decoding: PackageResources.picture_dark_css, as: UTF8.self)
        let inertJSON = json.replacingOccurrences(of: "<", with: "\\u003c")
        // A file opened from disk has no response headers, so its policy travels in a meta element: no network at
        // all, and of inline scripts only the page's own two, named by hash, so nothing that slipped into the
        // document as markup could run. The JSON element is data, which the policy does not govern.
        let scripts = ScriptHash.source(of: library) + " " + ScriptHash.source(of: entry)
        let policy =
            #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src "#
            + scripts + #"; style-src 'unsafe-inline'; img-src data:">"#
        return
            page
            .replacingOccurrences(of: #"<meta charset="utf-8">"#, with: #"<meta charset="utf-8">"# + "\n" + policy)
            .replacingOccurrences(of: "<title>CoordinatorLens inspector</title>", with: "<title>CoordinatorLens report: \(XMLText.escaped(title))</title>")
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/inspector.css">"#, with: "<style>\n\(style)</style>")
            .replacingOccurrences(of: #"<script type="module" src="/main.js"></script>"#, with: "")
            // Known and new leaks need `view --baseline`/`--history`; a report carries neither.
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/known-leaks.css">"#, with: "")
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/lifetimes.css">"#, with: "<style>\n\(lifetimesStyle)</style>")
            // Comparing runs asks the server; a report has one run and no server.
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/compare.css">"#, with: "")
            .replacingOccurrences(of: #"<link rel="stylesheet" href="/picture-dark.css">"#, with: "<style>\n\(pictureDark)</style>")
            .replacingOccurrences(
                of: "</body>",
                with: #"<script type="application/json" id="lens-report">"# + inertJSON + "</script>\n<script>" + library + "</script>\n"
                    + "<script>" + entry + "</script>\n</body>"
            )
    }
}
