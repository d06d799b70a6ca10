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

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
