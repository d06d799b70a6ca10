/// What a closure context or a box captured, read through the capture descriptor the compiler emits for it (the
/// reflection metadata debuggers' remote mirrors read): each capture's type, so its bytes are read as that type and
/// nothing else. Only a context a typed function value pointed to is read, and no further than its allocation.
struct ClosureContext {
    /// One captured value.
    enum Capture {
        /// A value, read as its type.
        case value(Any)
        /// A captured `var`: a box, itself a context with one capture.
        case box(UnsafeRawPointer)
        /// A closure the context captured at its lowered type (a reabstraction thunk's context holds the closure it
        /// wraps: how a closure kept in a generic container is stored): its context, nil when it has none.
        case function(UnsafeRawPointer?)
        /// A `weak` capture: no strong reference.
        case weak
        /// An `unowned` capture holding this address: not a strong reference.
        case unowned(UInt)
    }

    /// The captures in order; `unread` says why the rest (if any) could not be read.
    var captures: [Capture] = []
    var unread: String?

    /// Reads the context at `context`, a heap object of kind `closureContext`.
    init(_ context: UnsafeRawPointer) {
        let metadata = context.load(as: UnsafeRawPointer.self)
        // HeapLocalVariableMetadata: the kind word, then the offset of the first capture, then the descriptor.
        var offset = Int(metadata.load(fromByteOffset: 8, as: UInt32.self))
        guard let descriptor = metadata.load(fromByteOffset: 16, as: UnsafeRawPointer?.self) else {
            unread = "the closure has no capture descriptor (reflection metadata stripped)"
            return
        }
        let size = AllocationSize.of(context)
        guard size > 0 else {
            unread = "the closure's allocation size is unknown"
            return
        }
        let typeCount = Int(descriptor.load(as: UInt32.self))
        for index in 0..<typeCount {
            let record = descriptor + 12 + index * 4
            let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
            let length = Self.mangledLength(name)
            let storage = Self.referenceStorage(name, length: length)
            let type: Any.Type? = storage == nil ? _getTypeByMangledNameInContext(name, UInt(length), genericContext: nil, genericArguments: nil) : nil
            let pointer = MemoryLayout<UnsafeRawPointer>.size
            let (width, alignment) =
                type.map(Self.layout) ?? (storage == .thickFunction ? (2 * pointer, pointer) : storage != nil ? (pointer, pointer) : (0, 0))
            guard width > 0 || type != nil else {
                unread = "capture \(index + 1) has a generic or unknown type"
                return
            }
            offset = (offset + alignment - 1) / alignment * alignment
            guard offset + width <= size else {
                unread = "capture \(index + 1) lies past the closure's allocation"
                return
            }
            let at = context + offset
            switch storage {
            case .box?: if let box = at.load(as: UnsafeRawPointer?.self) { captures.append(.box(box)) }
            case .weak?: captures.append(.weak)
            case .unowned?: captures.append(.unowned(at.load(as: UInt.self)))
            case .thickFunction?: captures.append(.function(at.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer?.self)))
            case nil: if let type { captures.append(.value(Self.load(type, at: at))) }
            }
            offset += width
        }
    }

    /// How a capture is stored when it is not a plain value: mangled names end in `Xx`/`XX`/`Xb` (a box), `Xw` (weak),
    /// `Xo` or `Xu` (unowned, unowned(unsafe)), each one pointer; or the capture is an escaping thick function at its
    /// lowered type (`Ieg_`, `SiIegyd_`: callee-guaranteed, owned or unowned, no block, C or method representation),
    /// two pointers, the code and the context.
    private enum Storage { case box, weak, unowned, thickFunction }

    private static func referenceStorage(_ name: UnsafePointer<UInt8>, length: Int) -> Storage? {
        if isThickFunction(name, length: length) { return .thickFunction }
        guard length >= 2, name[length - 2] == UInt8(ascii: "X") else { return nil }
        switch name[length - 1] {
        case UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "b"): return .box
        case UInt8(ascii: "w"): return .weak
        case UInt8(ascii: "o"), UInt8(ascii: "u"): return .unowned
        default: return nil
        }
    }

    /// Whether `name` is a lowered (SIL) function type that is escaping and thick: `I`, `e`, a callee convention
    /// (`g`, `x`, `y`) with no representation after it, and the closing `_`. Symbolic references are stepped over, so
    /// their offset bytes are never taken for letters.
    private static func isThickFunction(_ name: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard length >= 4, name[length - 1] == UInt8(ascii: "_") else { return false }
        var index = 0
        var found = false
        while index < length {
            switch name[index] {
            case 0x01...0x17: index += 5
            case 0x18...0x1F: index += 1 + MemoryLayout<UnsafeRawPointer>.size
            case UInt8(ascii: "I") where index + 3 < length && name[index + 1] == UInt8(ascii: "e"):
                let callee = name[index + 2]
                let representation = name[index + 3]
                let thick = callee == UInt8(ascii: "g") || callee == UInt8(ascii: "x") || callee == UInt8(ascii: "y")
                let special = [UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "M"), UInt8(ascii: "J"), UInt8(ascii: "W")].contains(representation)
                found = thick && !special
                index += 1
            default: index += 1
            }
        }
        return found
    }

    /// A mangled name's length: it ends at a zero byte, but a symbolic reference (a control byte, then a 4-byte
    /// relative offset or a pointer) may hold zeros.
    static func mangledLength(_ name: UnsafePointer<UInt8>) -> Int {
        var index = 0
        while true {
            switch name[index] {
            case 0: return index
            case 0x01...0x17: index += 5
            case 0x18...0x1F: index += 1 + MemoryLayout<UnsafeRawPointer>.size
            default: index += 1
            }
        }
    }

    private static func layout(_ type: Any.Type) -> (width: Int, alignment: Int) {
        func of<T>(_: T.Type) -> [Int] { [MemoryLayout<T>.size, MemoryLayout<T>.alignment] }
        let measured = _openExistential(type, do: of)
        return (measured[0], measured[1])
    }

    /// The value of `type` stored at `at`, copied (retained) into an `Any`.
    static func load(_ type: Any.Type, at: UnsafeRawPointer) -> Any {
        func read<T>(_: T.Type) -> Any { at.load(as: T.self) }
        return _openExistential(type, do: read)
    }
}
