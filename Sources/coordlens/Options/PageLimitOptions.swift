import ArgumentParser
import CoordinatorLensServer

/// `--max-page-connections`, `--page-head-timeout`, `--page-request-timeout` and `--feed-stall-timeout`: how the inspector page's port of
/// `listen` and `view` is bounded (docs/CLI.md, "coordlens listen").
struct PageLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-page-connections"),
        help:
            "Page connections open at once, idle ones included; past it a new one replaces the one that has waited longest for a request. Default: a quarter of the open-file limit less 32, at most 4096."
    )
    var maxPageConnections: Int?

    @Option(
        name: .customLong("page-head-timeout"),
        help: "Seconds a page connection may take to send a request's line and headers (from connecting, or from its last answer); then it is closed.")
    var headTimeout = PageLimits().headTimeout

    @Option(
        name: .customLong("page-request-timeout"),
        help: "Seconds a page connection may take to send a whole request (from connecting, or from its last answer); then it is closed.")
    var requestTimeout = PageLimits().requestTimeout

    @Option(name: .customLong("feed-stall-timeout"), help: "Seconds a page's event stream may stay full (the page reading nothing) before it is dropped.")
    var feedStallTimeout = PageLimits().feedStallTimeout

    func validate() throws {
        if let maxPageConnections, maxPageConnections < 1 { throw ValidationError("--max-page-connections must be at least 1") }
        if !(requestTimeout > 0) { throw ValidationError("--page-request-timeout must be a number of seconds above 0") }
        if !(headTimeout > 0) { throw ValidationError("--page-head-timeout must be a number of seconds above 0") }
        if !(feedStallTimeout > 0) { throw ValidationError("--feed-stall-timeout must be a number of seconds above 0") }
    }

    var limits: PageLimits {
        var limits = PageLimits()
        limits.maxConnections = maxPageConnections
        limits.requestTimeout = requestTimeout
        limits.headTimeout = headTimeout
        limits.feedStallTimeout = feedStallTimeout
        return limits
    }
}
