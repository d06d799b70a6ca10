#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Copies this process's memory into the walker's own buffers without ever faulting, as crash reporters read memory in
/// process: an unmapped or protected address is a short read, never a signal. Every byte the retainer search looks at
/// comes through here; nothing it reads is dereferenced or used as a live value.
struct MemoryReader: @unchecked Sendable {
    /// The reader, or why this process has none (then the search is off and says so).
    static let shared: Result<MemoryReader, SearchUnavailable> = make()

    #if canImport(Darwin)
    /// `vm_read_overwrite` on the own task returns `KERN_INVALID_ADDRESS` for an unmapped range instead of raising a
    /// signal; it is allowed on devices. Not run on this project's Linux machines.
    private static let pageSize = Int(getpagesize())
    #else
    private typealias ProcessVMRead = @convention(c) (pid_t, UnsafePointer<iovec>, UInt, UnsafePointer<iovec>, UInt, UInt) -> Int
    /// `process_vm_readv` on the own pid needs no ptrace permission and returns EFAULT for a bad address; it is not in
    /// the Glibc module (it needs `_GNU_SOURCE`), so it is looked up. Container sandboxes may refuse it: then `pread`
    /// on /proc/self/mem, which fails an unmapped address with EIO.
    private let processVMRead: ProcessVMRead?
    private let memoryFile: Int32
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let pid = getpid()
    #endif

    /// Reads up to `count` bytes at `address` into `buffer`; returns how many were read, stopping at the first page
    /// that cannot be read (0 when the first byte cannot).
    func read(_ address: UInt, count: Int, into buffer: UnsafeMutableRawPointer) -> Int {
        guard count > 0, address >= 4096, address &+ UInt(count) > address else { return 0 }
        #if canImport(Darwin)
        var done = 0
        while done < count {
            let at = address + UInt(done)
            let chunk = min(count - done, Self.pageSize - Int(at % UInt(Self.pageSize)))
            var copied: vm_size_t = 0
            let status = vm_read_overwrite(
                mach_task_self(), vm_address_t(at), vm_size_t(chunk), vm_address_t(UInt(bitPattern: buffer + done)), &copied)
            guard status == KERN_SUCCESS, copied == chunk else { break }
            done += chunk
        }
        return done
        #else
        if let processVMRead { return readSplitAtPages(address, count: count, into: buffer, with: processVMRead) }
        let read = pread(memoryFile, buffer, count, off_t(Int64(bitPattern: UInt64(address))))
        return max(0, read)
        #endif
    }

    /// A whole value of `count` bytes, or nil when any of it cannot be read.
    func bytes(_ address: UInt, count: Int) -> [UInt8]? {
        guard count >= 0, count <= 1 << 26 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { self.read(address, count: count, into: $0.baseAddress!) }
        return read == count ? bytes : nil
    }

    /// One pointer-sized word, or nil.
    func word(_ address: UInt) -> UInt? {
        var value: UInt = 0
        return read(address, count: 8, into: &value) == 8 ? value : nil
    }

    /// One 32-bit integer, or nil.
    func uint32(_ address: UInt) -> UInt32? {
        var value: UInt32 = 0
        return read(address, count: 4, into: &value) == 4 ? value : nil
    }

    /// A relative pointer's target: the 32-bit signed offset at `address`, from `address`; nil for 0 or unreadable.
    func relative(_ address: UInt) -> UInt? {
        guard let raw = uint32(address), raw != 0 else { return nil }
        return UInt(bitPattern: Int(bitPattern: address) &+ Int(Int32(bitPattern: raw)))
    }

    /// A NUL-terminated string of at most `limit` bytes, or nil when it is unreadable or longer.
    func cString(_ address: UInt, limit: Int = 512) -> String? {
        var collected: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while collected.count < limit {
            let got = chunk.withUnsafeMutableBytes { read(address + UInt(collected.count), count: 64, into: $0.baseAddress!) }
            guard got > 0 else { return nil }
            if let end = chunk[0..<got].firstIndex(of: 0) {
                collected += chunk[0..<end]
                return String(decoding: collected, as: UTF8.self)
            }
            collected += chunk[0..<got]
        }
        return nil
    }

