/// The kind a type's or heap object's runtime metadata starts with (the Swift ABI's `MetadataKind`), read only from
/// metadata a typed value or a closure context gave us.
enum MetadataKind: Equatable {
    case classInstance, structure, enumeration, optional, tuple, function, closureContext, other

    /// The kind of `type`'s metadata.
    init(of type: Any.Type) {
        self.init(raw: unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self))
    }

    /// The kind of the metadata `heapObject` points to: a class instance, or a closure context or box.
    init(ofHeapObject heapObject: UnsafeRawPointer) {
        self.init(raw: heapObject.load(as: UnsafeRawPointer.self).load(as: UInt.self))
    }

    private init(raw: UInt) {
        switch raw {
        // A Swift class's metadata starts with 0; with Objective-C interop, with the isa pointer (above 0x7FF).
        case 0, 0x800...: self = .classInstance
        case 0x200: self = .structure
        case 0x201: self = .enumeration
        case 0x202: self = .optional
        case 0x301: self = .tuple
        case 0x302: self = .function
        case 0x400: self = .closureContext
        default: self = .other
        }
    }
}
