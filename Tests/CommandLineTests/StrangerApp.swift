import CoordinatorTrace
import Foundation

/// An app shaped like a stranger's, not like our samples: its own base class that forwards call sites, a tab bar, a
/// settings modal swiped down without any callback, and a chat removed from its parent but kept alive by a closure
/// that captures it.
class AppFlowCoordinator {
    let tracer: Tracer
    var children: [AppFlowCoordinator] = []

    init(tracer: Tracer) {
        self.tracer = tracer
    }

    func addChild(
        _ child: AppFlowCoordinator, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.append(child)
        tracer.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    func removeChild(
        _ child: AppFlowCoordinator, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.removeAll { $0 === child }
        tracer.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }
}

final class StrangerScreen {}

final class StrangerAppCoordinator: AppFlowCoordinator {
    func start() -> MainTabCoordinator {
        tracer.added(self, to: nil)
        let tabs = MainTabCoordinator(tracer: tracer)
        addChild(tabs)
        tabs.start()
        return tabs
    }
}

final class MainTabCoordinator: AppFlowCoordinator {
    let feed: FeedCoordinator
    let profile: ProfileCoordinator

    override init(tracer: Tracer) {
        feed = FeedCoordinator(tracer: tracer)
        profile = ProfileCoordinator(tracer: tracer)
        super.init(tracer: tracer)
    }

    func start() {
        addChild(feed)
        addChild(profile)
    }
}

final class ChatCoordinator: AppFlowCoordinator {
    func close() {}
}

final class FeedCoordinator: AppFlowCoordinator {
    private var onChatClosed: (() -> Void)?

    /// Opens a chat, then closes it: the chat is removed, but the stored closure still captures it.
    func openAndCloseChat() {
        let chat = ChatCoordinator(tracer: tracer)
        addChild(chat)
        onChatClosed = { chat.close() }
        removeChild(chat)
    }
}

final class SettingsCoordinator: AppFlowCoordinator {}

final class ProfileCoordinator: AppFlowCoordinator {
    private var presented: StrangerScreen?

    /// Presents settings modally, and the user swipes it down: the screen goes, nobody tells the coordinator.
    func openSettingsAndSwipeDown() {
        let settings = SettingsCoordinator(tracer: tracer)
        addChild(settings)
        let screen = StrangerScreen()
        tracer.bind(settings, to: screen)
        presented = screen
        presented = nil
    }
}

enum StrangerApp {
    /// The line of this file that holds `text`: tests name the app's call sites by what they say, so reformatting
    /// the file moves no expectation.
    static func line(of text: String) -> Int {
        let lines = (try? String(contentsOfFile: sourceFile, encoding: .utf8))?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        guard let index = lines.firstIndex(where: { $0.contains(text) }) else { preconditionFailure("\(text) is not in \(sourceFile)") }
        return index + 1
    }

    // Here, not as a default argument, where it would name the caller's file.
    private static let sourceFile = #filePath

    /// Runs both leaking flows and quits at once, as a UI test or a short script does; returns what the app kept.
    static func runAndQuit(tracer: Tracer) -> StrangerAppCoordinator {
        let app = StrangerAppCoordinator(tracer: tracer)
        let tabs = app.start()
        tabs.profile.openSettingsAndSwipeDown()
        tabs.feed.openAndCloseChat()
        tracer.end()
        return app
    }
}
