#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
@testable import CoordinatorTrace
import Testing

/// A step through a closure names it as a reader finds it in the source: the closure's number and the function it is
/// written in, from the runtime demangler's full spelling of the code's symbol.
@Suite struct ClosureNamesTests {
    @Test(arguments: [
        (
            "partial apply forwarder for closure #1 () -> () in g.HomeViewModel.init(router: g.Router) -> g.HomeViewModel",
            "closure #1 in HomeViewModel.init(router:)"
        ),
        ("closure #2 @Sendable (Swift.Int) -> () in closure #1 () -> () in g.Flow.start() -> ()", "closure #2 in closure #1 in Flow.start()"),
        (
            "closure #1 () -> () in g.(Sheet in _9C1B0E2A7D).(present in _84AE8FBE35DD2C1A07F062A3FF7323FA)(animated: Swift.Bool) -> ()",
            "closure #1 in Sheet.present(animated:)"
        ),
        ("partial apply forwarder for g.HomeViewModel.handle(Swift.Int, with: Swift.String) -> ()", "HomeViewModel.handle(_:with:)"),
        ("closure #1 () -> () in g.Store<A>.watch<A1 where A1: Swift.AnyObject>(A1) -> ()", "closure #1 in Store.watch(_:)"),
        ("closure #1 () -> () in static g.Shapes.closureCycle.getter : g.Shape", "closure #1 in static Shapes.closureCycle.getter"),
        (
            "implicit closure #1 () -> () in variable initialization expression of g.Screen.onClose : () -> ()",
            "implicit closure #1 in variable initialization expression of Screen.onClose"
        ),
        (
            "partial apply for closure #3 ([g.Item], (Swift.Int, Swift.String)) async -> () in g.Sync.run(items: [g.Item], pairs: [(Swift.Int, Swift.String)]) async throws -> ()",
            "closure #3 in Sync.run(items:pairs:)"
        ),
    ])
    func aClosureIsNamedAsTheSourceSpellsIt(demangled: String, expected: String) {
        #expect(ClosureNames.readable(demangled) == expected)
    }

    @Test func aThunkNamesNoCodeOfTheApps() {
        #expect(ClosureNames.readable("partial apply forwarder for reabstraction thunk helper from @escaping () -> () to @escaping () -> (@out ())") == nil)
    }

    @Test func aClosureOfThisTestIsFoundByItsCode() {
        // A closure that captures nothing is its own code: the symbol table of this debug build names it.
        let name = ClosureNames.name(ofCode: UInt(bitPattern: closureCode()))
        #expect(name == "closure #1 in closureCode()", "\(String(describing: name))")
    }
}

/// The code address of a closure written here, taken by C's calling convention, which needs no thunk.
private func closureCode() -> Int {
    let closure: @convention(c) () -> Int32 = { 42 }
    return unsafeBitCast(closure, to: Int.self)
}
#endif
