import Foundation
import JSON
import MirrorStore
import SyncEngine
import Testing
@testable import FreshCLI

@Suite("fresh sync NAME: what a refusal says")
struct RefusalHintTests {
    @Test func aCollectionRefusedByNameIsToldToKeepItsSecretInASource() throws {
        let record = CollectionRecord(id: 1, name: "repos", url: "http://o.test/repos", plan: nil, createdAt: 0, pass: 1, passComplete: true,
                                      passStartedAt: nil, lastCompleteAt: nil, lastSyncAt: nil, lastError: nil, changeSequence: 0, shownSequence: nil)
        let refused = SyncError.httpStatus(code: 401, url: "http://o.test/repos", message: nil)
        #expect(SyncCommand.hint(for: refused, target: .collection(record))?.contains("fresh source add") == true)
        #expect(SyncCommand.hint(for: refused, target: .url(URL(string: "http://o.test/repos")!)) == nil)
        #expect(SyncCommand.hint(for: SyncError.httpStatus(code: 500, url: "u", message: nil), target: .collection(record)) == nil)
        let line = SyncStopped(underlying: refused, written: nil, hint: SyncCommand.hint(for: refused, target: .collection(record))).description
        #expect(line.hasPrefix("server answered 401") && line.contains("; a secret -H is not kept"))
    }
}
