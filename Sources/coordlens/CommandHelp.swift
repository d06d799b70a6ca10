/// The closing part of every subcommand's help: examples to copy, and what each exit status means, so a CI script can
/// be written from `--help` alone.
enum CommandHelp {
    /// `about` (may be empty), then the examples and the exit statuses.
    static func discussion(_ about: String = "", examples: [String], exitCodes: [(code: Int, meaning: String)]) -> String {
        var text = about.isEmpty ? "" : about + "\n\n"
        text += "Examples:\n" + examples.map { "  " + $0 }.joined(separator: "\n")
        text += "\n\nExit codes:\n" + exitCodes.map { "  \($0.code)  \($0.meaning)" }.joined(separator: "\n")
        return text
    }

    static let badUsage = (code: 2, meaning: "bad usage, or input that cannot be read (the message says which and why)")

    static let render = discussion(
        examples: [
            "coordlens render stream.ndjson -o tree.svg",
            "coordlens render stream.ndjson --leaks-only -o leaks.png",
            "coordlens render stream.ndjson --format html -o report.html",
        ],
        exitCodes: [(0, "drawn and written"), (2, "bad usage, unreadable input, or a picture that cannot be drawn or written")])

    static let check = discussion(
        examples: [
            "coordlens check stream.ndjson",
            "coordlens check stream.ndjson --format sarif > leaks.sarif",
            "coordlens check stream.ndjson --baseline baseline.json --history leaks.sqlite",
        ],
        exitCodes: [
            (0, "no retained coordinator (and none over a baseline)"),
            (1, "retained coordinators, a run that ended too early to judge (--allow-undecided lets it pass), or a pile-up over the baseline"),
            badUsage,
        ])

    static let listen = discussion(
        examples: [
            "coordlens listen --record stream.ndjson",
            "coordlens listen --out live --record stream.ndjson --sessions 1",
        ],
        exitCodes: [
            (0, "stopped by SIGINT or SIGTERM, or --sessions sessions ended"),
            (2, "bad usage, a port in use (--port and --http-port pick others), or a recording that cannot be opened"),
        ])

    static let view = discussion(
        examples: ["coordlens view stream.ndjson", "coordlens view fixed.ndjson leaking.ndjson --http-port 8080"],
        exitCodes: [(0, "stopped by SIGINT or SIGTERM"), (2, "bad usage, unreadable input, or a port in use (--http-port picks another)")])

    static let diffExamples = ["coordlens diff main.ndjson branch.ndjson", "coordlens diff main.ndjson branch.ndjson -o diff.svg"]
    static let diffExitCodes = [(code: 0, meaning: "B has no new leak and no pile-up"), (1, "B has a leak or a pile-up A does not"), badUsage]

    static let growthExamples = ["coordlens growth stream.ndjson --mark loop"]
    static let growthExitCodes = [(code: 0, meaning: "no type grows at every mark"), (1, "some type does"), badUsage]

    static let baselineExamples = ["coordlens baseline fixed.ndjson -o baseline.json", "coordlens baseline recordings/ -o baseline.json"]
    static let baselineExitCodes = [(code: 0, meaning: "baseline written"), (2, "bad usage, unreadable input, or an output that cannot be written")]

    static let history = discussion(
        examples: [
            "coordlens history add run.ndjson --history leaks.sqlite --commit \"$GIT_SHA\" --branch main",
            "coordlens history --history leaks.sqlite",
            "coordlens history --history postgres://ci@db.example/leaks --format json",
        ],
        exitCodes: [
            (0, "stored or listed"),
            (2, "bad usage, unreadable input, a store that cannot be opened, or one locked past --busy-timeout"),
        ])
}
