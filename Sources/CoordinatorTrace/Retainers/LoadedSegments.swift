#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// The loaded images' segments (each `PT_LOAD` program header, at its load bias), sorted, taken once per search from
/// `dl_iterate_phdr` (`LoadedImage`): whether an address is in an image is then a binary search. `dladdr` answered the same question
/// by looking up the nearest symbol too, about 210,000 instructions a call here: 8 % of a search's instructions.
struct LoadedSegments {
    private var starts: [UInt] = []
    private var ends: [UInt] = []

    /// The segments loaded now; empty when the C library has no `dl_iterate_phdr`.
    static func current() -> LoadedSegments {
        let ranges = LoadedImage.all().flatMap(\.segments).sorted { $0.lowerBound < $1.lowerBound }
        var segments = LoadedSegments()
        segments.starts = ranges.map(\.lowerBound)
        segments.ends = ranges.map(\.upperBound)
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
