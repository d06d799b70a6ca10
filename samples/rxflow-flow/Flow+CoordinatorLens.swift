import CoordinatorTrace

/// The instrumentation, in one place, inside the flow engine: flows are the coordinators; each is bound to its root,
/// so a root that leaves dismisses its flow even while the flow still holds it.
func traceRoot(_ flow: Flow, file: StaticString, line: UInt, filePath: StaticString) {
    CoordinatorTrace.added(flow, to: nil, file: file, line: line, filePath: filePath)
    CoordinatorTrace.bind(flow, to: flow.root, file: file, line: line, filePath: filePath)
}

func traceChild(_ flow: Flow, of parent: Flow, file: StaticString = #fileID, line: UInt = #line) {
    CoordinatorTrace.added(flow, to: parent, file: file, line: line)
    CoordinatorTrace.bind(flow, to: flow.root, file: file, line: line)
}

func traceEnded(_ flow: Flow, of parent: Flow, file: StaticString = #fileID, line: UInt = #line) {
    CoordinatorTrace.removed(flow, from: parent, file: file, line: line)
}
