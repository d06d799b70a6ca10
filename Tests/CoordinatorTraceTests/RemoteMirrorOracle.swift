#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Foundation
import SwiftShims

/// libswiftRemoteMirror reading this process's own memory: the reference the retainer search's own decoding is checked against.
///
/// Remote Mirror is the library debuggers and `swift-inspect` use to read another process's heap. Here the "other
/// process" is this one: every byte it asks for is read with `pread` on `/proc/self/mem`, so an address that is not
/// mapped makes the read fail (EIO) instead of crashing the test run, and AddressSanitizer never sees the reads.
/// Remote Mirror keeps caches and is not thread-safe, and Swift Testing runs tests in parallel: one lock serialises
/// every call into it.
final class RemoteMirrorOracle: @unchecked Sendable {
    /// Why there is no oracle on this machine.
    struct OracleUnavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// One stored property of a class instance, or one capture of a closure context or box.
    struct Child: Equatable, CustomStringConvertible {
        /// The property's name; empty for a capture (capture descriptors record types, not names).
        var name: String
        /// Bytes from the start of the heap object (its header included).
        var offset: Int
        /// The layout Remote Mirror gives the value: "strong", "weak", "unowned", "closure" (a thick function), "struct",
        /// "single-payload enum" (an `Optional` of anything but a class reference), and the other kinds it knows.
        var kind: String
        /// The value's type, demangled as Remote Mirror prints it (`weak Swift.Optional<Module.Type>` for a `weak var`).
        var typeName: String?

        var description: String { "\(name.isEmpty ? "_" : name)@\(offset) \(kind) \(typeName ?? "?")" }
    }

    /// What Remote Mirror reads of one heap object.
    struct Instance {
        /// "class instance" or "closure context" (closure contexts and the boxes of captured `var`s both).
        var kind: String
        /// The demangled type; a closure context or box is `Builtin.NativeObject` to Remote Mirror.
        var name: String?
        /// The object's size in bytes, its two-word header included.
        var size: Int
        /// The stored properties, a class's superclasses' first, or the captures in order.
        var children: [Child]
    }

    /// The oracle, or why there is none on this machine (the library or one of its functions is missing).
    static let shared: Result<RemoteMirrorOracle, OracleUnavailable> = Result { () throws(OracleUnavailable) in try RemoteMirrorOracle() }

    private let library: UnsafeMutableRawPointer
    private let memory: ProcessMemory
    private let entryPoints: EntryPoints
    private let context: OpaquePointer
    private let lock = NSLock()
    /// Images whose reflection sections Remote Mirror has, by the address of the runtime's record of them (static data
    /// in the image itself): each is added once.
    private var registeredImages: Set<UInt> = []

