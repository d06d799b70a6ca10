#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Decodes type metadata into layouts, reading every byte through `MemoryReader`, and validates a word before it is
/// taken for metadata: it must be readable, of a kind the walker knows, with a sane value witness table, and a nominal
/// type's descriptor must lie in a loaded image and be of the metadata's kind. Only validated metadata is handed to the
/// runtime's reflection entry points. One per search: its caches hold what one search decoded.
final class LayoutDecoder {
    let reader: MemoryReader
    /// The forward walk's reads of the app's objects, a page a system call (`RetainerSearch` empties it each pass).
    let pages: PageCache
    let runtime: RuntimeEntryPoints
    // One decoder serves one search on one thread, and no cache is touched while it is being changed: the runtime's
    // exclusivity checks on them (about 80 instructions an access) are left out.
    @exclusivity(unchecked) private var types: [UInt: TypeLayout?] = [:]
    @exclusivity(unchecked) private var heaps: [UInt: HeapLayout] = [:]
    @exclusivity(unchecked) private var names: [UInt: String] = [:]
    @exclusivity(unchecked) private var modules: [UInt: String?] = [:]
    @exclusivity(unchecked) private var descriptorsInImages: [UInt: Bool] = [:]
    #if canImport(Glibc)
    /// Taken once per search, as the decoder is: an image loaded during a search is not looked into.
    private lazy var segments = LoadedSegments.current()
    #endif
    @exclusivity(unchecked) private var mangledNames: [UInt: UInt?] = [:]
    // The direct-mapped caches in front of `types` and `heaps`: a slot holds a key (0: none) and its answer.
    private static let recentSlots = 64
    @exclusivity(unchecked) private var recentTypeKeys = [UInt](repeating: 0, count: recentSlots)
    @exclusivity(unchecked) private var recentTypes = [TypeLayout?](repeating: nil, count: recentSlots)
    @exclusivity(unchecked) private var recentHeapKeys = [UInt](repeating: 0, count: recentSlots)
    @exclusivity(unchecked) private var recentHeaps = [HeapLayout?](repeating: nil, count: recentSlots)
    private lazy var nativeObjectTypes: Set<UInt> = Set(["Bo", "BO", "Bb"].compactMap(resolveBuiltin))

    init(reader: MemoryReader, runtime: RuntimeEntryPoints) {
        self.reader = reader
        pages = PageCache(reader: reader)
        self.runtime = runtime
    }

    // MARK: Offsets of the Swift ABI (64-bit)

    #if canImport(ObjectiveC)
    /// With Objective-C interop a class's metadata carries the isa, the cache and the data words first.
    private static let classDescriptionOffset: UInt = 64
    private static let classInstanceSizeOffset: UInt = 48
    private static let classDataOffset: UInt = 32
    /// The runtime's error box starts with NSError's layout: type at 40, value after five more words.
    private static let errorTypeOffset: UInt = 40
    private static let errorHeaderSize = 72
    #else
    private static let classDescriptionOffset: UInt = 40
    private static let classInstanceSizeOffset: UInt = 24
    private static let errorTypeOffset: UInt = 16
    private static let errorHeaderSize = 32
    #endif

    /// Value witness flags.
    private static let alignmentMask: UInt32 = 0xFF
    private static let isNonPOD: UInt32 = 0x1_0000
    private static let isNonInline: UInt32 = 0x2_0000

