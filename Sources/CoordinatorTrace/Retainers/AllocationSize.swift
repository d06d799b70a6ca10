#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// How many bytes the allocator gave a heap object: the bound past which the retainer search reads none of it.
/// Asked only of closure contexts and boxes, which the runtime always allocates with `malloc`.
enum AllocationSize {
    static func of(_ object: UnsafeRawPointer) -> Int {
        #if canImport(Darwin)
        return malloc_size(object)
        #else
        guard let usableSize else { return 0 }
        return usableSize(UnsafeMutableRawPointer(mutating: object))
        #endif
    }

    #if !canImport(Darwin)
    /// glibc's `malloc_usable_size`, which the Glibc module does not import (it is in malloc.h); nil elsewhere, and
    /// then nothing is read.
    private static let usableSize: (@convention(c) (UnsafeMutableRawPointer?) -> Int)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
    }()
    #endif
}
