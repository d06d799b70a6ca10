import UIKitStandIn

// The app's screens; none of them holds a coordinator.

final class ListViewController: ViewController {
    init() { super.init(title: "List") }
}

final class SearchViewController: ViewController {
    init() { super.init(title: "Search") }
}

final class FilterViewController: ViewController {
    init() { super.init(title: "Filter") }
}
