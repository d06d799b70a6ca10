/// Finds a coordinator's position by id: a plain array while ids stay dense, as the hook's counter makes them, and a
/// dictionary for ids far outside that range and for string ids, which other producers may send.
///
/// The array only grows to ids below twice the number of coordinators stored (plus a small head start), so its size
/// stays proportional to the coordinators, never to the largest id: ids that double from line to line land in the
/// dictionary instead of making the array follow them.
struct CoordinatorIndex: Hashable, Sendable {
    /// Position + 1 by id; 0 means absent, so the array needs no optionals.
    private var dense = ChunkedArray<Int>()
    /// Ids stored while outside the array's reach; an id stays here even once the array has grown past it.
    private var sparse: [CoordinatorID: Int] = [:]
    /// How many ids are stored, in either place.
    private(set) var count = 0

    private static let headStart = 1_024

    /// The array position an integer id would take; -1 for a string id, which always goes to the dictionary.
    @inline(__always)
    private static func slot(_ id: CoordinatorID) -> Int {
        id.isText ? -1 : id.number
    }

    subscript(id: CoordinatorID) -> Int? {
        get {
            let slot = Self.slot(id)
            if slot >= 0, slot < dense.count {
                let stored = dense[slot]
                if stored != 0 { return stored - 1 }
                if sparse.isEmpty { return nil }
            }
            return sparse[id]
        }
        set {
            let slot = Self.slot(id)
            if slot >= 0, slot < dense.count, dense[slot] != 0 {
                dense[slot] = newValue.map { $0 + 1 } ?? 0
                if newValue == nil { count -= 1 }
                return
            }
            if !sparse.isEmpty, sparse[id] != nil {
                sparse[id] = newValue
                if newValue == nil { count -= 1 }
                return
            }
            guard let newValue else { return }
            count += 1
            if slot >= 0, slot < dense.count {
                dense[slot] = newValue + 1
            } else if slot == dense.count {
                // The next id in line, as the hook's counter gives them: one append.
                dense.append(newValue + 1)
            } else if slot >= 0, slot < 2 * count + Self.headStart {
                dense.append(repeating: 0, count: slot + 1 - dense.count)
                dense[slot] = newValue + 1
            } else {
                sparse[id] = newValue
            }
        }
    }
}
