import CoordinatorLens
import Testing

/// A retained coordinator still attached under a living parent is said to be held by that parent only when nothing
/// says otherwise: where the hook's retainer search found another holder (a processor, a store), or none, the reason
/// says it is attached there and names what holds it, in every output; the fingerprint's kind stays `still-child`.
@Suite struct ParentHoldingTests {
    private static let session = #"{"event":"session","v":1,"app":"Vault","run":"r1"}"#

    /// The password manager's shape: Vault#3 under App#1, Item#5 under Vault#3 and done, then `held` (if any).
    static func recording(held: String?) -> String {
        var lines = [
            session,
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#,
            #"{"seq":2,"t":0,"event":"add","id":3,"type":"VaultCoordinator","parent":1}"#,
            #"{"seq":3,"t":0.1,"event":"add","id":5,"type":"VaultItemCoordinator","parent":3}"#,
            #"{"seq":4,"t":1,"event":"dismiss","id":5}"#,
        ]
        if let held { lines.append(#"{"seq":5,"t":4,"event":"held","id":5,"# + held + "}") }
        lines.append(#"{"seq":6,"t":4,"event":"end"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `VaultCoordinator#3.processor › VaultProcessor.coordinator › VaultItemCoordinator#5`: the parent's processor.
    static let heldByProcessor =
        #""via":"live","count":7,"label":"VaultCoordinator\u001f3\u001fprocessor\u001fproperty\u001eVaultProcessor\u001f\u001fcoordinator\u001fproperty""#
    static let heldByParent = #""via":"live","count":4,"label":"VaultCoordinator\u001f3\u001fchildren[0]\u001felement""#
    static let heldByNothing = #""via":"unreachable","count":40,"label":"""#
    static let searchOverBudget = #""via":"budget","count":5000,"label":"""#

    private func check(held: String?) throws -> SessionCheck {
        let log = try #require(Recording(bytes: Array(Self.recording(held: held).utf8)).sessions.first)
        return SessionCheck(source: "vault.ndjson", snapshot: try log.snapshot(), atEnd: true)
    }

    @Test func aChildItsParentDoesNotHoldIsAttachedThereAndHeldByWhatHoldsIt() throws {
        let check = try check(held: Self.heldByProcessor)
        let node = try #require(check.snapshot.node(5))
        #expect(node.verdict == .retained)
        #expect(node.reason == "attached under VaultCoordinator#3, held by VaultProcessor.coordinator")
        #expect(node.reasonKind == .stillChild, "the fingerprint's kind is where it sits, so baselines keep matching")
        let text = LeakReport.text(for: check)
        #expect(!text.contains("still a child"), "\(text)")
        #expect(text.contains("  RETAINED VaultItemCoordinator#5: attached under VaultCoordinator#3, held by VaultProcessor.coordinator"))
        let result = CheckResult(grace: 2, sessions: [check])
        let json = CheckJSONReport.json(for: result)
        #expect(json.contains(#""reason":"attached under VaultCoordinator#3, held by VaultProcessor.coordinator""#), "\(json)")
        #expect(json.contains(#""reasonKind":"still-child""#), "\(json)")
        let gcc = GCCReport.text(for: result)
        let error = "error: VaultItemCoordinator#5 retained: attached under VaultCoordinator#3, held by VaultProcessor.coordinator\n"
        #expect(gcc.contains(error), "held by said once: \(gcc)")
    }

    @Test func aChildNothingLivingHoldsIsAttachedWhileOneItsParentHoldsOrNotSearchedKeepsItsWords() throws {
        let node = try #require(try check(held: Self.heldByNothing).snapshot.node(5))
        #expect(node.reason == "attached under VaultCoordinator#3, which does not hold it: nothing the search started from does")
        #expect(node.reasonKind == .stillChild)
        for held in [Self.heldByParent, Self.searchOverBudget, nil] {
            let node = try #require(try check(held: held).snapshot.node(5))
            #expect(node.reason == "still a child of VaultCoordinator#3", "\(held ?? "no held line")")
        }
    }
}
