#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// The loaded images' segments (each `PT_LOAD` program header, at its load bias), sorted, taken once per search from
/// `dl_iterate_phdr`: whether an address is in an image is then a binary search. `dladdr` answered the same question
/// by looking up the nearest symbol too, about 210,000 instructions a call here: 8 % of a search's instructions.
struct LoadedSegments {
    private var starts: [UInt] = []
    private var ends: [UInt] = []

    /// The segments loaded now; empty when the C library has no `dl_iterate_phdr`.
    static func current() -> LoadedSegments {
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
        var ranges: [(UInt, UInt)] = []
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dl_iterate_phdr") else { return LoadedSegments() }
        let iterate = unsafeBitCast(symbol, to: Iterate.self)
        withUnsafeMutablePointer(to: &ranges) { list in
            // struct dl_phdr_info: dlpi_addr (the load bias) at 0, dlpi_phdr at 16, dlpi_phnum (16 bits) at 24.
            _ = iterate(
                { info, _, context in
                    guard let info, let context, let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self) else { return 0 }
                    let bias = info.load(as: UInt.self)
                    let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
                    let list = context.assumingMemoryBound(to: [(UInt, UInt)].self)
                    // Elf64_Phdr, 56 bytes: p_type at 0 (PT_LOAD is 1), p_vaddr at 16, p_memsz at 40.
                    for index in 0..<count {
                        let header = headers + index * 56
                        guard header.loadUnaligned(as: UInt32.self) == 1 else { continue }
                        let start = bias &+ header.loadUnaligned(fromByteOffset: 16, as: UInt.self)
                        let size = header.loadUnaligned(fromByteOffset: 40, as: UInt.self)
                        if size > 0 { list.pointee.append((start, start &+ size)) }
                    }
                    return 0
                }, UnsafeMutableRawPointer(list))
        }
        ranges.sort { $0.0 < $1.0 }
        var segments = LoadedSegments()
        segments.starts = ranges.map(\.0)
        segments.ends = ranges.map(\.1)
        return segments
    }

    /// Whether no segment was found (then the caller asks `dladdr`).
    var isEmpty: Bool { starts.isEmpty }

    /// Whether `address` lies in one of the segments.
    func contains(_ address: UInt) -> Bool {
        // The last segment that starts at or below the address.
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 && address < ends[low - 1]
    }
}
#endif
#endif
