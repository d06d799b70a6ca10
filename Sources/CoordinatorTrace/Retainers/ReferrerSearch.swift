#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// The retainer search's backward half: where no path from a living coordinator, a screen, a global or another leak
/// reaches a leaked object, which memory holds its address (`ReferrerScan`), what that memory is (a Swift object and
/// its field, a closure context, a task, a block named by its first word's symbol), and what holds that, level by
/// level, until a root: a task (running or suspended: the runtime holds it), or an image's global. As LeakCanary's
/// heap analysis walks from the leak to a GC root, but on the live process, through reads that cannot fault.
struct ReferrerSearch {
    /// How the backward search ended.
    enum Outcome: Equatable {
        /// A root holds it, through these steps (the root's first).
        case rooted([RetainerPath.Step])
        /// Something holds it, through these steps, but nothing the scan reads holds the first of them.
        case held([RetainerPath.Step])
        /// Only memory the search cannot name holds its address (this many blocks), and no root reaches them.
        case unnamed(Int)
        /// No word the scan reads holds its address.
        case nothing
        /// Out of time before either.
        case outOfTime
        /// Not searched: why.
        case unavailable(String)
    }

    /// Levels of holders followed back from the leak, at most, and holders per level.
    static let maximumDepth = 12
    static let maximumPerLevel = 12

    let decoder: LayoutDecoder
    let globals: [GlobalVariable]
    /// The living coordinators and screens the forward search started from, and every coordinator's id: a chain back
    /// that reaches a living one ends there (the forward walk could not read through what lies between, a library's
    /// object or a block), and one through another leak names it.
    var livingRoots: Set<UInt> = []
    var ids: [UInt: Int] = [:]
    var screens: [UInt: String] = [:]
    /// Where the buffers of the search's own inputs start (its plan's arrays of roots and leaks): the blocks that hold
    /// them hold every leak's address, and are never a holder of the app's.
    var ownBuffers: [UInt] = []

    /// Why this process's heap cannot be searched back through, or nil: the chunk walk knows glibc's malloc only, and a
    /// sanitizer (or another allocator) puts its own `malloc` in front of it.
    static let unavailableReason: String? = {
        let image = dlsym(dlopen(nil, RTLD_NOW), "malloc").flatMap { SymbolNames.imageName(of: UInt(bitPattern: $0)) }
        if let image, image.hasPrefix("libc.so") { return nil }
        return "the heap is not glibc's malloc (\(image ?? "no image the loader names")'s: a sanitizer's or another allocator)"
    }()

    /// What a holder is to the search.
    private enum Role: Equatable {
        /// A holder a user can name (an object, a closure, a block named by its symbol): followed further back.
        case named
        /// Memory the search cannot name (a malloc block with no type, the standard library's storage): followed
        /// further back, but never reported as what holds the leak.
        case unnamed
        /// A root: the chain ends here.
        case root
        /// Not a reference (a word of a value that holds no object, a hash seed) or the hook's own memory (its tables
        /// of coordinators): never followed, never reported.
        case ignored
    }

    private struct Link {
        var child: UInt
        var step: RetainerPath.Step
        var role: Role
        /// Unnamed blocks in a row down to here: a chain through more than `maximumUnnamedRun` of them is more likely
        /// a stale word passed from block to block than a holder.
        var unnamedRun: Int
    }

    static let maximumUnnamedRun = 3
    /// Referrers of one object per level, at most: an object many blocks point at (a shared cache) is no leak's holder.
    static let maximumReferrers = 32

    /// What a chain starts at.
    private enum RootKind {
        case appGlobal, libraryGlobal, task, systemObject
    }

    /// Whether a chain from a root of `kind` down through `links` (the root's own step first when it is a block) is
    /// one to report: a word equal to an address is not always a reference (a stale copy in a block being reused, a
    /// number), so every holder on the way must be one the search can name, except the storage of a collection held
    /// by a named holder or by a global of the app.
    private func isTrustworthy(_ kind: RootKind, _ links: [Link]) -> Bool {
        var previousNamed = kind != .libraryGlobal
        for (index, link) in links.enumerated() where !(kind != .appGlobal && kind != .libraryGlobal && index == 0) {
            switch link.role {
            case .named, .root:
                previousNamed = true
            case .unnamed:
                guard link.step.holder.hasPrefix("_"), previousNamed else { return false }
                previousNamed = false
            case .ignored:
                return false
            }
        }
        return true
    }

