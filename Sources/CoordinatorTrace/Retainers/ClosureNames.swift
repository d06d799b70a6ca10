#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Foundation

/// The closure a step goes through, named as the compiler names it, from the code its function value points at:
/// `closure #1 in HomeViewModel.init(router:)`, so a user goes to the closure literal, not only to the field.
///
/// A closure with a context points at its partial-apply forwarder (`…TA`), one without at the closure itself (`…fU_`);
/// both are local symbols, in the images' full symbol tables only. Read once per process, when a path first goes
/// through a closure.
enum ClosureNames {
    private struct Entry {
        var start: UInt
        var end: UInt
        var mangled: String
    }

    /// The images' closures, forwarders and their thunks, by address.
    private static let table: [Entry] = load()

    private static func load() -> [Entry] {
        var entries: [Entry] = []
        for image in ImageSymbols.applicationImages() {
            // An async closure's function value points at its async function pointer (`…Tu`), a data symbol.
            let symbols = ImageSymbols.swiftSymbols(inFileAt: image.path) { isFunction, _, name in
                (isFunction || name.hasSuffix("Tu"))
                    && (name.hasSuffix("TA") || name.hasSuffix("TATm") || name.contains("fU") || name.contains("fu"))
            }
            for symbol in symbols ?? [] {
                let start = image.bias &+ symbol.value
                entries.append(Entry(start: start, end: start &+ UInt(max(1, symbol.size)), mangled: symbol.name))
            }
        }
        return entries.sorted { $0.start < $1.start }
    }

    /// The closure (or bound method) whose code is at `address`, readable; nil when no symbol of the app covers it.
    static func name(ofCode address: UInt) -> String? {
        let entries = table
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < entries[low - 1].end, let full = ImageSymbols.demangled(entries[low - 1].mangled) else { return nil }
        return readable(full)
    }

    /// `partial apply forwarder for closure #1 () -> () in g.HomeViewModel.init(router: g.Router) -> g.HomeViewModel`
    /// → `closure #1 in HomeViewModel.init(router:)`: the closure's number and the function it is written in, as a
    /// reader finds them in the source; nil for a thunk, which names no code of the app's.
    static func readable(_ demangled: String) -> String? {
        var text = demangled
        for prefix in ["async function pointer to ", "partial apply forwarder for ", "partial apply for "] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        guard !text.contains("thunk") else { return nil }
        // A private declaration is spelled `(closureCode in _84AE8FBE…)`: its name is what the source has.
        text = text.replacingOccurrences(of: #"\(([^() ]+) in _[0-9A-F]+\)"#, with: "$1", options: .regularExpression)
        // `@objc` marks a closure converted to a C function pointer.
        if text.hasPrefix("@objc ") { text.removeFirst("@objc ".count) }
        let parts = text.components(separatedBy: " in ")
        return parts.enumerated().map { index, part in
            guard index == parts.count - 1 else {
                // `closure #1 @Sendable () -> ()`: the number is what the source shows, the signature is noise.
                guard let number = part.range(of: #"^(implicit )?closure #[0-9]+"#, options: .regularExpression) else { return part }
                return String(part[number])
            }
            return functionName(part)
        }.joined(separator: " in ")
    }

    /// `g.HomeViewModel.init(router: g.Router) -> g.HomeViewModel` → `HomeViewModel.init(router:)`; words before the
    /// name (`static`, `variable initialization expression of`) kept.
    private static func functionName(_ whole: String) -> String {
        // A type annotation (` : () -> ()`) ends the name: argument labels have no space before their colon.
        var text = whole.range(of: " : ").map { whole[..<$0.lowerBound] } ?? Substring(whole)
        var words = ""
        if let dot = text.firstIndex(of: "."), let space = text[..<dot].lastIndex(of: " ") {
            words = String(text[...space])
            text = text[text.index(after: space)...]
        }
        var name: Substring
        var labels = ""
        if let open = text.firstIndex(of: "(") {
            name = text[..<open]
            // The arguments' labels, `_` for an unlabelled one: the parentheses' top-level commas split them.
            var depth = 0
            var argument = ""
            var arguments: [String] = []
            for character in text[text.index(after: open)...] {
                if character == "(" || character == "<" || character == "[" { depth += 1 }
                if character == ")" || character == ">" || character == "]" {
                    if depth == 0 { break }
                    depth -= 1
                }
                if character == ",", depth == 0 {
                    arguments.append(argument)
                    argument = ""
                } else {
                    argument.append(character)
                }
            }
            if !argument.trimmingCharacters(in: .whitespaces).isEmpty { arguments.append(argument) }
            labels =
                "("
                + arguments.map { argument in
                    let trimmed = argument.trimmingCharacters(in: .whitespaces)
                    guard let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                        return "_:"
                    }
                    return trimmed[..<colon] + ":"
                }.joined() + ")"
        } else {
            name = text
        }
        // The module goes when a type or function follows it: `HomeViewModel.init`, not `g.HomeViewModel.init`.
        if let dot = name.firstIndex(of: "."), name.index(after: dot) < name.endIndex { name = name[name.index(after: dot)...] }
        // A generic function's clause (`watch<A where A1: AnyObject>`) is not what its call sites or its source spell.
        var plain = ""
        var depth = 0
        for character in name {
            if character == "<" { depth += 1 }
            if depth == 0 { plain.append(character) }
            if character == ">", depth > 0 { depth -= 1 }
        }
        return words + plain + labels
    }
}
#endif
#endif
