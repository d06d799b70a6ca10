/// The page's ES modules made into two classic scripts for the one-file report, which opens from disk and may fetch
/// nothing, not even its own modules. No bundler: each module becomes one function, run once and in the order the
/// browser runs modules (a module's imports first, in the order it names them); its `import { a, b as c } from
/// "./x.js";` lines become `const { a, b: c } = …` over x's exports, and its `export` prefixes go. A module's other
/// names stay inside its function, so two modules may each have a `draw`, as in the browser.
///
/// The modules keep to what this reading understands, and anything else is a `Problem` naming the line: an import
/// is one line of named imports from `./file.js`; an export is `export function`, `export async function`,
/// `export const` or `export class` (an exported `let` would be a live binding in the browser and a copy here); the
/// imports form no cycle (so there is an order in which each module runs after all it imports); and no module
/// contains `</script` or `<!--`, which would end or bend the inline element.
struct InlineModules: Sendable {
    /// Why the modules could not be joined: a module and its line (1-based; 0 for the module as a whole).
    struct Problem: Error, Equatable, CustomStringConvertible {
        var module: String
        var line: Int
        var message: String
        var description: String { line > 0 ? "\(module):\(line): \(message)" : "\(module): \(message)" }
    }

    /// Every module the entry needs, dependencies first, each bound to one global constant (`lensModule_NAME`).
    var library: String
    /// The entry module, run after the library.
    var entry: String
    /// The modules in the order they run, the entry last.
    var order: [String]

    /// Joins `entry` and everything it imports, read from `sources` (file name to text).
    static func join(entry: String, sources: [String: String]) throws(Problem) -> InlineModules {
        var parsed: [String: Module] = [:]
        var order: [String] = []
        var visiting: [String] = []
        func visit(_ name: String, from importer: (module: String, line: Int)?) throws(Problem) {
            if parsed[name] != nil { return }
            if let start = visiting.firstIndex(of: name) {
                let cycle = (visiting[start...] + [name]).joined(separator: " → ")
                throw Problem(module: importer?.module ?? name, line: importer?.line ?? 0, message: "import cycle: \(cycle)")
            }
            guard let text = sources[name] else {
                throw Problem(module: importer?.module ?? name, line: importer?.line ?? 0, message: "no page module `\(name)`")
            }
            visiting.append(name)
            let module = try Module(name: name, text: text)
            for dependency in module.imports { try visit(dependency.module, from: (name, dependency.line)) }
            visiting.removeLast()
            parsed[name] = module
            order.append(name)
        }
        try visit(entry, from: nil)
        // Every imported name must be exported, as the browser checks before it runs anything.
        for name in order {
            for dependency in parsed[name]!.imports {
                let exports = parsed[dependency.module]!.exports
                for binding in dependency.bindings where !exports.contains(binding.imported) {
                    throw Problem(module: name, line: dependency.line, message: "\(dependency.module) exports no `\(binding.imported)`")
                }
            }
        }
        var library = "\"use strict\";\n"
        for name in order.dropLast() {
            let module = parsed[name]!
            library += "// \(name)\nconst \(variable(name)) = (() => {\n\(module.body)return { \(module.exports.joined(separator: ", ")) };\n})();\n"
        }
        let main = parsed[entry]!
        let entryScript = "\"use strict\";\n// \(entry)\n(() => {\n\(main.body)})();\n"
        return InlineModules(library: library, entry: entryScript, order: order)
    }

    /// The global constant holding a module's exports: `tree-view.js` → `lensModule_tree_view`.
    static func variable(_ module: String) -> String {
        let stem = module.hasSuffix(".js") ? String(module.dropLast(3)) : module
        return "lensModule_" + String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// One module as read: what it imports, what it exports, and its text with both rewritten.
    private struct Module {
        struct Binding {
            var imported: String
            var local: String
        }
        struct Import {
            var module: String
            var bindings: [Binding]
            var line: Int
        }

        var imports: [Import] = []
        var exports: [String] = []
        var body = ""

        init(name: String, text: String) throws(Problem) {
            let lower = text.lowercased()
            for marker in ["</script", "<!--"] where lower.contains(marker) {
                throw Problem(module: name, line: 0, message: "contains `\(marker)`, which would end or bend the report's inline script")
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let number = index + 1
                if line.hasPrefix("import") {
                    let parsed = try Self.importLine(line, module: name, number: number)
                    imports.append(parsed)
                    let pairs = parsed.bindings.map { $0.imported == $0.local ? $0.local : "\($0.imported): \($0.local)" }
                    body += "const { \(pairs.joined(separator: ", ")) } = \(InlineModules.variable(parsed.module));\n"
                } else if line.hasPrefix("export") {
                    let rest = line.dropFirst("export ".count)
                    guard line.hasPrefix("export "), let exported = Self.declaredName(rest) else {
                        throw Problem(
                            module: name, line: number,
                            message: "an export must be `export function`, `export async function`, `export const` or `export class` NAME")
                    }
                    exports.append(exported)
                    body += rest + "\n"
                } else {
                    body += line + "\n"
                }
            }
        }

        /// `import { a, b as c } from "./x.js";`, nothing else.
        private static func importLine(_ line: Substring, module: String, number: Int) throws(Problem) -> Import {
            let problem = Problem(module: module, line: number, message: "an import must be one line `import { a, b as c } from \"./file.js\";`")
            guard line.hasPrefix("import { "), let close = line.firstIndex(of: "}") else { throw problem }
            let names = line[line.index(line.startIndex, offsetBy: "import { ".count)..<close]
            let tail = line[line.index(after: close)...]
            guard tail.hasPrefix(" from \"./"), tail.hasSuffix(".js\";") else { throw problem }
            let file = String(tail.dropFirst(" from \"./".count).dropLast(2))
            guard !file.contains("/"), !file.contains("\"") else { throw problem }
            var bindings: [Binding] = []
            for entry in names.split(separator: ",") {
                let words = entry.split(separator: " ")
                switch words.count {
                case 1 where isName(words[0]): bindings.append(Binding(imported: String(words[0]), local: String(words[0])))
                case 3 where words[1] == "as" && isName(words[0]) && isName(words[2]):
                    bindings.append(Binding(imported: String(words[0]), local: String(words[2])))
                default: throw problem
                }
            }
            guard !bindings.isEmpty else { throw problem }
            return Import(module: file, bindings: bindings, line: number)
        }

        /// The name `function NAME(`, `async function NAME(`, `const NAME =` or `class NAME` declares.
        private static func declaredName(_ declaration: Substring) -> String? {
            for keyword in ["async function ", "function ", "const ", "class "] where declaration.hasPrefix(keyword) {
                let name = declaration.dropFirst(keyword.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                return isName(name) ? String(name) : nil
            }
            return nil
        }

        private static func isName(_ word: Substring) -> Bool {
            guard let first = word.first, !first.isNumber else { return false }
            return word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
        }
    }
}
