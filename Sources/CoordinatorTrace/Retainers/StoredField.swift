/// One stored property of a struct or class, as the Swift runtime's reflection describes it: what `Mirror` reads, plus
/// the offset and whether the reference is strong. `Mirror` shows a `weak var` as the object it points to; reading
/// that field's memory as its declared type would take a weak reference's side-table pointer for an object.
struct StoredField {
    /// The property's name.
    var name: String
    /// Its declared type (`Optional<Coordinator>` for a `weak var`).
    var type: Any.Type
    /// Bytes from the start of the value (of the object, for a class).
    var offset: Int
    /// False for `weak`, `unowned` and `unowned(unsafe)`: what the field holds must not be read as its type.
    var isStrong: Bool

    /// The stored properties of `type`, a class's superclasses' first; empty for enums, optionals and tuples.
    static func fields(of type: Any.Type) -> [StoredField] {
        let count = _fieldCount(type)
        guard count > 0 else { return [] }
        return (0..<count).map { index in
            var metadata = _FieldMetadata()
            let fieldType = _fieldType(type, index: index, fieldMetadata: &metadata)
            let name = metadata.name.map { String(cString: $0) } ?? "#\(index)"
            metadata.freeFunc?(metadata.name)
            return StoredField(name: name, type: fieldType, offset: _fieldOffset(type, index: index), isStrong: metadata.isStrong)
        }
    }
}

/// The runtime's record of a field (the standard library's `_FieldReflectionMetadata`, which `Mirror` and key paths use).
private struct _FieldMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong: Bool = false
    var isVar: Bool = false
}

// The runtime entry points behind `Mirror` and `_forEachField`; stable since Swift 5.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _fieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func _fieldType(_ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<_FieldMetadata>) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func _fieldOffset(_ type: Any.Type, index: Int) -> Int