    /// The libraries whose classes and structs hold no objects of the app: not followed.
    static let libraryModules: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "_StringProcessing",
        "_RegexParser", "_Concurrency", "Dispatch", "Synchronization", "CoreFoundation", "ObjectiveC", "Observation",
    ]

    // MARK: Values

    /// The layout of values of the type whose metadata is at `metadata`, or nil when the word is not metadata.
    func layout(ofType metadata: UInt) -> TypeLayout? {
        // A walk asks for the same few types over and over: a direct-mapped cache answers most asks without hashing
        // (the dictionary's SipHash was the search's costliest function, 10 % of its instructions).
        let slot = Int(truncatingIfNeeded: metadata >> 4) & (Self.recentSlots - 1)
        if recentTypeKeys[slot] == metadata { return recentTypes[slot] }
        if let known = types[metadata] {
            (recentTypeKeys[slot], recentTypes[slot]) = (metadata, known)
            return known
        }
        types[metadata] = .some(nil)  // a type that contains itself reads as unknown while it is decoded
        let decoded = decodeType(metadata)
        types[metadata] = .some(decoded)
        // A look-up during the decoding may have kept the unknown in the slot.
        (recentTypeKeys[slot], recentTypes[slot]) = (metadata, decoded)
        return decoded
    }

    private func decodeType(_ metadata: UInt) -> TypeLayout? {
        guard Self.isPlausible(metadata), let kindWord = reader.word(metadata), let witnesses = reader.word(metadata &- 8),
            Self.isPlausible(witnesses), let table = reader.bytes(witnesses + 64, count: 24)
        else { return nil }
        let size = table.withUnsafeBytes { $0.load(as: Int.self) }
        let stride = table.withUnsafeBytes { $0.load(fromByteOffset: 8, as: Int.self) }
        let flags = table.withUnsafeBytes { $0.load(fromByteOffset: 16, as: UInt32.self) }
        let alignMask = Int(flags & Self.alignmentMask)
        guard size >= 0, size < 1 << 24, stride >= size, stride < 1 << 25, alignMask < 64 else { return nil }
        var layout = TypeLayout(size: size, alignMask: alignMask, isInline: flags & Self.isNonInline == 0, shape: .inert)
        let kind = MetadataKind(raw: kindWord)
        // Classes are references whatever their flags say; the rest hold nothing when trivially copyable.
        guard kind == .classInstance || kind == .objcClassWrapper || flags & Self.isNonPOD != 0 else {
            return isKnownValueKind(kind) ? layout : nil
        }
        switch kind {
        case .classInstance, .objcClassWrapper, .foreignClass:
            layout.shape = .object
        case .structure:
            guard let descriptor = nominalDescriptor(of: metadata, kind: 17) else { return nil }
            layout.shape = structShape(metadata, descriptor: descriptor, size: size)
        case .enumeration, .optional:
            guard let descriptor = nominalDescriptor(of: metadata, kind: 18) else { return nil }
            layout.shape = enumShape(metadata, descriptor: descriptor, isOptional: kind == .optional)
        case .tuple:
            guard let shape = tupleShape(metadata) else { return nil }
            layout.shape = shape
        case .function:
            guard let flagsWord = reader.word(metadata + 8) else { return nil }
            switch (flagsWord >> 16) & 0xFF {
            case 0: layout.shape = .function
            case 1: layout.shape = .unread("an Objective-C block")
            default: layout.shape = .inert
            }
        case .existential:
            guard let existentialFlags = reader.uint32(metadata + 8) else { return nil }
            if (existentialFlags >> 24) & 0x3F == 1 {
                layout.shape = .errorExistential
            } else {
                // The flag is set when the existential is NOT class-constrained.
                layout.shape = existentialFlags & 0x8000_0000 == 0 ? .classExistential : .opaqueExistential
            }
        case .opaque:
            layout.shape = nativeObjectTypes.contains(metadata) ? .object : .unread("a builtin type")
        case .extendedExistential:
            layout.shape = .unread("a constrained existential (any P<T>)")
        case .metatype, .existentialMetatype:
            layout.shape = .inert
        default:
            return nil
        }
        return layout
    }

    private func isKnownValueKind(_ kind: MetadataKind) -> Bool {
        switch kind {
        case .other, .closureContext, .genericBox, .errorBox, .task: false
        default: true
        }
    }

    private func structShape(_ metadata: UInt, descriptor: UInt, size: Int) -> TypeLayout.Shape {
        if let module = moduleName(of: descriptor), Self.libraryModules.contains(module) {
            guard module == "Swift", let name = descriptorName(descriptor) else { return .inert }
            // Value types' generic arguments follow the kind and the description.
            let first = reader.word(metadata + 16)
            switch name {
            case "Array", "ContiguousArray": return first.map { .array(element: $0) } ?? .unread("an array of unknown elements")
            case "Set": return first.map { .set(element: $0) } ?? .unread("a set of unknown elements")
            case "Dictionary":
                guard let first, let second = reader.word(metadata + 24) else { return .unread("a dictionary of unknown elements") }
                return .dictionary(key: first, value: second)
            case "InlineArray":
                // Its count (a value generic argument, the number itself), then its element type; the elements inline.
                guard let count = first, count <= 1 << 16, let element = reader.word(metadata + 24), let elementLayout = layout(ofType: element) else {
                    return .unread("an inline array of unknown elements")
                }
                let stride = max(1, (elementLayout.size + elementLayout.alignMask) & ~elementLayout.alignMask)
                return .parts((0..<Int(count)).map { TypeLayout.Part(name: "[\($0)]", offset: $0 * stride, type: element) })
            case "AnyHashable", "_ConcreteHashableBox":
                // A box around any hashable value (a set's or a dictionary's key): its one field, said by no name.
                guard let fields = storedFields(of: metadata, end: size) else { return .unread("an AnyHashable that does not read") }
                return .parts(fields.filter(\.isStrong).map { TypeLayout.Part(name: nil, offset: $0.offset, type: $0.type) })
            default: return .inert
            }
        }
        guard let fields = storedFields(of: metadata, descriptor: descriptor, end: size) else { return .unread("a type with no reflection metadata") }
        return .parts(fields.filter(\.isStrong).map { TypeLayout.Part(name: $0.name, offset: $0.offset, type: $0.type, hiddenWords: $0.hiddenWords) })
    }

    private func enumShape(_ metadata: UInt, descriptor: UInt, isOptional: Bool) -> TypeLayout.Shape {
        guard let records = fieldRecords(descriptor) else { return .unread("an enum with no reflection metadata") }
        guard let counts = reader.uint32(descriptor + 20) else { return .unread("an unreadable enum descriptor") }
        let payloadCount = Int(counts & 0xFF_FFFF)
        var cases = TypeLayout.EnumCases(names: [], payloads: [], indirect: [], isMultiPayload: payloadCount > 1, isOptional: isOptional)
        for (index, record) in records.enumerated() {
            cases.names.append(record.name)
            cases.indirect.append(record.flags & 1 != 0)
            guard index < payloadCount, let typeName = record.typeName else {
                cases.payloads.append(nil)
                continue
            }
            // A payload type is resolved in the enum's own generic context, with its arguments from the metadata.
            guard let payload = resolve(typeName, context: descriptor, arguments: metadata + 16) else {
                return .unread("an enum payload of a type that does not resolve")
            }
            cases.payloads.append(payload)
        }
        if isOptional, payloadCount == 1, cases.indirect.first == false, let some = cases.payloads.first ?? nil {
            switch layout(ofType: some)?.shape {
            case .object?, .classExistential?, .function?: cases.isNilWhenZero = true
            default: break
            }
        }
        return .enumeration(cases)
    }

    private func tupleShape(_ metadata: UInt) -> TypeLayout.Shape? {
        guard let count = reader.word(metadata + 8), count <= 64 else { return nil }
        let labels = reader.word(metadata + 16).flatMap { $0 == 0 ? nil : reader.cString($0) }
        let names = labels.map { $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init) } ?? []
        var parts: [TypeLayout.Part] = []
        for index in 0..<Int(count) {
            let element = metadata + 24 + UInt(index) * 16
            // Each element is its type and a 32-bit offset (the word's other half is padding).
            guard let type = reader.word(element), let offset = reader.uint32(element + 8), offset < 1 << 24 else { return nil }
            let name = index < names.count && !names[index].isEmpty ? names[index] : nil
            parts.append(TypeLayout.Part(name: name, offset: Int(offset), type: type))
        }
        return .parts(parts)
    }

    // MARK: Heap objects

    /// The layout of heap objects whose metadata is at `metadata`, or nil when the word is not heap metadata.
    func layout(ofHeapObjectWith metadata: UInt) -> HeapLayout? {
        let slot = Int(truncatingIfNeeded: metadata >> 4) & (Self.recentSlots - 1)
        if recentHeapKeys[slot] == metadata { return recentHeaps[slot] }
        if let known = heaps[metadata] {
            (recentHeapKeys[slot], recentHeaps[slot]) = (metadata, known)
            return known
        }
        guard let decoded = decodeHeap(metadata) else { return nil }
        heaps[metadata] = decoded
        // Kept in the slot as a known layout is (the decode may have put another there on its way).
        (recentHeapKeys[slot], recentHeaps[slot]) = (metadata, decoded)
        return decoded
    }

    private func decodeHeap(_ metadata: UInt) -> HeapLayout? {
        guard Self.isPlausible(metadata), let kindWord = reader.word(metadata) else { return nil }
        switch MetadataKind(raw: kindWord) {
        case .classInstance: return classLayout(metadata).map(HeapLayout.instance)
        case .closureContext: return captureLayout(metadata).map(HeapLayout.context)
        case .genericBox:
            guard let offset = reader.uint32(metadata + 8), offset < 4096, let type = reader.word(metadata + 16), layout(ofType: type) != nil
            else { return nil }
            return .box(valueOffset: Int(offset), type: type)
        case .errorBox: return .errorBox
        case .task: return .ends("a task")
        default: return nil
        }
    }

    /// The type stored in the error box at `box`, and where its value starts; nil when it does not read.
    func errorValue(inBox box: UInt) -> (type: UInt, offset: Int)? {
        guard let type = reader.word(box + Self.errorTypeOffset), let layout = layout(ofType: type) else { return nil }
        return (type, (Self.errorHeaderSize + layout.alignMask) & ~layout.alignMask)
    }

    private func classLayout(_ metadata: UInt) -> ClassLayout? {
        #if canImport(ObjectiveC)
        // Swift classes set the low bits of the data word; anything else is an Objective-C class.
        guard let data = reader.word(metadata + Self.classDataOffset) else { return nil }
        guard data & 3 != 0 else { return ClassLayout(metadata: metadata, instanceSize: 16, fields: [], ends: "an Objective-C object") }
        #endif
        guard let description = reader.word(metadata + Self.classDescriptionOffset), let size = reader.uint32(metadata + Self.classInstanceSizeOffset),
            size >= 16, size < 1 << 20, isDescriptor(description, ofKind: 16)
        else { return nil }
        var layout = ClassLayout(metadata: metadata, instanceSize: Int(size), fields: [], ends: nil)
        let module = moduleName(of: description)
        if let module, Self.libraryModules.contains(module) { layout.ends = "the \(module) library's own object" }
        // An actor's fields are read as any class's: its executor may change them meanwhile, as any thread may change
        // any object's, and the path's re-read covers both. Its `$defaultActor` (the executor's state and job queue) is
        // a builtin the walker reads as holding nothing.
        guard var fields = storedFields(of: metadata, descriptor: description, end: Int(size)) else {
            if layout.ends == nil { layout.ends = "a type with no reflection metadata" }
            return layout
        }
        // `@Observable` keeps each property `x` in `_x` beside its registrar: a path names it as the source spells it.
        if fields.contains(where: { $0.name == "_$observationRegistrar" }) {
            for index in fields.indices where fields[index].name.hasPrefix("_") && !fields[index].name.hasPrefix("_$") {
                fields[index].label = String(fields[index].name.dropFirst())
            }
        }
        layout.fields = fields
        return layout
    }

    /// A generic class's type arguments (`_DictionaryStorage<Key, Value>`: the key's and the value's metadata), each
    /// validated; nil when the class is not generic, its superclass is resilient, or one does not read as metadata.
    func genericArguments(ofClass metadata: UInt, count: Int) -> [UInt]? {
        guard let description = reader.word(metadata + Self.classDescriptionOffset), isDescriptor(description, ofKind: 16),
            let flags = reader.uint32(description), flags & 0x80 != 0, flags & (1 << (16 + 13)) == 0,
            let sizes = reader.bytes(description + 28, count: 8)
        else { return nil }
        // Past a class's positive-size members, less its own immediate ones, come its generic arguments.
        let (positive, immediate) = sizes.withUnsafeBytes { (Int($0.load(as: UInt32.self)), Int($0.load(fromByteOffset: 4, as: UInt32.self))) }
        guard positive >= immediate, positive < 1 << 16, let words = reader.bytes(metadata + UInt((positive - immediate) * 8), count: count * 8)
        else { return nil }
        let arguments = words.withUnsafeBytes { raw in (0..<count).map { raw.load(fromByteOffset: $0 * 8, as: UInt.self) } }
        return arguments.allSatisfy({ layout(ofType: $0) != nil }) ? arguments : nil
    }

    private func captureLayout(_ metadata: UInt) -> CaptureLayout? {
        guard let first = reader.uint32(metadata + 8), first >= 16, first < 4096 else { return nil }
        guard let descriptor = reader.word(metadata + 16), descriptor != 0 else {
            return CaptureLayout(start: Int(first), captures: [], unread: "the closure has no capture descriptor (reflection metadata stripped)")
        }
        guard isInImage(descriptor), let header = reader.bytes(descriptor, count: 12) else { return nil }
        let (typeCount, sourceCount, bindingCount) = header.withUnsafeBytes {
            (Int($0.load(as: UInt32.self)), Int($0.load(fromByteOffset: 4, as: UInt32.self)), Int($0.load(fromByteOffset: 8, as: UInt32.self)))
        }
        guard typeCount < 512, sourceCount < 512, bindingCount < 512 else { return nil }
        // The generic bindings (type metadata and witness tables) come first, then the captures.
        var layout = CaptureLayout(start: Int(first) + bindingCount * 8, captures: [], unread: nil)
        let sources = metadataSources(descriptor + 12 + UInt(typeCount) * 4, count: sourceCount)
        for index in 0..<typeCount {
            guard let name = reader.relative(descriptor + 12 + UInt(index) * 4), let mangled = MangledName(reader: reader, at: name) else {
                layout.unread = "capture \(index + 1) has no readable type name"
                return layout
            }
            switch mangled.referenceStorage {
            case .box?: layout.captures.append(.box)
            case .notStrong?: layout.captures.append(.notStrong)
            case .thickFunction?: layout.captures.append(.function)
            case nil:
                if let type = resolve(name, context: nil, arguments: nil) {
                    layout.captures.append(.value(type: type))
                } else if let source = sources.first(where: { $0.parameter == mangled.bytes }), source.binding < bindingCount {
                    layout.captures.append(.boundValue(bindingOffset: Int(first) + source.binding * 8))
                } else if mangled.namesGenericClass(reader: reader, isClass: isClassDescriptor) {
                    layout.captures.append(.classReference)
                } else {
                    layout.unread = "capture \(index + 1) has a generic type the walker cannot lay out"
                    return layout
                }
            }
        }
        return layout
    }

    /// What a closure's metadata sources say of its generic parameters: a parameter's mangled name and the index of
    /// the binding that holds its metadata (`B0`, `B1`, ...; other sources are not read).
    private func metadataSources(_ start: UInt, count: Int) -> [(parameter: [UInt8], binding: Int)] {
        var found: [(parameter: [UInt8], binding: Int)] = []
        for index in 0..<count {
            let record = start + UInt(index) * 8
            guard let parameter = reader.relative(record).flatMap({ MangledName(reader: reader, at: $0) }),
                let source = reader.relative(record + 4).flatMap({ MangledName(reader: reader, at: $0) }),
                source.bytes.first == UInt8(ascii: "B"), let binding = Int(String(decoding: source.bytes.dropFirst(), as: UTF8.self))
            else { continue }
            found.append((parameter.bytes, binding))
        }
        return found
    }

    // MARK: Descriptors, names, fields

    struct StoredField {
        /// The runtime's name of the stored property.
        var name: String
        var offset: Int
        var type: UInt
        var isStrong: Bool
        /// What a path calls it: the name, or the property the source declares for a macro's backing storage.
        var label: String
        /// A noncopyable field's size in words, read word by word (reflection reports its type as `()`); else 0.
        var hiddenWords = 0

        init(name: String, offset: Int, type: UInt, isStrong: Bool) {
            (self.name, self.offset, self.type, self.isStrong, label) = (name, offset, type, isStrong, name)
        }
    }

    /// A struct's or class's stored properties through the runtime's reflection (given only the validated type), or
    /// nil when the type has no reflection metadata. `end` is where the value ends (a struct's size, an instance's);
    /// `descriptor`, the type's own, lets its noncopyable fields be found (a superclass's are not).
    private func storedFields(of metadata: UInt, descriptor: UInt? = nil, end: Int) -> [StoredField]? {
        guard let type = UnsafeRawPointer(bitPattern: metadata) else { return nil }
        let count = runtime.fieldCount(type)
        guard count >= 0, count < 4096 else { return nil }
        var fields: [StoredField] = []
        for index in 0..<count {
            var info = RuntimeEntryPoints.FieldInfo()
            guard let fieldType = withUnsafeMutablePointer(to: &info, { runtime.fieldType(type, index, UnsafeMutableRawPointer($0)) }) else { return nil }
            let name = info.name.map { String(cString: $0) } ?? "#\(index)"
            info.freeName?(info.name)
            let offset = runtime.fieldOffset(type, index)
            guard offset >= 0, offset < 1 << 24 else { return nil }
            fields.append(StoredField(name: name, offset: offset, type: UInt(bitPattern: fieldType), isStrong: info.isStrong))
        }
        // The compiler hides a noncopyable field (`~Copyable`, a Mutex's value, an atomic) from reflection: its field
        // record names an accessor function (symbolic reference 0x09) that returns `()` whatever the type, so the type
        // is nowhere to be read. Its bytes, up to the next field or the value's end, are read word by word: each word
        // that is a Swift object is followed. A `()` the runtime gives for a name it cannot demangle, or a field that
        // really is `()` (it takes no bytes, the next field starts where it does), is not.
        guard let descriptor, fields.contains(where: { $0.type == Self.emptyTuple }), let records = fieldRecords(descriptor) else { return fields }
        for index in fields.indices where fields[index].type == Self.emptyTuple {
            guard let record = records.first(where: { $0.name == fields[index].name }), let typeName = record.typeName,
                reader.bytes(typeName, count: 1)?.first == 0x09
            else { continue }
            let offset = fields[index].offset
            let next = fields.indices.lazy.filter { $0 != index && fields[$0].offset >= offset }.map { fields[$0].offset }.min() ?? end
            fields[index].hiddenWords = max(0, min(next, end) - offset) / 8
        }
        return fields
    }

    private static let emptyTuple = unsafeBitCast(Void.self as Any.Type, to: UInt.self)

    /// The nominal type descriptor of value metadata, checked to be in an image and of `kind` (17 struct, 18 enum).
    private func nominalDescriptor(of metadata: UInt, kind: UInt32) -> UInt? {
        guard let descriptor = reader.word(metadata + 8), isDescriptor(descriptor, ofKind: kind) else { return nil }
        return descriptor
    }

    private func isDescriptor(_ descriptor: UInt, ofKind kind: UInt32) -> Bool {
        // Descriptors are 4-byte aligned, unlike metadata and objects.
        guard Self.isPlausible(descriptor & ~7), descriptor & 3 == 0, let flags = reader.uint32(descriptor) else { return false }
        return flags & 0x1F == kind && isInImage(descriptor)
    }

    /// Whether `address` lies in a loaded image: where the compiler puts descriptors, capture descriptors and names.
    private func isInImage(_ address: UInt) -> Bool {
        #if canImport(Glibc)
        if !segments.isEmpty { return segments.contains(address) }
        #endif
        if let known = descriptorsInImages[address] { return known }
        let found = runtime.isInImage(address)
        descriptorsInImages[address] = found
        return found
    }

    /// The module a type descriptor belongs to, through its parents.
    func moduleName(of descriptor: UInt) -> String? {
        if let known = modules[descriptor] { return known }
        var current = descriptor
        var name: String?
        for _ in 0..<16 {
            guard let flags = reader.uint32(current) else { break }
            if flags & 0x1F == 0 {
                name = reader.relative(current + 8).flatMap { reader.cString($0, limit: 256) }
                break
            }
            guard let parent = parentDescriptor(current) else { break }
            current = parent
        }
        modules[descriptor] = .some(name)
        return name
    }

    /// A context's parent: a relative pointer that, with its low bit set, points at the pointer to the parent.
    private func parentDescriptor(_ descriptor: UInt) -> UInt? {
        guard let raw = reader.uint32(descriptor + 4), raw != 0 else { return nil }
        let target = UInt(bitPattern: Int(bitPattern: descriptor + 4) &+ Int(Int32(bitPattern: raw & ~1)))
        return raw & 1 == 0 ? target : reader.word(target)
    }

    private func descriptorName(_ descriptor: UInt) -> String? {
        reader.relative(descriptor + 8).flatMap { reader.cString($0, limit: 256) }
    }

    private struct FieldRecord {
        var flags: UInt32
        var name: String
        var typeName: UInt?
    }

    /// A type descriptor's field records: an enum's case names, flags and payload type names, a struct's or class's
    /// stored properties' names and type names.
    private func fieldRecords(_ descriptor: UInt) -> [FieldRecord]? {
        guard let fields = reader.relative(descriptor + 16), isInImage(fields), let header = reader.bytes(fields + 8, count: 8) else { return nil }
        // The header: type name, superclass, kind (16 bits), record size (16 bits), record count (32 bits).
        let recordSize = Int(header.withUnsafeBytes { $0.load(fromByteOffset: 2, as: UInt16.self) })
        let count = Int(header.withUnsafeBytes { $0.load(fromByteOffset: 4, as: UInt32.self) })
        guard recordSize >= 12, count < 4096 else { return nil }
        var records: [FieldRecord] = []
        for index in 0..<count {
            let record = fields + 16 + UInt(index * recordSize)
            guard let flags = reader.uint32(record), let name = reader.relative(record + 8).flatMap({ reader.cString($0, limit: 256) }) else {
                return nil
            }
            records.append(FieldRecord(flags: flags, name: name, typeName: reader.relative(record + 4)))
        }
        return records
    }

    /// A mangled name's metadata, resolved by the runtime in `context` with `arguments`; nil when it does not resolve
    /// (a generic parameter without a context, a type not linked in). Names come from descriptors in loaded images.
    private func resolve(_ name: UInt, context: UInt?, arguments: UInt?) -> UInt? {
        if context == nil, let known = mangledNames[name] { return known }
        guard isInImage(name), let mangled = MangledName(reader: reader, at: name), !mangled.bytes.isEmpty,
            let start = UnsafePointer<UInt8>(bitPattern: name)
        else { return nil }
        let resolved = runtime.typeByMangledName(
            start, UInt(mangled.length), context.flatMap(UnsafeRawPointer.init(bitPattern:)), arguments.flatMap(UnsafeRawPointer.init(bitPattern:)))
        let metadata = resolved.map { UInt(bitPattern: $0) }
        if context == nil { mangledNames[name] = .some(metadata) }
        return metadata
    }

    /// A builtin type's metadata by its mangled name (`Bo`, Builtin.NativeObject).
    private func resolveBuiltin(_ name: StaticString) -> UInt? {
        runtime.typeByMangledName(name.utf8Start, UInt(name.utf8CodeUnitCount), nil, nil).map { UInt(bitPattern: $0) }
    }

    /// Whether a class descriptor's symbolic reference names a class.
    func isClassDescriptor(_ descriptor: UInt) -> Bool {
        isDescriptor(descriptor, ofKind: 16)
    }

    /// The type's name as the runtime prints it, unqualified (`Box<Coordinator>`), for a path's holders.
    func name(ofType metadata: UInt) -> String {
        if let known = names[metadata] { return known }
        let name = _typeName(unsafeBitCast(metadata, to: Any.Type.self), qualified: false)
        names[metadata] = name
        return name
    }

    /// A word that could be the address of metadata, a descriptor or an object: aligned, above the null page, and
    /// within user space.
    static func isPlausible(_ address: UInt) -> Bool {
        address & 7 == 0 && address >= 0x1_0000 && address < 1 << 48
    }
}
#endif
