import CoordinatorLens
import CoordinatorLensPage
import Dispatch
import NIOCore
import NIOHTTP1

/// Serves the inspector page over HTTP/1.1 (NIO's parser): its files, its JSON and SVG answers, and the feed.
///
/// Files are answered on the event loop; every other answer is worked out on the page's queue, so a big picture never
/// holds up a hook connection or another page's feed. The sessions' list, a model and a picture are built once for every
/// page asking at that moment (`SharedAnswers`): the list is never turned away, and large answers go out gzip-compressed
/// to clients that accept it.
final class PageRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Every response forbids inline and remote scripts, framing and sniffing; nothing is cached, nothing allows
    /// another origin (no CORS headers at all).
    /// Builds of one shared answer in a row for requests that want a newer judgement than the build in hand showed:
    /// past this, the last build goes to every request waiting, and the page asks again on the feed's next summary.
    static let buildsInARow = 4

    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    private let page: InspectorPage
    private let feed: PageFeed
    private let hosts: HostCheck
    private let access: PageAccess
    private let work: PageWork
    private let gate: PageGate?
    private let summary: RefusalSummary?
    private let answers: SharedAnswers
    private var request: HTTPRequestHead?
    private var feedClient: Int?

    init(
        page: InspectorPage, feed: PageFeed, hosts: HostCheck, access: PageAccess, work: PageWork, gate: PageGate? = nil,
        summary: RefusalSummary? = nil, answers: SharedAnswers = SharedAnswers()
    ) {
        self.answers = answers
        self.page = page
        self.feed = feed
        self.hosts = hosts
        self.access = access
        self.work = work
        self.gate = gate
        self.summary = summary
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            handle(head, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let feedClient { context.channel.isWritable ? feed.drained(feedClient) : feed.filled(feedClient) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let feedClient { feed.remove(feedClient) }
        feedClient = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func handle(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let channel = context.channel
        let keepAlive = head.isKeepAlive
        let headOnly = head.method == .HEAD
        guard head.method == .GET || headOnly else {
            return Self.write(.text(405, "only GET and HEAD are served"), version: head.version, keepAlive: keepAlive, headOnly: false, on: channel)
        }
        let target: String
        switch hosts.destination(target: head.uri, hostHeaders: head.headers[canonicalForm: "host"].map(String.init)) {
        case .route(let path):
            target = path
        case .refuse(let status, let message):
            return Self.write(.text(status, message), version: head.version, keepAlive: false, headOnly: headOnly, on: channel)
        }
        let decision = access.decide(
            target: target, cookieHeader: head.headers[canonicalForm: "cookie"].joined(separator: "; "),
            authorization: head.headers.first(name: "authorization"))
        if decision != .refuse { gate?.prove(channel) }
        switch decision {
        case .allow:
            break
        case .admit(let location, let cookie):
            var response = InspectorPage.Response.text(303, "signed in: continue at \(location)")
            response.headers = [("Location", location), ("Set-Cookie", cookie)]
            return Self.write(response, version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
        case .refuse:
            let peer = channel.remoteAddress?.ipAddress ?? "an unknown address"
            summary?.note(
                "refused a page request from \(peer): no token (open the address `coordlens listen` printed, with ?token=…)",
                reason: "page requests without the token")
            return Self.write(
                .text(401, "this inspector needs its token: open the address `coordlens listen` printed, with ?token=…"),
                version: head.version, keepAlive: false, headOnly: headOnly, on: channel
            )
        }
        let route = PageRoute(target: target)
        switch route {
        case .asset(let path):
            let asset = PageAssets.asset(at: path)!
            let response = InspectorPage.Response(status: 200, contentType: asset.contentType, body: asset.bytes)
            Self.write(response, version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
        case .notFound:
            Self.write(.text(404, "not found"), version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
        case .events:
            startFeed(head, context: context)
        case .badRequest(let message):
            Self.write(.text(400, message), version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
        case .sessions, .tree, .layout, .model:
            answerShared(route, head, on: channel)
        default:
            let page = self.page
            let admitted = work.submit {
                let response = page.respond(to: route)
                Self.write(response, version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
            }
            if !admitted {
                var busy = InspectorPage.Response.text(503, "the inspector has \(work.limit) requests in hand already; try again in a moment")
                busy.headers.append(("Retry-After", "1"))
                Self.write(busy, version: head.version, keepAlive: keepAlive, headOnly: headOnly, on: channel)
            }
        }
    }

    /// An answer every page asking shares: written at once when one stands, else when the build in hand (or one
    /// started now) is done or, when that takes longer than `SharedAnswers.patience`, the last one built, stale.
    private func answerShared(_ route: PageRoute, _ head: HTTPRequestHead, on channel: any Channel) {
        guard let key = SharedAnswers.Key(route) else { return }
        let (version, keepAlive, headOnly) = (head.version, head.isKeepAlive, head.method == .HEAD)
        let gzip = Gzip.accepted(by: head.headers.first(name: "accept-encoding"))
        let held = head.headers.first(name: "if-none-match")
        let deliver: @Sendable (PageAnswer) -> Void = { answer in
            let unchanged = answer.isHeld(byClientSending: held)
            Self.write(answer, version: version, keepAlive: keepAlive, headOnly: headOnly || unchanged, gzip: gzip, unchanged: unchanged, on: channel)
        }
        let (page, answers) = (self.page, self.answers)
        let stamp = key.run.flatMap { page.sessions.stamp(run: $0) }
        let outcome = answers.request(key, stamp: stamp, deliver: deliver)
        switch outcome {
        case .ready(let answer):
            return deliver(answer)
        case .joined(let staleAfter?), .build(let staleAfter?):
            channel.eventLoop.scheduleTask(in: SharedAnswers.patience) {
                answers.staleAnswer(key, for: staleAfter).map(deliver)
            }
        case .joined, .build:
            break
        }
        guard case .build = outcome else { return }
        // The list of sessions is cheap and every page needs it: never turned away.
        let admitted = work.submit(always: key == .sessions) {
            // Requests that joined this build after a newer judgement was made wait for the next one, built at once;
            // each build judges what is due first, so one more serves them (a few more while requests keep coming).
            for round in 1...Self.buildsInARow {
                let response = page.respond(to: route)
                guard answers.finish(key, PageAnswer(response), judgement: response.judgement, last: round == Self.buildsInARow) else { break }
            }
        }
        if !admitted {
            var busy = InspectorPage.Response.text(503, "the inspector has \(work.limit) requests in hand already; try again in a moment")
            busy.headers.append(("Retry-After", "1"))
            answers.fail(key, PageAnswer(busy))
        }
    }

    private func startFeed(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(Self.securityHeaders)
        headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        guard feedClient == nil else {
            return Self.write(
                .text(409, "this connection already carries the feed"), version: head.version, keepAlive: false, headOnly: false, on: context.channel)
        }
        feedClient = feed.add(context.channel)
        // The head goes out before the feed's first message: both are written from the feed's queue or after this.
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
    }

    /// Writes a whole response; safe from any thread, as NIO hops to the channel's event loop.
    static func write(_ response: InspectorPage.Response, version: HTTPVersion, keepAlive: Bool, headOnly: Bool, on channel: any Channel) {
        let body = channel.allocator.buffer(bytes: response.body)
        let answer = PageAnswer(status: response.status, contentType: response.contentType, body: body, seq: response.seq, headers: response.headers)
        write(answer, version: version, keepAlive: keepAlive, headOnly: headOnly, gzip: false, on: channel)
    }

    /// Writes a whole answer, its gzip form when it has one and the client takes it; the body is shared, not copied.
    /// `unchanged`: the client holds this answer already (`If-None-Match`), so it is told `304 Not Modified` alone.
    static func write(
        _ answer: PageAnswer, version: HTTPVersion, keepAlive: Bool, headOnly: Bool, gzip: Bool, unchanged: Bool = false, on channel: any Channel
    ) {
        let compressed = gzip ? answer.gzipped : nil
        let body = compressed ?? answer.body
        var headers = HTTPHeaders(securityHeaders)
        if !unchanged {
            headers.add(name: "Content-Type", value: answer.contentType)
            headers.add(name: "Content-Length", value: "\(body.readableBytes)")
            if compressed != nil { headers.add(name: "Content-Encoding", value: "gzip") }
        }
        if let tag = answer.tag { headers.add(name: "ETag", value: tag) }
        if answer.gzipped != nil { headers.add(name: "Vary", value: "Accept-Encoding") }
        if let seq = answer.seq { headers.add(name: "X-Lens-Seq", value: "\(seq)") }
        if answer.stale { headers.add(name: "X-Lens-Stale", value: "1") }
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = unchanged ? .notModified : HTTPResponseStatus(statusCode: answer.status)
        let head = HTTPResponseHead(version: version, status: status, headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        if !headOnly {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        }
        let done = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        if !keepAlive { done.whenComplete { _ in channel.close(promise: nil) } }
    }
}
