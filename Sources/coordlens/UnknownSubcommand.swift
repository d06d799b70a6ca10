/// A first argument that names no subcommand: said plainly, with the nearest name when one is a typo away
/// (`coordlens chek` → "did you mean 'check'?"), instead of "2 unexpected arguments".
struct UnknownSubcommand {
    let message: String

    /// Nil when `arguments` start with a subcommand, an option, or nothing.
    init?(arguments: [String], known: [String]) {
        guard let first = arguments.first, !first.hasPrefix("-"), !known.contains(first) else { return nil }
        let nearest = known.map { (name: $0, distance: Self.editDistance(first.lowercased(), $0)) }.min { $0.distance < $1.distance }
        let list = known.filter { $0 != "help" }.joined(separator: ", ")
        if let nearest, nearest.distance <= max(1, min(2, first.count / 3)) {
            message = "Error: unknown subcommand '\(first)'; did you mean '\(nearest.name)'?\nUsage: coordlens <subcommand>; the subcommands are \(list)."
        } else {
            message = "Error: unknown subcommand '\(first)'.\nUsage: coordlens <subcommand>; the subcommands are \(list)."
        }
    }

    /// Edit distance with two neighbouring letters swapped counting as one edit (`chekc` is one from `check`, as
    /// `rendr` is from `render`): insertions, deletions, substitutions and transpositions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1) }
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