    /// Loads the library, opens this process's memory and makes a reflection context reading it.
    private init() throws(OracleUnavailable) {
        guard let library = dlopen(Self.libraryName, RTLD_NOW) else {
            throw OracleUnavailable(reason: "cannot load \(Self.libraryName): \(dlerror().map { String(cString: $0) } ?? "no reason given")")
        }
        let memory: ProcessMemory
        let entryPoints: EntryPoints
        do throws(OracleUnavailable) {
            entryPoints = try EntryPoints(library)
            let version = entryPoints.getSupportedMetadataVersion()
            // Version 3 is the one whose C structs this file declares; another would need its header re-read.
            guard version == 3 else { throw OracleUnavailable(reason: "\(Self.libraryName) reads metadata version \(version), not 3") }
            memory = try ProcessMemory()
        } catch {
            dlclose(library)
            throw error
        }
        let queryDataLayout: QueryDataLayoutFunction = { _, query, _, answer in
            guard let answer else { return 0 }
            switch query {
            case DataLayoutQuery.pointerSize, DataLayoutQuery.sizeSize:
                answer.storeBytes(of: UInt8(MemoryLayout<UInt>.size), as: UInt8.self)
            case DataLayoutQuery.pointerAuthenticationMask:
                // Every bit of a pointer is address: no pointer authentication here.
                answer.storeBytes(of: UInt.max, as: UInt.self)
            case DataLayoutQuery.objCReservedLowBits:
                answer.storeBytes(of: UInt8(RemoteMirrorOracle.objCReservesLowBit ? 1 : 0), as: UInt8.self)
            case DataLayoutQuery.leastValidPointerValue:
                answer.storeBytes(of: RemoteMirrorOracle.leastValidPointerValue, as: UInt64.self)
            case DataLayoutQuery.objCInteropIsEnabled:
                answer.storeBytes(of: RemoteMirrorOracle.objCInteropIsEnabled, as: Bool.self)
            default:
                return 0
            }
            return 1
        }
        let freeBytes: FreeBytesFunction = { _, bytes, _ in free(UnsafeMutableRawPointer(mutating: bytes)) }
        let readBytes: ReadBytesFunction = { reader, address, size, _ in
            guard let reader, let count = Int(exactly: size), let buffer = malloc(max(count, 1)) else { return nil }
            guard Unmanaged<ProcessMemory>.fromOpaque(reader).takeUnretainedValue().read(address, count: count, into: buffer) else {
                free(buffer)
                return nil
            }
            return UnsafeRawPointer(buffer)
        }
        let getStringLength: GetStringLengthFunction = { reader, address in
            guard let reader else { return 0 }
            return UInt64(Unmanaged<ProcessMemory>.fromOpaque(reader).takeUnretainedValue().stringLength(at: address) ?? 0)
        }
        let getSymbolAddress: GetSymbolAddressFunction = { _, name, length in
            guard let name else { return 0 }
            // The name need not end in a zero byte: copy exactly `length` bytes.
            let symbol = String(decoding: UnsafeRawBufferPointer(start: name, count: Int(length)), as: UTF8.self)
            return UInt64(UInt(bitPattern: dlsym(RemoteMirrorOracle.everyLoadedImage, symbol)))
        }
        guard
            let context = entryPoints.createReflectionContextWithDataLayout(
                Unmanaged.passUnretained(memory).toOpaque(), queryDataLayout, freeBytes, readBytes, getStringLength, getSymbolAddress)
        else {
            dlclose(library)
            throw OracleUnavailable(reason: "swift_reflection_createReflectionContextWithDataLayout returned no context")
        }
        self.library = library
        self.memory = memory
        self.entryPoints = entryPoints
        self.context = context
    }

    deinit {
        entryPoints.destroyReflectionContext(context)
        dlclose(library)
    }

    /// What Remote Mirror reads of the heap object at `address`: a class instance's stored properties (with its superclasses') or a
    /// closure context's / box's captures; nil when it cannot read it.
    ///
    /// Remote Mirror itself lists only the fields a class declares: `swift_reflection_infoForInstance` on a subclass
    /// instance gives the subclass's own stored properties, at offsets that start where the superclass's instance ends,
    /// with no entry standing for the superclass. The superclasses' fields are here because this asks Remote Mirror
    /// about each superclass's metadata in turn (`swift_reflection_infoForMetadata`), root class first, the way
    /// `Mirror` and the runtime's field enumeration order them. A closure context's captures have no names and are
    /// listed in the context's order.
    func instance(at address: UInt) -> Instance? {
        lock.lock()
        defer { lock.unlock() }
        registerNewImages()
        let info = TypeInfo(entryPoints.infoForInstance(context, address))
        guard info.kind == LayoutKind.classInstance || info.kind == LayoutKind.closureContext else { return nil }
        var children = (0..<info.fieldCount).map { child(entryPoints.childOfInstance(context, address, $0)) }
        if info.kind == LayoutKind.classInstance {
            children = superclassFields(of: entryPoints.metadataForObject(context, address)) + children
        }
        return Instance(
            kind: LayoutKind.name(info.kind), name: typeName(entryPoints.typeRefForInstance(context, address)), size: Int(info.size),
            children: children)
    }

    /// The stored properties of the superclasses of the class whose metadata is at `metadata`, root class first.
    private func superclassFields(of metadata: UInt) -> [Child] {
        var fields: [Child] = []
        var superclass = metadata == 0 ? 0 : superclassMetadata(of: metadata)
        while superclass != 0 {
            let info = TypeInfo(entryPoints.infoForMetadata(context, superclass))
            // A class without Swift field records (an Objective-C root) has nothing more to say.
            guard info.kind == LayoutKind.classInstance else { break }
            fields = (0..<info.fieldCount).map { child(entryPoints.childOfMetadata(context, superclass, $0)) } + fields
            superclass = superclassMetadata(of: superclass)
        }
        return fields
    }

