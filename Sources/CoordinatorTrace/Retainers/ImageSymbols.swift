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

    /// A symbol's mangled name as the table holds it, for the callers' filters: a `String` is made only for the symbols
    /// kept. A 100 MB debug test binary has some 300,000 Swift symbols; making each a `String` and asking it
    /// `contains`, in the unoptimised build apps run the hook in, took 0.8 s of the first search.
    struct Name {
        let bytes: UnsafeRawBufferPointer

        /// Whether the name starts with `prefix`.
        func hasPrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard count <= bytes.count, let base = bytes.baseAddress else { return false }
            return memcmp(base, prefix.utf8Start, count) == 0
        }

        /// Whether the name ends with `suffix`.
        func hasSuffix(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard count <= bytes.count, let base = bytes.baseAddress else { return false }
            return memcmp(base + (bytes.count - count), suffix.utf8Start, count) == 0
        }

        /// Whether `part` occurs anywhere in the name (memchr for its first byte, then memcmp: Glibc's module lacks
        /// memmem, a GNU extension).
        func contains(_ part: StaticString) -> Bool {
            let count = part.utf8CodeUnitCount
            guard count > 0, let base = bytes.baseAddress else { return false }
            let first = Int32(part.utf8Start.pointee)
            var at = base
            let end = base + bytes.count
            while end - at >= count, let found = memchr(at, first, end - at).map(UnsafeRawPointer.init) {
                if end - found >= count, memcmp(found, part.utf8Start, count) == 0 { return true }
                at = found + 1
            }
            return false
        }
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
    static func swiftSymbols(inFileAt path: String, _ wanted: (_ isFunction: Bool, _ size: Int, _ name: Name) -> Bool) -> [Symbol]? {
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
        // Through raw pointers, each name's end found by memchr: apps run the hook unoptimised (a debug build), where a
        // byte loop per name and the arrays' checked subscripts took 0.34 s of a 100 MB test binary's table.
        var found: [Symbol] = []
        symbols.withUnsafeBytes { (table: UnsafeRawBufferPointer) in
            names.withUnsafeBytes { (text: UnsafeRawBufferPointer) in
                guard let textStart = text.baseAddress else { return }
                for base in stride(from: 0, to: table.count - 23, by: 24) {
                    // STT_OBJECT (1) or STT_FUNC (2), defined (a section index).
                    let type = table[base + 4] & 0xF
                    guard type == 1 || type == 2, table.loadUnaligned(fromByteOffset: base + 6, as: UInt16.self) != 0 else { continue }
                    let nameAt = Int(table.loadUnaligned(fromByteOffset: base, as: UInt32.self))
                    guard nameAt + 2 < text.count, text[nameAt] == 0x24, text[nameAt + 1] == 0x73 else { continue }  // "$s"
                    let start: UnsafeRawPointer = textStart + nameAt
                    let end: UnsafeMutableRawPointer? = memchr(start, 0, text.count - nameAt)
                    let length = end.map { UnsafeRawPointer($0) - start } ?? text.count - nameAt
                    let name = UnsafeRawBufferPointer(start: start, count: length)
                    let size = Int(table.loadUnaligned(fromByteOffset: base + 16, as: UInt64.self))
                    guard wanted(type == 2, size, Name(bytes: name)) else { continue }
                    let value = UInt(table.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self))
                    found.append(Symbol(value: value, size: size, isFunction: type == 2, name: String(decoding: name, as: UTF8.self)))
                }
            }
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
