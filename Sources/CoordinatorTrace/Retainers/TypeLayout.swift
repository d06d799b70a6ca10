#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// How the walker reads a value of one type, decoded once from the type's metadata: where its strong references are
/// and what they lead to. Types are named by their metadata's address, which the runtime never frees or moves.
struct TypeLayout {
    /// Bytes a value takes (the value witness table's size).
    var size: Int
    /// The value's alignment less one.
    var alignMask: Int
    /// Whether a value fits an existential container's inline buffer rather than a box.
    var isInline: Bool
    var shape: Shape

    enum Shape {
        /// Holds no strong reference the walker follows: trivial types (integers, metatypes, thin and C functions,
        /// `unowned(unsafe)`), and the standard library's and Foundation's own values, which hold no app objects.
        case inert
        /// Word 0 is a strong reference to a heap object.
        case object
        /// A struct's or tuple's strong stored parts.
        case parts([Part])
        /// An enum or optional: its case names and payload types, in tag order.
        case enumeration(EnumCases)
        /// `Any`, `any P`: a three-word buffer, then the dynamic type's metadata.
        case opaqueExistential
        /// `AnyObject`, `any P & AnyObject`, a class-bound protocol: word 0 is the object.
        case classExistential
        /// `any Error`: word 0 is the runtime's error box.
        case errorExistential
        /// An escaping Swift function: word 0 the code, word 1 its context (none for a closure that captures nothing).
        case function
        /// `Array`, `ContiguousArray`: word 0 is the element storage.
        case array(element: UInt)
        /// `Set`: word 0 is the hashed storage.
        case set(element: UInt)
        /// `Dictionary`: word 0 is the hashed storage.
        case dictionary(key: UInt, value: UInt)
        /// Not read, and why.
        case unread(String)
    }

    /// A stored property or tuple element that may hold a strong reference.
    struct Part {
        /// Added to the step's field name (`router`, a case name, a tuple label); nil adds nothing (an unlabelled
        /// tuple element).
        var name: String?
        var offset: Int
        /// The part's type metadata.
        var type: UInt
        /// A noncopyable part's size in words, read word by word (its type is hidden from reflection); else 0.
        var hiddenWords = 0
    }

    /// An enum's cases in tag order, payload cases first (as the runtime numbers them).
    struct EnumCases {
        var names: [String]
        /// Each case's payload type; nil for an empty case.
        var payloads: [UInt?]
        /// Whether a case's payload lives in a box of its own (`indirect`).
        var indirect: [Bool]
        /// Two or more payload cases: the tag may sit in a payload's spare bits, which pointer masking strips.
        var isMultiPayload: Bool
        var isOptional: Bool
        /// An optional of a reference or an escaping function: `none` exactly when word 0 is zero (the spare pointer
        /// value the optional uses), so the walker reads that word instead of asking the runtime for the case.
        var isNilWhenZero = false
    }
}

/// How the walker reads a heap object of one kind, decoded once from its metadata.
enum HeapLayout {
    /// A class instance: a node of the graph.
    case instance(ClassLayout)
    /// A closure context or a captured `var`'s fixed box: its captures, read through its capture descriptor.
    case context(CaptureLayout)
    /// A generic box (a captured `var`, an indirect enum payload, an existential's out-of-line value).
    case box(valueOffset: Int, type: UInt)
    /// The runtime's box for an `any Error` value.
    case errorBox
    /// Not read: the branch ends here, and why.
    case ends(String)
}

/// A class as the walker reads its instances.
struct ClassLayout {
    /// A stored property's offset by name (the standard library's hashed storage is read by its fields' names).
    func offset(of name: String) -> Int? {
        fields.first { $0.name == name }?.offset
    }

    /// The metadata's address, for the holder's name when a path is reported.
    var metadata: UInt
    var instanceSize: Int
    /// Stored properties, superclasses' first, with whether each is strong.
    var fields: [LayoutDecoder.StoredField]
    /// Set for classes whose instances are not followed (actors, the standard library's and Foundation's own).
    var ends: String?
}

/// A closure context's captures, as its capture descriptor gives them. Offsets are worked out per context: a capture
/// of a generic parameter's type takes its size from the metadata the context's own bindings hold.
struct CaptureLayout {
    enum Storage {
        /// A value, read as this type.
        case value(type: UInt)
        /// A value of the type whose metadata is the context's binding at this byte offset.
        case boundValue(bindingOffset: Int)
        /// One strong reference to an instance of a generic class (`Router<Route>`), whatever its arguments.
        case classReference
        /// A captured `var`: a pointer to its box.
        case box
        /// A closure captured at its lowered type: two words, the code and the context.
        case function
        /// `weak`, `unowned`: not a strong reference, one word.
        case notStrong
    }

    /// Where the captures start: after the header and the generic bindings.
    var start: Int
    var captures: [Storage]
    /// Why the captures after the last one listed could not be laid out.
    var unread: String?
}
#endif
