/// The inspector page's files, compiled into the binary from `Page/`: nothing is fetched from elsewhere, so the page
/// works offline and its Content-Security-Policy can forbid every other origin.
enum PageAssets {
    struct Asset {
        var bytes: [UInt8]
        var contentType: String
    }

    static func asset(at path: String) -> Asset? {
        switch path {
        case "/", "/index.html": Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "/inspector.css": Asset(bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8")
        case "/inspector.js": Asset(bytes: PackageResources.inspector_js, contentType: "text/javascript; charset=utf-8")
        default: nil
        }
    }
}
