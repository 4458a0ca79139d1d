import Testing
@testable import FreshCLI

@Suite("Tables")
struct TextTableTests {
    @Test func theWidestTextColumnsAreCutUntilARowFitsAndNumbersNeverAre() {
        // key 5, a 5,000-cell title, author 12, size 9 (numeric): on 80 columns.
        let widths: [Int] = TextTable.fitted([5, 5000, 12, 9], into: 80, keeping: [3])
        let total: Int = widths.reduce(0, +) + 6
        #expect(total == 80)
        #expect(widths == [5, 48, 12, 9])
        // Too narrow for every column at its minimum: text stops at 10 cells.
        #expect(TextTable.fitted([30, 40, 9], into: 20, keeping: [2]) == [10, 10, 9])
        #expect(TextTable.fitted([5, 20], into: 80, keeping: []) == [5, 20])
    }
}
