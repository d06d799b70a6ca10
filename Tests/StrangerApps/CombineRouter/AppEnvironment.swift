import Foundation

/// The signed-in user, an object the session hands around.
final class UserSession {
    let userID: String

    init(userID: String) { self.userID = userID }
}

enum LaunchSource {
    case icon
    case pushNotification(roomID: Int)
}

struct RoomSummary {
    var id: Int
    var name: String
}

/// Why the last sync failed: a struct, kept behind `any Error` as a sync service hands it over.
struct SyncError: Error {
    var code: Int
    var message: String
    var retryAfter: Double
}

protocol AnalyticsClient {
    func track(_ event: String)
}

/// Where tracked events go in a debug build.
final class EventLog { var events: [String] = [] }

/// A struct the app keeps behind `any AnalyticsClient`, holding an object.
struct ConsoleAnalyticsClient: AnalyticsClient {
    var prefix: String
    var log: EventLog

    func track(_ event: String) { log.events.append(prefix + event) }
}

/// What the whole session shares, hung off the root coordinator as such apps do.
final class AppEnvironment {
    var userInfo: [String: Any]
    var lastSyncError: any Error = SyncError(code: 429, message: "rate limited", retryAfter: 30)
    let analytics: any AnalyticsClient = ConsoleAnalyticsClient(prefix: "[analytics] ", log: EventLog())
    /// Handed to a C badge API: clamps a count to what the icon can show.
    let badgeClamp: @convention(c) (Int32) -> Int32 = { count in min(max(count, 0), 99) }
    let thumbnails = ThumbnailCache()

    init(session: UserSession) {
        userInfo = [
            "session": session,
            "launchSource": LaunchSource.pushNotification(roomID: 7),
            "lastSync": SyncError(code: 0, message: "", retryAfter: 0),
            "pinnedRooms": [RoomSummary(id: 7, name: "General"), RoomSummary(id: 12, name: "Random")],
        ]
    }
}

final class Thumbnail: Sendable {
    let roomID: Int

    init(roomID: Int) { self.roomID = roomID }
}

/// Thumbnails the session keeps warm, which loader threads fill, refresh and trim at any moment: plain objects behind
/// a lock.
final class ThumbnailCache: @unchecked Sendable {
    private let lock = NSLock()
    private var thumbnails: [Thumbnail] = []
    private var newest: Thumbnail?

    /// Loads one more (trimming the oldest past 48), or with `replacing` refreshes one in place.
    func load(_ roomID: Int, replacing: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let thumbnail = Thumbnail(roomID: roomID)
        if replacing, !thumbnails.isEmpty {
            thumbnails[roomID % thumbnails.count] = thumbnail
        } else {
            thumbnails.append(thumbnail)
            if thumbnails.count > 48 { thumbnails.removeFirst(16) }
        }
        newest = thumbnail
    }
}

/// Two loader threads keeping a cache busy until stopped: one appending and trimming, one replacing.
final class CacheLoaders: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let stopped = DispatchGroup()

    init(_ cache: ThumbnailCache) {
        for replacing in [false, true] {
            stopped.enter()
            Thread { [self] in
                var roomID = 0
                while !isStopping {
                    roomID &+= 1
                    cache.load(roomID, replacing: replacing)
                }
                stopped.leave()
            }.start()
        }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        stopped.wait()
    }
}