    /// The superclass word of class metadata: the word after the kind (or isa), in every Swift ABI.
    private func superclassMetadata(of metadata: UInt) -> UInt {
        var word: UInt = 0
        let read = withUnsafeMutableBytes(of: &word) { memory.read(UInt64(metadata) + UInt64(MemoryLayout<UInt>.size), count: $0.count, into: $0.baseAddress!) }
        return read ? word : 0
    }

    /// A `swift_childinfo_t` as a `Child`; its name belongs to the context, so it is copied, not freed.
    private func child(_ carrier: StructReturnCarrier) -> Child {
        withUnsafeBytes(of: carrier) { bytes in
            let name = bytes.load(fromByteOffset: ChildInfoLayout.name, as: UnsafePointer<CChar>?.self)
            return Child(
                name: name.map { String(cString: $0) } ?? "",
                offset: Int(bytes.load(fromByteOffset: ChildInfoLayout.offset, as: UInt32.self)),
                kind: LayoutKind.name(bytes.load(fromByteOffset: ChildInfoLayout.kind, as: UInt32.self)),
                typeName: typeName(bytes.load(fromByteOffset: ChildInfoLayout.typeRef, as: UInt64.self)))
        }
    }

    /// The demangled name of a type reference; the library `strdup`s it, so it is freed here.
    private func typeName(_ typeRef: UInt64) -> String? {
        guard typeRef != 0, let name = entryPoints.copyDemangledNameForTypeRef(context, typeRef) else { return nil }
        defer { free(name) }
        return String(cString: name)
    }

    /// Hands Remote Mirror the reflection sections of every image loaded since the last call: the runtime keeps each
    /// image's Swift sections, and an image loaded after the oracle was made is found on the next query.
    private func registerNewImages() {
        var images: [UnsafePointer<MetadataSections>] = []
        withUnsafeMutablePointer(to: &images) { images in
            entryPoints.enumerateAllMetadataSections(
                { sections, images in
                    guard let sections, let images else { return true }
                    images.assumingMemoryBound(to: [UnsafePointer<MetadataSections>].self).pointee.append(sections)
                    return true
                }, images)
        }
        for image in images where registeredImages.insert(UInt(bitPattern: image)).inserted {
            // `swift_reflection_addImage` would find the sections itself, but on ELF it reads the section header table,
            // which is not loaded with the image: here it failed a read and then crashed in `readELF`.
            entryPoints.addReflectionInfo(context, ReflectionInfo(image.pointee).carrier)
        }
    }
}

// MARK: - The C API, declared by hand

// The header (SwiftRemoteMirror.h, SwiftRemoteMirrorTypes.h, MemoryReaderInterface.h) is not installed with the
// toolchain. The declarations below follow it; each function is looked up with `dlsym`.

/// `typedef struct SwiftReflectionContext *SwiftReflectionContextRef;`
private typealias ReflectionContextRef = OpaquePointer
/// `typedef const void *(*ReadBytesFunction)(void *reader_context, swift_addr_t address, uint64_t size, void **outFreeContext);`
private typealias ReadBytesFunction =
    @convention(c) (UnsafeMutableRawPointer?, UInt64, UInt64, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> UnsafeRawPointer?
/// `typedef void (*FreeBytesFunction)(void *reader_context, const void *bytes, void *context);`
private typealias FreeBytesFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Void
/// `typedef uint64_t (*GetStringLengthFunction)(void *reader_context, swift_addr_t address);`
private typealias GetStringLengthFunction = @convention(c) (UnsafeMutableRawPointer?, UInt64) -> UInt64
/// `typedef swift_addr_t (*GetSymbolAddressFunction)(void *reader_context, const char *name, uint64_t name_length);`
private typealias GetSymbolAddressFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt64) -> UInt64
/// `typedef int (*QueryDataLayoutFunction)(void *reader_context, DataLayoutQueryType type, void *inBuffer, void *outBuffer);`
private typealias QueryDataLayoutFunction = @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
/// `bool (*)(const MetadataSections *sections, void *context)`, the body `swift_enumerateAllMetadataSections` calls.
private typealias MetadataSectionsBody = @convention(c) (UnsafePointer<MetadataSections>?, UnsafeMutableRawPointer?) -> Bool

