import CoordinatorTrace

/// The instrumentation, in one place: a child joins the tree where the router adds it and is bound to the view
/// controller it owns, so that screen leaving (swiped down, popped) counts as the child's dismissal although the
/// child keeps the screen alive. Every call takes the app's call site, all four parts, never this file's.
extension AnyCoordinator {
    func traceAdded(_ child: AnyCoordinator, site: CallSite) {
        CoordinatorTrace.added(child, to: self, file: site.file, line: site.line, function: site.function, filePath: site.filePath)
        CoordinatorTrace.bind(child, to: child.rootViewController, file: site.file, line: site.line, function: site.function, filePath: site.filePath)
    }

    func traceRemoved(_ child: AnyCoordinator, site: CallSite) {
        CoordinatorTrace.removed(child, from: self, file: site.file, line: site.line, function: site.function, filePath: site.filePath)
    }

    /// The root joins as a root.
    func traceStarted(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function, filePath: filePath)
        CoordinatorTrace.bind(self, to: rootViewController, file: file, line: line, function: function, filePath: filePath)
    }
}