    /// Who holds `target`, and how many bytes the scan read.
    func search(_ target: UInt, budget: SearchBudget) -> (outcome: Outcome, bytesRead: Int, regions: Int) {
        let scan = ReferrerScan(reader: decoder.reader)
        // The task this search runs in holds its own inputs (the roots, the leaks): never a holder of the app's.
        let currentTask = withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } } ?? 0
        var links: [UInt: Link] = [:]
        var seen: Set<UInt> = [target]
        var frontier = [target]
        /// The holders found of the target itself, in the order found (the first that is the app's is reported).
        var direct: [UInt] = []
        for _ in 0..<Self.maximumDepth {
            // The leak's own referrers all count (a stale copy must not hide its holder); others' are capped.
            guard let referrers = scan.referrers(of: frontier, cap: frontier == [target] ? 4_096 : Self.maximumReferrers, budget: budget) else {
                return (.outOfTime, scan.bytesRead, scan.regionCount)
            }
            var named: [UInt] = []
            var unnamed: [UInt] = []
            for referrer in referrers {
                let below = links[referrer.target]
                switch referrer.place {
                case nil:
                    continue
                case .imageData(let path):
                    guard let (root, isAppGlobal) = rootStep(at: referrer.at, image: path) else { continue }
                    let chained = chainLinks(from: referrer.target, links)
                    guard isTrustworthy(isAppGlobal ? .appGlobal : .libraryGlobal, chained) else { continue }
                    return (.rooted(merged([root] + chained.map(\.step))), scan.bytesRead, scan.regionCount)
                case .block(let block):
                    guard block.inUse, !scan.isMallocsOwn(block), block.start != currentTask, !seen.contains(block.start),
                        !ownBuffers.contains(where: { $0 >= block.start && $0 < block.start + UInt(block.size) })
                    else { continue }
                    let (step, role) = describe(block, holding: referrer.at)
                    guard role != .ignored else { continue }
                    let run = role == .unnamed ? (below?.unnamedRun ?? 0) + 1 : 0
                    guard run <= Self.maximumUnnamedRun else { continue }
                    let link = Link(child: referrer.target, step: step, role: role, unnamedRun: run)
                    if role == .root {
                        let chained = [link] + chainLinks(from: referrer.target, links)
                        guard isTrustworthy(step.holder.hasPrefix(Self.taskName) ? .task : .systemObject, chained) else { continue }
                        return (.rooted(merged(chained.map(\.step))), scan.bytesRead, scan.regionCount)
                    }
                    seen.insert(block.start)
                    links[block.start] = link
                    if referrer.target == target { direct.append(block.start) }
                    if role == .named { named.append(block.start) } else { unnamed.append(block.start) }
                }
            }
            // What a user can name first: an unnamed block is most often the search's own or the runtime's scratch.
            let next = named + unnamed
            guard !next.isEmpty else { break }
            frontier = Array(next.prefix(Self.maximumPerLevel))
        }
        if let nearest = direct.first(where: { links[$0]!.role == .named }) {
            return (.held(merged(chainLinks(from: nearest, links).map(\.step))), scan.bytesRead, scan.regionCount)
        }
        return (direct.isEmpty ? .nothing : .unnamed(direct.count), scan.bytesRead, scan.regionCount)
    }

    /// The links from the holder at `start` down to the target, each in turn.
    private func chainLinks(from start: UInt, _ links: [UInt: Link]) -> [Link] {
        var chain: [Link] = []
        var at = start
        while let link = links[at], chain.count <= Self.maximumDepth {
            chain.append(link)
            at = link.child
        }
        return chain
    }

    /// A closure context or a captured var's box is what its holder's field holds, not a holder a user knows: the
    /// step before it takes its kind, and it goes (unless it starts the chain).
    private func merged(_ steps: [RetainerPath.Step]) -> [RetainerPath.Step] {
        var result: [RetainerPath.Step] = []
        for step in steps {
            // A task's frames are blocks of its own allocator: the task is what a user knows.
            if result.last?.holder.hasPrefix(Self.taskName) == true, step.holder == Self.taskFrameName { continue }
            if step.holder == Self.contextName || step.holder == Self.boxName, var last = result.popLast() {
                last.kind = step.holder == Self.contextName ? .capture : .capturedVar
                result.append(last)
            } else {
                result.append(step)
            }
        }
        return result
    }

    private static let contextName = "a closure's context"
    private static let taskName = "a Task"
    private static let taskFrameName = "a Task's frame"
    private static let blockPrefix = "a malloc block of "
    private static let boxName = "a captured var's box"

    /// A word of an image's writable data as a root, and whether it is a global of the app's (named by its symbol);
    /// nil for the C library's and the dynamic loader's (malloc's lists of freed blocks, the loader's tables).
    private func rootStep(at address: UInt, image path: String) -> (RetainerPath.Step, Bool)? {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        if file.hasPrefix("libc.so") || file.hasPrefix("libc-") || file.hasPrefix("ld-linux") { return nil }
        if let global = globals.last(where: { $0.address <= address }), address < global.address + UInt(global.size) {
            return (RetainerPath.Step(holder: global.holder, holderID: nil, field: global.field, kind: .property), true)
        }
        return (RetainerPath.Step(holder: "a global of \(file)", holderID: nil, field: "", kind: .property), false)
    }

    /// What a block is, and its field that holds the word at `address`.
    private func describe(_ block: MallocChunks.Block, holding address: UInt) -> (RetainerPath.Step, Role) {
        let offset = Int(address - block.start)
        func step(_ holder: String, _ field: String = "", _ kind: RetainerPath.Kind = .property) -> RetainerPath.Step {
            RetainerPath.Step(holder: holder, holderID: nil, field: field, kind: kind)
        }
        let unnamed = (step("\(Self.blockPrefix)\(block.size) bytes", "+\(offset)"), Role.unnamed)
        guard offset >= 16, let header = decoder.reader.word(block.start) else { return unnamed }
        let metadata = RetainerSearch.isaMask & header
        if LayoutDecoder.isPlausible(metadata), let layout = decoder.layout(ofHeapObjectWith: metadata) {
            switch layout {
            case .instance(let instance):
                let qualified = _typeName(unsafeBitCast(metadata, to: Any.Type.self), qualified: true)
                if qualified.contains("CoordinatorTrace.") { return (step(qualified), .ignored) }
                let name = decoder.name(ofType: metadata)
                if let root = Self.rootTypes[qualified] ?? Self.rootTypes[name] {
                    let field = instance.fields.last { $0.offset <= offset }
                    return (step(root, field?.name ?? ""), .root)
                }
                guard offset < instance.instanceSize else {
                    // Past the declared fields: tail-allocated elements (an array's, a dictionary's, a ManagedBuffer's).
                    // A string's are its UTF-8 bytes, and past its count whatever the memory held before: never a
                    // reference (a Task's string once read as holding a leak through such leftover bytes).
                    if Self.holdsOnlyValues(name) || name.hasSuffix("StringStorage") { return (step(name), .ignored) }
                    // So are a collection's spare capacity and empty buckets (a test runner's dictionary once read as a
                    // task holding a leak, through a bucket it had emptied).
                    let inUse = TailElements(decoder: decoder).isInUse(address, storage: block.start, metadata: metadata, layout: instance, name: name)
                    if inUse == false { return (step(name), .ignored) }
                    // Only a ManagedBuffer's elements are the app's: another class's block ends in malloc's slack, and a
                    // library's other tails are its own (an observable model's slack and a key path's components once
                    // read as holding a leak).
                    if inUse == nil, !isManagedBuffer(metadata) { return (step(name), .ignored) }
                    return (step(name, "element", .element), name.hasPrefix("_") ? .unnamed : .named)
                }
                guard let field = instance.fields.last(where: { $0.offset <= offset }), field.isStrong,
                    mayHoldStrongly(field.type, at: offset - field.offset)
                else { return (step(name), .ignored) }
                if let id = ids[block.start] ?? (screens[block.start] != nil ? 0 : nil) {
                    let holder = screens[block.start].map { "\(name) (screen of \($0))" } ?? name
                    let named = RetainerPath.Step(holder: holder, holderID: id == 0 ? nil : id, field: field.label, kind: .property)
                    return (named, livingRoots.contains(block.start) ? .root : .named)
                }
                return (step(name, field.label), name.hasPrefix("_") ? .unnamed : .named)
            case .context(let captures):
                guard captureMayHold(captures, context: block.start, at: offset) else { return (step(Self.contextName), .ignored) }
                return (step(Self.contextName), .named)
            case .box:
                return (step(Self.boxName), .named)
            case .errorBox:
                return (step("an error"), .named)
            case .ends(let why) where why == "a task":
                // A task holds what its closure captured through the closure's context, which it keeps right after
                // the closure's entry point (a code address of an image). Any other word of it that matches is left
                // over in its private fields from a frame that returned, and a finished task's slot may name memory
                // freed and reused since: such words read as a task holding another test's leak. So only a slot after
                // an entry point that points at a closure context counts.
                guard offset >= 24, let entry = decoder.reader.word(block.start + UInt(offset - 8)), SymbolNames.imageName(of: entry) != nil,
                    let pointee = decoder.reader.word(block.start + UInt(offset)), isClosureContext(at: pointee)
                else { return (step(Self.taskName), .ignored) }
                // Named by the closure it runs, as the compiler names it, so a user goes to the `Task { }` literal.
                let closure = ClosureNames.name(ofCode: entry) ?? innerFunction(ofContext: pointee).flatMap(ClosureNames.name(ofCode:))
                let running = closure.map { "\(Self.taskName) running \($0)" } ?? Self.taskName
                return (step(running, "", .capture), .root)
            case .ends(let why):
                return (step(why), .named)
            }
        }
        // A slab of a task's allocator (its async frames) starts with the concurrency runtime's slab metadata, then the
        // next slab, the capacity and the bytes in use: a word past those is left over from frames that returned. A
        // word within them may be too (a slot of a frame pushed since and not yet written), and nothing here tells a
        // live local from such a word: a frame is memory the search cannot name, never a holder it reports.
        if block.size >= 32, SymbolNames.imageName(of: header)?.hasPrefix("libswift_Concurrency") == true,
            let used = decoder.reader.uint32(block.start + 20)
        {
            guard offset == 8 || (offset >= 32 && offset < 32 + Int(used)) else { return (step(Self.taskFrameName), .ignored) }
            return (step(Self.taskFrameName), .unnamed)
        }
        if let symbol = SymbolNames.name(of: header) {
            // A block literal copied to the heap (what Dispatch and C APIs keep a Swift closure as) starts with this isa.
            if symbol == "_NSConcreteMallocBlock" { return (step("a block (a closure passed to Dispatch or C)"), .named) }
            return (step("\(symbol) (a block of \(block.size) bytes)", "+\(offset)"), .named)
        }
        return unnamed
    }

    /// Whether the class at `metadata` is a subclass of `ManagedBuffer`, whose elements follow its fields.
    private func isManagedBuffer(_ metadata: UInt) -> Bool {
        var current = metadata
        for _ in 0..<16 {
            // A Swift class's superclass is the word after its kind (isa), nil at the root.
            // Named only once it validates as a class's metadata, as every word handed to the runtime is.
            guard let superclass = decoder.reader.word(current + 8), LayoutDecoder.isPlausible(superclass),
                case .instance? = decoder.layout(ofHeapObjectWith: superclass)
            else { return false }
            if decoder.name(ofType: superclass).hasPrefix("ManagedBuffer<") { return true }
            current = superclass
        }
        return false
    }

    /// Whether the word at `offset` of a value of `type` may be a strong reference: not where the layout says it is
    /// none (a struct's `weak` or `unowned` field, a value that holds no object, a function's code); where the layout
    /// is not known to the walker (an enum's payload, an existential's buffer), it may.
    private func mayHoldStrongly(_ type: UInt, at offset: Int, depth: Int = 0) -> Bool {
        guard depth < 16, let layout = decoder.layout(ofType: type) else { return true }
        switch layout.shape {
        case .inert: return false
        case .object, .classExistential, .errorExistential, .array, .set, .dictionary: return offset == 0
        case .function: return offset == 8
        case .parts(let parts):
            // Only the strong parts are listed: a word no part covers is in a weak, unowned or trivial one.
            guard let part = parts.last(where: { $0.offset <= offset }),
                let partSize = decoder.layout(ofType: part.type)?.size, offset < part.offset + max(partSize, 8)
            else { return false }
            return mayHoldStrongly(part.type, at: offset - part.offset, depth: depth + 1)
        case .enumeration, .opaqueExistential, .unread: return true
        }
    }

    /// Whether the word at `offset` of the closure context at `context` may be a strong reference: not in a `weak` or
    /// `unowned` capture, nor in one that holds no object.
    private func captureMayHold(_ layout: CaptureLayout, context: UInt, at offset: Int) -> Bool {
        var at = layout.start
        for storage in layout.captures {
            var (width, alignMask, type): (Int, Int, UInt) = (8, 7, 0)
            switch storage {
            case .value(let known): type = known
            case .boundValue(let bindingOffset):
                guard let bound = decoder.reader.word(context + UInt(bindingOffset)) else { return true }
                type = bound
            case .function: width = 16
            case .classReference, .box, .notStrong: break
            }
            if type != 0 {
                guard let typeLayout = decoder.layout(ofType: type) else { return true }
                (width, alignMask) = (typeLayout.size, typeLayout.alignMask)
            }
            at = (at + alignMask) & ~alignMask
            if offset >= at, offset < at + max(width, 1) {
                switch storage {
                case .notStrong: return false
                case .function: return offset - at == 8
                case .box, .classReference: return offset == at
                case .value, .boundValue: return mayHoldStrongly(type, at: offset - at)
                }
            }
            at += width
        }
        // Past the captures it could lay out: what follows is not known.
        return layout.unread != nil
    }

    /// The first word a closure's context captured: what a task runs when it is a closure's code, since `Task { }`
    /// keeps its closure behind a reabstraction thunk whose context captures it first (at a generic function type the
    /// walker does not lay out, so the word is read as is; only a closure's symbol names it).
    private func innerFunction(ofContext address: UInt) -> UInt? {
        guard let header = decoder.reader.word(address), case .context(let layout)? = decoder.layout(ofHeapObjectWith: RetainerSearch.isaMask & header)
        else { return nil }
        return decoder.reader.word(address + UInt(layout.start))
    }

    /// Whether the heap object at `address` is a closure's context (or a captured var's box).
    private func isClosureContext(at address: UInt) -> Bool {
        guard LayoutDecoder.isPlausible(address), let header = decoder.reader.word(address) else { return false }
        let metadata = RetainerSearch.isaMask & header
        guard LayoutDecoder.isPlausible(metadata), let layout = decoder.layout(ofHeapObjectWith: metadata) else { return false }
        switch layout {
        case .context, .box: return true
        default: return false
        }
    }

    /// Foundation's classes whose instances the system keeps while they are in use, whatever the app holds: where a
    /// chain reaches one, that is its root, named with what lets it go.
    private static let rootTypes: [String: String] = [
        "Foundation.Timer": "a scheduled Timer (its run loop keeps it until invalidate())",
        "NSNotificationReceiver": "a NotificationCenter observer (kept until removeObserver(_:))",
    ]

    /// The standard library's storage of values that hold no object (`_DictionaryStorage<ObjectIdentifier, Int>`): an
    /// address in it is a number (an identity kept as a key), not a reference.
    private static func holdsOnlyValues(_ name: String) -> Bool {
        guard name.hasPrefix("_"), let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return false }
        let arguments = name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ",").map { String($0.drop { $0 == " " }) }
        return arguments.allSatisfy(valueTypes.contains)
    }

    private static let valueTypes: Set<String> = [
        "Int", "UInt", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Bool", "Double", "Float", "ObjectIdentifier",
        "UnsafeRawPointer", "UnsafeMutableRawPointer", "OpaquePointer",
    ]
}

