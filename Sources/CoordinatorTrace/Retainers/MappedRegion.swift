#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// The process's writable private memory as `/proc/self/maps` lists it, sorted by address: where the backward search
/// looks for words that hold an object's address. Read again at each search (the heap grows); the file is the
/// kernel's text, so reading it touches none of the app's memory.
struct MappedRegion: Equatable {
    enum Kind: Equatable {
        /// The main arena's heap (`[heap]`, grown by `brk`).
        case mainHeap
        /// An anonymous mapping: another arena's heap, one large block of its own, a thread's stack, or anything
        /// else mapped without a file.
        case anonymous
        /// A loaded image's writable data (`.data`, `.bss`): its file's path.
        case imageData(String)
        /// The main thread's stack.
        case mainStack
    }

    var start: UInt
    var end: UInt
    var kind: Kind

    var size: Int { Int(end - start) }

    /// The writable, private regions; empty when the file does not read. An anonymous region that starts where an
    /// image's writable data ends is that image's `.bss` (the part of it no file backs).
    static func current() -> [MappedRegion] {
        let file = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return [] }
        defer { close(file) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            text += chunk[0..<got]
        }
        var regions: [MappedRegion] = []
        var previousImage: (end: UInt, path: String)?
        for line in text.split(separator: UInt8(ascii: "\n")) {
            guard let region = parse(line, after: previousImage) else {
                previousImage = nil
                continue
            }
            if case .imageData(let path) = region.kind { previousImage = (region.end, path) } else { previousImage = nil }
            // One mapping can show as several lines (glibc shrinks an arena's heap by remapping part of it): joined.
            if region.kind == .anonymous, let last = regions.last, last.kind == .anonymous, last.end == region.start {
                regions[regions.count - 1].end = region.end
                continue
            }
            regions.append(region)
        }
        return regions
    }

    /// One line: `start-end perms offset dev inode path`; nil unless readable, writable and private.
    private static func parse(_ line: ArraySlice<UInt8>, after image: (end: UInt, path: String)?) -> MappedRegion? {
        let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        let range = fields[0].split(separator: UInt8(ascii: "-"))
        guard range.count == 2, let start = hex(range[0]), let end = hex(range[1]), end > start else { return nil }
        let permissions = Array(fields[1])
        guard permissions.count >= 4, permissions[0] == UInt8(ascii: "r"), permissions[1] == UInt8(ascii: "w"), permissions[3] == UInt8(ascii: "p")
        else { return nil }
        let path = fields.count > 5 ? String(decoding: fields[5].drop { $0 == UInt8(ascii: " ") }, as: UTF8.self) : ""
        switch path {
        case "":
            if let image, image.end == start { return MappedRegion(start: start, end: end, kind: .imageData(image.path)) }
            return MappedRegion(start: start, end: end, kind: .anonymous)
        case "[heap]": return MappedRegion(start: start, end: end, kind: .mainHeap)
        case "[stack]": return MappedRegion(start: start, end: end, kind: .mainStack)
        case _ where path.hasPrefix("/"): return MappedRegion(start: start, end: end, kind: .imageData(path))
        default: return nil  // [vvar], [vsyscall], anonymous names: no heap of the app
        }
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        var value: UInt = 0
        for digit in digits {
            guard value >> 60 == 0 else { return nil }
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return digits.isEmpty ? nil : value
    }
}
#endif
#endif
