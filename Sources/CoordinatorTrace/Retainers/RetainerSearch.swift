/// Walks the app's object graph for strong references to one retained coordinator: breadth first from the living
/// coordinators and their screens (the shortest chain from something that is meant to be alive), else from the
/// coordinator itself (a cycle).
///
/// Safety rules, as the hook must never harm the app: a value is read only as the type the runtime says it has (stored
/// properties through their field records, closure captures through their capture descriptors); a `weak` or
/// `unowned` field or capture is never read as an object; a closure context is read no further than its allocation;
/// no other raw pointer is followed. Runs on the caller's thread, which should own the objects (the main thread in an
/// app); bounded by `RetainerSearchOptions`.
final class RetainerSearch {
    private let ids: [ObjectIdentifier: Int]
    private let options: RetainerSearchOptions
    private var fieldsByType: [ObjectIdentifier: [StoredField]] = [:]
    /// Whether a struct type is the standard library's or Foundation's, by type: its name is built once, not per value.
    private var libraryTypes: [ObjectIdentifier: Bool] = [:]

    // One breadth-first pass: the objects reached, each with the node it was reached from and the step from there.
    private var objects: [AnyObject] = []
    /// Per object: the node it was reached from (-1 for a start), the field and the kind; the step's names are built
    /// only for the chain that is reported.
    private var reachedFrom: [(node: Int, field: String, kind: RetainerPath.Kind)] = []
    private var seen: Set<ObjectIdentifier> = []
    private var deadline: UInt64 = 0
    private var valuesRead = 0
    private var outOfBudget = false

    /// A search over objects whose coordinator ids are `ids`.
    init(ids: [ObjectIdentifier: Int], options: RetainerSearchOptions) {
        self.ids = ids
        self.options = options
    }

    /// Who holds `target` (coordinator `id`), from `roots` (living coordinators and screens) or from itself.
    func path(to target: AnyObject, id: Int, roots: [AnyObject]) -> RetainerPath {
        deadline = MonotonicClock.now() &+ UInt64(max(0, options.timeBudget) * 1e9)
        outOfBudget = false
        var visited = 0
        let type = Self.name(of: target)
        for (starts, outcome) in [(roots.filter { $0 !== target }, RetainerPath.Outcome.live), ([target], .cycle)] {
            let steps = find(target, from: starts)
            visited += objects.count
            defer { objects.removeAll() }
            if let steps { return RetainerPath(coordinator: id, type: type, outcome: outcome, steps: steps, visited: visited) }
            if outOfBudget { break }
        }
        return RetainerPath(coordinator: id, type: type, outcome: outOfBudget ? .budget : .unreachable, steps: [], visited: visited)
    }

    private func find(_ target: AnyObject, from starts: [AnyObject]) -> [RetainerPath.Step]? {
        objects.removeAll()
        reachedFrom.removeAll()
        seen.removeAll()
        for start in starts where seen.insert(ObjectIdentifier(start)).inserted {
            objects.append(start)
            reachedFrom.append((-1, "", .property))
        }
        var found: [RetainerPath.Step]?
        var node = 0
        while node < objects.count, found == nil, !outOfBudget {
            let holder = objects[node]
            let current = node
            _ = references(of: holder) { object, field, kind in
                if object === target {
                    found = self.chain(to: current) + [self.step(from: holder, field, kind)]
                    return false
                }
                guard self.seen.insert(ObjectIdentifier(object)).inserted else { return true }
                guard self.objects.count < self.options.maximumObjects else {
                    self.outOfBudget = true
                    return false
                }
                self.objects.append(object)
                self.reachedFrom.append((current, field, kind))
                return true
            }
            node += 1
        }
        return found
    }

    private func chain(to node: Int) -> [RetainerPath.Step] {
        var steps: [RetainerPath.Step] = []
        var at = node
        while at >= 0, reachedFrom[at].node >= 0 {
            let (from, field, kind) = reachedFrom[at]
            steps.append(step(from: objects[from], field, kind))
            at = from
        }
        return steps.reversed()
    }

    private func step(from holder: AnyObject, _ field: String, _ kind: RetainerPath.Kind) -> RetainerPath.Step {
        RetainerPath.Step(holder: Self.name(of: holder), holderID: ids[ObjectIdentifier(holder)], field: field, kind: kind)
    }

