@_spi(Locking) import CoordinatorWire
#if canImport(ObjectiveC)
import ObjectiveC

/// Rides on an object as an associated object: the runtime releases it right after the object's deinit, which gives
/// the exact moment of deallocation without any sweep.
final class DeallocationProbe {
    private let onDeallocation: @Sendable () -> Void

    init(_ onDeallocation: @escaping @Sendable () -> Void) {
        self.onDeallocation = onDeallocation
    }

    deinit {
        onDeallocation()
    }

    /// Attaches a probe to `object`; `key` must be unique per probe on that object and outlive it.
    static func attach(to object: AnyObject, key: UnsafeRawPointer, _ onDeallocation: @escaping @Sendable () -> Void) {
        objc_setAssociatedObject(object, key, DeallocationProbe(onDeallocation), .OBJC_ASSOCIATION_RETAIN)
    }
}

/// Where a session's probes report: to that session only, under the tracer's lock, stamped when they fire.
final class ProbeRoute: @unchecked Sendable {
    private weak var tracer: LockedBox<TracerState>?
    private weak var writer: SessionWriter?

    init(tracer: LockedBox<TracerState>, writer: SessionWriter) {
        self.tracer = tracer
        self.writer = writer
    }

    func watchCoordinator(_ object: AnyObject, _ tracked: TrackedCoordinator) {
        // The probe keeps `tracked` alive, so its address is a key no other probe on this object can share.
        DeallocationProbe.attach(to: object, key: UnsafeRawPointer(Unmanaged.passUnretained(tracked).toOpaque())) {
            self.report { $0.deallocated(tracked, at: MonotonicClock.now()) }
        }
    }

    func watchScreen(_ screen: AnyObject, _ bound: BoundScreen) {
        DeallocationProbe.attach(to: screen, key: UnsafeRawPointer(Unmanaged.passUnretained(bound).toOpaque())) {
            self.report { $0.screenDeallocated(bound, at: MonotonicClock.now()) }
        }
    }

    /// A watched view controller left the screen (ScreenDepartureWatch); reported without a call site, as the hook's
    /// own line would tell the app's developers nothing.
    func screenLeft(_ screen: AnyObject) {
        var carried: [AnyObject] = []
        report { carried = $0.screenLeft(screen, site: nil) }
        withExtendedLifetime(carried) {}
    }

    /// A watched view controller that had left appeared again (ScreenDepartureWatch).
    func screenAppeared(_ screen: AnyObject) {
        report { $0.screenAppeared(screen) }
    }

    private func report(_ body: (inout SessionState) -> Void) {
        guard let tracer, let writer else { return }
        tracer.withLock { state in
            guard state.session?.writer === writer else { return }
            body(&state.session!)
        }
    }
}
#endif
