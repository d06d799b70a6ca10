/// An output format a snapshot can be rendered to.
public enum RenderFormat: String, CaseIterable, Sendable {
    case svg, png, pdf, dot, json

    /// The format a file extension names (`svg`, `png`, `pdf`, `dot` or `gv`, `json`; a leading dot and any case are
    /// accepted), or nil for any other extension.
    public init?(fileExtension: String) {
        var name = fileExtension.lowercased()
        if name.hasPrefix(".") { name.removeFirst() }
        if name == "gv" {
            self = .dot
            return
        }
        self.init(rawValue: name)
    }

    /// The format a file path's extension names, or nil when it has none or an unknown one.
    public init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The usual extension for files in this format, without the dot.
    public var fileExtension: String { rawValue }
}
