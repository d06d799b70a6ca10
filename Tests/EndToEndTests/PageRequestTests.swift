import Testing

@testable import CoordinatorLensServer

/// What the page's HTTP side accepts before any work is done: the Host header and the request target.
struct PageRequestTests {
    @Test(arguments: [
        ("127.0.0.1:7421", true), ("localhost:7421", true), ("LOCALHOST:7421", true), ("[::1]:7421", true),
        ("192.168.1.20:7421", true), ("127.0.0.1:80", false), ("127.0.0.1", false), ("evil.example:7421", false),
        ("127.0.0.1.evil.example:7421", false), ("localhost.evil.example:7421", false), ("[::1]", false),
        ("256.0.0.1:7421", false), ("", false), ("127.0.0.1:7421:7421", false), ("[evil]:7421", false),
    ])
    func onlyIPLiteralsAndLocalhostWithThePortAreAccepted(host: String, accepted: Bool) {
        #expect(HostCheck(port: 7421).accepts(host) == accepted, "\(host)")
    }

    @Test func aMissingHostHeaderIsRefused() {
        #expect(!HostCheck(port: 7421).accepts(nil))
    }

    @Test func queriesAreReadAsTheFormEncodingThePageSends() {
        let route = PageRoute(target: "/api/tree?run=%3Cimg+src%3Dx%3E&seq=12&grace=0.5&leaks=1&released=1")
        guard case .tree(let view) = route else {
            Issue.record("expected a tree route, got \(route)")
            return
        }
        #expect(view.run == "<img src=x>")
        #expect(view.seq == 12)
        #expect(view.grace == 0.5)
        #expect(view.leaksOnly && view.showReleased)
    }

    @Test func theLayoutIsAskedForAsThePictureIs() {
        guard case .layout(let view) = PageRoute(target: "/api/layout?run=r1&all=1&released=1") else {
            Issue.record("expected a layout route")
            return
        }
        #expect(view.run == "r1" && view.all && view.showReleased)
        #expect(PageRoute(target: "/tree-canvas.js") == .asset(path: "/tree-canvas.js"))
    }

    @Test(arguments: [
        "/api/layout", "/api/tree", "/api/tree?run=", "/api/tree?run=a&seq=-1", "/api/tree?run=a&seq=x", "/api/model?run=a&grace=-2",
        "/api/model?run=a&grace=nan", "/api/coordinator?run=a", "/api/coordinator?run=a&id=x", "/api/tree?run=%FF",
        "/api/compare", "/api/compare?a=x", "/api/compare?b=y", "/api/compare?a=x&b=y&previous=1", "/api/compare?a=x&b=y&grace=-1",
    ])
    func badQueriesAreBadRequests(target: String) {
        guard case .badRequest(let message) = PageRoute(target: target) else {
            Issue.record("\(target) was not refused")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test func aComparisonNamesBothRunsOrThePreviousOne() {
        #expect(PageRoute(target: "/api/compare?a=r%201&b=r2&grace=3") == .compare(CompareQuery(a: "r 1", b: "r2", grace: 3)))
        #expect(PageRoute(target: "/api/compare?b=r2&previous=1") == .compare(CompareQuery(a: nil, b: "r2", grace: nil)))
        #expect(PageRoute(target: "/compare.js") == .asset(path: "/compare.js"))
    }

    @Test func unknownPathsAreNotFoundAndAssetsAreServed() {
        #expect(PageRoute(target: "/etc/passwd") == .notFound)
        #expect(PageRoute(target: "/../main.js") == .notFound)
        #expect(PageRoute(target: "/main.js") == .asset(path: "/main.js"))
        #expect(PageRoute(target: "/tree-view.js") == .asset(path: "/tree-view.js"))
        // The one script before the page became modules: gone, not served by accident.
        #expect(PageRoute(target: "/inspector.js") == .notFound)
        #expect(PageRoute(target: "/") == .asset(path: "/"))
    }
}
