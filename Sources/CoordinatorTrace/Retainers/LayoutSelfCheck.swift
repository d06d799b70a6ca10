#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// Before the walker reads the app it reads a probe of its own, built with the shapes it decodes (a class reference, a
/// value behind `Any`, a closure, an array, a dictionary): if the probe does not read back as built, this runtime lays
/// values out in a way the walker does not know (a metadata version it was not written for), and the search stays off,
/// saying so. Runs once per process.
enum LayoutSelfCheck {
    /// Why the walker cannot trust its reading here, or nil.
    static let failure: String? = run()

    private final class Target {}

    private final class Probe {
        var direct: AnyObject?
        var boxed: Any?
        var closure: (() -> Void)?
        var list: [AnyObject] = []
        var keyed: [String: Any] = [:]
    }

    private static func run() -> String? {
        let ways: [(field: String, kind: RetainerPath.Kind, hold: (Probe, Target) -> Void)] = [
            ("direct", .property, { $0.direct = $1 }),
            ("boxed", .property, { $0.boxed = (1, $1, "probe") }),
            ("closure", .closure, { probe, target in probe.closure = { _ = target } }),
            ("list[1]", .element, { $0.list = [Target(), $1] }),
            (#"keyed["probe"]"#, .element, { $0.keyed = ["probe": $1] }),
        ]
        for way in ways {
            let probe = Probe()
            let target = Target()
            way.hold(probe, target)
            let search = RetainerSearch(
                ids: [:], options: RetainerSearchOptions(maximumObjects: 100, timeBudget: 1, sendsKeyText: true), checksLayouts: false,
                startsFromGlobals: false)
            let found = search.path(to: target, id: 1, roots: [probe])
            withExtendedLifetime((probe, target)) {}
            guard found.outcome == .live, found.steps.count == 1, found.steps[0].field == way.field, found.steps[0].kind == way.kind else {
                return "the runtime lays values out in a way this walker does not know (its probe read back as \(found.description))"
            }
        }
        return nil
    }
}
#endif
