import Testing

@testable import CoordinatorLensServer

/// How the open-file limit is shared between the reserve, page connections and hook connections.
struct DescriptorBudgetTests {
    @Test(arguments: [
        (256, 56, 168), (96, 16, 48), (1_024, 248, 744), (20_000, 4_096, 1_024), (34, 1, 1),
    ])
    func pagesGetAQuarterOfWhatTheReserveLeavesAndHooksTheRest(openFiles: Int, pages: Int, hooks: Int) {
        let budget = DescriptorBudget(openFiles: openFiles, reserved: 32)
        #expect(budget.pageConnections == pages)
        #expect(budget.hookConnections == hooks)
        #expect(budget.pageConnections + budget.hookConnections <= max(2, openFiles - 32))
    }

    @Test func limitsGivenAreTakenAsTheyAreAndWithoutAPageHooksGetEverything() {
        #expect(DescriptorBudget(openFiles: 256, reserved: 32, hookLimit: 1_000, pageLimit: 3).hookConnections == 1_000)
        #expect(DescriptorBudget(openFiles: 256, reserved: 32, pageLimit: 3).hookConnections == 221)
        #expect(DescriptorBudget(openFiles: 256, reserved: 32, servesPage: false).hookConnections == 224)
    }
}
