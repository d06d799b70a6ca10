import NIOCore

/// The connections a gate holds, and which of them still wait to show what the gate asks of them (a request the page
/// takes, a token), oldest first: a gate that is full closes the one that has waited longest to make room for a
/// newcomer, so clients that show nothing never keep out one that does. Not locked: each gate keeps it in its lock box.
struct WaitingRoom {
    private struct Entry {
        let channel: any Channel
        let serial: Int
        var proven: Bool
    }

    private var open: [ObjectIdentifier: Entry] = [:]
    /// Waiting connections by age, oldest first; entries that no longer wait are skipped when met.
    private var queue = CircularBuffer<(id: ObjectIdentifier, serial: Int)>()
    /// Connections held that have not shown what they wait to show.
    private(set) var waiting = 0
    private var serial = 0

    /// Connections held.
    var count: Int { open.count }
    /// Entries in the age queue, stale ones included (for tests: it stays near the number waiting).
    var queued: Int { queue.count }
    var channels: [any Channel] { open.values.map(\.channel) }

    /// Holds `channel`, waiting, or taken as it is when it need not show anything; returns its number.
    mutating func add(_ channel: any Channel, waits: Bool) -> Int {
        serial += 1
        open[ObjectIdentifier(channel)] = Entry(channel: channel, serial: serial, proven: !waits)
        if waits {
            queue.append((ObjectIdentifier(channel), serial))
            waiting += 1
            if queue.count > 2 * open.count + 64 { compact() }
        }
        return serial
    }

    /// The connection showed what it waited to show: it no longer waits, and is never closed to make room.
    mutating func prove(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        guard let entry = open[id], !entry.proven else { return }
        open[id]!.proven = true
        waiting -= 1
    }

    /// Lets go of `channel`; whether it was held.
    @discardableResult
    mutating func remove(_ channel: any Channel) -> Bool {
        guard let entry = open.removeValue(forKey: ObjectIdentifier(channel)) else { return false }
        if !entry.proven { waiting -= 1 }
        return true
    }

    /// Takes the connection that has waited longest out of the room, for the caller to close; nil when none waits.
    mutating func takeOldestWaiting() -> (any Channel)? {
        while let (id, serial) = queue.popFirst() {
            guard let entry = open[id], entry.serial == serial, !entry.proven else { continue }
            open[id] = nil
            waiting -= 1
            return entry.channel
        }
        return nil
    }

    /// Drops queue entries of connections that no longer wait, so the queue stays as long as the room is full.
    private mutating func compact() {
        var kept = CircularBuffer<(id: ObjectIdentifier, serial: Int)>(initialCapacity: waiting + 16)
        for item in queue {
            if let entry = open[item.id], entry.serial == item.serial, !entry.proven { kept.append(item) }
        }
        queue = kept
    }
}
