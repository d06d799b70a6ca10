import CoordinatorTrace
import Foundation

/// Runs a sample's flows inside one traced session and ends it so that every verdict has settled.
public enum SampleRun {
    /// How long the sample waits after a coordinator is done before the moment that judges it: a bit more than
    /// coordlens' default 2 s grace, so that what is still alive then counts as retained (or, deinited, as late).
    public static let settle: Double = 2.25

    /// Starts the session for `app` at the destination given on the command line, runs `flows`, and ends it.
    ///
    /// `flows` gets the pause to call between a coordinator being done and the moment that judges it, and returns
    /// what the app itself keeps alive (its window, its root coordinator), which stays alive until the session ends.
    /// A sample with options of its own passes the `arguments` left after taking them, and its trace `options`; a
    /// `sourceRoot` left nil becomes this package's root.
    public static func main(
        app: String, arguments: [String] = Array(CommandLine.arguments.dropFirst()), options: TraceOptions = TraceOptions(),
        _ flows: (_ settle: () -> Void) -> Any
    ) {
        let destination: SampleDestination
        switch SampleDestination.parse(arguments) {
        case .success(let parsed): destination = parsed
        case .failure(let error):
            FileHandle.standardError.write(Data("\(app): \(error)\nusage: \(app) [--tcp HOST:PORT [--token TOKEN] | --file PATH]\n".utf8))
            exit(2)
        }
        var options = options
        if options.sourceRoot == nil { options.sourceRoot = packageRoot }
        // A command-line run: its main thread draws no UI, so `end()` may take its whole budget there.
        options.mainThreadEndBudget = max(options.mainThreadEndBudget, options.endBudget)
        CoordinatorTrace.start(app: app, sink: destination.makeSink(), options: options)
        ScreenDepartures.install()
        let keptAlive = flows(pause)
        withExtendedLifetime(keptAlive) { CoordinatorTrace.end() }
    }

    /// The package's root, taken off the front of every call site's path: the committed recordings then name
    /// `samples/yui/AppCoordinators.swift`, not the folders of the machine that recorded them. This file is
    /// `<root>/samples/SampleRun/SampleRun.swift`.
    static let packageRoot = URL(fileURLWithPath: "\(#filePath)")
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Waits until the hook has stamped everything that happened so far (on Linux it notices deallocations by
    /// polling), then lets the grace period pass.
    private static func pause() {
        CoordinatorTrace.flush()
        Thread.sleep(forTimeInterval: settle)
    }
}
