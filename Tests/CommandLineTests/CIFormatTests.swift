import Foundation
import TestSupport
import Testing

/// `check --format gcc|github|sarif|junit`, produced by the built `coordlens` from a real leaking recording and read
/// back by the consumer each format is for.
/// Serialized: each test runs several processes (coordlens, Python validators); run side by side on a 2-core machine
/// they starve the timing-sensitive hook tests running at the same time.
@Suite(.serialized) struct CIFormatTests {
    static let sample = PackageRoot.path("samples/deliveroo-traditional/stream.ndjson")
    static let schema = PackageRoot.path("Tests/Fixtures/sarif-schema-2.1.0.json")

    /// A leak whose type name tries to break every format: a newline, `%`, `::`, markup and an ESC byte.
    static let hostileType = "Evil\nLine%0A::error file=x,line=1::<b>&amp;\u{1B}[31mRed"
    static let hostile = """
        {"event":"session","v":1,"app":"Shop","run":"hostile"}
        {"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator","file":"App/App.swift","line":3}
        {"seq":2,"t":0.1,"event":"add","id":2,"type":\(jsonString(hostileType)),"parent":1,"file":"App/Evil, file:%.swift","line":40}
        {"seq":3,"t":1.0,"event":"dismiss","id":2}
        {"seq":4,"t":5.0,"event":"end"}

        """

    private static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    // MARK: gcc

