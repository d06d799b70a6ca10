/// How many page connections the inspector page holds and how long each may stay without doing its part; `listen`
/// and `view` share them (docs/ARCHITECTURE.md, "Bounded ports").
package struct PageLimits: Sendable {
    /// Page connections open at once, idle ones included; past it a new one takes the place of the one that has
    /// waited longest for a request, or is closed when all show requests. Nil: a quarter of the open-file limit less
    /// the reserve, at most 4,096 (`DescriptorBudget`).
    package var maxConnections: Int?
    /// Seconds a page connection may take to send a request's head (line and headers), counted like `requestTimeout`.
    package var headTimeout = 2.0
    /// Seconds a page connection may take to send a whole request, counted from its connection or its last
    /// response; a byte now and then does not extend it.
    package var requestTimeout = 10.0
    /// Seconds an event-stream client may stay full (its connection taking nothing more) before it is dropped.
    package var feedStallTimeout = 10.0

    /// The defaults: limit from the open-file limit, 2 s for a request's head, 10 s for a request, 10 s for a full event
    /// stream.
    package init() {}
}
