import NIOCore
import NIOEmbedded
import Testing

@testable import CoordinatorLensServer

/// The room both gates keep: the connection that has waited longest goes first, one that showed what it waited to
/// show never goes, and a queue churned by many short waits stays short.
@Suite struct WaitingRoomTests {
    @Test func theLongestWaitingGoesFirstAndAProvenOneNever() throws {
        var room = WaitingRoom()
        let channels = (0..<4).map { _ in EmbeddedChannel() }
        let numbers = channels.map { room.add($0, waits: true) }
        #expect(numbers == [1, 2, 3, 4] && room.count == 4 && room.waiting == 4)
        room.prove(channels[0])
        room.prove(channels[0])
        #expect(room.waiting == 3, "proven once, counted once")
        #expect(room.takeOldestWaiting() === channels[1], "the first waiting one, the proven one passed over")
        #expect(room.remove(channels[2]) && !room.remove(channels[2]))
        #expect(room.takeOldestWaiting() === channels[3])
        #expect(room.takeOldestWaiting() == nil, "only the proven one is left, and it never goes")
        #expect(room.count == 1 && room.waiting == 0)
    }

    @Test func aConnectionThatNeedNotWaitIsHeldWithoutWaiting() {
        var room = WaitingRoom()
        let channel = EmbeddedChannel()
        _ = room.add(channel, waits: false)
        #expect(room.count == 1 && room.waiting == 0 && room.takeOldestWaiting() == nil)
        #expect(room.remove(channel) && room.count == 0)
    }

    @Test func churnDoesNotGrowTheQueue() throws {
        var room = WaitingRoom()
        let kept = EmbeddedChannel()
        _ = room.add(kept, waits: true)
        // 10,000 connections that each prove themselves and leave: a queue that kept their entries would hold them all.
        for _ in 0..<10_000 {
            let passing = EmbeddedChannel()
            _ = room.add(passing, waits: true)
            room.prove(passing)
            room.remove(passing)
        }
        #expect(room.count == 1 && room.waiting == 1)
        #expect(room.queued <= 2 * room.count + 65, "\(room.queued) entries queued for one waiting connection")
        #expect(room.takeOldestWaiting() === kept)
    }
}
