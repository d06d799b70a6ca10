import UIKitStandIn

/// A coordinator in the appcoordinator-segue style: each child lives in an optional property slot of its parent,
/// filled when a segue fires and never cleared.
protocol Coordinator: AnyObject {
    func start()
}

/// A transition by name to a prepared destination screen, as a storyboard segue is one.
struct Segue {
    let identifier: String
    let destination: ViewController
}
