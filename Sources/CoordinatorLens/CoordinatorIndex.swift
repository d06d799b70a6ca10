/// Finds a coordinator's position by id: a plain array while ids stay dense, as the hook's counter makes them, and a
/// dictionary for ids far outside that range, which other producers may send.
struct CoordinatorIndex: Sendable {
    /// Position + 1 by id; 0 means absent, so the array needs no optionals.
    private var dense: [Int] = []
    private var sparse: [CoordinatorID: Int] = [:]

    subscript(id: CoordinatorID) -> Int? {
        get {
            if id >= 0, id < dense.count {
                let stored = dense[id]
                return stored == 0 ? nil : stored - 1
            }
            return sparse[id]
        }
        set {
            if id >= 0, id < dense.count {
                dense[id] = newValue.map { $0 + 1 } ?? 0
            } else if id >= 0, id < 2 * dense.count + 1_024, sparse[id] == nil {
                dense.append(contentsOf: repeatElement(0, count: id + 1 - dense.count))
                dense[id] = newValue.map { $0 + 1 } ?? 0
            } else {
                sparse[id] = newValue
            }
        }
    }
}
