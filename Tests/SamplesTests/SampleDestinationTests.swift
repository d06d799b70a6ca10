import SampleRun
import Testing

@Suite struct SampleDestinationTests {
    @Test func defaultsToStreamFileInTheCurrentDirectory() throws {
        #expect(try SampleDestination.parse([]).get() == .file("stream.ndjson"))
    }

    @Test func readsFileAndTCPDestinations() throws {
        #expect(try SampleDestination.parse(["--file", "out/run.ndjson"]).get() == .file("out/run.ndjson"))
        #expect(try SampleDestination.parse(["--tcp", "127.0.0.1:7420"]).get() == .tcp(host: "127.0.0.1", port: 7420))
        #expect(try SampleDestination.parse(["--tcp", ":7420"]).get() == .tcp(host: "127.0.0.1", port: 7420))
        #expect(try SampleDestination.parse(["--tcp", "10.0.0.2:7420", "--token", "abc"]).get() == .tcp(host: "10.0.0.2", port: 7420, token: "abc"))
    }

    @Test(arguments: [
        ["--tcp"], ["--tcp", "localhost"], ["--tcp", "h:0"], ["--file"], ["--verbose"], ["--token", "abc"], ["--file", "a", "--token", "abc"],
    ])
    func refusesWhatItCannotUse(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try SampleDestination.parse(arguments).get() }
    }
}
