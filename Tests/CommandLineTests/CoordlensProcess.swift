import Foundation
import Testing

/// Runs the real `coordlens` binary that `swift build --build-tests` put next to the test bundle.
struct CoordlensProcess {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("coordlens")
    }

    static func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }

    /// A file in a fresh temporary folder holding `text`.
    static func file(_ text: String, name: String = "stream.ndjson") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-cli-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

enum Streams {
    static let leaking = """
    {"event":"session","v":1,"app":"Shop","run":"leaky"}
    {"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator","file":"App.swift","line":3}
    {"seq":2,"t":0.1,"event":"add","id":2,"type":"CheckoutCoordinator","parent":1,"file":"App.swift","line":40}
    {"seq":3,"t":0.2,"event":"bind","id":2,"screen":"CheckoutViewController"}
    {"seq":4,"t":0.5,"event":"mark","label":"opened"}
    {"seq":5,"t":1.0,"event":"dismiss","id":2}
    {"seq":6,"t":5.0,"event":"end"}

    """

    static let clean = """
    {"event":"session","v":1,"app":"Shop","run":"clean"}
    {"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}
    {"seq":2,"t":0.1,"event":"add","id":2,"type":"CheckoutCoordinator","parent":1}
    {"seq":3,"t":1.0,"event":"dismiss","id":2}
    {"seq":4,"t":1.1,"event":"remove","id":2,"parent":1}
    {"seq":5,"t":1.2,"event":"deinit","id":2}
    {"seq":6,"t":5.0,"event":"end"}

    """
}
