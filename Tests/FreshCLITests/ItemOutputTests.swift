import Foundation
import JSON
import MirrorStore
import SyncEngine
import Testing
@testable import FreshCLI

@Suite("fresh items: CSV, TSV and --fields")
struct ItemOutputTests {
    /// One row as `format` writes it.
    private func row(_ format: DelimitedText.Format, _ fields: [String]) -> String {
        var row: [UInt8] = []
        DelimitedText(format).append(fields, to: &row)
        return String(decoding: row, as: UTF8.self)
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(row(.csv, ["1", "plain", "한국어"]) == "1,plain,한국어\r\n")
        #expect(row(.csv, ["a,b", "say \"hi\"", "two\nlines", ""]) == "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n")
        // Quoted byte by byte: a CRLF and multi-byte text inside a field come out whole.
        #expect(row(.csv, ["줄\r\n바꿈, \"🇰🇷\""]) == "\"줄\r\n바꿈, \"\"🇰🇷\"\"\"\r\n")
    }

    @Test func tsvKeepsEveryRowOnOneLine() {
        #expect(row(.tsv, ["a\tb", "c\nd\r", "back\\slash"]) == "a\\tb\tc\\nd\\r\tback\\\\slash\n")
    }

    @Test func fieldsCutAnItemDownToTheChosenMembers() {
        let projection = ItemProjection([JSONPath(["id"]), JSONPath(["user", "login"]), JSONPath(["missing"])])
        #expect(projection.json(of: #"{"id":7,"title":"x","user":{"login":"kim","id":1}}"#)
                == #"{"id":7,"user.login":"kim","missing":null}"#)
        #expect(ItemProjection([JSONPath(["이름"])]).json(of: #"{"이름":[1,2]}"#) == #"{"이름":[1,2]}"#)
    }

    @Test func fieldsIgnoreSpacesAroundAPathAndRefuseAnEmptyOrRepeatedOne() throws {
        #expect(try ItemsCommand.paths(in: "id, user.login ").map(\.description) == ["id", "user.login"])
        for refused in ["", ",", "id,,title", "id,id", " id,id ", ".a"] {
            #expect(throws: (any Error).self, "--fields \(refused)") { try ItemsCommand.paths(in: refused) }
        }
    }

    @Test func csvWithoutFieldsHasEveryMemberOfEveryItemInTheOrderTheyFirstAppear() {
        var members = ItemsCommand.OrderedMembers()
        members.add(of: #"{"id":1,"title":"t"}"#)
        members.add(of: #"{"id":2,"license":"MIT","title":"u","topics":["a"]}"#)
        members.add(of: #"not json"#)
        #expect(members.paths.map(\.description) == ["id", "title", "license", "topics"])
    }

    @Test func aLongErrorIsCutAndAFailureOverACompleteCopyIsStale() throws {
        var record = CollectionRecord(id: 1, name: "posts", url: "http://o.test/posts", plan: nil, createdAt: 0, pass: 2, passComplete: false,
                                      passStartedAt: nil, lastCompleteAt: 1, lastSyncAt: nil, lastError: nil, changeSequence: 0, shownSequence: nil)
        record.lastError = String(repeating: "x", count: 300)
        let stale = CollectionsCommand.status(record, itemCount: 5)
        #expect(stale.hasPrefix("stale (last refresh failed: xxx"))
        #expect(stale.count < CollectionsCommand.errorWidth + 30)
        #expect(CollectionsCommand.status(record, itemCount: 0).hasPrefix("failed: "))
        record.lastCompleteAt = nil
        #expect(CollectionsCommand.status(record, itemCount: 5).hasPrefix("failed: "), "never complete: not a stale copy")
    }

    /// What `fresh check --recover` leaves (items, no pages, the pass complete) says so, not "complete".
    @Test func recoveredItemsWithoutPagesSayTheNextSyncReadsThemAll() {
        let record = CollectionRecord(id: 1, name: "posts", url: "http://o.test/posts", plan: nil, createdAt: 0, pass: 2, passComplete: true,
                                      passStartedAt: nil, lastCompleteAt: 1, lastSyncAt: 1, lastError: nil, changeSequence: 0, shownSequence: nil)
        #expect(CollectionsCommand.status(record, itemCount: 1977, pageCount: 0) == "recovered, no pages (the next sync reads them all)")
        #expect(CollectionsCommand.status(record, itemCount: 2000, pageCount: 100) == "complete")
        #expect(CollectionsCommand.status(record, itemCount: 0, pageCount: 0) == "complete")
    }

    /// A run that may have missed items says so, and what the next sync does about it.
    @Test func aMirrorThatMayMissItemsIsPartial() {
        var record = CollectionRecord(id: 1, name: "posts", url: "http://o.test/posts", plan: nil, createdAt: 0, pass: 2, passComplete: true,
                                      passStartedAt: nil, lastCompleteAt: 1, lastSyncAt: 1, lastError: nil, changeSequence: 0, shownSequence: nil,
                                      lastPassKind: .incremental)
        #expect(CollectionsCommand.status(record, itemCount: 10, pageCount: 1) == "complete, incremental")
        record.incrementalFrom = "2026-11-30T00:00:00Z"
        #expect(CollectionsCommand.status(record, itemCount: 10, pageCount: 1) == "incremental run unfinished (the next starts from 2026-11-30T00:00:00Z)")
        record.incrementalFrom = nil
        record.lastPassKind = .partial
        #expect(CollectionsCommand.status(record, itemCount: 10, pageCount: 1) == "partial (items may have slid past the pages read; the next sync reads every page)")
    }
}
