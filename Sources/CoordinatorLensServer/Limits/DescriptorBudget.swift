import Foundation

/// How the open-file limit is shared: a reserve for the recording, pictures and the process itself, a share for page
/// connections, and the rest for hook connections, so that no number of page clients can take a hook's descriptor.
struct DescriptorBudget: Equatable {
    /// Page connections share at most this part of the descriptors left after the reserve.
    static let pageShare = 4
    /// Page connections cost a descriptor and a few kilobytes each: a quarter of a large budget, but not a million.
    static let maxPageConnections = 4_096
    static let maxHookConnections = 1_024

    let hookConnections: Int
    let pageConnections: Int

    /// The split of `openFiles` less `reserved`; limits given explicitly are taken as they are, and without a page
    /// (`servesPage` false) hooks get the whole rest.
    init(openFiles: Int, reserved: Int, hookLimit: Int? = nil, pageLimit: Int? = nil, servesPage: Bool = true) {
        let available = max(2, openFiles - reserved)
        let page = pageLimit ?? min(Self.maxPageConnections, max(1, available / Self.pageShare))
        pageConnections = page
        hookConnections = hookLimit ?? min(Self.maxHookConnections, max(1, available - (servesPage ? page : 0)))
    }

    /// The split of this process's open-file limit (RLIMIT_NOFILE, read once at start).
    static func current(reserved: Int, hookLimit: Int? = nil, pageLimit: Int? = nil, servesPage: Bool = true) -> Self {
        Self(openFiles: openFileLimit(), reserved: reserved, hookLimit: hookLimit, pageLimit: pageLimit, servesPage: servesPage)
    }

    /// The soft open-file limit; unlimited reads as the largest value, an unreadable one as 96.
    static func openFileLimit() -> Int {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 96 }
        return Int(clamping: limit.rlim_cur)
    }
}
