#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The Swift runtime's reflection and demangling entry points the walker calls, looked up by name at run time: a
/// runtime without one turns the search off, naming it, instead of failing to load the app. Each is called only with
/// type metadata, descriptors and mangled names the walker validated, or with its own copy of a value's bytes; never
/// with a live value of the app. (They use the Swift calling convention, which for these pointer-and-integer signatures
/// passes and returns in the same registers as C on x86-64 and arm64.)
struct RuntimeEntryPoints: @unchecked Sendable {
    /// The runtime's record of a field (`_FieldReflectionMetadata`, what `Mirror` reads).
    struct FieldInfo {
        var name: UnsafePointer<CChar>? = nil
        var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
        var isStrong: Bool = false
        var isVar: Bool = false
    }

    /// Stored properties of a struct or class type (a class's with its superclasses').
    let fieldCount: @convention(c) (UnsafeRawPointer) -> Int
    /// One stored property's type metadata; fills its `FieldInfo` (name, whether it is strong).
    let fieldType: @convention(c) (UnsafeRawPointer, Int, UnsafeMutableRawPointer) -> UnsafeRawPointer?
    /// One stored property's byte offset.
    let fieldOffset: @convention(c) (UnsafeRawPointer, Int) -> Int
    /// A mangled type name's metadata in a generic context, nil when it does not resolve.
    let typeByMangledName: @convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?
    /// The case name of an enum value (its tag read by the type's own value witness), from the walker's copy.
    let enumCaseName: @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafePointer<CChar>?

    /// The entry points, or which one this runtime lacks.
    /// Whether `address` lies in a loaded image (`dladdr`, which only compares it with the images' ranges; looked up
    /// because glibc declares it only with `_GNU_SOURCE`).
    let isInImage: @Sendable (UInt) -> Bool

    private struct ImageInfo {
        var fileName: UnsafePointer<CChar>? = nil
        var fileBase: UnsafeMutableRawPointer? = nil
        var symbolName: UnsafePointer<CChar>? = nil
        var symbolAddress: UnsafeMutableRawPointer? = nil
    }

    static let shared: Result<RuntimeEntryPoints, SearchUnavailable> = {
        let image = dlopen(nil, RTLD_NOW)
        func find<Function>(_ name: String, as: Function.Type) -> Result<Function, SearchUnavailable> {
            guard let symbol = dlsym(image, name) else {
                return .failure(SearchUnavailable("the Swift runtime has no \(name) (a runtime this walker does not know)"))
            }
            return .success(unsafeBitCast(symbol, to: Function.self))
        }
        do {
            let imageOf = try find("dladdr", as: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32).self).get()
            return .success(
                RuntimeEntryPoints(
                    fieldCount: try find("swift_reflectionMirror_recursiveCount", as: (@convention(c) (UnsafeRawPointer) -> Int).self).get(),
                    fieldType: try find(
                        "swift_reflectionMirror_recursiveChildMetadata",
                        as: (@convention(c) (UnsafeRawPointer, Int, UnsafeMutableRawPointer) -> UnsafeRawPointer?).self
                    ).get(),
                    fieldOffset: try find("swift_reflectionMirror_recursiveChildOffset", as: (@convention(c) (UnsafeRawPointer, Int) -> Int).self).get(),
                    typeByMangledName: try find(
                        "swift_getTypeByMangledNameInContext",
                        as: (@convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?).self
                    ).get(),
                    enumCaseName: try find(
                        "swift_EnumCaseName", as: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafePointer<CChar>?).self
                    ).get(),
                    isInImage: { address in
                        var info = ImageInfo()
                        return imageOf(UnsafeRawPointer(bitPattern: address), &info) != 0 && info.fileBase != nil
                    }
                ))
        } catch {
            return .failure(error as? SearchUnavailable ?? SearchUnavailable("\(error)"))
        }
    }()
}
#endif
