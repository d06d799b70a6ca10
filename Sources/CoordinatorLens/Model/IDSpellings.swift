@_spi(Locking) import CoordinatorWire

/// Every string id in use, each spelling once with its number: what lets a string `CoordinatorID` be two plain words.
/// Shared by all sessions and threads: ids are compared only within a session, and a spelling has one number for as
/// long as it is in use.
///
/// A spelling read from a file or written in code is kept for the life of the process (a command reads its input
/// once). One the live server reads is held by scopes instead (`IDSpellingScope`: the connection that decoded it,
/// then the session tree it went into) and is freed with the last of them, so a `listen` that sees sessions come
/// and go keeps only the spellings of the sessions it still holds. A number is never given twice: an id that outlived
/// its spelling can never read another one's.
final class IDSpellings: Sendable {
    static let shared = IDSpellings()

    private struct Spelling {
        var text: String
        /// Scopes holding it; `keptForGood` for one that any unscoped reader asked for.
        var holders: Int
    }

    private static let keptForGood = Int.max

    private struct Table {
        var numbers: [String: Int] = [:]
        var spellings: [Int: Spelling] = [:]
        /// The numbers each live scope holds.
        var held: [ObjectIdentifier: Set<Int>] = [:]
        var next = 0

        mutating func number(of text: String) -> Int {
            if let known = numbers[text] { return known }
            let number = next
            next += 1
            numbers[text] = number
            spellings[number] = Spelling(text: text, holders: 0)
            return number
        }

        mutating func hold(_ number: Int, for scope: ObjectIdentifier) {
            guard spellings[number] != nil, held[scope, default: []].insert(number).inserted else { return }
            if spellings[number]!.holders != IDSpellings.keptForGood { spellings[number]!.holders += 1 }
        }
    }

    // The package's own box (`LockedBox`), not `Synchronization.Mutex`: that needs macOS 15 / iOS 18.
    private let table = LockedBox(Table())

    /// The number of `text`, kept for the life of the process.
    func number(of text: String) -> Int {
        table.withLock { table in
            let number = table.number(of: text)
            table.spellings[number]!.holders = Self.keptForGood
            return number
        }
    }

    /// The number of `text`, held by `scope` until it goes.
    func number(of text: String, heldBy scope: IDSpellingScope) -> Int {
        table.withLock { table in
            let number = table.number(of: text)
            table.hold(number, for: ObjectIdentifier(scope))
            return number
        }
    }

    /// The number `text` has now; nil when no id spelled so is in use. Asking keeps nothing: what a page's request
    /// names must not grow the table.
    func existingNumber(of text: String) -> Int? {
        table.withLock { $0.numbers[text] }
    }

    /// Makes `scope` one more holder of `number`'s spelling, which its caller holds in an id still in use.
    func hold(_ number: Int, by scope: IDSpellingScope) {
        table.withLock { $0.hold(number, for: ObjectIdentifier(scope)) }
    }

    /// The spelling numbered `number`; nil once every holder of it has gone.
    func spelling(_ number: Int) -> String? {
        table.withLock { $0.spellings[number]?.text }
    }

    /// Spellings kept now, for tests and benchmarks that show the table does not grow.
    var count: Int {
        table.withLock { $0.spellings.count }
    }

    /// Forgets `scope`, a scope being freed, and every spelling only it held.
    fileprivate func release(_ scope: ObjectIdentifier) {
        table.withLock { table in
            guard let numbers = table.held.removeValue(forKey: scope) else { return }
            for number in numbers {
                guard let spelling = table.spellings[number], spelling.holders != Self.keptForGood else { continue }
                if spelling.holders > 1 {
                    table.spellings[number]!.holders -= 1
                } else {
                    table.spellings[number] = nil
                    table.numbers[spelling.text] = nil
                }
            }
        }
    }
}

/// Holds the spellings of the string ids one owner uses: a hook connection's lines between decoding and their tree,
/// a live session's tree and every snapshot and replay of it. They are freed when the last scope holding them goes.
package final class IDSpellingScope: Sendable {
    /// A scope holding nothing yet.
    package init() {}

    deinit { IDSpellings.shared.release(ObjectIdentifier(self)) }

    /// Holds the string ids `event` names, for as long as this scope lives. Inlined into the tree's `apply`, which
    /// every live event passes: an integer id costs a test of one flag.
    @inline(__always)
    package func hold(idsOf event: Event) {
        switch event {
        case .add(let id, _, let parent):
            hold(id)
            if let parent { hold(parent) }
        case .remove(let id, let parent):
            hold(id)
            if let parent { hold(parent) }
        case .watch(let id, _, let owner):
            hold(id)
            hold(owner)
        case .bind(let id, _), .dismiss(let id, _), .deinitialized(let id), .held(let id, _):
            hold(id)
        case .mark, .dropped, .heartbeat, .expect, .end, .unknown:
            break
        }
    }

    /// Holds `id`'s spelling, when it is a string id, for as long as this scope lives.
    @inline(__always)
    package func hold(_ id: CoordinatorID) {
        if id.isText { holdText(id.number) }
    }

    @inline(never)
    private func holdText(_ number: Int) {
        IDSpellings.shared.hold(number, by: self)
    }
}

/// A scope as a field of a value: keeps the spellings alive while the value lives, and is no part of the value's
/// meaning, so every hold equals every other.
package struct SpellingHold: Hashable, Sendable {
    package var scope: IDSpellingScope?

    package init(_ scope: IDSpellingScope?) {
        self.scope = scope
    }

    package static func == (_: SpellingHold, _: SpellingHold) -> Bool { true }
    package func hash(into _: inout Hasher) {}
}
