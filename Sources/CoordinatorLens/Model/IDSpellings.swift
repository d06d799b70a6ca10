@_spi(Locking) import CoordinatorWire
/// Every string id read in this process, each spelling once, numbered in the order first read: what lets a string
/// `CoordinatorID` be two plain words. Shared by all sessions and threads (ids are compared only within a session,
/// and equal spellings get equal numbers everywhere); a spelling is kept for the life of the process, at most
/// `InputLimits.maximumIDBytes` bytes each.
final class IDSpellings: Sendable {
    static let shared = IDSpellings()

    private struct Table {
        var numbers: [String: Int] = [:]
        var spellings: [String] = []
    }

    // The package's own box (`LockedBox`), not `Synchronization.Mutex`: that needs macOS 15 / iOS 18.
    private let table = LockedBox(Table())

    /// The number of `spelling`, given it now if it is new.
    func number(of spelling: String) -> Int {
        table.withLock { table in
            if let known = table.numbers[spelling] { return known }
            table.numbers[spelling] = table.spellings.count
            table.spellings.append(spelling)
            return table.spellings.count - 1
        }
    }

    /// The spelling numbered `number`.
    func spelling(_ number: Int) -> String {
        table.withLock { $0.spellings[number] }
    }
}
