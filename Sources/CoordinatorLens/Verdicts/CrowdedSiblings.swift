/// Many living siblings of one type under one parent, each bound to a screen of its own: the shape of a router that
/// presents a screen per visit and never lets go of the coordinator. It is a hint, not a verdict (tabs and pages can
/// look the same), so `check` prints it as a note and suggests an expected count, which would make it one.
package struct CrowdedSiblings: Hashable, Sendable {
    /// The parent they are attached to.
    package var parent: CoordinatorID
    /// Their type.
    package var type: String
    /// The living siblings, in the order they were added.
    package var ids: [CoordinatorID]

    /// How many such siblings make a crowd: more than a tab bar shows (five), so tab coordinators of one type never do.
    package static let threshold = 6

    /// The crowds in `snapshot`. Only siblings judged `alive` count: retained ones are reported already, and where an
    /// expected count covers the type, the ones beyond it are retained.
    package static func find(in snapshot: Snapshot) -> [CrowdedSiblings] {
        var crowds: [CrowdedSiblings] = []
        // Nodes are read by position, a field at a time: copying each child (its strings and sites retained and
        // released) to test two fields was most of this search under a root of 200,000 children.
        for index in snapshot.nodes.indices where snapshot.nodes[index].children.count >= threshold {
            let parent = snapshot.nodes[index]
            var byType: [String: [CoordinatorID]] = [:]
            var order: [String] = []
            for id in parent.children {
                guard let child = snapshot.position(of: id), snapshot.nodes[child].verdict == .alive, snapshot.nodes[child].screen != nil
                else { continue }
                let type = snapshot.nodes[child].type
                if byType[type] == nil { order.append(type) }
                byType[type, default: []].append(id)
            }
            for type in order where byType[type]!.count >= threshold {
                crowds.append(CrowdedSiblings(parent: parent.id, type: type, ids: byType[type]!))
            }
        }
        return crowds
    }

    /// The note `check` prints, naming the parent and suggesting the count to declare.
    package func note(in snapshot: Snapshot) -> String {
        let parentName = snapshot.node(parent).map { "\($0.type)#\($0.id)" } ?? "\(parent)"
        return "note: \(ids.count) \(type) alive side by side under \(parentName), each bound to a screen of its own; "
            + "if only one is meant to be on screen at a time, declare it (ExpectedCount(\(type).self, atMost: 1, per: .parent) "
            + "or --max-alive-per-parent \(type)=1) and the older ones are judged leaks"
    }
}
