import CGraphviz
import Foundation

/// A libgvc context that knows only Graphviz's core plugins (SVG, DOT, JSON writers) and its dot and neato layouts,
/// loaded from libgvc's own plugin directory and handed to `gvContextPlugins` as a preloaded list: the machine's
/// plugin configuration (`config6a`) is never read, and Pango is never loaded, so text widths come from Graphviz's
/// built-in font metrics. Measured on a 20,000-node tree laid out by CoordinatorLens: 2.2–2.7× less libgvc time
/// than the default context, most of it Pango measuring every label.
enum CorePluginContext {
    /// The plugin libraries, by the name in `gvplugin_<name>_LTX_library`.
    static let plugins = ["core", "dot_layout", "neato_layout"]

    /// The context, or nil when a plugin library cannot be found or loaded (the default context then draws);
    /// `existing` is a context libgvc may ask where its plugins are.
    static func make(besides existing: OpaquePointer) -> OpaquePointer? {
        guard let raw = gvconfig_libdir(existing) else { return nil }
        let directory = String(cString: raw)
        let list = UnsafeMutablePointer<lt_symlist_t>.allocate(capacity: plugins.count + 1)
        for (index, plugin) in plugins.enumerated() {
            let symbol = "gvplugin_\(plugin)_LTX_library"
            guard let address = load(plugin, from: directory, symbol: symbol) else {
                list.deallocate()
                return nil
            }
            // libgvc keeps the list for the life of the context, which is the life of the process.
            list[index] = lt_symlist_t(name: UnsafePointer(strdup(symbol)), address: address)
        }
        list[plugins.count] = lt_symlist_t(name: nil, address: nil)
        return gvContextPlugins(list, 0)
    }

    private static func load(_ plugin: String, from directory: String, symbol: String) -> UnsafeMutableRawPointer? {
        let names = ["so.6", "so.8", "so", "6.dylib", "8.dylib", "dylib"].map { "\(directory)/libgvplugin_\(plugin).\($0)" }
        for path in names where FileManager.default.fileExists(atPath: path) {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), let address = dlsym(handle, symbol) else { continue }
            return address
        }
        return nil
    }
}
