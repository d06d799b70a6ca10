import CoordinatorWire

/// A named checkpoint in a session.
public struct Mark: Hashable, Sendable, Codable {
    /// The label the producer gave the checkpoint.
    public var label: String
    /// The `seq` of the `mark` event.
    public var seq: Int
    /// Seconds since the session started, when the mark was recorded.
    public var time: Double
}

/// One session's coordinator tree, built by applying its events in order.
///
/// Every event is applied so that the tree stays a forest: an event that would break it (a cycle, a remove from the
/// wrong parent, an unknown id) is reported as a diagnostic and changes nothing.
package struct SessionTree: Sendable {
    /// The session line this tree belongs to.
    package private(set) var header: SessionHeader
    /// Problems so far, in the order found: reported lines and events that broke the tree's rules; at most
    /// `maximumWarnings` of them, the rest only counted in `suppressedWarnings`.
    package private(set) var diagnostics: [Diagnostic] = []
    /// Problems found after `diagnostics` was full: counted, not kept.
    package private(set) var suppressedWarnings = 0
    /// How many diagnostics the tree keeps.
    package let maximumWarnings: Int
    /// Every mark applied, in stream order.
    package private(set) var marks: [Mark] = []
    /// The `t` of the latest event applied.
    package private(set) var lastTime: Double = 0
    /// The highest `seq` applied; nil before the first event.
    package private(set) var lastSeq: Int?
    /// Whether an `end` event arrived.
    package private(set) var ended = false
    /// Events applied, including those that changed nothing and only produced a diagnostic.
    package private(set) var eventCount = 0
    /// The limits the app declared with `expect` events, the latest per type and scope.
    package private(set) var aliveLimits: [AliveLimit] = []
    /// What the hook's retainer search found, by coordinator: kept beside the coordinators, as few have one.
    package private(set) var heldBy: [CoordinatorID: HeldBy] = [:]
    /// Holds the string ids of every event applied, for a tree whose ids would otherwise be freed with the connection
    /// that read them (the live server's); nil for a tree read from a file, whose ids are kept for good.
    package var idScope: IDSpellingScope?

    /// Each coordinator, stored with empty `children`, beside its links: its children, filled in when it is read,
    /// and its place among its parent's. The children are chunked, not in the coordinator: the live server copies the
    /// tree to judge it while lines keep adding to it, and one parent of a million children would otherwise be copied
    /// whole by the next line that adds to it. One list, so an `add` appends once for both.
    private var entries = ChunkedArray<TreeEntry>()
    /// Whether a `watch` was applied: until one is, a coordinator's dismissal has no watched children to look for.
    private var hasWatchedObjects = false
    private var indexByID = CoordinatorIndex()
    private var rootIDs: [CoordinatorID] = []
    // Detaching leaves its entry in the parent's children (or the roots) as a stale one, found by `slot`, so a remove
    // costs O(1) whatever the number of siblings; a list is compacted once half of it is stale, and readers of
    // `all`, `roots` and the subscript only ever see live entries.
    private var staleRoots = 0
    private var staleTotal = 0
    /// Coordinators added under a parent the session had not seen, by that parent: apps fill a navigation stack (its
    /// root coordinator) before they show it under its parent, so the child's `add` comes first. Each stays a root
    /// until its parent's `add` adopts it; only those whose parent never comes are warned about (`warnings`).
    private var orphansByParent: [CoordinatorID: [Orphan]] = [:]
    /// The parent each waiting coordinator was added under, while it waits: a later `add` or `remove` of it cancels the
    /// wait, so an adoption never undoes what the app did since.
    private var awaitedParent: [CoordinatorID: CoordinatorID] = [:]
    /// Steps the parent-cycle checks of moves have taken so far: the tests hold moves to a bound with it.
    package private(set) var cycleCheckSteps = 0

    /// A coordinator waiting for the parent it was added under: where that `add` was, for the warning it gets if the
    /// parent never comes (written only then, as a recording may hold a million of them).
    private struct Orphan: Sendable {
        var child: CoordinatorID
        var line: Int
        /// The events applied before it, which orders warnings of lines not read from text.
        var order: Int
    }

    /// An empty tree for the session `header` opens, keeping at most `limits.maximumWarnings` diagnostics.
    package init(header: SessionHeader, limits: InputLimits = .default) {
        self.header = header
        self.maximumWarnings = Swift.max(0, limits.maximumWarnings)
    }

    /// Coordinators in the order they were first added.
    package var all: [Coordinator] {
        var live = entries.map(\.coordinator)
        for index in live.indices where !entries[index].children.isEmpty {
            live[index].children = liveChildren(of: index)
        }
        return live
    }

    /// Calls `body` with each coordinator as `all` lists it, one at a time, so a snapshot of a large tree holds no
    /// second copy of it.
    func forEachCoordinator(_ body: (Coordinator) -> Void) {
        for index in entries.indices {
            guard !entries[index].children.isEmpty else {
                body(entries[index].coordinator)
                continue
            }
            var coordinator = entries[index].coordinator
            coordinator.children = liveChildren(of: index)
            body(coordinator)
        }
    }

    /// How many coordinators the session has added.
    package var coordinatorCount: Int { entries.count }

    /// Each id's position among the coordinators, which is its node's position in a snapshot of the tree.
    var positions: CoordinatorIndex { indexByID }

    /// Whether the session has added this id.
    package func knows(_ id: CoordinatorID) -> Bool { indexByID[id] != nil }

    /// The coordinators attached to no parent, in the order they became roots.
    package var roots: [CoordinatorID] {
        guard staleRoots > 0 else { return rootIDs }
        return rootIDs.indices.compactMap { isLiveRoot(at: $0) ? rootIDs[$0] : nil }
    }

    /// The coordinator with this id; nil when the session never added it.
    package subscript(id: CoordinatorID) -> Coordinator? {
        guard let index = indexByID[id] else { return nil }
        guard !entries[index].children.isEmpty else { return entries[index].coordinator }
        var coordinator = entries[index].coordinator
        coordinator.children = liveChildren(of: index)
        return coordinator
    }

    /// The coordinator as stored, its children possibly holding stale entries: for lookups that read no children.
    func storedIgnoringChildren(_ id: CoordinatorID) -> Coordinator? {
        indexByID[id].map { entries[$0].coordinator }
    }

    /// The warnings a snapshot shows: the kept diagnostics with, in line order, an `add` under a parent that has not
    /// come (yet), then one that counts the rest, if any were left out.
    package var warnings: [Diagnostic] {
        let unadopted = unadoptedWarnings(keeping: Swift.max(0, maximumWarnings - diagnostics.count))
        let count = suppressedWarnings + unadopted.unkept
        let kept = Self.mergedByLine(diagnostics, unadopted.kept[...])
        guard count > 0 else { return kept }
        let message =
            "… and \(NumberText.grouped(count)) more warning\(count == 1 ? "" : "s")"
            + " (only the first \(NumberText.grouped(maximumWarnings)) are kept)"
        return kept + [Diagnostic(line: 0, message: message)]
    }

    /// The first `room` warnings, in the order found, of coordinators still waiting for their parent, and how many
    /// more there are.
    private func unadoptedWarnings(keeping room: Int) -> (kept: [Diagnostic], unkept: Int) {
        guard !awaitedParent.isEmpty else { return ([], 0) }
        var waiting: [(orphan: Orphan, parent: CoordinatorID)] = []
        for (parent, orphans) in orphansByParent {
            for orphan in orphans where awaitedParent[orphan.child] == parent { waiting.append((orphan, parent)) }
        }
        waiting.sort { $0.orphan.order < $1.orphan.order }
        let kept = waiting.prefix(room).map { item in
            let message = "add of \(nameOrID(item.orphan.child)) under unknown parent \(item.parent): kept as a root"
            return Self.bounded(Diagnostic(line: item.orphan.line, message: message))
        }
        return (kept, waiting.count - kept.count)
    }

    /// `late` placed among `kept` by line, each before the first kept one of a later line; a kept one without a
    /// line stays where it is.
    private static func mergedByLine(_ kept: [Diagnostic], _ late: ArraySlice<Diagnostic>) -> [Diagnostic] {
        guard !late.isEmpty else { return kept }
        var merged: [Diagnostic] = []
        merged.reserveCapacity(kept.count + late.count)
        var next = late.startIndex
        for diagnostic in kept {
            while next < late.endIndex, diagnostic.line > 0, late[next].line < diagnostic.line {
                merged.append(late[next])
                next += 1
            }
            merged.append(diagnostic)
        }
        return merged + late[next...]
    }

    /// Records a problem found outside the tree's own rules, such as a malformed line.
    package mutating func report(_ diagnostic: Diagnostic) {
        guard diagnostics.count < maximumWarnings else {
            suppressedWarnings += 1
            return
        }
        diagnostics.append(Self.bounded(diagnostic))
    }

    /// A warning may name a type of up to a whole line; a thousand of them naming the same 1 MiB type would keep a GB.
    private static func bounded(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.message.utf8.count > maximumMessageBytes else { return diagnostic }
        var diagnostic = diagnostic
        let bytes = diagnostic.message.utf8.count
        diagnostic.message = String(diagnostic.message.prefix(maximumMessageBytes / 4)) + "… (\(bytes) bytes in all)"
        return diagnostic
    }

    /// Counts `count` problems that were found after the kept warnings were full and never kept.
    package mutating func countUnkept(_ count: Int) {
        suppressedWarnings += count
    }

    private static let maximumMessageBytes = 2_000

    /// How far `t` may go back without a warning: the hook stamps under its lock and never goes back, but other
    /// producers, and hooks before that change, read the clock first (175 ms seen with 8 threads on 2 busy cores).
    package static let clockSlack: Double = 1

    /// Applies one event; problems become diagnostics naming the record's line.
    package mutating func apply(_ record: EventRecord) {
        eventCount += 1
        idScope?.hold(idsOf: record.event)
        checkSequence(record)
        if ended, record.event != .end {
            warn(record, "\(record.event.kindName) after the session's end")
        }
        if record.time < lastTime - Self.clockSlack {
            warn(record, "t went back from \(lastTime) to \(record.time): the clock is not monotonic, the event is applied")
        }
        lastTime = Swift.max(lastTime, record.time)
        switch record.event {
        case .add(let id, let type, let parent): add(id, type: type, parent: parent, record)
        case .watch(let id, let type, let owner): watch(id, type: type, owner: owner, record)
        case .remove(let id, let parent): remove(id, from: parent, record)
        case .bind(let id, let screen):
            guard let index = known(id, record, "bind") else { return }
            // Shown again after a dismissal (a cached coordinator reused, a screen that appears again): in use again,
            // so the dismissal no longer makes it done; the history keeps it.
            if let dismissedAt = entries[index].coordinator.dismissedAt, entries[index].coordinator.deinitAt == nil {
                entries[index].coordinator.shownAgain.append(
                    Reappearance(dismissedAt: dismissedAt, dismissedVia: entries[index].coordinator.dismissedVia, shownAt: record.time, screen: screen))
                entries[index].coordinator.dismissedAt = nil
                entries[index].coordinator.dismissedSite = nil
                entries[index].coordinator.dismissedVia = nil
                if entries[index].coordinator.doneAt == nil { ownerShownAgain(index) }
            }
            entries[index].coordinator.screen = screen
            entries[index].coordinator.boundSite = record.site
        case .dismiss(let id, let via):
            guard let index = known(id, record, "dismiss") else { return }
            if entries[index].coordinator.dismissedAt == nil {
                entries[index].coordinator.dismissedAt = record.time
                entries[index].coordinator.dismissedSite = record.site
                entries[index].coordinator.dismissedVia = via
                ownerDone(index, at: record.time)
            }
        case .expect(let limit): aliveLimits = AliveLimit.merged(aliveLimits + [limit])
        case .held(let id, let by):
            guard let index = known(id, record, "held") else { return }
            heldBy[entries[index].coordinator.id] = by
        case .deinitialized(let id): deinitialize(id, record)
        case .mark(let label): marks.append(Mark(label: label, seq: record.seq, time: record.time))
        case .dropped(let count):
            if count > 0 { warn(record, "the hook dropped \(count) event\(count == 1 ? "" : "s"): the tree may be incomplete") }
        case .heartbeat: break
        case .end: ended = true
        case .unknown(let kind): warn(record, "unknown event kind \"\(kind)\" ignored")
        }
    }

    private mutating func checkSequence(_ record: EventRecord) {
        defer { lastSeq = Swift.max(lastSeq ?? record.seq, record.seq) }
        let previous = lastSeq ?? 0
        // Seqs are whatever the producer sent, up to Int.max and down to Int.min: no step here may overflow.
        if record.seq > previous {
            let (gap, overflow) = record.seq.subtractingReportingOverflow(previous)
            guard overflow || gap > 1 else { return }
            let lost = overflow ? nil : gap - 1
            if case .dropped(let count) = record.event, count == lost { return }
            let events = lost.map { "\($0) event\($0 == 1 ? "" : "s")" } ?? "more than \(Int.max) events"
            warn(record, "seq jumped from \(previous) to \(record.seq): \(events) lost")
        } else {
            warn(record, "seq \(record.seq) out of order (after \(previous))")
        }
    }

    private mutating func add(_ id: CoordinatorID, type: String, parent: CoordinatorID?, _ record: EventRecord) {
        var parentIndex: Int?
        var unseenParent: CoordinatorID?
        if let parent {
            if parent == id {
                warn(record, "add of \(type)#\(id) under itself: parent cycle ignored")
                return
            }
            if let index = indexByID[parent] {
                parentIndex = index
            } else {
                unseenParent = parent
            }
        }
        guard let index = indexByID[id] else {
            entries.append(
                TreeEntry(coordinator: Coordinator(id: id, type: type, parent: nil, addedAt: record.time, addedSite: record.site)))
            let index = entries.count - 1
            indexByID[id] = index
            attach(index, to: parentIndex, record)
            if let unseenParent { waitForParent(unseenParent, index, record) }
            adoptOrphans(of: index, record)
            return
        }
        let existing = entries[index].coordinator
        if existing.deinitAt != nil {
            warn(record, "add of \(existing.type)#\(id), which already deinited: ids are never reused")
            return
        }
        // A leaf that nobody left is nobody's ancestor: moving one into a deep chain walks nothing.
        if let parentIndex, entries[index].mayBeAnAncestor, let through = cycle(moving: index, under: parentIndex) {
            let parentName = name(of: parentIndex)
            // A detached coordinator's path goes through the parent it left, so a cycle through that one would give
            // paths that start nowhere, as a direct cycle would.
            let former = through.map { " through \(name(of: $0.detached))'s former parent \(name(of: $0.former))" } ?? ""
            warn(record, "moving \(existing.type)#\(id) under \(parentName) would make a parent cycle\(former): ignored")
            return
        }
        // The app placed it again: an adoption it waited for would undo that.
        awaitedParent[id] = nil
        detach(index)
        entries[index].coordinator.removedAt = nil
        noteFormerParent(of: index, nil)
        entries[index].coordinator.removedSite = nil
        entries[index].coordinator.orphanedAt = nil
        attach(index, to: parentIndex, record)
        if let unseenParent { waitForParent(unseenParent, index, record) }
    }

    /// Keeps the coordinator at `index`, just made a root, waiting for `parent`'s `add`.
    private mutating func waitForParent(_ parent: CoordinatorID, _ index: Int, _ record: EventRecord) {
        let id = entries[index].coordinator.id
        awaitedParent[id] = parent
        orphansByParent[parent, default: []].append(Orphan(child: id, line: record.line, order: eventCount))
    }

    /// Moves the coordinators added under the one at `index` before it was (those still waiting) under it, each with
    /// its subtree, in the order they were added.
    private mutating func adoptOrphans(of parentIndex: Int, _ record: EventRecord) {
        guard !orphansByParent.isEmpty else { return }
        let parent = entries[parentIndex].coordinator.id
        guard let orphans = orphansByParent.removeValue(forKey: parent) else { return }
        for orphan in orphans where awaitedParent[orphan.child] == parent {
            awaitedParent[orphan.child] = nil
            guard let index = indexByID[orphan.child] else { continue }
            if entries[index].mayBeAnAncestor, cycle(moving: index, under: parentIndex) != nil {
                warn(record, "adopting \(name(of: index)) under \(name(of: parentIndex)) would make a parent cycle: kept as a root")
                continue
            }
            detach(index)
            attach(index, to: parentIndex, record)
        }
    }

    private mutating func attach(_ index: Int, to parentIndex: Int?, _ record: EventRecord) {
        let id = entries[index].coordinator.id
        guard let parentIndex else {
            entries[index].coordinator.parent = nil
            appendRoot(index)
            return
        }
        entries[index].coordinator.parent = entries[parentIndex].coordinator.id
        entries[index].slot = entries[parentIndex].children.count
        entries[parentIndex].children.append(id)
        if entries[parentIndex].coordinator.deinitAt != nil {
            warn(record, "add of \(name(of: index)) under \(name(of: parentIndex)), which already deinited")
            entries[index].coordinator.orphanedAt = record.time
        }
    }

    /// Takes a coordinator out of its parent's children (or the roots) without judging it: its entry there turns
    /// stale, and the list is compacted once half of it is.
    private mutating func detach(_ index: Int) {
        let parent = entries[index].coordinator.parent
        entries[index].coordinator.parent = nil
        // Marked as in no list until attached again, so its old entry can never read as live.
        entries[index].slot = -1
        if let parent, let parentIndex = indexByID[parent] {
            entries[parentIndex].staleChildren += 1
            staleTotal += 1
            let count = entries[parentIndex].children.count
            if entries[parentIndex].staleChildren > 16, 2 * entries[parentIndex].staleChildren > count {
                let live = liveChildren(of: parentIndex)
                for (position, child) in live.enumerated() { entries[indexByID[child]!].slot = position }
                entries[parentIndex].children = ChunkedArray(live)
                staleTotal -= entries[parentIndex].staleChildren
                entries[parentIndex].staleChildren = 0
            }
        } else {
            staleRoots += 1
            if staleRoots > 16, 2 * staleRoots > rootIDs.count {
                let live = roots
                for (position, root) in live.enumerated() { entries[indexByID[root]!].slot = position }
                rootIDs = live
                staleRoots = 0
            }
        }
    }

    private mutating func appendRoot(_ index: Int) {
        entries[index].slot = rootIDs.count
        rootIDs.append(entries[index].coordinator.id)
    }

    /// The entries of a coordinator's children that still hold: the child's parent is this one and its slot is here.
    private func liveChildren(of index: Int) -> [CoordinatorID] {
        let parent = entries[index].coordinator.id
        let children = entries[index].children
        guard entries[index].staleChildren > 0 else { return Array(children) }
        return children.indices.compactMap { position in
            let child = children[position]
            guard let childIndex = indexByID[child], entries[childIndex].coordinator.parent == parent, entries[childIndex].slot == position
            else { return nil }
            return child
        }
    }

    private func isLiveRoot(at position: Int) -> Bool {
        guard let index = indexByID[rootIDs[position]] else { return false }
        return entries[index].coordinator.parent == nil && entries[index].slot == position
    }

    /// Whether putting the coordinator at `index` under the one at `parentIndex` would close a parent cycle: nil when
    /// not, otherwise what `pathAncestry` says about the way round.
    ///
    /// It walks up from the new parent and down through the moved subtree (children, and coordinators removed from
    /// it, whose paths go through it) a step at a time each, and stops as soon as either walk ends: a move costs the
    /// smaller of the parent's depth and the subtree's size, so moving a flow into a 100,000-deep chain does not walk
    /// the chain. `cycleCheckSteps` counts the steps, for the tests.
    private mutating func cycle(moving index: Int, under parentIndex: Int) -> (detached: Int, former: Int)?? {
        var up: Int? = parentIndex
        var upSteps = 0
        // The subtree walk: a stack of entries and how far through their children, then their former children, it is.
        var down: [(entry: Int, child: Int, former: Int)] = [(index, 0, 0)]
        var seen: Set<Int> = [index]
        while true {
            cycleCheckSteps += 1
            guard let at = up, upSteps <= entries.count else { return nil }
            if at == index { return pathAncestry(of: parentIndex, reaches: index) }
            up = above(at)
            upSteps += 1
            guard let top = down.last else { return nil }
            let entry = top.entry
            if top.child < entries[entry].children.count {
                down[down.count - 1].child += 1
                let child = entries[entry].children[top.child]
                guard let childIndex = indexByID[child], entries[childIndex].coordinator.parent == entries[entry].coordinator.id,
                    entries[childIndex].slot == top.child
                else { continue }
                if childIndex == parentIndex { return pathAncestry(of: parentIndex, reaches: index) }
                if seen.insert(childIndex).inserted { down.append((childIndex, 0, 0)) }
            } else if top.former < entries[entry].formerChildIDs.count {
                down[down.count - 1].former += 1
                let child = entries[entry].formerChildIDs[top.former]
                guard let childIndex = indexByID[child], entries[childIndex].coordinator.parent == nil,
                    entries[childIndex].coordinator.removedFrom == entries[entry].coordinator.id
                else { continue }
                if childIndex == parentIndex { return pathAncestry(of: parentIndex, reaches: index) }
                if seen.insert(childIndex).inserted { down.append((childIndex, 0, 0)) }
            } else {
                down.removeLast()
            }
        }
    }

    /// The entry a path goes through above this one: its parent, or the parent it was removed from.
    private func above(_ index: Int) -> Int? {
        if let parent = entries[index].coordinator.parent { return indexByID[parent] }
        return entries[index].coordinator.removedFrom.flatMap { indexByID[$0] }
    }

    /// Whether `candidate` is on the path from `index` up to its root, the path every output draws: through the
    /// parent, or for a detached coordinator through the parent it was removed from. Nil when it is not; otherwise
    /// the first detached step on the way (nil inside when the path is all current parents).
    private func pathAncestry(of index: Int, reaches candidate: Int) -> (detached: Int, former: Int)?? {
        var current: Int? = index
        var firstDetached: (detached: Int, former: Int)?
        var steps = 0
        while let at = current, steps <= entries.count {
            if at == candidate { return .some(firstDetached) }
            if let parent = entries[at].coordinator.parent {
                current = indexByID[parent]
            } else {
                current = entries[at].coordinator.removedFrom.flatMap { indexByID[$0] }
                if let current, firstDetached == nil { firstDetached = (at, current) }
            }
            steps += 1
        }
        return nil
    }

    /// Sets the parent the coordinator at `index` was removed from, keeping each entry's `formerChildren` count.
    private mutating func noteFormerParent(of index: Int, _ former: CoordinatorID?) {
        if let old = entries[index].coordinator.removedFrom, let oldIndex = indexByID[old] { entries[oldIndex].formerChildren -= 1 }
        entries[index].coordinator.removedFrom = former
        guard let former, let formerIndex = indexByID[former] else { return }
        entries[formerIndex].formerChildren += 1
        entries[formerIndex].formerChildIDs.append(entries[index].coordinator.id)
        // Entries of children added again since are dropped once they are most of the list, as stale children are.
        let listed = entries[formerIndex].formerChildIDs.count
        if listed > 16, listed > 2 * entries[formerIndex].formerChildren {
            var kept = Set<CoordinatorID>()
            let current = entries[formerIndex].formerChildIDs.filter { child in
                guard let childIndex = indexByID[child], entries[childIndex].coordinator.parent == nil,
                    entries[childIndex].coordinator.removedFrom == former
                else { return false }
                return kept.insert(child).inserted
            }
            entries[formerIndex].formerChildIDs = current
        }
    }

    private mutating func remove(_ id: CoordinatorID, from parent: CoordinatorID?, _ record: EventRecord) {
        guard let index = known(id, record, "remove") else { return }
        // Fields read in place: a copy of the whole coordinator retained and released each of its strings and sites.
        guard let current = entries[index].coordinator.parent else {
            // Removed before the parent it waits for came: done, and no longer to be adopted.
            if let awaited = awaitedParent[id], parent == nil || parent == awaited {
                awaitedParent[id] = nil
                entries[index].coordinator.removedSite = record.site
                if entries[index].coordinator.removedAt == nil {
                    entries[index].coordinator.removedAt = record.time
                    ownerDone(index, at: record.time)
                }
                return
            }
            let from = parent.map { " from \(nameOrID($0))" } ?? ""
            warn(record, "remove of \(entries[index].coordinator.type)#\(id)\(from), which is not attached to any parent")
            return
        }
        if let parent, parent != current {
            warn(
                record,
                "remove of \(entries[index].coordinator.type)#\(id) from \(nameOrID(parent)), which does not hold it (its parent is \(nameOrID(current)))")
            return
        }
        detach(index)
        appendRoot(index)
        noteFormerParent(of: index, current)
        entries[index].coordinator.removedSite = record.site
        if entries[index].coordinator.removedAt == nil {
            entries[index].coordinator.removedAt = record.time
            ownerDone(index, at: record.time)
        }
    }

    private mutating func deinitialize(_ id: CoordinatorID, _ record: EventRecord) {
        guard let index = known(id, record, "deinit") else { return }
        if entries[index].coordinator.deinitAt != nil {
            warn(record, "second deinit of \(name(of: index)) ignored")
            return
        }
        entries[index].coordinator.deinitAt = record.time
        for child in liveChildren(of: index) {
            guard let childIndex = indexByID[child] else { continue }
            if entries[childIndex].coordinator.deinitAt == nil, entries[childIndex].coordinator.orphanedAt == nil {
                entries[childIndex].coordinator.orphanedAt = record.time
                ownerDone(childIndex, at: record.time)
            }
        }
    }

    /// A watched object joins the tree under the coordinator it should die with, as an `add` would place it (waiting
    /// for that coordinator if it has not come yet); done at once if that one is done already.
    private mutating func watch(_ id: CoordinatorID, type: String, owner: CoordinatorID, _ record: EventRecord) {
        add(id, type: type, parent: owner, record)
        guard let index = indexByID[id] else { return }
        hasWatchedObjects = true
        entries[index].coordinator.diesWithParent = true
        if let ownerIndex = indexByID[owner], entries[index].coordinator.parent == owner, let done = entries[ownerIndex].coordinator.doneAt {
            markDoneWithOwner(index, at: Swift.max(done, record.time))
        }
    }

    /// The coordinator at `index` is done now: the objects watched with it are done too (their dismissal says why).
    private mutating func ownerDone(_ index: Int, at time: Double) {
        guard hasWatchedObjects, !entries[index].children.isEmpty else { return }
        for child in liveChildren(of: index) {
            guard let childIndex = indexByID[child], entries[childIndex].coordinator.diesWithParent else { continue }
            markDoneWithOwner(childIndex, at: time)
        }
    }

    private mutating func markDoneWithOwner(_ index: Int, at time: Double) {
        guard entries[index].coordinator.dismissedAt == nil, entries[index].coordinator.deinitAt == nil else { return }
        entries[index].coordinator.dismissedAt = time
        entries[index].coordinator.dismissedSite = nil
        entries[index].coordinator.dismissedVia = .withOwner
        ownerDone(index, at: time)
    }

    /// The coordinator at `index` is in use again (shown after a dismissal): so are the objects watched with it.
    private mutating func ownerShownAgain(_ index: Int) {
        guard hasWatchedObjects, !entries[index].children.isEmpty else { return }
        for child in liveChildren(of: index) {
            guard let childIndex = indexByID[child], entries[childIndex].coordinator.diesWithParent,
                entries[childIndex].coordinator.dismissedVia == .withOwner, entries[childIndex].coordinator.deinitAt == nil
            else { continue }
            entries[childIndex].coordinator.dismissedAt = nil
            entries[childIndex].coordinator.dismissedVia = nil
            if entries[childIndex].coordinator.doneAt == nil { ownerShownAgain(childIndex) }
        }
    }

    // Inlined into every event's case, with the warning's text apart: as one call it was 1 % of decode + apply.
    @inline(__always)
    private mutating func known(_ id: CoordinatorID, _ record: EventRecord, _ kind: StaticString) -> Int? {
        if let index = indexByID[id] { return index }
        warnUnknown(id, record, kind)
        return nil
    }

    @inline(never)
    private mutating func warnUnknown(_ id: CoordinatorID, _ record: EventRecord, _ kind: StaticString) {
        warn(record, "\(kind) of unknown id \(id)")
    }

    private func name(of index: Int) -> String {
        "\(entries[index].coordinator.type)#\(entries[index].coordinator.id)"
    }

    private func nameOrID(_ id: CoordinatorID) -> String {
        indexByID[id].map(name(of:)) ?? "unknown id \(id)"
    }

    private mutating func warn(_ record: EventRecord, _ message: String) {
        report(Diagnostic(line: record.line, message: message))
    }
}

extension Event {
    /// The event's kind in the wire vocabulary; nil for a kind this version does not know.
    package var wireKind: WireKind? {
        switch self {
        case .add: .add
        case .watch: .watch
        case .remove: .remove
        case .bind: .bind
        case .dismiss: .dismiss
        case .deinitialized: .deinitialized
        case .mark: .mark
        case .dropped: .dropped
        case .heartbeat: .heartbeat
        case .end: .end
        case .expect: .expect
        case .held: .held
        case .unknown: nil
        }
    }

    /// The id an `add` or a `watch` brings into the tree; nil for other events.
    package var addedID: CoordinatorID? {
        switch self {
        case .add(let id, _, _), .watch(let id, _, _): id
        default: nil
        }
    }

    /// The wire name of the event's kind.
    public var kindName: String {
        if case .unknown(let kind) = self { return kind }
        return wireKind!.rawValue
    }
}