    #if !canImport(Darwin)
    /// One system call for the whole range, split at page boundaries: a transfer stops at the first range that fails,
    /// so the pages before a bad one are still read.
    private func readSplitAtPages(_ address: UInt, count: Int, into buffer: UnsafeMutableRawPointer, with call: ProcessVMRead) -> Int {
        if count > Self.pageSize {
            // Most large reads (a heap's pieces) are all readable: one range, and the split only when it comes short.
            var local = iovec(iov_base: buffer, iov_len: count)
            var remote = iovec(iov_base: UnsafeMutableRawPointer(bitPattern: address), iov_len: count)
            if call(pid, &local, 1, &remote, 1, 0) == count { return count }
        } else {
            // A word, a header, an object: at most two pages, described on the stack. The array below cost a
            // malloc and a free for each of them, about 600 instructions an object a search reads.
            let first = min(count, Self.pageSize - Int(address % UInt(Self.pageSize)))
            var local = iovec(iov_base: buffer, iov_len: count)
            var remote = (
                iovec(iov_base: UnsafeMutableRawPointer(bitPattern: address), iov_len: first),
                iovec(iov_base: UnsafeMutableRawPointer(bitPattern: address + UInt(first)), iov_len: count - first)
            )
            let read = withUnsafeMutableBytes(of: &remote) { ranges in
                call(pid, &local, 1, ranges.baseAddress!.assumingMemoryBound(to: iovec.self), first == count ? 1 : 2, 0)
            }
            return max(0, read)
        }
        var remote: [iovec] = []
        var at = address
        var left = count
        while left > 0, remote.count < 1024 {
            let chunk = min(left, Self.pageSize - Int(at % UInt(Self.pageSize)))
            remote.append(iovec(iov_base: UnsafeMutableRawPointer(bitPattern: at), iov_len: chunk))
            at += UInt(chunk)
            left -= chunk
        }
        var local = iovec(iov_base: buffer, iov_len: count - left)
        let read = remote.withUnsafeBufferPointer { call(pid, &local, 1, $0.baseAddress!, UInt($0.count), 0) }
        return max(0, read)
    }
    #endif

    private static func make() -> Result<MemoryReader, SearchUnavailable> {
        guard MemoryLayout<UInt>.size == 8 else { return .failure(SearchUnavailable("the walker knows 64-bit layouts only")) }
        #if canImport(Darwin)
        let reader = MemoryReader()
        #else
        let symbol = dlsym(dlopen(nil, RTLD_NOW), "process_vm_readv")
        var reader = MemoryReader(
            processVMRead: symbol.map { unsafeBitCast($0, to: ProcessVMRead.self) }, memoryFile: open("/proc/self/mem", O_RDONLY | O_CLOEXEC))
        if !reader.readsItsOwnMemory() {
            // process_vm_readv refused (a sandbox that filters it): /proc/self/mem alone.
            reader = MemoryReader(processVMRead: nil, memoryFile: reader.memoryFile)
        }
        #endif
        guard reader.readsItsOwnMemory() else {
            return .failure(SearchUnavailable("this process cannot read its own memory without risk of faulting"))
        }
        return .success(reader)
    }

    /// Reads a known value and an unmapped address: the first must succeed, the second fail without a signal.
    private func readsItsOwnMemory() -> Bool {
        var known: UInt = 0x5EA2_C4ED_0BAD_F00D
        var copy: UInt = 0
        let good = withUnsafePointer(to: &known) { read(UInt(bitPattern: $0), count: 8, into: &copy) }
        // Below the kernel's lowest mapping (mmap_min_addr, 64 KiB) nothing is ever mapped.
        return good == 8 && copy == known && read(0x1000, count: 8, into: &copy) == 0
    }
}

/// Why the retainer search cannot run in this process: said in `held` lines as "not searched".
struct SearchUnavailable: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
#endif
