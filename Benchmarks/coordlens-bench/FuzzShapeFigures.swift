import Foundation
import StreamFuzzing

/// The fuzzer's hostile shapes through every invariant at two sizes: linear work takes about 4× as long for 4× the
/// input. This figure replaced FuzzTests' wall-clock bound (20 s a shape), which failed under load and timed nothing.
func fuzzShapeGrowth() {
    let small = HostileShapes.all(size: 5_000)
    let large = HostileShapes.all(size: 20_000)
    var worst = (name: "", ratio: 0.0)
    for (shape, bigger) in zip(small, large) {
        let smallTime = timed { try! StreamCheck.run(shape.bytes) }.seconds
        let largeTime = timed { try! StreamCheck.run(bigger.bytes) }.seconds
        // A shape whose size does not follow the parameter (a fixed over-long line) reads about 1×.
        let ratio = largeTime / max(smallTime, 1e-6)
        if ratio > worst.ratio { worst = (shape.name, ratio) }
        print(String(format: "  fuzz shape %@: %.3f s at 5,000, %.3f s at 20,000 (%.1f×)", shape.name, smallTime, largeTime, ratio))
    }
    print(String(format: "fuzz shapes at 4× the size: at most %.1f× the time (%@)  [target ≤ 8×: linear]", worst.ratio, worst.name))
}
