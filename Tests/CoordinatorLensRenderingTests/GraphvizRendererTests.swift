import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import Testing

@Suite struct GraphvizRendererTests {
    @Test func syntaxErrorIsAnErrorWithGraphvizMessage() throws {
        let error = try #require(throws: RenderError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a -> ; }", format: .svg)
        }
        guard case .invalidDOT(let message) = error else {
            Issue.record("expected invalidDOT, got \(error)")
            return
        }
        #expect(message.contains("syntax error"))
        #expect(error.description.hasPrefix("Graphviz could not parse the DOT: syntax error"))
    }

    @Test func textWithoutAGraphIsAnError() {
        #expect(throws: RenderError.invalidDOT(message: "the text holds no graph")) {
            try GraphvizRenderer.shared.render(dot: "", format: .svg)
        }
    }

    @Test func errorGraphvizOnlyReportsIsNotSwallowed() {
        // A malformed HTML-like label: Graphviz reports it, then would draw the raw text instead.
        #expect(throws: RenderError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a [label=<<B>x</b>>]; }", format: .svg)
        }
    }

    @Test func rendererWorksAfterErrors() throws {
        _ = try? GraphvizRenderer.shared.render(dot: "digraph { a -> ; }", format: .svg)
        let svg = try GraphvizRenderer.shared.render(dot: "digraph { a -> b; }", format: .svg)
        #expect(String(decoding: svg, as: UTF8.self).contains("</svg>"))
    }

    @Test func graphvizOwnDOTOutputCarriesPositions() throws {
        let dot = try GraphvizRenderer.shared.render(dot: "digraph { a -> b; }", format: .dot)
        #expect(String(decoding: dot, as: UTF8.self).contains("pos="))
    }

    @Test func concurrentRendersFromATaskGroupAllSucceed() async throws {
        let snapshot = Fixtures.shop()
        let results = await withTaskGroup(of: Result<[UInt8], RenderError>.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do throws(RenderError) {
                        if index % 4 == 3 {
                            return .success(try GraphvizRenderer.shared.render(dot: "digraph { a -> }", format: .svg))
                        }
                        return .success(try SnapshotRenderer.render(snapshot, format: index % 2 == 0 ? .svg : .png))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        let failures = results.compactMap { result -> RenderError? in
            if case .failure(let error) = result { error } else { nil }
        }
        #expect(failures.count == 4)
        #expect(failures.allSatisfy { if case .invalidDOT = $0 { true } else { false } })
        #expect(results.allSatisfy { (try? $0.get())?.count ?? 1_000 >= 1_000 })
    }

    @Test func concurrentRendersFromThreadsAllSucceed() {
        let dot = DOTWriter().write(Fixtures.shop())
        let sizes = SlotResults(count: 16)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            sizes.set(index, (try? GraphvizRenderer.shared.render(dot: dot, format: .svg))?.count ?? 0)
        }
        #expect(sizes.values.allSatisfy { $0 > 1_000 })
    }
}

/// Per-iteration results from `concurrentPerform`, written under a lock.
private final class SlotResults: @unchecked Sendable {
    private var storage: [Int]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: 0, count: count) }

    func set(_ index: Int, _ value: Int) { lock.withLock { storage[index] = value } }

    var values: [Int] { lock.withLock { storage } }
}