    static let gccLine = try! NSRegularExpression(pattern: #"^([^:\n]+(?::[^:\n]+)*?):(\d+):(\d+): (error|warning|note): (.+)$"#)

    static func gccDiagnostics(_ output: String) -> [(file: String, line: Int, severity: String, message: String)] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let text = String(line)
            let range = NSRange(text.startIndex..., in: text)
            guard let match = gccLine.firstMatch(in: text, range: range) else { return nil }
            let group = { (index: Int) in String(text[Range(match.range(at: index), in: text)!]) }
            return (group(1), Int(group(2))!, group(4), group(5))
        }
    }

    @Test func gccPointsEveryLeakAtTheLineThatAddedIt() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", Self.sample, "--format", "gcc"])
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        let diagnostics = Self.gccDiagnostics(result.standardOutput)
        #expect(diagnostics.count == lines.count, "every line is a diagnostic:\n\(result.standardOutput)")
        // Seven leaks at three lines, all kept by one reference (the hook's retainer search found the same holding field
        // for all seven): one cause, one error at the first one's line, a note at each other line.
        let errors = diagnostics.filter { $0.severity == "error" }
        #expect(errors.count == 1)
        #expect(errors.first?.file == "DeliverooTraditionalSample/HomeCoordinator.swift")
        #expect(errors.first?.line == 11)
        #expect(
            errors.first?.message
                == "HomeCoordinator.childCoordinators[] (element) keeps 7 coordinators: 3 × YellowCoordinator (#2, #4, #6), 3 × GreenCoordinator (#3, #5, #7), "
                + "CheckoutCoordinator#10")
        let notes = diagnostics.filter { $0.severity == "note" }
        #expect(notes.first?.message == "path: HomeCoordinator#1 › YellowCoordinator#2 (the first of 7)")
        #expect(
            notes.dropFirst().map(\.message) == [
                "3 × GreenCoordinator added here, kept by the same cause", "a CheckoutCoordinator added here, kept by the same cause",
            ])
        #expect(Set(notes.dropFirst().map(\.line)).count == 2 && !notes.dropFirst().contains { $0.line == 11 }, "each at its own line")
    }

    @Test func gccKeepsAHostileTypeNameOnItsLine() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "gcc"], input: Self.hostile)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardOutput)")
        #expect(lines.allSatisfy { $0.hasPrefix("App/Evil, file:%.swift:40:1: ") })
        #expect(!result.standardOutput.contains("\u{1B}"))
        #expect(lines.first?.contains(#"retained: still a child of AppCoordinator#1"#) == true)
        #expect(lines.first?.contains(#"Evil\nLine%0A::error file=x,line=1::<b>&amp;\u{1B}[31mRed#2"#) == true)
    }

    // MARK: github

    /// Splits a workflow command as the Actions runner does and undoes its escaping.
    static func workflowCommand(_ line: Substring) -> (command: String, properties: [String: String], message: String)? {
        guard line.hasPrefix("::"), let end = line.dropFirst(2).range(of: "::") else { return nil }
        let head = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]
        let message = unescape(String(line[end.upperBound...]))
        let command = head.split(separator: " ", maxSplits: 1)
        var properties: [String: String] = [:]
        if command.count == 2 {
            for pair in command[1].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                properties[String(parts[0])] = unescape(String(parts[1]))
            }
        }
        return (String(command[0]), properties, message)
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
            .replacingOccurrences(of: "%25", with: "%")
    }

    @Test func githubAnnotatesEveryLeakAtTheLineThatAddedIt() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", Self.sample, "--format", "github"])
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        let commands = lines.compactMap(Self.workflowCommand)
        #expect(commands.count == 1, "one annotation per cause, with a count")
        #expect(commands.allSatisfy { $0.command == "error" })
        let first = try #require(commands.first)
        #expect(first.properties["file"] == "DeliverooTraditionalSample/HomeCoordinator.swift")
        #expect(first.properties["line"] == "11")
        #expect(first.properties["title"] == "7 coordinators retained")
        #expect(
            first.message
                == "HomeCoordinator.childCoordinators[] (element) keeps 7 coordinators: 3 × YellowCoordinator (#2, #4, #6), 3 × GreenCoordinator (#3, #5, #7), "
                + "CheckoutCoordinator#10\npath: HomeCoordinator#1 › YellowCoordinator#2"
        )
        #expect(lines.last == "coordlens: 7 retained, 0 undecided in 1 session")
    }

    @Test func githubKeepsAHostileTypeNameInsideItsCommand() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "github"], input: Self.hostile)
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("\u{1B}"))
        let command = try #require(Self.workflowCommand(lines[0]))
        let visible = #"Evil\nLine%0A::error file=x,line=1::<b>&amp;\u{1B}[31mRed"#
        #expect(command.command == "error")
        #expect(command.properties.keys.sorted() == ["file", "line", "title"])
        #expect(command.properties["file"] == "App/Evil, file:%.swift")
        #expect(command.properties["title"] == "\(visible)#2 retained")
        #expect(command.message.hasPrefix("\(visible)#2 retained: still a child of AppCoordinator#1\npath: "))
    }

    // MARK: sarif

    static let validateSARIF = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        log = json.loads(sys.stdin.read())
        validator = jsonschema.validators.validator_for(schema)(schema)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]
        run = log["runs"][0]
        print(json.dumps({"errors": errors, "version": log["version"], "results": [
            {"ruleId": r["ruleId"], "level": r["level"], "message": r["message"]["text"],
             "uri": r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             "line": r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"),
             "related": [l["physicalLocation"]["region"]["startLine"] for l in r.get("relatedLocations", [])],
             "rule": run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"]} for r in run["results"]],
            "notifications": len(run["invocations"][0]["toolExecutionNotifications"])}))
        """

    struct SARIFSummary: Decodable {
        struct Result: Decodable {
            var ruleId: String, level: String, message: String, uri: String, line: Int?, related: [Int], rule: String
        }
        var errors: [String], version: String, results: [Result], notifications: Int
    }

    static func validatedSARIF(_ output: String) async throws -> SARIFSummary {
        let validation = try await PythonTools.runAsync(validateSARIF, [schema], input: output)
        #expect(validation.status == 0, "\(validation.standardError)")
        let summary = try JSONDecoder().decode(SARIFSummary.self, from: Data(validation.standardOutput.utf8))
        #expect(summary.errors == [], "not valid SARIF 2.1.0")
        return summary
    }

    @Test func sarifIsValidAndLocatesEveryLeak() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", Self.sample, "--format", "sarif"])
        #expect(result.status == 1, "\(result.standardError)")
        let summary = try await Self.validatedSARIF(result.standardOutput)
        #expect(summary.version == "2.1.0")
        #expect(summary.results.count == 7)
        let first = try #require(summary.results.first)
        #expect(first.ruleId == "still-child" && first.rule == "still-child" && first.level == "error")
        #expect(first.uri == "DeliverooTraditionalSample/HomeCoordinator.swift")
        #expect(first.line == 11)
        #expect(first.related == [6], "HomeCoordinator, which holds it, was added at line 6")
    }

    @Test func sarifPointsADetachedLeakAtItsRemoveCallInTheCheckout() async throws {
        let path = try await StrangerRecording.file()
        let result = try await BuiltProduct.coordlens.runAsync(
            ["check", path, "--grace", "0.3", "--format", "sarif", "--source-root", PackageRoot.url.path]
        )
        #expect(result.status == 1)
        let summary = try await Self.validatedSARIF(result.standardOutput)
        let detached = try #require(summary.results.first { $0.ruleId == "detached" })
        #expect(detached.uri == "Tests/CommandLineTests/StrangerApp.swift")
        #expect(detached.related.contains(StrangerApp.line(of: "removeChild(chat)")), "the line that removed it: \(detached.related)")
        #expect(summary.results.map(\.ruleId).sorted() == ["detached", "still-child"])
    }

    @Test func sarifStaysValidWithAHostileTypeName() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "sarif"], input: Self.hostile + "{oops\n")
        #expect(result.status == 1)
        let summary = try await Self.validatedSARIF(result.standardOutput)
        #expect(summary.results.count == 1)
        #expect(summary.results.first?.message.hasPrefix(#"Evil\nLine%0A::error file=x,line=1::<b>&amp;\u{1B}[31mRed#2 retained"#) == true)
        #expect(summary.results.first?.uri == "App/Evil%2C%20file%3A%25.swift")
        #expect(summary.notifications == 1, "the malformed line is a tool notification")
    }

    // MARK: junit

    static let readJUnit = """
        import json, sys
        from junitparser import JUnitXml
        xml = JUnitXml.fromstring(sys.stdin.read())
        suites = []
        for suite in xml:
            cases = []
            for case in suite:
                cases.append({"name": case.name, "classname": case.classname,
                    "results": [{"kind": type(r).__name__, "message": r.message, "type": r.type, "text": r.text}
                                for r in case.result],
                    "out": case.system_out})
            suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures,
                           "errors": suite.errors, "err": suite._elem.findtext("system-err"), "cases": cases})
        print(json.dumps(suites))
        """

    struct JUnitSuite: Decodable {
        struct Case: Decodable {
            struct Result: Decodable { var kind: String, message: String?, type: String?, text: String? }
            var name: String, classname: String, results: [Result], out: String?
        }
        var name: String, tests: Int, failures: Int, errors: Int, err: String?, cases: [Case]
    }

    static func parsedJUnit(_ output: String) async throws -> [JUnitSuite] {
        let parse = try await PythonTools.runAsync(readJUnit, input: output)
        #expect(parse.status == 0, "\(parse.standardError)")
        return try JSONDecoder().decode([JUnitSuite].self, from: Data(parse.standardOutput.utf8))
    }

    @Test func junitHasATestCasePerLeakAndCountsThatAddUp() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", Self.sample, "--format", "junit"])
        #expect(result.status == 1, "\(result.standardError)")
        let suites = try await Self.parsedJUnit(result.standardOutput)
        let suite = try #require(suites.first)
        #expect(suites.count == 1)
        #expect(suite.failures == 7 && suite.errors == 0)
        #expect(
            suite.cases.map(\.name) == [
                "HomeCoordinator", "YellowCoordinator [1]", "YellowCoordinator [2]", "YellowCoordinator [3]",
                "GreenCoordinator [1]", "GreenCoordinator [2]", "GreenCoordinator [3]", "FixedYellowCoordinator",
                "FixedGreenCoordinator", "CheckoutCoordinator [1]", "PaymentCoordinator",
            ])
        #expect(suite.tests == suite.cases.count)
        #expect(suite.failures + suite.errors <= suite.tests)
        #expect(suite.cases.allSatisfy { $0.results.count <= 1 }, "one failure per test case")
        let yellow = try #require(suite.cases.first { $0.name == "YellowCoordinator [1]" })
        #expect(yellow.classname == "DeliverooTraditionalSample")
        #expect(yellow.results.allSatisfy { $0.kind == "Failure" && $0.type == "still-child" })
        #expect(
            yellow.results.first?.message
                == "YellowCoordinator#2 retained: still a child of HomeCoordinator#1; held by HomeCoordinator.childCoordinators[] (element)")
        #expect(
            yellow.results.first?.text
                == "cause: HomeCoordinator.childCoordinators[] (element)\nadded at DeliverooTraditionalSample/HomeCoordinator.swift:11\npath: HomeCoordinator#1 › YellowCoordinator#2"
        )
        #expect(suite.cases.first { $0.name == "FixedYellowCoordinator" }?.results.isEmpty == true, "released: it passes")
    }

    @Test func junitReadsBackAHostileTypeNameExactly() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "junit"], input: Self.hostile + "{oops\n")
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("\u{1B}"))
        let suite = try #require(try await Self.parsedJUnit(result.standardOutput).first)
        let visible = #"Evil\nLine%0A::error file=x,line=1::<b>&amp;\u{1B}[31mRed"#
        #expect(suite.cases.map(\.name) == ["AppCoordinator", visible + " [1]"])
        #expect(suite.cases.last?.results.first?.message == "\(visible)#2 retained: still a child of AppCoordinator#1")
        #expect(suite.err?.contains("<stdin>:6: malformed JSON") == true, "\(suite.err ?? "no system-err")")
    }

    @Test func junitMakesUndecidedAnErrorUnlessAllowed() async throws {
        let path = try Streams.file(Streams.leaking)
        let strict = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "10", "--format", "junit"])
        #expect(strict.status == 1)
        let suite = try #require(try await Self.parsedJUnit(strict.standardOutput).first)
        #expect(suite.errors == 1 && suite.failures == 0)
        #expect(suite.cases.last?.results.first?.kind == "Error")
        let allowed = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "10", "--format", "junit", "--allow-undecided"])
        #expect(allowed.status == 0)
        let relaxed = try #require(try await Self.parsedJUnit(allowed.standardOutput).first)
        #expect(relaxed.errors == 0 && relaxed.failures == 0)
        #expect(relaxed.cases.last?.out?.contains("CheckoutCoordinator#2 undecided: the run ended") == true)
    }

    // MARK: exit codes and undecided, in every format

    @Test(arguments: ["gcc", "github", "sarif", "junit"])
    func exitCodesAreTheTextFormats(format: String) async throws {
        let leaking = try Streams.file(Streams.leaking)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", leaking, "--format", format]).status == 1)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(Streams.clean), "--format", format]).status == 0)
        let undecided = try await BuiltProduct.coordlens.runAsync(["check", leaking, "--grace", "10", "--format", format])
        #expect(undecided.status == 1)
        #expect(undecided.standardOutput.contains("CheckoutCoordinator#2 undecided"))
        #expect(try await BuiltProduct.coordlens.runAsync(["check", leaking, "--grace", "10", "--allow-undecided", "--format", format]).status == 0)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", format], input: "").status == 2)
    }

    @Test func undecidedIsAnErrorUnlessAllowedThenAWarning() async throws {
        let leaking = try Streams.file(Streams.leaking)
        let strict = try await BuiltProduct.coordlens.runAsync(["check", leaking, "--grace", "10", "--format", "gcc"])
        #expect(strict.standardOutput.hasPrefix("App.swift:40:1: error: CheckoutCoordinator#2 undecided: the run ended"))
        let allowed = try await BuiltProduct.coordlens.runAsync(["check", leaking, "--grace", "10", "--allow-undecided", "--format", "github"])
        #expect(allowed.standardOutput.hasPrefix("::warning file=App.swift,line=40,title=CheckoutCoordinator#2 undecided::"))
        let sarif = try await Self.validatedSARIF(
            try await BuiltProduct.coordlens.runAsync(["check", leaking, "--grace", "10", "--format", "sarif"]).standardOutput)
        #expect(sarif.results.map(\.ruleId) == ["undecided"])
        #expect(sarif.results.map(\.level) == ["error"])
    }

    @Test func theValidatorsRejectBrokenOutput() async throws {
        // The consumers are real: a result without a message is not SARIF, and XML with an unclosed tag is refused.
        let count =
            "import json, sys, jsonschema\nschema = json.load(open(sys.argv[1]))\n"
            + "print(len(list(jsonschema.validators.validator_for(schema)(schema).iter_errors(json.loads(sys.stdin.read())))))"
        let broken = #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a"}]}]}"#
        let errors = try await PythonTools.runAsync(count, [Self.schema], input: broken)
        #expect(errors.status == 0, "\(errors.standardError)")
        #expect(Int(errors.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0)
        let junit = try await PythonTools.runAsync(Self.readJUnit, input: "<testsuites><testsuite name=\"a\"><testcase></testsuite></testsuites>")
        #expect(junit.status != 0)
    }

    /// Eighteen products retained at one line: one annotation with the count for GitHub (which shows at most 10 per
    /// step) and gcc, a test case each for JUnit with counts that add up, and a result each for SARIF.
    @Test func eighteenIdenticalLeaksAreOneAnnotation() async throws {
        var lines = [#"{"event":"session","v":1,"app":"Router","run":"r"}"#, #"{"seq":1,"t":0,"event":"add","id":1,"type":"Router"}"#]
        for product in 2...19 {
            lines.append(
                #"{"seq":\#(2 * product - 2),"t":0.1,"event":"add","id":\#(product),"type":"ProductCoordinator","parent":1,"file":"Shop/Router.swift","line":42}"#
            )
            lines.append(#"{"seq":\#(2 * product - 1),"t":0.2,"event":"dismiss","id":\#(product),"via":"screen-left"}"#)
        }
        lines.append(#"{"seq":38,"t":5,"event":"end"}"#)
        let input = lines.joined(separator: "\n") + "\n"
        let github = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "github"], input: input)
        #expect(github.status == 1)
        let commands = github.standardOutput.split(separator: "\n").compactMap(Self.workflowCommand)
        #expect(commands.count == 1)
        #expect(commands.first?.properties["title"] == "18 × ProductCoordinator retained")
        #expect(
            commands.first?.message.hasPrefix(
                "ProductCoordinator still a child of Router keeps 18 coordinators: 18 × ProductCoordinator (#2, #3, #4, #5, #6, … 13 more)")
                == true, "\(commands)")
        let gcc = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "gcc"], input: input)
        #expect(Self.gccDiagnostics(gcc.standardOutput).filter { $0.severity == "error" }.count == 1)
        let junit = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "junit"], input: input)
        let suite = try #require(try await Self.parsedJUnit(junit.standardOutput).first)
        #expect(suite.tests == 19 && suite.failures == 18 && suite.errors == 0)
        let sarif = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "sarif"], input: input)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let results = ((object["runs"] as? [[String: Any]])?.first?["results"] as? [Any]) ?? []
        #expect(results.count == 18, "SARIF keeps one result per coordinator")
    }
}
