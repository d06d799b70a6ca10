#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every string id read in this process, each spelling once, numbered in the order first read: what lets a string
/// `CoordinatorID` be two plain words. Shared by all sessions and threads (ids are compared only within a session,
/// and equal spellings get equal numbers everywhere); a spelling is kept for the life of the process, at most
/// `InputLimits.maximumIDBytes` bytes each.
final class IDSpellings: @unchecked Sendable {
    static let shared = IDSpellings()

    private var numbers: [String: Int] = [:]
    private var spellings: [String] = []
    // A pthread mutex, as the core uses no Foundation; allocated once, as a mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    /// The number of `spelling`, given it now if it is new.
    func number(of spelling: String) -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let known = numbers[spelling] { return known }
        numbers[spelling] = spellings.count
        spellings.append(spelling)
        return spellings.count - 1
    }

    /// The spelling numbered `number`.
    func spelling(_ number: Int) -> String {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return spellings[number]
    }
}
