/// The inspector page's files, compiled into the binary from `Page/`: nothing is fetched from elsewhere, so the page
/// works offline and its Content-Security-Policy can forbid every other origin.
package enum PageAssets {
    /// A file's bytes and its `Content-Type`.
    package struct Asset: Sendable {
        /// The file as served.
        package var bytes: [UInt8]
        /// Its media type with charset.
        package var contentType: String
    }

    /// The page's script: native ES modules by file name, `main.js` importing the rest. Served at `/NAME`; the
    /// one-file report joins them (`InlineModules`). Listed by hand, so only these are served.
    package static let modules: [String: [UInt8]] = [
        "main.js": PackageResources.main_js,
        "state.js": PackageResources.state_js,
        "dom.js": PackageResources.dom_js,
        "format.js": PackageResources.format_js,
        "ids.js": PackageResources.ids_js,
        "sanitise.js": PackageResources.sanitise_js,
        "feed.js": PackageResources.feed_js,
        "sessions.js": PackageResources.sessions_js,
        "tree-view.js": PackageResources.tree_view_js,
        "tree-canvas.js": PackageResources.tree_canvas_js,
        "outline.js": PackageResources.outline_js,
        "legend.js": PackageResources.legend_js,
        "zoom.js": PackageResources.zoom_js,
        "search.js": PackageResources.search_js,
        "details.js": PackageResources.details_js,
        "leaks.js": PackageResources.leaks_js,
        "slider.js": PackageResources.slider_js,
        "known-leaks.js": PackageResources.known_leaks_js,
        "lifetimes.js": PackageResources.lifetimes_js,
        "compare.js": PackageResources.compare_js,
        "tooltips.js": PackageResources.tooltips_js,
        "site-actions.js": PackageResources.site_actions_js,
        "leak-trace.js": PackageResources.leak_trace_js,
        "address.js": PackageResources.address_js,
        "view-filter.js": PackageResources.view_filter_js,
    ]

    /// The module the page loads (`<script type="module" src="/main.js">`).
    package static let entryModule = "main.js"

    /// `index.html` as served: a `modulepreload` link for every module but the entry, so the browser fetches and
    /// compiles them at once rather than one level of imports at a time (five levels; about 45 ms each here).
    package static let page: [UInt8] = {
        let html = String(decoding: PackageResources.index_html, as: UTF8.self)
        let entry = "<script type=\"module\" src=\"/\(entryModule)\"></script>"
        let links = modules.keys.filter { $0 != entryModule }.sorted().map { "<link rel=\"modulepreload\" href=\"/\($0)\">\n" }
        guard let script = html.range(of: entry) else { return PackageResources.index_html }
        return Array(html.replacingCharacters(in: script.lowerBound..<script.lowerBound, with: links.joined()).utf8)
    }()

    /// The file served at `path` (`/`, `/inspector.css`, `/main.js`), nil for any other path.
    package static func asset(at path: String) -> Asset? {
        switch path {
        case "/", "/index.html": Asset(bytes: page, contentType: "text/html; charset=utf-8")
        case "/inspector.css": Asset(bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8")
        case "/known-leaks.css": Asset(bytes: PackageResources.known_leaks_css, contentType: "text/css; charset=utf-8")
        case "/lifetimes.css": Asset(bytes: PackageResources.lifetimes_css, contentType: "text/css; charset=utf-8")
        case "/compare.css": Asset(bytes: PackageResources.compare_css, contentType: "text/css; charset=utf-8")
        case "/picture-dark.css": Asset(bytes: PackageResources.picture_dark_css, contentType: "text/css; charset=utf-8")
        default:
            path.hasPrefix("/")
                ? modules[String(path.dropFirst())].map { Asset(bytes: $0, contentType: "text/javascript; charset=utf-8") } : nil
        }
    }
}