/// Swift declares no C struct, and a `@convention(c)` signature accepts only C types. The C ABI returns a struct of
/// more than 16 bytes through a buffer the caller provides, and passes one as a copy in memory, whatever its fields,
/// on x86-64 (System V) and AArch64 alike; so a struct the stdlib shims already import, at least as large, carries
/// the bytes: three words (24 bytes) for `swift_typeinfo_t` (20 bytes) and `swift_childinfo_t` (24).
private typealias StructReturnCarrier = _SwiftNSOperatingSystemVersion
/// The same for the one struct passed by value, `swift_reflection_info_t` (160 bytes): `MetadataSections` (272).
private typealias StructArgumentCarrier = MetadataSections

/// `DataLayoutQueryType`, in its declaration order.
private enum DataLayoutQuery {
    static let pointerSize: UInt32 = 0
    static let sizeSize: UInt32 = 1
    static let pointerAuthenticationMask: UInt32 = 2
    static let objCReservedLowBits: UInt32 = 3
    static let leastValidPointerValue: UInt32 = 4
    static let objCInteropIsEnabled: UInt32 = 5
}

/// `swift_layout_kind_t`, in its declaration order.
private enum LayoutKind {
    static let classInstance: UInt32 = 17
    static let closureContext: UInt32 = 18
    private static let names = [
        "unknown", "builtin", "raw pointer", "tuple", "struct", "no-payload enum", "single-payload enum", "multi-payload enum", "closure",
        "opaque existential", "class existential", "error existential", "existential metatype", "strong", "unowned", "weak", "unmanaged",
        "class instance", "closure context", "array",
    ]

    /// The kind as the oracle spells it, or its number when this library is newer than this list.
    static func name(_ kind: UInt32) -> String { Int(kind) < names.count ? names[Int(kind)] : "kind \(kind)" }
}

/// `typedef struct swift_typeinfo { swift_layout_kind_t Kind; unsigned Size; unsigned Alignment; unsigned Stride; unsigned NumFields; } swift_typeinfo_t;`
private struct TypeInfo {
    var kind: UInt32
    var size: UInt32
    var fieldCount: UInt32

    /// Reads the fields this oracle uses from the returned bytes.
    init(_ carrier: StructReturnCarrier) {
        kind = withUnsafeBytes(of: carrier) { $0.load(fromByteOffset: 0, as: UInt32.self) }
        size = withUnsafeBytes(of: carrier) { $0.load(fromByteOffset: 4, as: UInt32.self) }
        fieldCount = withUnsafeBytes(of: carrier) { $0.load(fromByteOffset: 16, as: UInt32.self) }
    }
}

/// `typedef struct swift_childinfo { const char *Name; unsigned Offset; swift_layout_kind_t Kind; swift_typeref_t TR; } swift_childinfo_t;`
/// with `swift_typeref_t` a `uint64_t`: its byte offsets.
private enum ChildInfoLayout {
    static let name = 0
    static let offset = 8
    static let kind = 12
    static let typeRef = 16
}

/// `swift_reflection_info_t`: six `swift_reflection_section_pair_t` (`{ void *Begin; void *End; }` and a reserved
/// `offset` that must be zero) for field, associated_types, builtin_types, capture, type_references and
/// reflection_strings, then `LocalStartAddress` and `RemoteStartAddress`, all 64-bit words.
private struct ReflectionInfo {
    private var words = [UInt64](repeating: 0, count: 20)

    /// One image's sections. Local and remote start addresses are both zero: the "remote" process is this one, so a
    /// section's local address is its remote address. (The multi-payload enum section has no place in this struct.)
    init(_ image: MetadataSections) {
        for (index, range) in [
            image.swift5_fieldmd, image.swift5_assocty, image.swift5_builtin, image.swift5_capture, image.swift5_typeref, image.swift5_reflstr,
        ].enumerated() {
            words[3 * index] = UInt64(range.start)
            words[3 * index + 1] = UInt64(range.start) + UInt64(range.length)
        }
    }

    /// The struct's bytes in the carrier that passes it to C.
    var carrier: StructArgumentCarrier {
        var carrier = StructArgumentCarrier()
        words.withUnsafeBytes { words in withUnsafeMutableBytes(of: &carrier) { $0.copyMemory(from: words) } }
        return carrier
    }
}

