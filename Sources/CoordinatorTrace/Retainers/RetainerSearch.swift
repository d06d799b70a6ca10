#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// Walks the app's object graph for strong references to one retained coordinator: breadth first from the living
/// coordinators and their screens (the shortest chain from something meant to be alive), else from the coordinator
/// itself (a cycle), else from the app's globals and statics (`ImageGlobals`), else from the other leaks.
///
/// Reading rules, as the hook must never harm the app (docs/HOOK.md, "Who holds it"):
/// - every byte comes through `MemoryReader`, a copy that cannot fault; nothing read is used as a live value: no
///   `Mirror`, no casts, no retains, no value witness copies of the app's values;
/// - a word is taken for an object only when its metadata validates (`LayoutDecoder`), for a type only when it reads
///   as metadata of a kind the walker knows;
/// - `weak` and `unowned` references are never followed; Objective-C objects, tasks, types without reflection
///   metadata and unreadable memory end their branch, counted by reason;
/// - before a path is reported each of its references is read again and must still hold the next object: other
///   threads may change the graph during a search, so a result may be stale but is then said to be.
final class RetainerSearch {
    private let ids: [UInt: Int]
    private let screens: [UInt: String]
    private let options: RetainerSearchOptions
    private let decoder: LayoutDecoder?
    private let unavailable: String?
    /// The app's globals and statics, and each one's index by its storage's address (a node of its own in a pass).
    private let globals: [GlobalVariable]
    private let globalAt: [UInt: Int]
    private let globalImages: Int
    /// Whether an unreachable leak is searched back from (`ReferrerSearch`).
    private let searchesBack: Bool
    // One search runs on one thread, and none of these is changed while another access to it is open: their runtime
    // exclusivity checks (about 80 instructions an access, 11 % of a search's instructions) are left out. `scratch`
    // keeps them: a walk reads the object in it while it walks on, the one place an overlap could come from.
    /// The globals' bytes, read in a few bulk reads at the start of the pass that starts from them.
    @exclusivity(unchecked) private var globalBytes: [[UInt8]?] = []

    /// A word read on the way from a holder to an object: where it was read and what it held (a reference, or a
    /// collection's count), compared under `mask` when read again.
    private struct Dereference {
        var at: UInt
        var value: UInt
        /// The bits that must match: an address's (`pointerMask`), or every bit of a count.
        var mask = RetainerSearch.pointerMask
    }

    /// How a node was reached: the node it was reached from (-1 for a start), the field, the kind, and the words
    /// followed in between.
    private struct Reach {
        var node: Int
        var field: String
        var kind: RetainerPath.Kind
        var trail: Range<Int>
        /// The code of the closure the reference is inside (its field's function value), 0 for none, and of the
        /// innermost one, named instead when the outer is a thunk (a closure stored as a generic value is wrapped).
        var closure: UInt = 0
        var innerClosure: UInt = 0
    }

    // One breadth-first pass.
    @exclusivity(unchecked) private var objects: [UInt] = []
    @exclusivity(unchecked) private var metadataOf: [UInt] = []
    @exclusivity(unchecked) private var reachedFrom: [Reach] = []
    @exclusivity(unchecked) private var seen: Set<UInt> = []
    /// The code of the outermost closure the walk of the current holder is inside, 0 outside any: the closure its
    /// field holds, which a step names (`closure #1 in HomeViewModel.init(router:)`).
    @exclusivity(unchecked) private var closureCode: UInt = 0
    @exclusivity(unchecked) private var innerClosureCode: UInt = 0
    /// The words followed from the current holder to the value being read.
    @exclusivity(unchecked) private var trail: [Dereference] = []
    /// Every reach's trail, one after another (`Reach.trail` is its range): one array rather than one per object.
    @exclusivity(unchecked) private var trails: [Dereference] = []
    /// Where an object is first read: most fit, so one system call reads them.
    private var scratch = [UInt8](repeating: 0, count: 192)
    /// Contexts and boxes read for the current holder: a closure graph is read once per holder.
    @exclusivity(unchecked) private var readInline: Set<UInt> = []
    @exclusivity(unchecked) private var target: UInt = 0
    @exclusivity(unchecked) private var found: [RetainerPath.Step]?
    @exclusivity(unchecked) private var foundTrail: [Reach] = []
    @exclusivity(unchecked) private var budget = SearchBudget(seconds: 0, wallDeadline: 0)
    /// The `MonotonicClock` reading at which every coordinator's search stops (the plan's end).
    var stopAt: UInt64 = .max
    @exclusivity(unchecked) private var valuesRead = 0
    @exclusivity(unchecked) private var outOfBudget = false
    /// Branches that ended unread, by reason.
    @exclusivity(unchecked) private var ended: [String: Int] = [:]

