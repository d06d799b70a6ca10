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

    /// The file served at `path` (`/`, `/inspector.css`, `/inspector.js`), nil for any other path.
    package static func asset(at path: String) -> Asset? {
        switch path {
        case "/", "/index.html": Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "/inspector.css": Asset(bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8")
        case "/inspector.js": Asset(bytes: PackageResources.inspector_js, contentType: "text/javascript; charset=utf-8")
        case "/known-leaks.js": Asset(bytes: PackageResources.known_leaks_js, contentType: "text/javascript; charset=utf-8")
        case "/known-leaks.css": Asset(bytes: PackageResources.known_leaks_css, contentType: "text/css; charset=utf-8")
        case "/lifetimes.js": Asset(bytes: PackageResources.lifetimes_js, contentType: "text/javascript; charset=utf-8")
        case "/lifetimes.css": Asset(bytes: PackageResources.lifetimes_css, contentType: "text/css; charset=utf-8")
        case "/compare.js": Asset(bytes: PackageResources.compare_js, contentType: "text/javascript; charset=utf-8")
        case "/compare.css": Asset(bytes: PackageResources.compare_css, contentType: "text/css; charset=utf-8")
        default: nil
        }
    }
}
