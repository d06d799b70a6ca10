import ArgumentParser
import CoordinatorLensRendering

/// What `render` writes: a picture or data format of the renderer, or the inspector page's one-file HTML report.
enum RenderOutput: Equatable, ExpressibleByArgument {
    case format(RenderFormat)
    case htmlReport

    init?(argument: String) {
        if ["html", "htm"].contains(argument.lowercased()) {
            self = .htmlReport
        } else if let format = RenderFormat(fileExtension: argument) {
            self = .format(format)
        } else {
            return nil
        }
    }

    /// The output an output file's extension names, or nil for none or an unknown one.
    init?(path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(argument: String(name[name.index(after: dot)...]))
    }
}
