import CoordinatorLens
import Testing

/// The baseline file's text read and written by the core in one pass, with the line of whatever is wrong.
@Suite struct BaselineFormatTests {
    private func read(_ text: String) throws(BaselineFormatError) -> LeakBaseline {
        let bytes = Array(text.utf8)
        let read = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(BaselineFormatError) -> LeakBaseline in try BaselineFormat.read(buffer) }
        }
        return try read.get()
    }

    private func problem(_ text: String) -> BaselineFormatError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    private var sample: LeakBaseline {
        let still = LeakFingerprint(types: ["App", "Home", "Green \"quoted\" \\ é"], reasonKind: .stillChild)
        let deep = LeakFingerprint(types: ["App", "Step", "Step"], omittedSteps: 9_990, reasonKind: .detached)
        let census = PathCensus(alive: [PathCensus.Path(types: ["App", "Home"]): 2, PathCensus.Path(types: ["App", "Step"], omittedSteps: 12): 0])
        return LeakBaseline(counts: [still: 3, deep: 1], census: census)
    }

    @Test func whatItWritesItReadsBack() throws {
        let text = BaselineFormat.text(for: sample)
        #expect(try read(text) == sample)
        // One leak per line, in fingerprint order, as reviews read it.
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.contains("\"fingerprint\"") }.count == 2)
        #expect(lines.first == "{" && lines.last == "}")
        #expect(try read(BaselineFormat.text(for: LeakBaseline(counts: [:]))) == LeakBaseline(counts: [:]))
    }

    @Test func keysInAnyOrderWithAnySpacingAndUnknownKeysRead() throws {
        let text = """
            {"paths":[ {"alive":2,"types":["App","Home"],"note":{"a":[1,2,{"b":null}]}} ] , "leaks" :[{"count":3,
            "reason":"still-child","types":[ "App" , "H\\u00e9" ]}],"extra":[[],{}],"coordlensBaseline":1}
            """
        let baseline = try read(text)
        #expect(baseline.counts == [LeakFingerprint(types: ["App", "Hé"], reasonKind: .stillChild): 3])
        #expect(baseline.census == PathCensus(alive: [PathCensus.Path(types: ["App", "Home"]): 2]))
        // Baselines written before `paths` existed check no pile-ups.
        #expect(try read(#"{"coordlensBaseline": 1, "leaks": []}"#).census == PathCensus())
    }

    @Test func eachProblemNamesItsLine() {
        let syntax = problem("{\n  \"coordlensBaseline\": 1,\n  \"leaks\": [\n    {\"types\": [\"A\"] \"count\": 1}\n  ]\n}\n")
        #expect(syntax?.line == 4)
        #expect(syntax?.message.hasPrefix("not JSON (expected ',' or '}')") == true, "\(String(describing: syntax))")
        let reason = problem(
            "{\n  \"coordlensBaseline\": 1,\n  \"leaks\": [\n    {\"types\": [\"A\"], \"reason\": \"still-child\", \"count\": 1},\n    {\"types\": [\"B\"], \"reason\": \"stuck\", \"count\": 1}\n  ]\n}\n"
        )
        #expect(reason?.line == 5)
        #expect(reason?.message.hasPrefix("unknown reason stuck (one of ") == true)
        let types = problem("{\"coordlensBaseline\": 1,\n\"leaks\": [\n{\"types\": [\"A\", 2], \"reason\": \"detached\", \"count\": 1}]}")
        #expect(types == BaselineFormatError(line: 3, message: "a leak needs \"types\" (a list of type names), \"reason\" and \"count\""))
        let notAnObject = problem("{\"coordlensBaseline\": 1, \"leaks\": [\n\n\"A\"]}")
        #expect(notAnObject?.line == 3)
        let count = problem("{\"coordlensBaseline\": 1, \"leaks\": [{\"types\": [\"A\"], \"reason\": \"detached\", \"count\": 1.5}]}")
        #expect(count?.message.hasPrefix("a leak needs") == true)
        let omitted = problem("{\"coordlensBaseline\": 1, \"leaks\": [{\"types\": [\"A\"], \"reason\": \"detached\", \"count\": 1, \"omittedSteps\": \"x\"}]}")
        #expect(omitted?.message == "\"count\" must be at least 1 and \"omittedSteps\" at least 0")
        let twice = problem(
            "{\"coordlensBaseline\": 1, \"leaks\": [\n{\"types\": [\"A\"], \"reason\": \"detached\", \"count\": 1},\n{\"types\": [\"A\"], \"reason\": \"detached\", \"count\": 2}]}"
        )
        #expect(twice == BaselineFormatError(line: 3, message: "A (detached) is listed twice"))
        let disagree = problem(
            "{\"coordlensBaseline\": 1, \"leaks\": [{\"fingerprint\": \"B (detached)\", \"types\": [\"A\"], \"reason\": \"detached\", \"count\": 1}]}")
        #expect(disagree?.message == "\"fingerprint\" says B (detached) but types and reason say A (detached)")
        let path = problem("{\"coordlensBaseline\": 1, \"leaks\": [],\n\"paths\": [\n{\"types\": [\"A\"], \"alive\": 1},\n{\"types\": [\"B\"]}]}")
        #expect(path == BaselineFormatError(line: 4, message: "path 2 needs \"types\" (a list of type names) and \"alive\" (0 or more)"))
    }

    @Test func theWholeFileIsCheckedBeforeItsMeaning() {
        #expect(problem("")?.message.hasPrefix("not JSON") == true)
        #expect(problem("[1]")?.message.hasPrefix("not JSON") == true)
        #expect(problem("{\"coordlensBaseline\": 1, \"leaks\": []} trailing")?.message.hasPrefix("not JSON") == true)
        #expect(problem("{\"coordlensBaseline\": 1, \"leaks\": [{\"types\": [\"A\"]}, ]}")?.message.hasPrefix("not JSON") == true)
        #expect(problem("{\"coordlensBaseline\": 1, \"leaks\": [}")?.message.hasPrefix("not JSON") == true)
        #expect(problem("{\"leaks\": []}")?.message.hasPrefix("not a coordlens baseline") == true)
        #expect(problem("{\"coordlensBaseline\": 2, \"leaks\": []}")?.message.hasPrefix("baseline version 2 is newer than the 1") == true)
        #expect(problem("{\"coordlensBaseline\": 1, \"leaks\": {}}") == BaselineFormatError(line: nil, message: "\"leaks\" must be a list"))
    }
}