/// Names of code and data addresses from the images' exported symbols (`dladdr`), demangled: what a block's first
/// word points at (a Dispatch object's class, a block's isa).
enum SymbolNames {
    private typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private static let dladdr: DLAddr? = dlsym(dlopen(nil, RTLD_NOW), "dladdr").map { unsafeBitCast($0, to: DLAddr.self) }

    /// `dladdr`'s answer for `address`: the image's path and the symbol's name (Dl_info: dli_fname, dli_fbase,
    /// dli_sname, dli_saddr); nil when no image covers it.
    private static func lookUp(_ address: UInt) -> (image: String?, symbol: String?)? {
        guard let dladdr, LayoutDecoder.isPlausible(address) else { return nil }
        var info = (UInt(0), UInt(0), UInt(0), UInt(0))
        let found = withUnsafeMutableBytes(of: &info) { dladdr(UnsafeRawPointer(bitPattern: address), $0.baseAddress) }
        guard found != 0 else { return nil }
        return (UnsafePointer<CChar>(bitPattern: info.0).map { String(cString: $0) }, UnsafePointer<CChar>(bitPattern: info.2).map { String(cString: $0) })
    }

    /// The file name of the image `address` is in (`libswift_Concurrency.so`), or nil.
    static func imageName(of address: UInt) -> String? {
        lookUp(address)?.image?.split(separator: "/").last.map(String.init)
    }

    /// The symbol `address` is at or in, demangled when it is Swift's; nil when no exported symbol covers it.
    static func name(of address: UInt) -> String? {
        guard let symbol = lookUp(address)?.symbol else { return nil }
        if symbol.hasPrefix("$s"), let (holder, field) = ImageGlobals.demangledName(symbol) { return "\(holder).\(field)" }
        return symbol
    }
}
#endif
#endif
