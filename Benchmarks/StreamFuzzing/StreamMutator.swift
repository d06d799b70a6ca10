/// Turns valid recordings into almost-valid ones: byte flips, cut and doubled lines, lines from another recording,
/// numbers and strings swapped for the values decoders get wrong, a BOM, CRLF, deep nesting, invalid UTF-8.
public struct StreamMutator {
    private let seeds: [[UInt8]]
    private var random: SeededRandom

    /// Mutates copies of `seeds` (at least one), choosing with a generator seeded by `seed`.
    public init(seeds: [[UInt8]], seed: UInt64) {
        precondition(!seeds.isEmpty, "the mutator needs at least one seed input")
        self.seeds = seeds
        self.random = SeededRandom(seed: seed)
    }

    static let numbers = [
        "0", "-1", "-0", "1.5", "1e400", "-1e400", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999999999", "4611686018427387904", "1023", "3071", "7167", "0.000001",
    ]
    static let strings = [
        #""""#, #""\u001b[31m""#, #""\n\r\t""#, #""\u0000""#, #""\ud800""#, #""\\""#, #""<B></B>""#, #""&amp;""#,
        #""\u2028""#, #""é😀""#, "null", "true", "[]", "{}",
    ]

    /// The next mutated input.
    public mutating func next() -> [UInt8] {
        var lines = split(seeds[random.below(seeds.count)])
        for _ in 0..<(1 + random.below(4)) { mutate(&lines) }
        var out: [UInt8] = []
        for line in lines { out += line + [0x0A] }
        if random.oneIn(20) { out = [0xEF, 0xBB, 0xBF] + out }
        if random.oneIn(10), !out.isEmpty { out.removeLast(random.below(min(out.count, 200))) }
        return out
    }

    private mutating func mutate(_ lines: inout [[UInt8]]) {
        guard !lines.isEmpty else {
            lines = split(seeds[random.below(seeds.count)])
            return
        }
        let at = random.below(lines.count)
        switch random.below(13) {
        case 0 where !lines[at].isEmpty:
            lines[at][random.below(lines[at].count)] ^= UInt8(1 << random.below(8))
        case 1:
            let junk = (0..<(1 + random.below(8))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            lines[at].insert(contentsOf: junk, at: random.below(lines[at].count + 1))
        case 2 where !lines[at].isEmpty:
            let start = random.below(lines[at].count)
            lines[at].removeSubrange(start..<min(lines[at].count, start + 1 + random.below(16)))
        case 3:
            lines.insert(lines[at], at: random.below(lines.count + 1))
        case 4:
            lines.swapAt(at, random.below(lines.count))
        case 5:
            let other = split(seeds[random.below(seeds.count)])
            if !other.isEmpty { lines.insert(other[random.below(other.count)], at: random.below(lines.count + 1)) }
        case 6:
            replaceToken(in: &lines[at], isNumber: true)
        case 7:
            replaceToken(in: &lines[at], isNumber: false)
        case 8:
            lines[at] += [0x0D]
        case 9:
            lines.remove(at: at)
        case 10:
            let depth = 1 + random.below(5_000)
            let nested =
                Array(#"{"nested":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: depth)
                + [UInt8](repeating: UInt8(ascii: "]"), count: depth) + Array(",".utf8)
            if lines[at].first == UInt8(ascii: "{") { lines[at].replaceSubrange(0..<1, with: nested) }
        case 11:
            let long = [UInt8](repeating: UInt8(ascii: "W"), count: 1 + random.below(300_000))
            replaceToken(in: &lines[at], with: [UInt8(ascii: "\"")] + long + [UInt8(ascii: "\"")], isNumber: false)
        default:
            lines.shuffle(using: &random)
        }
    }

    /// Swaps one number (or one string) of `line` for an interesting one.
    private mutating func replaceToken(in line: inout [UInt8], isNumber: Bool) {
        let pool = isNumber ? Self.numbers : Self.strings
        replaceToken(in: &line, with: Array(pool[random.below(pool.count)].utf8), isNumber: isNumber)
    }

    private mutating func replaceToken(in line: inout [UInt8], with replacement: [UInt8], isNumber: Bool) {
        // Values follow a colon: a number runs to the next , or }, a string to its closing quote.
        let colons = line.indices.filter { line[$0] == UInt8(ascii: ":") }
        guard !colons.isEmpty else { return }
        let start = colons[random.below(colons.count)] + 1
        guard start < line.count else { return }
        var end = start
        if line[start] == UInt8(ascii: "\"") {
            end += 1
            while end < line.count, line[end] != UInt8(ascii: "\"") { end += line[end] == UInt8(ascii: "\\") ? 2 : 1 }
            end = min(end + 1, line.count)
        } else {
            while end < line.count, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "}") { end += 1 }
        }
        if isNumber, line[start] == UInt8(ascii: "\"") { return }
        line.replaceSubrange(start..<end, with: replacement)
    }

    private func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }
}