    /// A search over objects whose coordinator ids are `ids` and whose screens' coordinators are named in `screens`;
    /// off, with its reason, where memory cannot be read safely, an entry point is missing, or (with `checksLayouts`)
    /// the walker's own probe does not read back.
    /// `startsFromGlobals` false: the living roots, the cycle and the leaks only, and nothing back from the leak (a
    /// test of the graph's own shapes).
    init(
        ids: [ObjectIdentifier: Int], screens: [ObjectIdentifier: String] = [:], options: RetainerSearchOptions, checksLayouts: Bool = true,
        startsFromGlobals: Bool = true
    ) {
        self.ids = Dictionary(uniqueKeysWithValues: ids.map { (UInt(bitPattern: $0.key), $0.value) })
        self.screens = Dictionary(uniqueKeysWithValues: screens.map { (UInt(bitPattern: $0.key), $0.value) })
        self.options = options
        #if canImport(Glibc)
        let (variables, images) = startsFromGlobals ? ImageGlobals.shared : ([], 0)
        #else
        let (variables, images): ([GlobalVariable], Int) = ([], 0)
        #endif
        (globals, globalImages) = (variables, images)
        searchesBack = startsFromGlobals && options.searchesBack
        globalAt = Dictionary(variables.indices.map { (variables[$0].address, $0) }, uniquingKeysWith: { first, _ in first })
        switch (MemoryReader.shared, RuntimeEntryPoints.shared) {
        case (.success(let reader), .success(let runtime)):
            let failure = checksLayouts ? LayoutSelfCheck.failure : nil
            decoder = failure == nil ? LayoutDecoder(reader: reader, runtime: runtime) : nil
            unavailable = failure
        case (.failure(let failure), _), (_, .failure(let failure)):
            decoder = nil
            unavailable = failure.reason
        }
    }

    /// Why no search can run in this process, or nil.
    var unavailableReason: String? { unavailable }

    /// Where the buffers of the caller's own arrays of the objects searched start (a plan's), which the backward search
    /// never takes for holders.
    var ownBuffers: [UInt] = []

    /// Whether the search lists every object and context it reads (`readAddresses`), for tests that check its reading
    /// against Swift's Remote Mirror.
    var recordsReads = false
    private(set) var readAddresses: [UInt] = []

    /// What the walker decodes of one heap object: a class instance's stored properties (superclasses' first), or a
    /// closure context's or box's captures (unnamed), with offsets and whether each is strong; nil when it does not
    /// read as one.
    func decodedObject(at address: UInt) -> (isInstance: Bool, children: [(name: String, offset: Int, isStrong: Bool)])? {
        guard let decoder, let header = decoder.reader.word(address), let layout = decoder.layout(ofHeapObjectWith: Self.isaMask & header) else {
            return nil
        }
        switch layout {
        case .instance(let instance): return (true, instance.fields.map { ($0.name, $0.offset, $0.isStrong) })
        case .context(let captures):
            let placed = placeCaptures(captures, context: address).placements
            return (false, placed.map { ("", $0.offset, !Self.isNotStrong($0.storage)) })
        case .box(let valueOffset, _): return (false, [("", valueOffset, true)])
        case .errorBox, .ends: return nil
        }
    }

    private static func isNotStrong(_ storage: CaptureLayout.Storage) -> Bool {
        if case .notStrong = storage { return true }
        return false
    }

