import Foundation
import TestSupport
import Testing

@testable import CoordinatorLensPage
@testable import CoordinatorLensServer

/// The page's script as native ES modules: every script in `Page/` is a listed module served as JavaScript, the
/// one-file report can join them in the order the browser runs them, and the page's rules (one SVG sanitiser, text
/// only) hold in every module.
struct PageModuleTests {
    static let pageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CoordinatorLensPage/Page")

    static var sources: [String: String] { PageAssets.modules.mapValues { String(decoding: $0, as: UTF8.self) } }

    /// The files a module imports, read from its `import … from "./x.js";` lines.
    static func imports(of text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("import ") }.compactMap { line in
            line.range(of: #"from "./"#).map { String(line[$0.upperBound...].dropLast(2)) }
        }
    }

    @Test func everyScriptInThePageFolderIsAListedModuleServedAsJavaScript() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pageFolder.path).filter { $0.hasSuffix(".js") }
        #expect(Set(files) == Set(PageAssets.modules.keys))
        for name in files {
            let asset = try #require(PageAssets.asset(at: "/" + name), "\(name)")
            #expect(asset.contentType == "text/javascript; charset=utf-8")
            #expect(asset.bytes == Array(try Data(contentsOf: Self.pageFolder.appendingPathComponent(name))), "\(name)")
        }
        for path in ["/inspector.js", "main.js", "/./main.js", "/Main.js", "/main.js/", "/index.html.js"] {
            #expect(PageAssets.asset(at: path) == nil, "\(path)")
        }
    }

    @Test func everyModuleIsServedOverHTTPWithThePagePolicy() async throws {
        var options = ListenOptions()
        options.port = 0
        options.httpPort = 0
        let server = InspectorServer(options: options) { _ in }
        _ = try await server.start()
        let port = try #require(server.pagePort)
        func get(_ path: String) throws -> String {
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            return try connection.receiveUntilQuiet(5, seconds: 20)
        }
        for (name, bytes) in PageAssets.modules {
            let response = try get("/" + name)
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(name)")
            #expect(response.contains("Content-Type: text/javascript; charset=utf-8\r\n"), "\(name)")
            #expect(response.contains("script-src 'self';"), "\(name)")
            #expect(response.hasSuffix("\r\n\r\n" + String(decoding: bytes, as: UTF8.self)), "\(name)")
        }
        #expect(try get("/inspector.js").hasPrefix("HTTP/1.1 404"))
        #expect(try get("/state.json").hasPrefix("HTTP/1.1 404"))
        await server.stop()
    }

    @Test func thePageAsServedPreloadsEveryModuleBeforeItsEntry() throws {
        let served = String(decoding: try #require(PageAssets.asset(at: "/")).bytes, as: UTF8.self)
        let lines = served.split(separator: "\n").map(String.init)
        let preloads = lines.compactMap { $0.firstMatch(of: /^<link rel="modulepreload" href="\/([a-z-]+\.js)">$/)?.1 }.map(String.init)
        #expect(Set(preloads) == Set(PageAssets.modules.keys).subtracting([PageAssets.entryModule]))
        #expect(preloads.count == PageAssets.modules.count - 1, "each once")
        let entry = try #require(lines.firstIndex(of: #"<script type="module" src="/main.js"></script>"#))
        #expect(lines.firstIndex { $0.contains("modulepreload") }.map { $0 < entry } == true, "fetched before the entry asks")
        let original = String(decoding: PackageResources.index_html, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.contains("modulepreload") } == original, "otherwise the page as written")
        #expect(PageAssets.asset(at: "/index.html")?.bytes == PageAssets.asset(at: "/")?.bytes)
    }

    @Test func theReportRunsEveryModuleOnceAfterWhatItImports() throws {
        let joined = try InlineModules.join(entry: PageAssets.entryModule, sources: Self.sources)
        #expect(Set(joined.order) == Set(PageAssets.modules.keys), "every listed module is used")
        #expect(joined.order.count == PageAssets.modules.count, "each once")
        #expect(joined.order.last == PageAssets.entryModule)
        for (index, name) in joined.order.enumerated() {
            for dependency in Self.imports(of: Self.sources[name]!) {
                let at = try #require(joined.order.firstIndex(of: dependency), "\(name) imports \(dependency)")
                #expect(at < index, "\(dependency) runs before \(name), which imports it")
            }
        }
        for script in [joined.library, joined.entry] {
            #expect(!script.contains("\nimport ") && !script.contains("\nexport "))
            #expect(script.hasPrefix("\"use strict\";\n"))
        }
        #expect(joined.library.contains("const lensModule_tree_view = (() => {\n"))
        #expect(joined.entry.contains("const { inertSvg } = lensModule_sanitise;\n"))
    }

    @Test func theReportNamesItsTwoScriptsByHashAndNothingElse() throws {
        let html = try InspectorReport.document(data: "{}", title: "app · run")
        let bodies = html.components(separatedBy: "<script>").dropFirst().map { $0.components(separatedBy: "</script>")[0] }
        #expect(bodies.count == 2)
        let policy = try #require(html.split(separator: "\n").first { $0.contains("Content-Security-Policy") })
        let scriptSources = policy.components(separatedBy: "script-src ")[1].components(separatedBy: ";")[0]
        #expect(scriptSources == bodies.map(ScriptHash.source(of:)).joined(separator: " "))
        #expect(!html.contains(#"src="/"#), "nothing fetched")
    }

    @Test func privateNamesStayInTheirModuleAndImportsMayRename() throws {
        let joined = try InlineModules.join(
            entry: "main.js",
            sources: [
                "main.js": "import { draw as drawA } from \"./a.js\";\nimport { draw } from \"./b.js\";\ndrawA(); draw();\n",
                "a.js": "let shown = 1;\nexport function draw() { return shown; }\n",
                "b.js": "let shown = 2;\nexport const draw = () => shown;\n",
            ])
        #expect(joined.order == ["a.js", "b.js", "main.js"])
        #expect(joined.library.contains("const lensModule_a = (() => {\nlet shown = 1;\nfunction draw() { return shown; }\n\nreturn { draw };\n})();"))
        #expect(joined.entry.contains("const { draw: drawA } = lensModule_a;\nconst { draw } = lensModule_b;\n"))
    }

    @Test(arguments: [
        (
            [
                "main.js": "import { a } from \"./a.js\";\n", "a.js": "\nimport { b } from \"./b.js\";\nexport const a = 1;\n",
                "b.js": "import { a } from \"./a.js\";\nexport const b = 2;\n",
            ],
            InlineModules.Problem(module: "b.js", line: 1, message: "import cycle: a.js → b.js → a.js")
        ),
        (
            ["main.js": "// main\nimport { missing } from \"./a.js\";\n", "a.js": "export const a = 1;\n"],
            InlineModules.Problem(module: "main.js", line: 2, message: "a.js exports no `missing`")
        ),
        (
            ["main.js": "import { a } from \"./gone.js\";\n"],
            InlineModules.Problem(module: "main.js", line: 1, message: "no page module `gone.js`")
        ),
        (
            ["main.js": "const x = 1;\nexport let counter = 0;\n"],
            InlineModules.Problem(
                module: "main.js", line: 2,
                message: "an export must be `export function`, `export async function`, `export const` or `export class` NAME")
        ),
        (
            ["main.js": "export default function () {}\n"],
            InlineModules.Problem(
                module: "main.js", line: 1,
                message: "an export must be `export function`, `export async function`, `export const` or `export class` NAME")
        ),
        (
            ["main.js": "import * as a from \"./a.js\";\n", "a.js": ""],
            InlineModules.Problem(module: "main.js", line: 1, message: "an import must be one line `import { a, b as c } from \"./file.js\";`")
        ),
        (
            ["main.js": "import {\n  a,\n} from \"./a.js\";\n", "a.js": "export const a = 1;\n"],
            InlineModules.Problem(module: "main.js", line: 1, message: "an import must be one line `import { a, b as c } from \"./file.js\";`")
        ),
        (
            ["main.js": "const text = \"</SCRIPT>\";\n"],
            InlineModules.Problem(module: "main.js", line: 0, message: "contains `</script`, which would end or bend the report's inline script")
        ),
    ])
    func whatTheJoiningCannotReadIsAProblemNamingTheLine(sources: [String: String], expected: InlineModules.Problem) {
        #expect(throws: expected) { try InlineModules.join(entry: "main.js", sources: sources) }
    }

    @Test func oneModuleParsesServerSVGAndNoModuleWritesMarkup() {
        for (name, text) in Self.sources {
            for parsing in ["DOMParser", "parseFromString", "image/svg+xml", "function inertSvg"] {
                #expect(name == "sanitise.js" || !text.contains(parsing), "\(name) has \(parsing): server SVG enters only through sanitise.js")
            }
            for markup in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment", "eval(", "new Function"] {
                #expect(!text.contains(markup), "\(name) has \(markup): the page writes text only")
            }
        }
        // The tree and the comparison both draw through it.
        for user in ["tree-view.js", "compare.js"] {
            #expect(Self.sources[user]!.contains("import { inertSvg } from \"./sanitise.js\";"), "\(user)")
        }
    }
}
