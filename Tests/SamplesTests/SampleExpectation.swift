import CoordinatorLens
import Testing

/// What one sample must end with: for each coordinator type, the verdicts of its instances in the order they were
/// added, and the reason every retained one gives.
struct SampleExpectation: Sendable, CustomTestStringConvertible {
    let product: String
    /// The sample's folder under samples/.
    let folder: String
    let verdicts: [String: [Verdict]]
    var retainedReason: RetentionKind = .stillChild
    /// The reason of a type's retained ones where it is not `retainedReason`.
    var retainedReasonByType: [String: RetentionKind] = [:]

    var testDescription: String { product }

    static let all: [SampleExpectation] = [
        SampleExpectation(
            product: "BrowserTabsSample", folder: "browser-tabs",
            verdicts: [
                "BrowserCoordinator": [.alive],
                "LibraryCoordinator": [.alive],
                "ShareCoordinator": [.retained],
                "TabTrayCoordinator": [.alive],
                "TabPanelCoordinator": Array(repeating: .alive, count: 9),
            ], retainedReason: .detached),
        SampleExpectation(
            product: "ADCoordinatorSample", folder: "ad-coordinator",
            verdicts: [
                "AppCoordinator": [.alive],
                "ProfileCoordinator": [.released],
                "SettingsCoordinator": [.retained],
                "OrderCoordinator": [.alive],
                "ChatCoordinator": [.released],
                "SupportCoordinator": [.alive],
            ]),
        SampleExpectation(
            product: "DeliverooTraditionalSample", folder: "deliveroo-traditional",
            verdicts: [
                "HomeCoordinator": [.alive],
                "YellowCoordinator": [.retained, .retained, .retained],
                "GreenCoordinator": [.retained, .retained, .retained],
                "FixedYellowCoordinator": [.released],
                "FixedGreenCoordinator": [.released],
                "CheckoutCoordinator": [.retained],
                "PaymentCoordinator": [.alive],
            ]),
        SampleExpectation(
            product: "DeliverooInvertedSample", folder: "deliveroo-inverted",
            verdicts: [
                "HomeCoordinator": [.alive],
                "PinkCoordinator": [.released],
                "AboutCoordinator": [.released],
            ]),
        SampleExpectation(
            product: "YuiSample", folder: "yui",
            verdicts: [
                "AppCoordinator": [.alive],
                "SearchCoordinator": [.released],
                "FilterCoordinator": [.retained],
            ]),
        SampleExpectation(
            product: "CoordinatorSampleStyle", folder: "coordinator-sample",
            verdicts: [
                "AppCoordinator": [.alive],
                "MainTabCoordinator": [.alive],
                "FeedCoordinator": [.alive],
                "SearchCoordinator": [.alive],
            ]),
        SampleExpectation(
            product: "SegueSlotSample", folder: "segue-slot",
            verdicts: [
                "AppCoordinator": [.alive],
                "LoginCoordinator": [.late, .retained],
            ]),
        SampleExpectation(
            product: "XCoordinatorRouterSample", folder: "xcoordinator-router",
            verdicts: [
                "AppCoordinator": [.alive],
                "HomeCoordinator": [.alive],
                "ProfileCoordinator": [.alive],
                "ProductCoordinator": [.retained, .retained, .retained],
                "SettingsCoordinator": [.released, .alive],
            ]),
        SampleExpectation(
            product: "RxFlowSample", folder: "rxflow-flow",
            verdicts: [
                "AppFlow": [.alive],
                "CartFlow": [.retained, .retained],
                "WishlistFlow": [.released],
            ], retainedReason: .detached),
        SampleExpectation(
            product: "ElementFlowsSample", folder: "element-flows",
            verdicts: [
                "NavigationRootCoordinator": [.alive],
                "UserSessionFlowCoordinator": [.alive],
                "NavigationSplitCoordinator": [.alive],
                "NavigationStackCoordinator": [.alive, .alive],
                "HomeScreenCoordinator": [.alive],
                "RoomScreenCoordinator": [.retained],
                "RoomDetailsScreenCoordinator": [.released],
                "RoomDetailsViewModel": [.retained],
                "SettingsFlowCoordinator": [.alive],
                "SettingsScreenCoordinator": [.retained],
            ],
            retainedReasonByType: ["RoomScreenCoordinator": .detached, "RoomDetailsViewModel": .outlivedOwner]),
    ]
}

extension Snapshot {
    /// For each coordinator type, the verdicts of its instances in the order they were added.
    var verdictsByType: [String: [Verdict]] {
        nodes.reduce(into: [:]) { $0[$1.type, default: []].append($1.verdict) }
    }
}
