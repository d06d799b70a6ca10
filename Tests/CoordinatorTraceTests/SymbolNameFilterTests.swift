#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Testing

@testable import CoordinatorTrace

/// The symbol tables' filters read a name's bytes where the table holds them, and must answer as `String` would.
@Suite struct SymbolNameFilterTests {
    private func name<Result>(_ text: String, _ body: (ImageSymbols.Name) -> Result) -> Result {
        Array(text.utf8).withUnsafeBytes { body(ImageSymbols.Name(bytes: $0)) }
    }

    @Test(arguments: [
        "$s1g13HomeViewModelC6routerAcA6RouterC_tcfcyycfU_TA", "$s1g5FlowC5startyyFyycfU_yycfU0_", "$s1g12globalKeeperAA0B0Cvp",
        "$s1g11FlowServiceO6sharedAA6KeeperCvpZ", "fU", "f", "", "$s16CoordinatorTrace5TracerC", "$s1g4SyncC3runyyYaKFyyYacfu_Tu",
        "TATm", "xTA", "ffUU", "fuU_",
    ])
    func answersAsAStringWould(_ text: String) {
        for part: StaticString in ["fU", "fu", "TA", "TATm", "Tu", "vp", "vpZ", "$s16CoordinatorTrace"] {
            let string = "\(part)"
            #expect(name(text) { $0.contains(part) } == text.contains(string), "\(text) contains \(string)")
            #expect(name(text) { $0.hasSuffix(part) } == text.hasSuffix(string), "\(text) ends with \(string)")
            #expect(name(text) { $0.hasPrefix(part) } == text.hasPrefix(string), "\(text) starts with \(string)")
        }
    }
}
#endif