/// The library's functions this oracle calls, and the runtime's section enumeration.
private struct EntryPoints {
    /// `uint16_t swift_reflection_getSupportedMetadataVersion(void);`
    let getSupportedMetadataVersion: @convention(c) () -> UInt16
    /// `SwiftReflectionContextRef swift_reflection_createReflectionContextWithDataLayout(void *ReaderContext,
    /// QueryDataLayoutFunction DataLayout, FreeBytesFunction Free, ReadBytesFunction ReadBytes,
    /// GetStringLengthFunction GetStringLength, GetSymbolAddressFunction GetSymbolAddress);`
    let createReflectionContextWithDataLayout:
        @convention(c) (
            UnsafeMutableRawPointer?, QueryDataLayoutFunction, FreeBytesFunction, ReadBytesFunction, GetStringLengthFunction, GetSymbolAddressFunction
        ) -> ReflectionContextRef?
    /// `void swift_reflection_destroyReflectionContext(SwiftReflectionContextRef Context);`
    let destroyReflectionContext: @convention(c) (ReflectionContextRef) -> Void
    /// `void swift_reflection_addReflectionInfo(SwiftReflectionContextRef ContextRef, swift_reflection_info_t Info);`
    let addReflectionInfo: @convention(c) (ReflectionContextRef, StructArgumentCarrier) -> Void
    /// `swift_typeinfo_t swift_reflection_infoForInstance(SwiftReflectionContextRef ContextRef, uintptr_t Object);`
    let infoForInstance: @convention(c) (ReflectionContextRef, UInt) -> StructReturnCarrier
    /// `swift_childinfo_t swift_reflection_childOfInstance(SwiftReflectionContextRef ContextRef, uintptr_t Object, unsigned Index);`
    let childOfInstance: @convention(c) (ReflectionContextRef, UInt, UInt32) -> StructReturnCarrier
    /// `swift_typeinfo_t swift_reflection_infoForMetadata(SwiftReflectionContextRef ContextRef, uintptr_t Metadata);`
    let infoForMetadata: @convention(c) (ReflectionContextRef, UInt) -> StructReturnCarrier
    /// `swift_childinfo_t swift_reflection_childOfMetadata(SwiftReflectionContextRef ContextRef, uintptr_t Metadata, unsigned Index);`
    let childOfMetadata: @convention(c) (ReflectionContextRef, UInt, UInt32) -> StructReturnCarrier
    /// `uintptr_t swift_reflection_metadataForObject(SwiftReflectionContextRef ContextRef, uintptr_t Object);`
    let metadataForObject: @convention(c) (ReflectionContextRef, UInt) -> UInt
    /// `swift_typeref_t swift_reflection_typeRefForInstance(SwiftReflectionContextRef ContextRef, uintptr_t Object);`
    let typeRefForInstance: @convention(c) (ReflectionContextRef, UInt) -> UInt64
    /// `char *swift_reflection_copyDemangledNameForTypeRef(SwiftReflectionContextRef ContextRef, swift_typeref_t OpaqueTypeRef);`
    /// The caller frees the string.
    let copyDemangledNameForTypeRef: @convention(c) (ReflectionContextRef, UInt64) -> UnsafeMutablePointer<CChar>?
    /// `void swift_enumerateAllMetadataSections(bool (*body)(const MetadataSections *, void *), void *context);`, from
    /// libswiftCore, not Remote Mirror.
    let enumerateAllMetadataSections: @convention(c) (MetadataSectionsBody, UnsafeMutableRawPointer?) -> Void

    /// Looks every function up, naming the first one missing.
    init(_ library: UnsafeMutableRawPointer) throws(RemoteMirrorOracle.OracleUnavailable) {
        /// The symbol `name` in `handle`, as a function of the type it is assigned to.
        func resolve<Function>(
            _ name: String, in handle: UnsafeMutableRawPointer?, as _: Function.Type
        ) throws(RemoteMirrorOracle.OracleUnavailable) -> Function {
            guard let symbol = dlsym(handle, name) else {
                throw RemoteMirrorOracle.OracleUnavailable(reason: "no \(name) in \(handle == library ? RemoteMirrorOracle.libraryName : "this process")")
            }
            return unsafeBitCast(symbol, to: Function.self)
        }
        getSupportedMetadataVersion = try resolve("swift_reflection_getSupportedMetadataVersion", in: library, as: type(of: getSupportedMetadataVersion))
        createReflectionContextWithDataLayout = try resolve(
            "swift_reflection_createReflectionContextWithDataLayout", in: library, as: type(of: createReflectionContextWithDataLayout))
        destroyReflectionContext = try resolve("swift_reflection_destroyReflectionContext", in: library, as: type(of: destroyReflectionContext))
        addReflectionInfo = try resolve("swift_reflection_addReflectionInfo", in: library, as: type(of: addReflectionInfo))
        infoForInstance = try resolve("swift_reflection_infoForInstance", in: library, as: type(of: infoForInstance))
        childOfInstance = try resolve("swift_reflection_childOfInstance", in: library, as: type(of: childOfInstance))
        infoForMetadata = try resolve("swift_reflection_infoForMetadata", in: library, as: type(of: infoForMetadata))
        childOfMetadata = try resolve("swift_reflection_childOfMetadata", in: library, as: type(of: childOfMetadata))
        metadataForObject = try resolve("swift_reflection_metadataForObject", in: library, as: type(of: metadataForObject))
        typeRefForInstance = try resolve("swift_reflection_typeRefForInstance", in: library, as: type(of: typeRefForInstance))
        copyDemangledNameForTypeRef = try resolve("swift_reflection_copyDemangledNameForTypeRef", in: library, as: type(of: copyDemangledNameForTypeRef))
        enumerateAllMetadataSections = try resolve(
            "swift_enumerateAllMetadataSections", in: RemoteMirrorOracle.everyLoadedImage, as: type(of: enumerateAllMetadataSections))
    }
}

