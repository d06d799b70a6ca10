import UIKitStandIn

/// A list that reports the row the user selects.
final class ListViewController: ViewController {
    let select: (Int) -> Void

    init(title: String, select: @escaping (Int) -> Void) {
        self.select = select
        super.init(title: title)
    }
}

/// One item, pushed from a list.
final class DetailViewController: ViewController {}
