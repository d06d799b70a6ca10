import CoordinatorLens
import CoordinatorLensPage
import Testing

/// The time slider's words for the event it stands at.
@Suite struct EventDescriptionTests {
    private func record(_ seq: Int, _ event: Event) -> EventRecord { EventRecord(seq: seq, time: Double(seq) / 10, event: event) }

    @Test func eachEventIsSaidWithTheCoordinatorsItNames() throws {
        var log = SessionLog(header: SessionHeader(app: "Words", run: "w"))
        let records = [
            record(1, .add(id: 1, type: "AppCoordinator", parent: nil)),
            record(2, .add(id: 6, type: "ProductCoordinator", parent: 1)),
            record(3, .bind(id: 6, screen: "ProductViewController")),
            record(4, .dismiss(id: 6, via: .screenLeft)),
            record(5, .dismiss(id: 6)),
            record(6, .remove(id: 6, parent: 1)),
            record(7, .mark(label: "checkout")),
            record(8, .deinitialized(id: 6)),
            record(9, .end),
        ]
        log.entries = records.map { .record($0) }
        let snapshot = try log.snapshot()
        let said = records.map { EventDescription.text(of: $0, in: snapshot) }
        #expect(
            said == [
                "AppCoordinator#1 added as a root", "ProductCoordinator#6 added under AppCoordinator#1",
                "ProductCoordinator#6 bound to ProductViewController", "ProductCoordinator#6's screen left", "ProductCoordinator#6 dismissed",
                "ProductCoordinator#6 removed from AppCoordinator#1", "mark “checkout”", "ProductCoordinator#6 deinited", "session ended",
            ])
        #expect(EventDescription.record(seq: 4, in: log)?.event == .dismiss(id: 6, via: .screenLeft))
        #expect(EventDescription.record(seq: 40, in: log) == nil)
    }
}