// MARK: - This process's memory, read without dereferencing

/// This process's address space read as a file, `/proc/self/mem`: a read of an address that is not mapped fails with
/// EIO where a load would raise SIGSEGV.
private final class ProcessMemory {
    private let descriptor: Int32

    /// Opens `/proc/self/mem`, which needs Linux (or another system with procfs memory files).
    init() throws(RemoteMirrorOracle.OracleUnavailable) {
        descriptor = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RemoteMirrorOracle.OracleUnavailable(reason: "cannot open /proc/self/mem: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Copies `count` bytes at `address` into `buffer`; false when any of them cannot be read.
    func read(_ address: UInt64, count: Int, into buffer: UnsafeMutableRawPointer) -> Bool {
        var done = 0
        while done < count {
            // The file offset is the address; addresses past Int64.max are kernel space and fail like any unmapped one.
            guard let offset = Int64(exactly: address &+ UInt64(done)) else { return false }
            let got = pread(descriptor, buffer + done, count - done, off_t(offset))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    /// The length of the C string at `address`, scanned through the same reads; nil when it cannot be read or runs
    /// past `limit` bytes.
    func stringLength(at address: UInt64, limit: Int = 1 << 16) -> Int? {
        let chunk = 256
        return withUnsafeTemporaryAllocation(byteCount: chunk, alignment: 1) { buffer -> Int? in
            var length = 0
            while length < limit {
                // A string may end just before an unmapped page: read a smaller chunk before giving up.
                var size = chunk
                while size > 0 && !read(address &+ UInt64(length), count: size, into: buffer.baseAddress!) { size /= 2 }
                guard size > 0 else { return nil }
                if let end = buffer.prefix(size).firstIndex(of: 0) { return length + end }
                length += size
            }
            return nil
        }
    }
}

// MARK: - What differs between platforms

extension RemoteMirrorOracle {
    /// The file the toolchain installs beside the Swift runtime, found by name on the library path.
    fileprivate static var libraryName: String {
        #if canImport(Darwin)
        "libswiftRemoteMirror.dylib"
        #else
        "libswiftRemoteMirror.so"
        #endif
    }

    /// `RTLD_DEFAULT`, which Glibc defines as a null handle and Swift does not import.
    fileprivate static var everyLoadedImage: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
        #else
        nil
        #endif
    }

    /// Whether class metadata has Objective-C's layout: an isa pointer and class data beyond Swift's.
    fileprivate static var objCInteropIsEnabled: Bool {
        #if canImport(ObjectiveC)
        true
        #else
        false
        #endif
    }

    /// Only 64-bit Intel macOS reserves a low bit of an Objective-C pointer.
    fileprivate static var objCReservesLowBit: Bool {
        #if os(macOS) && arch(x86_64)
        true
        #else
        false
        #endif
    }

    /// Below this a pointer-sized payload is an enum's extra inhabitant, not an address (the runtime's
    /// `LeastValidPointerValue`: the first 4 KiB, the first 4 GiB on 64-bit Apple platforms).
    fileprivate static var leastValidPointerValue: UInt64 {
        #if canImport(Darwin)
        MemoryLayout<UInt>.size == 8 ? 0x1_0000_0000 : 0x1000
        #else
        0x1000
        #endif
    }
}
#endif
