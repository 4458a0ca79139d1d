import ArgumentParser
import Testing
@testable import FreshReader

@Suite("fresh-reader arguments")
struct ReaderArgumentTests {
    /// `--db-dir "$DIR"` with DIR unset must not quietly open the default location.
    @Test func anEmptyDatabaseDirectoryIsRefused() {
        #expect {
            try ReaderCommand.parse(["--db-dir", ""])
        } throws: { error in
            ReaderCommand.message(for: error).contains("--db-dir is empty") && ReaderCommand.exitCode(for: error).rawValue == 64
        }
    }
}
