/// How paths through deep trees are printed: whole up to `maximumSteps` steps, beyond that the root, a count of the
/// steps left out and the last `keptSteps`, so printing every node's path stays linear in the tree's size.
package enum DeepPath {
    /// The most steps a path is printed with in full.
    package static let maximumSteps = 32
    /// The steps next to the node that an abbreviated path keeps, after its root.
    package static let keptSteps = 24

    /// The step that stands for `count` left-out steps: `… 9,990 more`.
    package static func omission(_ count: Int) -> String {
        "… \(NumberText.grouped(count)) more"
    }
}
