#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// The app's images and their full symbol tables (`.symtab`), which name what `dladdr` cannot: an executable's
/// globals and every closure are local symbols, absent from the dynamic table. Debug builds keep the table; a stripped
/// image has none. Read from the image's file, never from the app's memory.
enum ImageSymbols {
    /// One defined Swift symbol: its value before the load bias, its size, whether it is code, its mangled name.
    struct Symbol {
        var value: UInt
        var size: Int
        var isFunction: Bool
        var name: String
    }

    /// Symbol tables larger than this are not read (a debug build of a big app is tens of megabytes).
    private static let maximumTableBytes = 256 << 20

    /// The images loaded now that the app brought, the program first (as `/proc/self/exe`), each with its load bias:
    /// not the system's libraries nor the Swift runtime's.
    static func applicationImages() -> [(path: String, bias: UInt)] {
        var images: [(path: String, bias: UInt)] = []
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dl_iterate_phdr") else { return [] }
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
        // The first entry is the program itself, with an empty name.
        return images.enumerated().compactMap { index, image in
            if index == 0 && image.path.isEmpty { return ("/proc/self/exe", image.bias) }
            return isApplicationImage(image.path) ? image : nil
        }
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

    /// The defined Swift symbols (`$s…`) of the ELF file at `path` that `wanted` keeps, given whether each is code,
    /// its size and its mangled name; nil when the file has no symbol table that reads.
    static func swiftSymbols(inFileAt path: String, _ wanted: (_ isFunction: Bool, _ size: Int, _ name: String) -> Bool) -> [Symbol]? {
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
        // SHT_SYMTAB: the full table (the dynamic one lacks an executable's globals and every closure).
        guard let table = (0..<count).map(section).first(where: { $0.type == 2 }), table.link < count,
            table.size <= maximumTableBytes
        else { return nil }
        let strings = section(table.link)
        guard strings.size <= maximumTableBytes, let symbols = bytes(table.offset, table.size), let names = bytes(strings.offset, strings.size)
        else { return nil }
        var found: [Symbol] = []
        for base in stride(from: 0, to: symbols.count - 23, by: 24) {
            // STT_OBJECT (1) or STT_FUNC (2), defined (a section index).
            let type = symbols[base + 4] & 0xF
            let sectionIndex = symbols.load(base + 6, as: UInt16.self)
            guard type == 1 || type == 2, sectionIndex != 0 else { continue }
            let nameAt = Int(symbols.load(base, as: UInt32.self))
            guard nameAt + 2 < names.count, names[nameAt] == 0x24, names[nameAt + 1] == 0x73 else { continue }  // "$s"
            var end = nameAt
            while end < names.count, names[end] != 0 { end += 1 }
            let name = String(decoding: names[nameAt..<end], as: UTF8.self)
            let size = Int(symbols.load(base + 16, as: UInt64.self))
            guard wanted(type == 2, size, name) else { continue }
            found.append(Symbol(value: UInt(symbols.load(base + 8, as: UInt64.self)), size: size, isFunction: type == 2, name: name))
        }
        return found
    }

    private typealias Demangle =
        @convention(c) (UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32) -> UnsafeMutablePointer<CChar>?
    private static let demangle: Demangle? = dlsym(dlopen(nil, RTLD_NOW), "swift_demangle").map { unsafeBitCast($0, to: Demangle.self) }

    /// A mangled Swift name as the runtime's demangler spells it in full; it reads the name's own text only.
    static func demangled(_ mangled: String) -> String? {
        guard let demangle, let text = mangled.withCString({ demangle($0, mangled.utf8.count, nil, nil, 0) }) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}

extension [UInt8] {
    fileprivate func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }
}
#endif
#endif
