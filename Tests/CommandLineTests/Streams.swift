import Foundation

/// The streams the command-line tests feed `coordlens`.
enum Streams {
    /// A file in a fresh temporary folder holding `text`.
    static func file(_ text: String, name: String = "stream.ndjson") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-cli-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

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
