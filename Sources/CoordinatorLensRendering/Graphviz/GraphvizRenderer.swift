import CGraphviz
@_spi(Locking) import CoordinatorWire
import Foundation

/// The process's only door to libgvc: lays DOT text out with `dot` and renders it, one call at a time.
///
/// libgvc and cgraph are not thread-safe: parser, layout and renderers share globals, and concurrent calls crash even
/// with one context per thread or a lock around parsing alone. So one shared instance owns a single `GVC_t`, created
/// on first use and kept for the life of the process, and every libgvc call runs under one lock. A caller blocks
/// while another render runs, for minutes on a tree of 20,000 coordinators; async callers should call it from a
/// thread of their own rather than from the cooperative pool.
package final class GraphvizRenderer: @unchecked Sendable {
    /// The one renderer; there is no other, because a second could run libgvc concurrently with it.
    package static let shared = GraphvizRenderer()

    /// How Graphviz places the nodes before drawing them.
    package enum Layout: String, Sendable {
        /// Graphviz's hierarchical layout.
        case dot
        /// The positions the DOT text gives (`pos="x,y!"`); Graphviz only routes the edges and draws.
        case givenPositions = "nop2"
    }

    /// The most nodes one graph may have. libcdt, under libgvc, walks its dictionaries recursively: measured here on
    /// an 8 MB stack, a node with 300,000 edges drew and one with 600,000 crashed (signal 11 inside libcdt); libgvc
    /// runs on a thread of its own with `stackBytes`, so this leaves a wide margin. It also bounds the time and memory
    /// of a drawing: 100,000 nodes take seconds and hundreds of MB.
    package static let maximumNodes = 250_000
    /// The stack of the thread libgvc runs on: reserved, not used, until its recursion needs it.
    static let stackBytes = 64 << 20

    /// Whether the core-plugin context could be made; false until a drawing asked for it.
    var drawsWithCorePlugins: Bool {
        contexts.withLock { ($0.core ?? nil) != nil }
    }

    /// Throws `RenderError.tooBig` for a drawing of more than `maximumNodes` nodes.
    package static func checkLimits(nodes: Int) throws(RenderError) {
        if nodes > maximumNodes { throw .tooBig(nodes: nodes, limit: maximumNodes) }
    }

    /// Which plugins draw: by default a tree laid out by CoordinatorLens (`givenPositions`) goes to SVG, DOT or JSON
    /// through `CorePluginContext` (no Pango) and everything else through libgvc's default context (Cairo for PNG and
    /// PDF, Pango to size labels for `dot`); `.machine` always takes the default one.
    enum Plugins {
        case automatic
        case machine
    }

    /// libgvc's contexts: the default one, and the core-plugin one once asked for (nil inside: it could not be made).
    private struct Contexts {
        var main: OpaquePointer?
        var core: OpaquePointer??
    }

    /// Every call into libgvc runs inside this box's lock.
    private let contexts = LockedBox(Contexts())

    private init() {}

    /// Parses `dot`, lays it out (by default with the `dot` engine) and renders it in `format`; for `.dot` and `.json`
    /// that is Graphviz's own output, the graph annotated with positions.
    package func render(dot: String, format: RenderFormat, layout: Layout = .dot) throws(RenderError) -> [UInt8] {
        try render(dot: dot, format: format, layout: layout, plugins: .automatic)
    }

    /// Where libgvc's output goes: back as bytes, or straight into an open stdio stream, so that a drawing of a big
    /// tree written to a file never sits in memory whole (at 100,000 coordinators its SVG is about 150 MB).
    enum Output {
        case memory
        case stream(UnsafeMutablePointer<FILE>)
    }

    /// `render`, writing libgvc's output to `stream` as it is made; the caller opens and closes the stream.
    package func render(dot: String, format: RenderFormat, layout: Layout, to stream: UnsafeMutablePointer<FILE>) throws(RenderError) {
        _ = try render(dot: dot, format: format, layout: layout, plugins: .automatic, output: .stream(stream))
    }

    /// `render`, with the plugins chosen; empty bytes when `output` is a stream.
    func render(dot: String, format: RenderFormat, layout: Layout, plugins: Plugins, output: Output = .memory) throws(RenderError) -> [UInt8] {
        let result = contexts.withLock { contexts -> Result<[UInt8], RenderError> in
            // On the libgvc thread, whoever calls (its stack is known). The caller holds the lock and waits for the
            // job, so the contexts and the stream are never used from two threads at once.
            var result: Result<[UInt8], RenderError>!
            LibgvcThread.shared.run {
                result = Result { () throws(RenderError) -> [UInt8] in
                    try renderLocked(&contexts, dot: dot, format: format, layout: layout, plugins: plugins, output: output)
                }
            }
            return result
        }
        return try result.get()
    }

    /// `render`'s work, on the libgvc thread with the lock held.
    private func renderLocked(
        _ contexts: inout Contexts, dot: String, format: RenderFormat, layout: Layout, plugins: Plugins, output: Output
    ) throws(RenderError) -> [UInt8] {
        var gvc = try openContext(&contexts)
        if plugins == .automatic, layout == .givenPositions, [.svg, .dot, .json].contains(format) {
            if contexts.core == nil { contexts.core = .some(CorePluginContext.make(besides: gvc)) }
            if let core = contexts.core ?? nil { gvc = core }
        }

        agreseterrors()
        guard let graph = dot.withCString({ agmemread($0) }) else {
            throw .invalidDOT(message: recentError() ?? "the text holds no graph")
        }
        // Deferred in reverse: the rendered data, then the layout, then the graph are freed, the order libgvc wants.
        defer { agclose(graph) }

        agreseterrors()
        if gvLayout(gvc, graph, layout.rawValue) != 0 {
            let message = recentError() ?? "no message"
            if message.contains("not recognized") {
                // With no plugins registered the list after "Use one of:" is empty, and only confuses.
                let trimmed = message.hasSuffix(" Use one of:") ? String(message.dropLast(" Use one of:".count)) : message
                throw .layoutUnavailable(engine: layout.rawValue, message: trimmed)
            }
            throw .layoutFailed(message: message)
        }
        defer { gvFreeLayout(gvc, graph) }
        // Some errors, such as a malformed HTML-like label, Graphviz only reports, then draws something else.
        if let message = recentError() {
            throw .layoutFailed(message: message)
        }

        agreseterrors()
        var data: UnsafeMutablePointer<CChar>?
        var length = 0
        let status: Int32
        switch output {
        case .memory: status = coordlens_render_memory(gvc, graph, format.rawValue, &data, &length)
        case .stream(let stream):
            status = gvRender(gvc, graph, format.rawValue, stream)
            // Nothing to hand back; a status of 0 with no data is success here.
            if status == 0, recentError() == nil { return [] }
        }
        defer { free(data) }
        if status != 0 || data == nil {
            let message = recentError() ?? "no message"
            if message.contains("not recognized") || message.contains("unavailable") {
                throw .formatUnavailable(format: format.rawValue, message: message)
            }
            throw .renderFailed(format: format.rawValue, message: message)
        }
        if let message = recentError() {
            throw .renderFailed(format: format.rawValue, message: message)
        }
        guard let data, length > 0 else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The context, created on first use; call with the lock held.
    private func openContext(_ contexts: inout Contexts) throws(RenderError) -> OpaquePointer {
        if let context = contexts.main { return context }
        // Raising the print threshold above every level keeps Graphviz from writing to stderr and makes it keep each
        // message for `aglasterr()` instead (by default errors are printed and `aglasterr()` returns NULL).
        agseterr(AGMAX)
        guard let created = gvContext() else { throw .contextUnavailable }
        contexts.main = created
        return created
    }

    /// Graphviz's latest message if an error (not just a warning) was reported since `agreseterrors()`; call with the
    /// lock held.
    private func recentError() -> String? {
        // Only the level tells a fresh message from a stale one: `aglasterr()` keeps returning the last one ever kept.
        guard agerrors() >= Int32(AGERR.rawValue), let raw = aglasterr() else { return nil }
        defer { free(raw) }
        let message = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? nil : message
    }
}
