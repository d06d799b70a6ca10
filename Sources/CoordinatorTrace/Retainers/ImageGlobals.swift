#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// One global or static variable of the app: where its storage is, how large, and how a step names it
/// (`static FlowService` `.shared`, or the module and `globalKeeper`).
struct GlobalVariable: Sendable {
    var address: UInt
    var size: Int
    var holder: String
    var field: String
}

#if canImport(Glibc)
import Glibc

/// The app's globals and statics, the search's roots beside the living coordinators: every Swift variable symbol
/// (`$s…vp`, `$s…vpZ`) defined in the ELF symbol table of the main program and of each loaded image outside the
/// system's folders, at its load address, named by the runtime's demangler. `dladdr` cannot name them: an executable's
/// globals are not in its dynamic symbol table, only in `.symtab`, which debug builds keep; a stripped image has none,
/// and is said to have none. Read once per process (images loaded later are not seen); their values are read at each
/// search.
enum ImageGlobals {
    /// The variables, and the images they came from; empty where the tables do not read.
    static let shared: (variables: [GlobalVariable], images: Int) = load()

    /// The hook's own modules: their globals hold the tracer, never the app's objects.
    private static let ownPrefixes: [StaticString] = ["$s16CoordinatorTrace", "$s23CoordinatorTraceTesting", "$s15CoordinatorWire"]

    private static func load() -> ([GlobalVariable], Int) {
        var variables: [GlobalVariable] = []
        var read = 0
        for image in ImageSymbols.applicationImages() {
            let symbols = ImageSymbols.swiftSymbols(inFileAt: image.path) { isFunction, size, name in
                // Variables of at least a word (and at most 64 KiB), not the hook's own.
                !isFunction && size >= 8 && size <= 1 << 16 && (name.hasSuffix("vp") || name.hasSuffix("vpZ"))
                    && !ownPrefixes.contains(where: name.hasPrefix)
            }
            guard let symbols else { continue }
            read += 1
            for symbol in symbols {
                guard let (holder, field) = demangledName(symbol.name) else { continue }
                variables.append(GlobalVariable(address: image.bias &+ symbol.value, size: symbol.size, holder: holder, field: field))
            }
        }
        variables.sort { $0.address < $1.address }
        return (variables, read)
    }

    /// `static g.FlowService.shared : g.Keeper` → (`static FlowService`, `shared`); `g.globalKeeper : …` → (`g`,
    /// `globalKeeper`). The demangler reads the symbol's own text, never the app's memory.
    static func demangledName(_ mangled: String) -> (holder: String, field: String)? {
        guard var name = ImageSymbols.demangled(mangled) else { return nil }
        if let colon = name.range(of: " : ") { name = String(name[..<colon.lowerBound]) }
        let isStatic = name.hasPrefix("static ")
        if isStatic { name.removeFirst("static ".count) }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        var container = String(name[..<dot])
        let field = String(name[name.index(after: dot)...])
        // The module goes when a type names the holder: `FlowService`, not `g.FlowService`.
        if let first = container.firstIndex(of: "."), !container.hasPrefix("(") {
            container = String(container[container.index(after: first)...])
        }
        return (isStatic ? "static \(container)" : container, field)
    }
}

#endif
#endif
