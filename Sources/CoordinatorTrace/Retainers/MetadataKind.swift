#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// The kind word a type's or heap object's runtime metadata starts with (the Swift ABI's `MetadataKind`), as read
/// from the walker's copy of it.
enum MetadataKind: Equatable {
    case classInstance, structure, enumeration, optional, foreignClass, opaque, tuple, function, existential, metatype
    case objcClassWrapper, existentialMetatype, extendedExistential, closureContext, genericBox, errorBox, task, other

    init(raw: UInt) {
        switch raw {
        // A Swift class's metadata starts with 0 without Objective-C interop; with it, with the isa pointer (above 0x7FF).
        case 0, 0x800...: self = .classInstance
        case 0x200: self = .structure
        case 0x201: self = .enumeration
        case 0x202: self = .optional
        case 0x203, 0x204: self = .foreignClass
        case 0x300: self = .opaque
        case 0x301: self = .tuple
        case 0x302: self = .function
        case 0x303: self = .existential
        case 0x304: self = .metatype
        case 0x305: self = .objcClassWrapper
        case 0x306: self = .existentialMetatype
        case 0x307: self = .extendedExistential
        case 0x400: self = .closureContext
        case 0x500: self = .genericBox
        case 0x501: self = .errorBox
        case 0x502, 0x503: self = .task
        default: self = .other
        }
    }
}
#endif
