#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// One image the dynamic linker has loaded, as `dl_iterate_phdr` reports it: its file, its load bias and where its
/// `PT_LOAD` segments lie. The one place that reads the C library's `dl_phdr_info` and program headers by offset.
struct LoadedImage {
    /// The image's file as the linker named it; empty for the program itself.
    var path: String
    /// What was added to the image's addresses when it was loaded.
    var bias: UInt
    /// Its loaded segments, each `start..<end` in memory, in program-header order.
    var segments: [Range<UInt>]

    /// The images loaded now, the program first; empty when the C library has no `dl_iterate_phdr` (it is looked up,
    /// not imported: Glibc's module map leaves it out).
    static func all() -> [LoadedImage] {
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dl_iterate_phdr") else { return [] }
        let iterate = unsafeBitCast(symbol, to: Iterate.self)
        var images: [LoadedImage] = []
        withUnsafeMutablePointer(to: &images) { list in
            _ = iterate(
                { info, _, context in
                    guard let info, let context else { return 0 }
                    // struct dl_phdr_info: dlpi_addr (the load bias) at 0, dlpi_name at 8, dlpi_phdr at 16, dlpi_phnum
                    // (16 bits) at 24.
                    let bias = info.load(as: UInt.self)
                    let path = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                    var segments: [Range<UInt>] = []
                    if let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self) {
                        // Elf64_Phdr, 56 bytes: p_type at 0 (PT_LOAD is 1), p_vaddr at 16, p_memsz at 40.
                        for index in 0..<Int(info.load(fromByteOffset: 24, as: UInt16.self)) {
                            let header = headers + index * 56
                            guard header.loadUnaligned(as: UInt32.self) == 1 else { continue }
                            let start = bias &+ header.loadUnaligned(fromByteOffset: 16, as: UInt.self)
                            let size = header.loadUnaligned(fromByteOffset: 40, as: UInt.self)
                            if size > 0, start <= start &+ size { segments.append(start..<(start &+ size)) }
                        }
                    }
                    context.assumingMemoryBound(to: [LoadedImage].self).pointee.append(LoadedImage(path: path, bias: bias, segments: segments))
                    return 0
                }, UnsafeMutableRawPointer(list))
        }
        return images
    }
}
#endif
#endif
