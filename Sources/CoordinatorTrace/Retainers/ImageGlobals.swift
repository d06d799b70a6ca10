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
    private static let ownPrefixes = ["$s16CoordinatorTrace", "$s23CoordinatorTraceTesting", "$s15CoordinatorWire"]
    /// Symbol tables larger than this are not read (a debug build of a big app is tens of megabytes).
    private static let maximumTableBytes = 256 << 20

    private static func load() -> ([GlobalVariable], Int) {
        var images: [(path: String, bias: UInt)] = []
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dl_iterate_phdr") else { return ([], 0) }
        let iterate = unsafeBitCast(symbol, to: Iterate.self)
        withUnsafeMutablePointer(to: &images) { list in
            // struct dl_phdr_info: dlpi_addr (the load bias) at 0, dlpi_name at 8.
            _ = iterate(
                { info, _, context in
                    guard let info, let context else { return 0 }
                    let bias = info.load(as: UInt.self)
                    let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                    context.assumingMemoryBound(to: [(path: String, bias: UInt)].self).pointee.append((name, bias))
                    return 0
                }, UnsafeMutableRawPointer(list))
        }
        var variables: [GlobalVariable] = []
        var read = 0
        for (index, image) in images.enumerated() {
            // The first entry is the program itself, with an empty name.
            let path = index == 0 && image.path.isEmpty ? "/proc/self/exe" : image.path
            guard index == 0 || isApplicationImage(path) else { continue }
            guard let symbols = swiftVariables(inFileAt: path) else { continue }
            read += 1
            for (value, size, name) in symbols {
                guard let (holder, field) = demangledName(name) else { continue }
                variables.append(GlobalVariable(address: image.bias &+ value, size: size, holder: holder, field: field))
            }
        }
        variables.sort { $0.address < $1.address }
        return (variables, read)
    }

    /// Images the app brought: not the system's libraries nor the Swift runtime's.
    private static func isApplicationImage(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("linux-vdso") else { return false }
        for system in ["/usr/", "/lib", "/opt/", "/snap/"] where path.hasPrefix(system) { return false }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        for runtime in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libXCTest", "libTesting", "libicu"]
        where file.hasPrefix(runtime) {
            return false
        }
        return true
    }

    /// The defined Swift variables of the ELF file at `path`: value (before the load bias), size, mangled name.
    private static func swiftVariables(inFileAt path: String) -> [(UInt, Int, String)]? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        func bytes(_ offset: Int, _ count: Int) -> [UInt8]? {
            guard count >= 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) }
            return got == count ? buffer : nil
        }
        // ELF64, little-endian: the section headers' offset, entry size and count.
        guard let header = bytes(0, 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let sectionsAt = Int(header.load(0x28, as: UInt64.self))
        let entrySize = Int(header.load(0x3A, as: UInt16.self))
        let count = Int(header.load(0x3C, as: UInt16.self))
        guard entrySize >= 64, count > 0, let sections = bytes(sectionsAt, entrySize * count) else { return nil }
        func section(_ index: Int) -> (type: UInt32, offset: Int, size: Int, link: Int) {
            let base = index * entrySize
            return (
                sections.load(base + 4, as: UInt32.self), Int(sections.load(base + 0x18, as: UInt64.self)),
                Int(sections.load(base + 0x20, as: UInt64.self)), Int(sections.load(base + 0x28, as: UInt32.self))
            )
        }
        // SHT_SYMTAB: the full table (the dynamic one lacks an executable's globals).
        guard let table = (0..<count).map(section).first(where: { $0.type == 2 }), table.link < count,
            table.size <= maximumTableBytes
        else { return nil }
        let strings = section(table.link)
        guard strings.size <= maximumTableBytes, let symbols = bytes(table.offset, table.size), let names = bytes(strings.offset, strings.size)
        else { return nil }
        var found: [(UInt, Int, String)] = []
        for base in stride(from: 0, to: symbols.count - 23, by: 24) {
            // STT_OBJECT, defined (a section index), at least a word.
            let info = symbols[base + 4]
            let sectionIndex = symbols.load(base + 6, as: UInt16.self)
            let size = Int(symbols.load(base + 16, as: UInt64.self))
            guard info & 0xF == 1, sectionIndex != 0, size >= 8, size <= 1 << 16 else { continue }
            let nameAt = Int(symbols.load(base, as: UInt32.self))
            guard nameAt + 2 < names.count, names[nameAt] == 0x24, names[nameAt + 1] == 0x73 else { continue }  // "$s"
            var end = nameAt
            while end < names.count, names[end] != 0 { end += 1 }
            let name = String(decoding: names[nameAt..<end], as: UTF8.self)
            guard name.hasSuffix("vp") || name.hasSuffix("vpZ"), !ownPrefixes.contains(where: name.hasPrefix) else { continue }
            found.append((UInt(symbols.load(base + 8, as: UInt64.self)), size, name))
        }
        return found
    }

    private typealias Demangle =
        @convention(c) (UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32) -> UnsafeMutablePointer<CChar>?
    private static let demangle: Demangle? = dlsym(dlopen(nil, RTLD_NOW), "swift_demangle").map { unsafeBitCast($0, to: Demangle.self) }

    /// `static g.FlowService.shared : g.Keeper` → (`static FlowService`, `shared`); `g.globalKeeper : …` → (`g`,
    /// `globalKeeper`). The demangler reads the symbol's own text, never the app's memory.
    static func demangledName(_ mangled: String) -> (holder: String, field: String)? {
        guard let demangle, let text = mangled.withCString({ demangle($0, mangled.utf8.count, nil, nil, 0) }) else { return nil }
        defer { free(text) }
        var name = String(cString: text)
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

extension [UInt8] {
    fileprivate func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }
}
#endif
#endif
