import Foundation
import TestSupport
import Testing

/// What the command line says when the user gets something wrong, and what its help tells them.
@Suite struct CommandMannersTests {
    @Test(arguments: [("chek", "check"), ("chekc", "check"), ("rendr", "render"), ("lisen", "listen"), ("histroy", "history"), ("veiw", "view")])
    func aMistypedSubcommandGetsTheNearestName(typed: String, meant: String) async throws {
        let run = try await BuiltProduct.coordlens.runAsync([typed, "stream.ndjson"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown subcommand '\(typed)'; did you mean '\(meant)'?"), "\(run.standardError)")
    }

    /// A negative number after an option is its value, refused by the option's own check, not "Missing value".
    @Test func aNegativeNumberIsAValueTheOptionRefusesByName() async throws {
        let run = try await BuiltProduct.coordlens.runAsync(["check", "--grace", "-1", "stream.ndjson"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--grace must be a non-negative number of seconds"), "\(run.standardError)")
        #expect(!run.standardError.contains("Missing value"))
    }

    @Test func aWordFarFromEverySubcommandListsThemAll() async throws {
        let run = try await BuiltProduct.coordlens.runAsync(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown subcommand 'frobnicate'."), "\(run.standardError)")
        #expect(run.standardError.contains("the subcommands are render, check, listen, view, diff, growth, history, baseline"))
    }

    @Test func fileErrorsSayWhy() async throws {
        let folder = try TemporaryFolder("coordlens-manners")
        let missing = try await BuiltProduct.coordlens.runAsync(["check", folder.file("nothing.ndjson")])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read \(folder.file("nothing.ndjson")): no such file"), "\(missing.standardError)")
        let noFolder = try await BuiltProduct.coordlens.runAsync(["render", folder.file("gone/run.ndjson"), "-o", folder.file("t.svg")])
        #expect(noFolder.standardError.contains("no such file (no folder \(folder.file("gone")))"), "\(noFolder.standardError)")
        let directory = try await BuiltProduct.coordlens.runAsync(["check", folder.path])
        #expect(directory.status == 2)
        #expect(
            directory.standardError.contains("\(folder.path) is a directory; check --summary \(folder.path) summarises the recordings in it"),
            "\(directory.standardError)")
        let rendered = try await BuiltProduct.coordlens.runAsync(["render", folder.path, "-o", folder.file("t.svg")])
        #expect(rendered.standardError.contains("cannot read \(folder.path): it is a directory"), "\(rendered.standardError)")
        let recording = #"{"event":"session","v":1,"app":"A","run":"r"}"# + "\n" + #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"# + "\n"
        let baseline = try await BuiltProduct.coordlens.runAsync(["check", "-", "--baseline", folder.file("baseline.json")], input: recording)
        #expect(baseline.standardError.contains("cannot read baseline \(folder.file("baseline.json")): no such file"), "\(baseline.standardError)")
    }

    @Test func aPortInUseNamesTheFlagThatPicksAnother() async throws {
        let taken = try TCPProxy(to: 1)
        defer { taken.stop() }
        let hook = try await BuiltProduct.coordlens.runAsync(["listen", "--port", "\(taken.port)", "--no-http"], timeout: 20)
        #expect(hook.status == 2)
        #expect(hook.standardError.contains("127.0.0.1:\(taken.port): the port is in use; --port picks another"), "\(hook.standardError)")
        let page = try await BuiltProduct.coordlens.runAsync(["listen", "--port", "0", "--http-port", "\(taken.port)"], timeout: 20)
        #expect(page.status == 2)
        #expect(page.standardError.contains("the port is in use; --http-port picks another"), "\(page.standardError)")
        #expect(!page.standardError.contains("errno"), "no socket library text: \(page.standardError)")
    }

    @Test(arguments: ["render", "check", "listen", "view", "diff", "growth", "history", "baseline"])
    func everySubcommandsHelpHasExamplesAndExitCodes(subcommand: String) async throws {
        let help = try await BuiltProduct.coordlens.runAsync([subcommand, "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Examples:\n  coordlens \(subcommand)"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("Exit codes:\n  0  "), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("\n  2  "), "\(help.standardOutput)")
    }
}
