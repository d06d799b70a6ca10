import CoordinatorWire

/// The one thread libgvc runs on, for the life of the process, with a stack of `GraphvizRenderer.stackBytes`.
///
/// A dispatch queue's thread has 512 KB, where libcdt's recursion overflows on graphs that an 8 MB stack draws; a
/// thread made per drawing reserved 64 MB and paid a thread's start each time.
enum LibgvcThread {
    static let shared = JobThread(name: "coordlens-libgvc", stackBytes: GraphvizRenderer.stackBytes)
}