    /// Calls `reach` with every object `holder` holds strongly, the field it is held in and how; stops when `reach`
    /// returns false.
    private func references(of holder: AnyObject, _ reach: (AnyObject, String, RetainerPath.Kind) -> Bool) -> Bool {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(holder).toOpaque())
        for field in fields(of: type(of: holder)) where field.isStrong {
            let value = ClosureContext.load(field.type, at: base + field.offset)
            guard walk(value, field.name, .property, depth: 0, reach) else { return false }
        }
        return true
    }

    private func fields(of type: Any.Type) -> [StoredField] {
        let key = ObjectIdentifier(type)
        if let known = fieldsByType[key] { return known }
        let found = StoredField.fields(of: type)
        fieldsByType[key] = found
        return found
    }

    /// Follows one value inside a holder to the objects it holds: structs by their stored properties, enums,
    /// optionals and tuples by their payloads, the standard library's collections by their elements, closures by
    /// their captures.
    private func walk(_ value: Any, _ field: String, _ kind: RetainerPath.Kind, depth: Int, _ reach: (AnyObject, String, RetainerPath.Kind) -> Bool) -> Bool {
        valuesRead += 1
        if valuesRead & 0xFF == 0, MonotonicClock.now() > deadline {
            outOfBudget = true
            return false
        }
        guard depth < 48 else { return true }
        let type = type(of: value)
        let metadata = MetadataKind(of: type)
        switch metadata {
        case .classInstance:
            return reach(value as AnyObject, field, kind)
        case .function:
            var copy = value
            // A function in an existential container is two words inline: the code, then the context.
            let context = withUnsafeBytes(of: &copy) { $0.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer?.self) }
            guard let context else { return true }
            return walkContext(context, field, depth: depth + 1, reach)
        case .optional, .enumeration, .tuple:
            for child in Mirror(reflecting: value).children {
                // An optional's payload and a tuple's unnamed elements (`.0`) add nothing to the name; an enum's case does.
                let named = metadata != .optional && !(child.label ?? ".").hasPrefix(".")
                guard walk(child.value, named ? "\(field).\(child.label!)" : field, kind, depth: depth + 1, reach) else { return false }
            }
            return true
        case .structure:
            return walkStruct(value, type, field, kind, depth: depth, reach)
        case .closureContext, .other:
            return true
        }
    }

    private func walkStruct(
        _ value: Any, _ type: Any.Type, _ field: String, _ kind: RetainerPath.Kind, depth: Int, _ reach: (AnyObject, String, RetainerPath.Kind) -> Bool
    ) -> Bool {
        if isLibraryType(type) {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .collection?, .set?:
                for (index, element) in mirror.children.enumerated() {
                    guard walk(element.value, "\(field)[\(index)]", .element, depth: depth + 1, reach) else { return false }
                }
            case .dictionary?:
                for entry in mirror.children {
                    let pair = Array(Mirror(reflecting: entry.value).children)
                    guard pair.count == 2 else { continue }
                    let key = "\(field)[\(Self.describe(key: pair[0].value))]"
                    guard walk(pair[1].value, key, .element, depth: depth + 1, reach), walk(pair[0].value, key, .element, depth: depth + 1, reach)
                    else { return false }
                }
            default:
                // Strings, numbers, dates, URLs: the standard library's and Foundation's other values hold no objects
                // of the app.
                break
            }
            return true
        }
        func readFields<T>(_ value: T) -> Bool {
            var copy = value
            return withUnsafeBytes(of: &copy) { raw in
                guard let base = raw.baseAddress else { return true }
                for stored in fields(of: T.self) where stored.isStrong {
                    let inner = ClosureContext.load(stored.type, at: base + stored.offset)
                    guard walk(inner, "\(field).\(stored.name)", kind, depth: depth + 1, reach) else { return false }
                }
                return true
            }
        }
        return _openExistential(value, do: readFields)
    }

    private func isLibraryType(_ type: Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = libraryTypes[key] { return known }
        let name = _typeName(type, qualified: true)
        let library = name.hasPrefix("Swift.") || name.hasPrefix("Foundation.") || name.hasPrefix("_StringProcessing.")
        libraryTypes[key] = library
        return library
    }

    /// A closure's context: the object itself (a closure that captures only it, or a bound method), or a context
    /// whose captures its descriptor names.
    private func walkContext(_ context: UnsafeRawPointer, _ field: String, depth: Int, _ reach: (AnyObject, String, RetainerPath.Kind) -> Bool) -> Bool {
        switch MetadataKind(ofHeapObject: context) {
        case .classInstance:
            return reach(Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue(), field, .closure)
        case .closureContext:
            for capture in ClosureContext(context).captures {
                switch capture {
                case .value(let value):
                    guard walk(value, field, .capture, depth: depth + 1, reach) else { return false }
                case .box(let box):
                    guard MetadataKind(ofHeapObject: box) == .closureContext else { continue }
                    for boxed in ClosureContext(box).captures {
                        guard case .value(let value) = boxed else { continue }
                        guard walk(value, field, .capturedVar, depth: depth + 1, reach) else { return false }
                    }
                case .function(let inner):
                    guard let inner else { continue }
                    guard walkContext(inner, field, depth: depth + 1, reach) else { return false }
                case .weak, .unowned:
                    continue
                }
            }
            return true
        default:
            return true
        }
    }

    /// A dictionary key as a step names it: strings and numbers as they are (short), anything else by its type, so no
    /// `description` of the app's own runs inside the search.
    private static func describe(key: Any) -> String {
        switch key {
        case let text as String: return text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
        case let number as Int: return "\(number)"
        default: return _typeName(type(of: key), qualified: false)
        }
    }

    static func name(of object: AnyObject) -> String {
        _typeName(type(of: object), qualified: false)
    }
}
