/// A coordinator with inverted ownership, in Deliveroo's later shape: no children arrays and no parent links. The
/// view models of its screens hold it through their closures, so it lives exactly as long as its screens need it.
protocol Coordinator: AnyObject {
    /// Shows the flow's first screen.
    func start()
}
