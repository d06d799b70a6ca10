/// Who is whose child among boxes given in pre-order, by position: each box's children in order, and the roots (a box
/// whose parent does not come before it is a root, as `TreeLayout` draws it). What the wrapping layouts walk.
struct ForestLinks<ID: Hashable> {
    private(set) var children: [[Int]]
    private(set) var roots: [Int] = []

    init(_ boxes: [TreeLayout<ID>.Box]) {
        var index: [ID: Int] = [:]
        index.reserveCapacity(boxes.count)
        for (position, box) in boxes.enumerated() { index[box.id] = position }
        children = [[Int]](repeating: [], count: boxes.count)
        for (position, box) in boxes.enumerated() {
            if let parent = box.parent, let parentPosition = index[parent], parentPosition < position {
                children[parentPosition].append(position)
            } else {
                roots.append(position)
            }
        }
    }
}
