import CoordinatorTrace

/// The instrumentation, in one place, inside the flow engine: flows are the coordinators; each is bound to its root,
/// so a root that leaves dismisses its flow even while the flow still holds it. Every call takes the engine's call
/// site, all four parts, so each event names the line that started or ended the flow, never this file.
func traceRoot(_ flow: Flow, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
    CoordinatorTrace.added(flow, to: nil, file: file, line: line, function: function, filePath: filePath)
    CoordinatorTrace.bind(flow, to: flow.root, file: file, line: line, function: function, filePath: filePath)
}

func traceChild(
    _ flow: Flow, of parent: Flow,
    file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
) {
    CoordinatorTrace.added(flow, to: parent, file: file, line: line, function: function, filePath: filePath)
    CoordinatorTrace.bind(flow, to: flow.root, file: file, line: line, function: function, filePath: filePath)
}

func traceEnded(
    _ flow: Flow, of parent: Flow,
    file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
) {
    CoordinatorTrace.removed(flow, from: parent, file: file, line: line, function: function, filePath: filePath)
}