    /// Who holds `target` (coordinator `id`), from `roots` (living coordinators and screens), from itself (a cycle),
    /// or else from `leaks` (the other coordinators retained: one kept only by another leak is held through it, and
    /// its first step names that leak).
    func path(to object: AnyObject, id: Int, roots: [AnyObject], leaks: [AnyObject] = []) -> RetainerPath {
        let type = RetainerPlan.name(of: object)
        guard decoder != nil else {
            return RetainerPath(coordinator: id, type: type, outcome: .notSearched, steps: [], visited: 0, reason: unavailable)
        }
        let address = Self.address(of: object)
        let starts = roots.map(Self.address(of:)).filter { $0 != address }
        let otherLeaks = leaks.map(Self.address(of:)).filter { $0 != address }
        let globalStarts = globals.map(\.address)
        var visited = 0
        var stale: [RetainerPath.Step]?
        // A path that no longer holds when read again is searched once more: the graph may have settled since.
        for _ in 0..<2 {
            stale = nil
            budget = SearchBudget(seconds: options.timeBudget, wallDeadline: stopAt)
            outOfBudget = false
            ended = [:]
            let passes = [(starts, RetainerPath.Outcome.live, false), ([address], .cycle, false), (globalStarts, .live, true), (otherLeaks, .live, false)]
            for (from, outcome, fromGlobals) in passes where !from.isEmpty {
                if fromGlobals { readGlobals() }
                let steps = find(address, from: from)
                visited += objects.count
                if let steps {
                    if stillHolds() {
                        return RetainerPath(coordinator: id, type: type, outcome: outcome, steps: steps, visited: visited)
                    }
                    stale = steps
                    break
                }
                if outOfBudget { break }
            }
            guard stale != nil, !outOfBudget else { break }
        }
        withExtendedLifetime((object, roots, leaks)) {}
        if let stale {
            return RetainerPath(
                coordinator: id, type: type, outcome: .changed, steps: stale, visited: visited,
                reason: "the graph changed while it was searched: a reference on the way no longer held the next object when read again")
        }
        #if canImport(Glibc)
        var backward: (outcome: ReferrerSearch.Outcome, bytesRead: Int, regions: Int)?
        if searchesBack, !outOfBudget, decoder != nil, let reason = ReferrerSearch.unavailableReason {
            backward = (.unavailable(reason), 0, 0)
        } else if searchesBack, !outOfBudget, let decoder {
            // Nothing reached it forwards: what holds its address, and what holds that, back to a root.
            var referrers = ReferrerSearch(decoder: decoder, globals: globals)
            (referrers.livingRoots, referrers.ids, referrers.screens) = (Set(starts), ids, screens)
            referrers.ownBuffers = ownBuffers + [roots, leaks].compactMap { $0.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } } }
            backward = referrers.search(address, budget: SearchBudget(seconds: options.timeBudget, wallDeadline: stopAt))
            withExtendedLifetime((object, roots, leaks)) {}
            if case .rooted(let steps)? = backward?.outcome {
                return RetainerPath(coordinator: id, type: type, outcome: .live, steps: steps, visited: visited)
            }
        }
        let back = backward.map { "; " + Self.backwardSummary($0.outcome, bytes: $0.bytesRead, regions: $0.regions, id: id, type: type) }
        let searched = searchedSummary(roots: starts.count, leaks: otherLeaks.count) + (back ?? "")
        #else
        let searched = searchedSummary(roots: starts.count, leaks: otherLeaks.count)
        #endif
        return RetainerPath(
            coordinator: id, type: type, outcome: outOfBudget ? .budget : .unreachable, steps: [], visited: visited,
            reason: [searched, endedSummary].compactMap { $0 }.joined(separator: "; "))
    }

    #if canImport(Glibc)
    /// What the backward search found, when it reached no root.
    private static func backwardSummary(_ outcome: ReferrerSearch.Outcome, bytes: Int, regions: Int, id: Int, type: String) -> String {
        let scanned = "then back from it through \(megabytes(bytes)) of heap and globals (\(regions) regions)"
        switch outcome {
        case .unavailable(let reason):
            return "not searched back from it: \(reason)"
        case .rooted, .held([]):
            return scanned
        case .held(let steps):
            let chain = RetainerPath(coordinator: id, type: type, outcome: .live, steps: steps, visited: 0).description
            return "\(scanned): held by \(chain); what holds \(steps[0].holder) is memory the search cannot name (a C library's or"
                + " the system's: a notification observer, a Dispatch handler, a C callback)"
        case .unnamed(let count):
            return "\(scanned): only memory it cannot name holds its address (\(count) block\(count == 1 ? "" : "s"): stale copies, or a holder"
                + " in C), and no root reaches it; an unbalanced retain (Unmanaged.passRetained) reads this way"
        case .nothing:
            return "\(scanned): no word there holds its address (an unbalanced retain, e.g. Unmanaged.passRetained or a retain from C,"
                + " or a thread's stack, which is not read)"
        case .outOfTime:
            return "\(scanned): stopped at the time budget"
        }
    }
    #endif

    /// `12.4 MB`, `0.3 MB`.
    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 52_428) / 104_857
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// What an unreachable search started from, so that "not reached" is never read as "nothing holds it".
    private func searchedSummary(roots: Int, leaks: Int) -> String {
        #if canImport(Glibc)
        let statics = "the globals and statics (\(globals.count), from \(globalImages) image symbol table\(globalImages == 1 ? "" : "s"))"
        #else
        let statics = "no globals or statics (not read on this platform yet)"
        #endif
        return "searched from the living coordinators and screens (\(roots)), \(statics), the other leaks (\(leaks))"
    }

    /// Reads every global's bytes in as few reads as their addresses allow: neighbours within 4 KiB share one.
    private func readGlobals() {
        guard let reader = decoder?.reader else { return }
        globalBytes = Array(repeating: nil, count: globals.count)
        var first = 0
        while first < globals.count {
            var last = first
            var end = globals[first].address + UInt(globals[first].size)
            while last + 1 < globals.count, globals[last + 1].address < end + 4_096,
                globals[last + 1].address + UInt(globals[last + 1].size) - globals[first].address <= 1 << 20
            {
                last += 1
                end = max(end, globals[last].address + UInt(globals[last].size))
            }
            let start = globals[first].address
            if let range = reader.bytes(start, count: Int(end - start)) {
                for index in first...last {
                    let offset = Int(globals[index].address - start)
                    globalBytes[index] = Array(range[offset..<offset + globals[index].size])
                }
            }
            first = last + 1
        }
    }

    /// A global's storage as a holder: each word of it that is a native object, a closure's context or a box is
    /// followed (its type is not known here; a word that is not one of these ends nothing and is skipped).
    private func expandGlobal(_ index: Int, node: Int) {
        guard index < globalBytes.count, let bytes = globalBytes[index] else { return note("a global that does not read") }
        guard let decoder else { return }
        let global = globals[index]
        for offset in stride(from: 0, to: bytes.count - 7, by: 8) {
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt.self) }
            let address = word & Self.pointerMask
            // Most words of a global are no reference (counts, flags, a string's bytes): skipped without a word.
            guard address != 0, LayoutDecoder.isPlausible(address), !Self.isTaggedPointer(word), let header = decoder.pages.word(address),
                decoder.layout(ofHeapObjectWith: Self.isaMask & header) != nil
            else { continue }
            guard follow(context: word, at: global.address + UInt(offset), field: global.field, valueKind: .property, depth: 0, from: node)
            else { return }
        }
    }

    /// What ended branches, most frequent first (`2 actors; 1 Objective-C object`), or nil.
    private var endedSummary: String? {
        guard !ended.isEmpty else { return nil }
        let reasons = ended.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(4)
        return "not followed: " + reasons.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }

    // MARK: The breadth-first pass

    private func find(_ target: UInt, from starts: [UInt]) -> [RetainerPath.Step]? {
        objects.removeAll(keepingCapacity: true)
        metadataOf.removeAll(keepingCapacity: true)
        reachedFrom.removeAll(keepingCapacity: true)
        trails.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        self.target = target
        found = nil
        // Each pass reads the graph anew: a pass after a stale path must not be served the pages that showed it.
        decoder?.pages.forget()
        for start in starts where seen.insert(start).inserted {
            objects.append(start)
            metadataOf.append(0)
            reachedFrom.append(Reach(node: -1, field: "", kind: .property, trail: 0..<0))
        }
        var node = 0
        while node < objects.count, found == nil, !outOfBudget {
            expand(node)
            node += 1
        }
        return found
    }

    /// Reads one object and follows every strong reference it holds.
    private func expand(_ node: Int) {
        guard let decoder else { return }
        let address = objects[node]
        if reachedFrom[node].node < 0, let global = globalAt[address] {
            return expandGlobal(global, node: node)
        }
        // One read for most objects: the header and what usually follows it, then the rest when the class is larger.
        let got = scratch.withUnsafeMutableBytes { decoder.pages.read(address, count: $0.count, into: $0.baseAddress!) }
        guard got >= 16 else { return note("unreadable memory") }
        let metadata = Self.isaMask & scratch.withUnsafeBytes { $0.load(as: UInt.self) }
        guard case .instance(let layout)? = decoder.layout(ofHeapObjectWith: metadata) else {
            return note("a word that is not an object")
        }
        metadataOf[node] = metadata
        if recordsReads { readAddresses.append(address) }
        if let ends = layout.ends {
            // The standard library's and Foundation's objects hold nothing of the app: not worth a word.
            if !ends.hasSuffix("library's own object") { note(ends) }
            return
        }
        readInline.removeAll(keepingCapacity: true)
        let walkFields = { (buffer: UnsafeRawBufferPointer) in
            for field in layout.fields where field.isStrong {
                let going =
                    field.hiddenWords > 0
                    ? self.walkHidden(
                        words: field.hiddenWords, in: buffer, at: field.offset, source: address, field: field.label, kind: .property, depth: 0, from: node)
                    : self.walk(field.type, in: buffer, at: field.offset, source: address, field: field.label, kind: .property, depth: 0, from: node)
                guard going else { return }
            }
        }
        if layout.instanceSize <= got {
            scratch.withUnsafeBytes { walkFields(UnsafeRawBufferPointer(rebasing: $0[0..<layout.instanceSize])) }
        } else {
            guard let bytes = decoder.pages.bytes(address, count: layout.instanceSize) else { return note("unreadable memory") }
            bytes.withUnsafeBytes(walkFields)
        }
    }

    /// The current trail, kept in `trails`.
    private func keep(_ trail: [Dereference]) -> Range<Int> {
        let start = trails.count
        trails.append(contentsOf: trail)
        return start..<trails.count
    }

    /// Called for each strong reference to an object: the target ends the search, anything new joins the queue.
    private func reach(_ object: UInt, field: String, kind: RetainerPath.Kind, from node: Int) -> Bool {
        if object == target {
            let last = Reach(node: node, field: field, kind: kind, trail: keep(trail), closure: closureCode, innerClosure: innerClosureCode)
            foundTrail = chainReaches(to: node) + [last]
            found = chain(to: node) + [step(from: node, last)]
            return false
        }
        guard seen.insert(object).inserted else { return true }
        guard objects.count < options.maximumObjects else {
            outOfBudget = true
            return false
        }
        objects.append(object)
        metadataOf.append(0)
        reachedFrom.append(Reach(node: node, field: field, kind: kind, trail: keep(trail), closure: closureCode, innerClosure: innerClosureCode))
        return true
    }

    // MARK: Values

    /// Follows one value in the walker's copy `buffer` (read from `source` in the app) to the objects it holds.
    /// Returns false when the search is over (found, or out of budget).
    private func walk(
        _ type: UInt, in buffer: UnsafeRawBufferPointer, at offset: Int, source: UInt, field: String, kind: RetainerPath.Kind, depth: Int,
        from node: Int
    ) -> Bool {
        guard let decoder else { return false }
        valuesRead += 1
        if valuesRead & 0xFF == 0, budget.isSpent {
            outOfBudget = true
            return false
        }
        guard depth < Self.maximumDepth else { return depthEnds() }
        guard let layout = decoder.layout(ofType: type) else {
            note("a value whose type does not read")
            return true
        }
        guard offset >= 0, offset + layout.size <= buffer.count else {
            note("a value past the memory read")
            return true
        }
        switch layout.shape {
        case .inert:
            return true
        case .unread(let why):
            note(why)
            return true
        case .object, .classExistential:
            return follow(object: buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self), at: source + UInt(offset), field: field, kind: kind, from: node)
        case .parts(let parts):
            for part in parts {
                // A position (`[1]` of an inline array) follows its field as an array's does.
                let named = part.name.map { field.isEmpty || $0.hasPrefix("[") ? field + $0 : "\(field).\($0)" } ?? field
                let going =
                    part.hiddenWords > 0
                    ? walkHidden(
                        words: part.hiddenWords, in: buffer, at: offset + part.offset, source: source, field: named, kind: kind, depth: depth, from: node)
                    : walk(part.type, in: buffer, at: offset + part.offset, source: source, field: named, kind: kind, depth: depth + 1, from: node)
                guard going else { return false }
            }
            return true
        case .enumeration(let cases):
            return walkEnum(cases, type: type, size: layout.size, in: buffer, at: offset, source: source, field: field, kind: kind, depth: depth, from: node)
        case .opaqueExistential:
            let dynamic = Self.pointerMask & buffer.loadUnaligned(fromByteOffset: offset + 24, as: UInt.self)
            guard dynamic != 0, let inner = decoder.layout(ofType: dynamic) else { return true }
            if inner.isInline {
                return walk(dynamic, in: buffer, at: offset, source: source, field: field, kind: kind, depth: depth + 1, from: node)
            }
            // Out of line: word 0 is a box whose value starts past the box's header, aligned for the value.
            let box = buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            return walkOutOfLine(
                dynamic, box: box, valueOffset: (16 + inner.alignMask) & ~inner.alignMask, at: source + UInt(offset), field: field, kind: kind,
                depth: depth, from: node)
        case .errorExistential:
            let box = Self.pointerMask & buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            guard LayoutDecoder.isPlausible(box), let header = decoder.pages.word(box),
                case .errorBox? = decoder.layout(ofHeapObjectWith: Self.isaMask & header)
            else {
                note("an error that is not a Swift error box")
                return true
            }
            guard let (inner, valueOffset) = decoder.errorValue(inBox: box) else { return true }
            return walkOutOfLine(inner, box: box, valueOffset: valueOffset, at: source + UInt(offset), field: field, kind: kind, depth: depth, from: node)
        case .function:
            let context = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt.self)
            let (outer, inner) = (closureCode, innerClosureCode)
            innerClosureCode = buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            if outer == 0 { closureCode = innerClosureCode }
            defer { (closureCode, innerClosureCode) = (outer, inner) }
            return follow(context: context, at: source + UInt(offset + 8), field: field, valueKind: .capture, depth: depth + 1, from: node)
        case .array(let element):
            return walkArray(
                element, storage: buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self), at: source + UInt(offset), field: field, depth: depth, from: node
            )
        case .set(let element):
            return walkHashed(
                key: element, value: nil, storage: buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self), at: source + UInt(offset), field: field,
                depth: depth, from: node)
        case .dictionary(let key, let value):
            return walkHashed(
                key: key, value: value, storage: buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self), at: source + UInt(offset), field: field,
                depth: depth, from: node)
        }
    }

    /// An enum's payload: the case is read by the runtime from the walker's own copy of the value; an indirect case's
    /// payload lives in a box.
    private func walkEnum(
        _ cases: TypeLayout.EnumCases, type: UInt, size: Int, in buffer: UnsafeRawBufferPointer, at offset: Int, source: UInt, field: String,
        kind: RetainerPath.Kind, depth: Int, from node: Int
    ) -> Bool {
        guard let decoder else { return false }
        if cases.isNilWhenZero {
            guard buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self) != 0, let some = cases.payloads[0] else { return true }
            return walk(some, in: buffer, at: offset, source: source, field: field, kind: kind, depth: depth + 1, from: node)
        }
        var copy = [UInt8](repeating: 0, count: max(size, 16))
        copy.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + size])) }
        let caseName = copy.withUnsafeBytes { bytes -> String? in
            guard let metadata = UnsafeRawPointer(bitPattern: type), let name = decoder.runtime.enumCaseName(bytes.baseAddress!, metadata) else { return nil }
            return String(cString: name)
        }
        guard let caseName, let index = cases.names.firstIndex(of: caseName), let payload = cases.payloads[index] else { return true }
        let named = cases.isOptional ? field : (field.isEmpty ? caseName : "\(field).\(caseName)")
        if cases.indirect[index] {
            let box = buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            return follow(context: box, at: source + UInt(offset), field: named, valueKind: kind, depth: depth + 1, from: node)
        }
        return walk(payload, in: buffer, at: offset, source: source, field: named, kind: kind, depth: depth + 1, from: node)
    }

    /// A value that lives in a heap box of its own (an existential's out-of-line value, an error): read from there.
    private func walkOutOfLine(
        _ type: UInt, box word: UInt, valueOffset: Int, at source: UInt, field: String, kind: RetainerPath.Kind, depth: Int, from node: Int
    ) -> Bool {
        guard let decoder, let layout = decoder.layout(ofType: type) else { return true }
        let box = Self.pointerMask & word
        guard LayoutDecoder.isPlausible(box), readInline.insert(box).inserted else { return true }
        guard let bytes = decoder.pages.bytes(box + UInt(valueOffset), count: layout.size) else {
            note("unreadable memory")
            return true
        }
        trail.append(Dereference(at: source, value: word))
        defer { trail.removeLast() }
        return bytes.withUnsafeBytes {
            walk(type, in: $0, at: 0, source: box + UInt(valueOffset), field: field, kind: kind, depth: depth + 1, from: node)
        }
    }

    /// A noncopyable value, whose type reflection hides: each of its words that is a native object, a closure's
    /// context or a box (its header names metadata the decoder reads) is followed, as a global's words are. An
    /// `unowned` reference inside such a value reads as strong too: the path says the value was read word by word.
    private func walkHidden(
        words: Int, in buffer: UnsafeRawBufferPointer, at offset: Int, source: UInt, field: String, kind: RetainerPath.Kind, depth: Int, from node: Int
    ) -> Bool {
        guard let decoder else { return false }
        for index in 0..<min(words, Self.maximumHiddenWords) where offset + (index + 1) * 8 <= buffer.count {
            valuesRead += 1
            if valuesRead & 0xFF == 0, budget.isSpent {
                outOfBudget = true
                return false
            }
            let word = buffer.loadUnaligned(fromByteOffset: offset + index * 8, as: UInt.self)
            let address = Self.pointerMask & word
            guard address != 0, LayoutDecoder.isPlausible(address), !Self.isTaggedPointer(word), let header = decoder.pages.word(address),
                decoder.layout(ofHeapObjectWith: Self.isaMask & header) != nil
            else { continue }
            let named = field + " (noncopyable, read word by word)"
            guard follow(context: word, at: source + UInt(offset + index * 8), field: named, valueKind: kind, depth: depth + 1, from: node)
            else { return false }
        }
        return true
    }

    /// A hidden value's words read at most: a noncopyable field is a token or a lock's value, not a buffer.
    private static let maximumHiddenWords = 512

    // MARK: References

    /// A strong reference in a value: an object reached.
    private func follow(object word: UInt, at source: UInt, field: String, kind: RetainerPath.Kind, from node: Int) -> Bool {
        let object = Self.pointerMask & word
        guard object != 0 else { return true }
        guard LayoutDecoder.isPlausible(object), !Self.isTaggedPointer(word) else {
            note("a reference that is not a native object")
            return true
        }
        trail.append(Dereference(at: source, value: word))
        defer { trail.removeLast() }
        return reach(object, field: field, kind: kind, from: node)
    }

    /// A closure's context or a box: the object itself (a closure that captures only it, or a bound method), a
    /// context whose captures its descriptor names, or a box holding one value.
    private func follow(context word: UInt, at source: UInt, field: String, valueKind: RetainerPath.Kind, depth: Int, from node: Int) -> Bool {
        guard let decoder else { return false }
        let context = Self.pointerMask & word
        guard context != 0 else { return true }
        guard LayoutDecoder.isPlausible(context), let header = decoder.pages.word(context) else {
            note("a closure context that does not read")
            return true
        }
        guard let layout = decoder.layout(ofHeapObjectWith: Self.isaMask & header) else {
            note("a closure context that does not read")
            return true
        }
        if case .instance = layout {
            trail.append(Dereference(at: source, value: word))
            defer { trail.removeLast() }
            return reach(context, field: field, kind: valueKind == .capture ? .closure : valueKind, from: node)
        }
        guard depth < Self.maximumDepth else { return depthEnds() }
        guard readInline.insert(context).inserted else { return true }
        if recordsReads { readAddresses.append(context) }
        trail.append(Dereference(at: source, value: word))
        defer { trail.removeLast() }
        switch layout {
        case .instance: return true
        case .context(let captures): return walkCaptures(captures, context: context, field: field, kind: valueKind, depth: depth, from: node)
        case .box(let valueOffset, let type):
            guard let inner = decoder.layout(ofType: type), let bytes = decoder.pages.bytes(context + UInt(valueOffset), count: inner.size) else {
                return true
            }
            return bytes.withUnsafeBytes {
                walk(type, in: $0, at: 0, source: context + UInt(valueOffset), field: field, kind: valueKind, depth: depth + 1, from: node)
            }
        case .errorBox:
            note("an error box where a closure was expected")
            return true
        case .ends(let why):
            note(why)
            return true
        }
    }

    /// One capture of one context: where it is and how to read it.
    struct CapturePlacement {
        var offset: Int
        var storage: CaptureLayout.Storage
        /// The value's type metadata, for `value` and `boundValue` captures.
        var type: UInt
    }

    /// Where each capture of the context at `context` lies, worked out for this context (a capture of a generic
    /// parameter's type takes its size from the metadata in the context's own bindings), with the context's bytes
    /// read as far as the last capture; nil past the first capture that does not read, with the reason noted.
    private func placeCaptures(_ layout: CaptureLayout, context: UInt) -> (placements: [CapturePlacement], bytes: [UInt8], complete: Bool) {
        guard let decoder else { return ([], [], false) }
        var bytes = [UInt8]()
        var placements: [CapturePlacement] = []
        func covered(_ end: Int) -> Bool {
            if end <= bytes.count { return true }
            guard end < 1 << 20, let read = decoder.pages.bytes(context, count: max(end, layout.start + 256)) ?? decoder.pages.bytes(context, count: end)
            else { return false }
            bytes = read
            return true
        }
        var offset = layout.start
        for storage in layout.captures {
            var type: UInt = 0
            var width = 8
            var alignMask = 7
            switch storage {
            case .value(let known): type = known
            case .boundValue(let bindingOffset):
                guard covered(bindingOffset + 8) else {
                    note("unreadable memory")
                    return (placements, bytes, false)
                }
                type = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bindingOffset, as: UInt.self) }
            case .function: width = 16
            case .classReference, .box, .notStrong: break
            }
            if type != 0 {
                guard let typeLayout = decoder.layout(ofType: type) else {
                    note("a capture whose type does not read")
                    return (placements, bytes, false)
                }
                (width, alignMask) = (typeLayout.size, typeLayout.alignMask)
            }
            offset = (offset + alignMask) & ~alignMask
            guard covered(offset + width) else {
                note("unreadable memory")
                return (placements, bytes, false)
            }
            placements.append(CapturePlacement(offset: offset, storage: storage, type: type))
            offset += width
        }
        if let unread = layout.unread { note(unread) }
        return (placements, bytes, layout.unread == nil)
    }

    /// A context's captures; `kind` says what its values are: a closure's captures, a captured `var`, an indirect
    /// enum's payload.
    private func walkCaptures(_ layout: CaptureLayout, context: UInt, field: String, kind: RetainerPath.Kind, depth: Int, from node: Int) -> Bool {
        let (placements, bytes, _) = placeCaptures(layout, context: context)
        for placement in placements {
            let offset = placement.offset
            let at = context + UInt(offset)
            let going = bytes.withUnsafeBytes { buffer -> Bool in
                switch placement.storage {
                case .value, .boundValue:
                    return walk(placement.type, in: buffer, at: offset, source: context, field: field, kind: kind, depth: depth + 1, from: node)
                case .classReference:
                    return follow(object: buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self), at: at, field: field, kind: kind, from: node)
                case .box:
                    let box = buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
                    return follow(context: box, at: at, field: field, valueKind: .capturedVar, depth: depth + 1, from: node)
                case .function:
                    let inner = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt.self)
                    let (outer, innermost) = (closureCode, innerClosureCode)
                    innerClosureCode = buffer.loadUnaligned(fromByteOffset: offset, as: UInt.self)
                    if outer == 0 { closureCode = innerClosureCode }
                    defer { (closureCode, innerClosureCode) = (outer, innermost) }
                    return follow(context: inner, at: at + 8, field: field, valueKind: .capture, depth: depth + 1, from: node)
                case .notStrong:
                    return true
                }
            }
            guard going else { return false }
        }
        return true
    }

    private func unreadable() -> Bool {
        note("unreadable memory")
        return true
    }

    /// Values nested within one holder deeper than this are not followed: a branch that ends here is said, never
    /// dropped (an indirect enum 16 links deep, a `[String: Any]` nested 24 levels, once ended without a word).
    static let maximumDepth = 48

    private func depthEnds() -> Bool {
        note("a value nested more than \(Self.maximumDepth) levels deep in its holder")
        return true
    }

    // MARK: Collections

    /// An array's elements, read from its storage in chunks: the count after the object header, the elements after
    /// the count and capacity words, aligned for the element.
    private func walkArray(_ element: UInt, storage word: UInt, at source: UInt, field: String, depth: Int, from node: Int) -> Bool {
        guard let decoder, let layout = decoder.layout(ofType: element) else { return true }
        if case .inert = layout.shape { return true }
        let storage = Self.pointerMask & word
        guard LayoutDecoder.isPlausible(storage) else { return true }
        guard let count = decoder.pages.word(storage + 16) else {
            note("an array whose header does not read")
            return true
        }
        guard count < 1 << 32 else {
            note("an array that does not read")
            return true
        }
        let stride = max(1, (layout.size + layout.alignMask) & ~layout.alignMask)
        let start = storage + UInt((32 + layout.alignMask) & ~layout.alignMask)
        // The count too, read again with the rest: an element past a count that shrank meanwhile still holds the
        // address it last held, and the object now at that address (freed, and made anew by another thread) is not
        // in the array (a race test saw `objects[20] › Item.payload` that no array held).
        trail.append(Dereference(at: source, value: word))
        trail.append(Dereference(at: storage + 16, value: count, mask: .max))
        defer { trail.removeLast(2) }
        let perChunk = max(1, 65_536 / stride)
        var index = 0
        while index < Int(count) {
            let inChunk = min(perChunk, Int(count) - index)
            let chunkStart = start + UInt(index * stride)
            guard let bytes = decoder.pages.bytes(chunkStart, count: inChunk * stride) else { return unreadable() }
            let going = bytes.withUnsafeBytes { buffer -> Bool in
                for position in 0..<inChunk {
                    guard
                        walk(
                            element, in: buffer, at: position * stride, source: chunkStart, field: "\(field)[\(index + position)]", kind: .element,
                            depth: depth + 1, from: node)
                    else { return false }
                }
                return true
            }
            guard going else { return false }
            index += inChunk
        }
        return true
    }

    /// A set's or dictionary's occupied buckets, from the storage's bitmap: keys (or elements) and values live in
    /// arrays of their own, one slot per bucket.
    private func walkHashed(key: UInt, value: UInt?, storage word: UInt, at source: UInt, field: String, depth: Int, from node: Int) -> Bool {
        guard let decoder, let keyLayout = decoder.layout(ofType: key) else { return true }
        let valueLayout = value.flatMap { decoder.layout(ofType: $0) }
        let keyHolds = !(keyLayout.shape.isInert)
        let valueHolds = valueLayout.map { !$0.shape.isInert } ?? false
        // Keys are read for a dictionary's names even when only its values hold objects.
        guard keyHolds || valueHolds else { return true }
        let storage = Self.pointerMask & word
        guard LayoutDecoder.isPlausible(storage), let header = decoder.pages.word(storage),
            case .instance(let storageLayout)? = decoder.layout(ofHeapObjectWith: Self.isaMask & header),
            let countOffset = storageLayout.offset(of: "_count"), let scaleOffset = storageLayout.offset(of: "_scale"),
            let keysOffset = storageLayout.offset(of: value == nil ? "_rawElements" : "_rawKeys"),
            let count = decoder.pages.word(storage + UInt(countOffset)), count > 0,
            let scale = decoder.pages.bytes(storage + UInt(scaleOffset), count: 1)?.first, scale < 32,
            let keys = decoder.pages.word(storage + UInt(keysOffset))
        else { return true }
        let values = value == nil ? nil : storageLayout.offset(of: "_rawValues").flatMap { decoder.pages.word(storage + UInt($0)) }
        let buckets = 1 << Int(scale)
        let keyStride = max(1, (keyLayout.size + keyLayout.alignMask) & ~keyLayout.alignMask)
        let valueStride = valueLayout.map { max(1, ($0.size + $0.alignMask) & ~$0.alignMask) } ?? 0
        let bitmapStart = storage + UInt((storageLayout.instanceSize + 7) & ~7)
        guard buckets * max(keyStride, valueStride) < 1 << 28,
            let bitmap = decoder.pages.bytes(bitmapStart, count: (buckets + 63) / 64 * 8),
            let keyBytes = decoder.pages.bytes(Self.pointerMask & keys, count: buckets * keyStride)
        else { return unreadable() }
        let keysBase = Self.pointerMask & keys
        let valuesBase = values.map { Self.pointerMask & $0 } ?? 0
        let valueBytes = values.flatMap { decoder.pages.bytes(Self.pointerMask & $0, count: buckets * valueStride) }
        if value != nil, valueBytes == nil { return unreadable() }
        trail.append(Dereference(at: source, value: word))
        defer { trail.removeLast() }
        var position = 0
        for bucket in 0..<buckets where bitmap[bucket / 8] & (1 << (bucket % 8)) != 0 {
            defer { position += 1 }
            let going = keyBytes.withUnsafeBytes { keyBuffer -> Bool in
                let name: String
                if let value, let valueBytes, let valueLayout {
                    let keyValue = UnsafeRawBufferPointer(rebasing: keyBuffer[bucket * keyStride..<bucket * keyStride + keyLayout.size])
                    let keyName = StringKey.describe(keyValue, type: key, reader: decoder.reader, sendsText: options.sendsKeyText) {
                        decoder.name(ofType: key)
                    }
                    name = "\(field)[\(keyName)]"
                    if !valueLayout.shape.isInert {
                        let valueGoing = valueBytes.withUnsafeBytes {
                            walk(value, in: $0, at: bucket * valueStride, source: valuesBase, field: name, kind: .element, depth: depth + 1, from: node)
                        }
                        guard valueGoing else { return false }
                    }
                } else {
                    name = "\(field)[\(position)]"
                }
                guard keyHolds else { return true }
                return walk(key, in: keyBuffer, at: bucket * keyStride, source: keysBase, field: name, kind: .element, depth: depth + 1, from: node)
            }
            guard going else { return false }
        }
        return true
    }

    // MARK: Paths

    private func note(_ reason: String) {
        ended[reason, default: 0] += 1
    }

    private func chainReaches(to node: Int) -> [Reach] {
        var reaches: [Reach] = []
        var at = node
        while at >= 0, reachedFrom[at].node >= 0 {
            reaches.append(reachedFrom[at])
            at = reachedFrom[at].node
        }
        return reaches.reversed()
    }

    private func chain(to node: Int) -> [RetainerPath.Step] {
        chainReaches(to: node).map { step(from: $0.node, $0) }
    }

    private func step(from node: Int, _ reach: Reach) -> RetainerPath.Step {
        var step: RetainerPath.Step
        if reachedFrom[node].node < 0, let global = globalAt[objects[node]] {
            step = RetainerPath.Step(holder: globals[global].holder, holderID: nil, field: reach.field, kind: reach.kind)
        } else {
            let type = decoder.map { $0.name(ofType: metadataOf[node]) } ?? "?"
            let holder = screens[objects[node]].map { "\(type) (screen of \($0))" } ?? type
            step = RetainerPath.Step(holder: holder, holderID: ids[objects[node]], field: reach.field, kind: reach.kind)
        }
        #if canImport(Glibc)
        if reach.closure != 0 {
            step.closure = ClosureNames.name(ofCode: Self.pointerMask & reach.closure) ?? ClosureNames.name(ofCode: Self.pointerMask & reach.innerClosure)
        }
        #endif
        return step
    }

    /// Every reference of the path found, read again: each must still hold what it held during the search.
    private func stillHolds() -> Bool {
        guard let reader = decoder?.reader else { return false }
        for reach in foundTrail {
            for reference in trails[reach.trail] {
                guard let now = reader.word(reference.at), reference.mask & now == reference.mask & reference.value else { return false }
            }
        }
        return true
    }

    // MARK: Words

    /// Spare bits a multi-payload enum may keep its tag in (the top byte, the low three bits) are no part of an address.
    static let pointerMask: UInt = 0x00FF_FFFF_FFFF_FFF8

    #if canImport(ObjectiveC) && arch(arm64)
    /// An Objective-C object's isa may carry flags around the class pointer.
    static let isaMask: UInt = 0x0000_000F_FFFF_FFF8
    #else
    static let isaMask: UInt = 0x00FF_FFFF_FFFF_FFF8
    #endif

    /// Objective-C tagged pointers (the top bit on Apple's 64-bit platforms) point at no memory.
    private static func isTaggedPointer(_ word: UInt) -> Bool {
        #if canImport(ObjectiveC)
        return word & (1 << 63) != 0
        #else
        return false
        #endif
    }

    static func address(of object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}

extension TypeLayout.Shape {
    var isInert: Bool {
        if case .inert = self { return true }
        return false
    }
}
#endif
