import ArgumentParser
import CommandLaunch
import Foundation
import HTTPCache
import MirrorStore
import Storage
import StorageErrors
import SyncEngine
import SyncOrchestration
import TerminalText
import Testing
@testable import FreshCLI

@Suite("fresh command-line arguments")
struct ArgumentTests {
    /// A sync stopped before the end of its pass says where the next one resumes, even when it
    /// wrote nothing itself (it had resumed at that page).
    @Test func aStoppedSyncSaysWhereTheNextResumes() {
        var summary = SyncSummary()
        summary.resumedAtPage = 4
        #expect(SyncStopped(underlying: CancellationError(), written: summary).description
            == "interrupted; nothing stored by this run, the next sync resumes at page 4")
        summary.pagesWritten = 2
        summary.pageAfterLastWritten = 6
        summary.items = 20
        #expect(SyncStopped(underlying: CancellationError(), written: summary).description
            == "interrupted; 2 pages (20 items) stored by this run, the next sync resumes at page 6")
        // Stopped in the revisit that reads a resumed pass's pages again from the first: page 2 of that.
        summary.pagesWritten = 5
        summary.pageAfterLastWritten = 2
        summary.items = 50
        #expect(SyncStopped(underlying: CancellationError(), written: summary).description
            == "interrupted; 5 pages (50 items) stored by this run, the next sync resumes at page 2")
        #expect(SyncStopped(underlying: CancellationError(), written: SyncSummary()).description == "interrupted")
        // Its pages set items aside, put back after the last page it read: the next sync starts over.
        summary.itemsPutBack = 3
        #expect(SyncStopped(underlying: CancellationError(), written: summary).description
            == "interrupted; 5 pages (50 items) stored by this run, the next sync starts the pass over")
    }

    @Test func aNegativeLimitIsRefusedForWhatItIs() {
        #expect {
            try ItemsCommand.parse(["posts", "--limit", "-1"])
        } throws: { error in
            ItemsCommand.message(for: error).contains("must not be negative")
        }
    }

    /// `--db-dir "$DIR"` with DIR unset must not quietly use (and write) the default location.
    @Test func anEmptyDatabaseDirectoryIsRefused() {
        for line in [["get", "--db-dir", "", "http://o.test/a"], ["sync", "http://o.test/a", "--db-dir", ""], ["collections", "--db-dir", ""]] {
            #expect {
                try FreshCommand.parseAsRoot(line)
            } throws: { error in
                FreshCommand.message(for: error).contains("--db-dir is empty") && FreshCommand.exitCode(for: error).rawValue == 64
            }
        }
    }

    @Test func removeIsAnotherNameOfRm() throws {
        #expect(try FreshCommand.parseAsRoot(["remove", "posts"]) is RemoveCommand)
        #expect(try FreshCommand.parseAsRoot(["rm", "posts"]) is RemoveCommand)
    }

    @Test func sizesParseWithSuffixes() {
        #expect(ByteCount.parse("500") == 500)
        #expect(ByteCount.parse("64K") == 65_536)
        #expect(ByteCount.parse("100M") == 104_857_600)
        #expect(ByteCount.parse("1.5G") == 1_610_612_736)
        #expect(ByteCount.parse("10MiB") == 10_485_760)
        #expect(ByteCount.parse("-1") == nil)
        #expect(ByteCount.parse("lots") == nil)
        #expect(ByteCount.parse("1e30K") == nil)
        #expect(ByteCount.parse("inf") == nil)
        #expect(ByteCount.parse("2gib") == 2_147_483_648)
        #expect(ByteCount.parse("512B") == 512)
        #expect(ByteCount.parse("0x10") == nil)
        #expect(ByteCount.parse("1e3") == nil)
        #expect(ByteCount.parse("1BK") == nil)
        #expect(ByteCount.parse("5iB") == nil)
        #expect(ByteCount.parse("1.") == nil)
        #expect(ByteCount.parse("") == nil)
    }

    @Test func passwordsInURLsAreHidden() {
        #expect(RedactedPassword.hidden(in: "200 1.0 KiB GET https://me:s3cr%40t@api.test:8443/a?b=c:d@e")
                == "200 1.0 KiB GET https://me:***@api.test:8443/a?b=c:d@e")
        // A user without a password may be a token (`https://TOKEN@host/`), as on stderr.
        #expect(RedactedPassword.hidden(in: "GET http://me@api.test/") == "GET http://***@api.test/")
        #expect(RedactedPassword.hidden(in: "GET http://api.test:8080/x") == "GET http://api.test:8080/x")
    }

    @Test func timeLimitsBelowAMillisecondStayLimits() {
        #expect(TimeLimit.duration(0.0001) == .milliseconds(1))
        #expect(TimeLimit.duration(2.5) == .milliseconds(2500))
        #expect(TimeLimit.duration(2.007) == .milliseconds(2007))
        #expect(TimeLimit.duration(nil) == nil)
        #expect(TimeLimit.duration(0) == nil)
    }

    @Test func headersNeedANameAndAColon() throws {
        let (name, value) = try HeaderArgument.parse("Accept-Language:  ko, en ")
        #expect(name.rawName == "Accept-Language")
        #expect(value == "ko, en")
        #expect(throws: ValidationError.self) { try HeaderArgument.parse("no colon here") }
        #expect(throws: ValidationError.self) { try HeaderArgument.parse(": empty name") }
    }

    @Test(arguments: ["X-A: a\r\nInjected: yes", "X-A: a\u{1B}[31m", "X-A: a\u{0}b"])
    func headerValuesWithControlCharactersAreRefused(header: String) {
        #expect(throws: ValidationError.self) { try HeaderArgument.parse(header) }
    }

    @Test func exitStatusesOfFilesAndDatabases() {
        #expect(FailureReport.exitCode(for: FileError.cannotRead("/x", role: "--input-file", reason: "it is a directory")) == 6)
        #expect(FailureReport.exitCode(for: NothingStored(url: URL(string: "http://o.test/")!)) == 7)
    }

    /// Giving up on the network is 3; giving up on a rate limit's hold (a wait, no status) is 4, as the table says.
    @Test func aRateLimitsHoldIsAnErrorStatusNotOffline() {
        #expect(FailureReport.exitCode(for: SyncError.gaveUp(url: "u", reason: "r", status: nil)) == 3)
        #expect(FailureReport.exitCode(for: SyncError.gaveUp(url: "u", reason: "r", status: nil, retryAfter: .seconds(960))) == 4)
        #expect(!ErrorDescription.isOffline(SyncError.gaveUp(url: "u", reason: "r", status: nil, retryAfter: .seconds(960))))
    }

    @Test func credentialsInAURLNeverReachStderr() {
        #expect(RedactedPassword.hidden(in: "fresh: redirected to http://me:secret@host.test/a, then https://tok@h/b")
            == "fresh: redirected to http://me:***@host.test/a, then https://***@h/b")
        #expect(RedactedPassword.hidden(in: "at postgresql://kim:***@127.0.0.1:1/team") == "at postgresql://kim:***@127.0.0.1:1/team")
        #expect(RedactedPassword.hidden(in: "at postgresql://fresh@%2Ftmp/db") == "at postgresql://fresh@%2Ftmp/db", "a role, not a secret")
        #expect(RedactedPassword.hidden(in: "fresh: a@b.test is no URL; http://host.test/x@y stays") == "fresh: a@b.test is no URL; http://host.test/x@y stays")
    }

    @Test func urlsMustBeAbsoluteHTTP() {
        #expect((try? ParsedURL.parse("http://127.0.0.1:8080/posts?limit=5")) != nil)
        #expect((try? ParsedURL.parse("https://example.test")) != nil)
        #expect((try? ParsedURL.parse("not a url")) == nil)
        #expect((try? ParsedURL.parse("ftp://example.test/file")) == nil)
        #expect((try? ParsedURL.parse("/relative/path")) == nil)
        #expect((try? ParsedURL.parse("http://127.0.0.1:65535/")) != nil)
        #expect((try? ParsedURL.parse("http://127.0.0.1:65536/")) == nil)
        #expect((try? ParsedURL.parse("http://127.0.0.1:0/")) == nil)
    }

    /// An `--input-file` that cannot be read is a file problem (exit 6) said in one line, as a
    /// `--data @file` is.
    @Test func anInputFileThatCannotBeReadIsAFileProblem() throws {
        #expect(throws: FileError.self) { try SyncCommand.urls(listedIn: "/nonexistent/urls.txt") }
        #expect(throws: FileError.self) { try SyncCommand.urls(listedIn: NSTemporaryDirectory()) }
        do {
            _ = try SyncCommand.urls(listedIn: "/nonexistent/urls.txt")
        } catch {
            #expect("\(error)" == "cannot read --input-file /nonexistent/urls.txt: no such file" && FailureReport.exitCode(for: error) == 6)
        }
    }

    /// A line of `--input-file` that is no URL is an invalid argument (exit 64, as the same URL
    /// given on the command line), named by its line.
    @Test func anInputFilesBadURLIsAnInvalidArgumentNamedByItsLine() throws {
        let file = NSTemporaryDirectory() + "fresh-urls-\(UUID().uuidString).txt"
        try Data("# mirrors\n\nhttp://h.test/a\nhttp://\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            _ = try SyncCommand.urls(listedIn: file)
            Issue.record("a line without a host was taken")
        } catch {
            #expect("\(error)" == "--input-file line 4: 'http://' names no host" && FailureReport.exitCode(for: error) == 64)
        }
    }

    /// Each URL comes with its line, and a line with two URLs is refused: it would have been
    /// sent as one URL with an escaped space, to a 400.
    @Test func anInputFileHoldsOneURLALine() throws {
        let file = NSTemporaryDirectory() + "fresh-urls-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("\u{FEFF}# mirrors\nhttp://h.test/a\n\n  http://h.test/b  \n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try SyncCommand.urls(listedIn: file).map { "\($0.line) \($0.url)" } == ["2 http://h.test/a", "4 http://h.test/b"])
        try Data("\u{FEFF}http://h.test/a\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try SyncCommand.urls(listedIn: file).map(\.url) == ["http://h.test/a"], "a byte-order mark is no part of the URL")
        try Data("# mirrors\nhttp://h.test/a\n\n  http://h.test/b  \n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try SyncCommand.urls(listedIn: file).map { "\($0.line) \($0.url)" } == ["2 http://h.test/a", "4 http://h.test/b"])
        try Data("http://h.test/a\nhttp://h.test/b http://h.test/c\n".utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try SyncCommand.urls(listedIn: file)
            Issue.record("two URLs on a line were taken")
        } catch {
            #expect("\(error)" == "--input-file line 2: 'http://h.test/b http://h.test/c' is more than one word: one URL a line"
                    && FailureReport.exitCode(for: error) == 64)
        }
    }

    /// Two collections of one listing: the way out named works with --input-file too, which
    /// refuses --name.
    @Test func aURLTwoCollectionsMirrorIsChosenByName() {
        let error = SyncError.ambiguousCollection(url: "http://h.test/posts", names: ["offset", "offsets"])
        #expect("\(error)" == "several collections mirror http://h.test/posts (offset, offsets); sync one by its name, such as 'fresh sync offset'")
        #expect(FailureReport.exitCode(for: error) == 64)
    }

    /// A `%` that starts no escape is a literal percent sign; the escapes beside it stay as written.
    @Test func aLonePercentSignIsLiteralAndEscapesStay() throws {
        #expect(try ParsedURL.parse("http://h.test/a%zz/b?q=%zz&r=%41&s=a%20b&t=%").url.absoluteString
            == "http://h.test/a%25zz/b?q=%25zz&r=%41&s=a%20b&t=%25")
        #expect(try ParsedURL.parse("http://h.test/a%2Fb?q=%E2%82%AC").url.absoluteString == "http://h.test/a%2Fb?q=%E2%82%AC")
        #expect(try ParsedURL.parse("h.test/%4").url.absoluteString == "http://h.test/%254")
    }

    /// A character a URL cannot hold as it is gets its escape, and the escapes written beside it
    /// stay: Foundation alone escaped every `%` of such a URL (`a%20b` sent as `a%2520b`).
    @Test func charactersAURLCannotHoldAreEscapedAndWrittenEscapesStay() throws {
        #expect(try ParsedURL.parse("http://h.test/echo?filter[title]=a%20b").url.absoluteString
            == "http://h.test/echo?filter%5Btitle%5D=a%20b")
        #expect(try ParsedURL.parse("http://h.test/caf\u{E9} x?q=%41]&r=\"a|b\"&s=%zz{").url.absoluteString
            == "http://h.test/caf%C3%A9%20x?q=%41%5D&r=%22a%7Cb%22&s=%25zz%7B")
        // What a URL holds as it is stays so, a bracketed host too; a second `#` is the fragment's.
        #expect(try ParsedURL.parse("http://[::1]:8080/a/b;c?x=1&y=a+b,c:d@e/f?g#frag#x").url.absoluteString
            == "http://[::1]:8080/a/b;c?x=1&y=a+b,c:d@e/f?g#frag%23x")
    }

    @Test func aRefusedURLSaysWhy() {
        #expect(throws: ValidationError.self) { try ParsedURL.parse("ftp://example.test/file") }
        do {
            _ = try ParsedURL.parse("ftp://example.test/file")
            Issue.record("ftp was accepted")
        } catch {
            #expect("\(error)".contains("only http and https"))
        }
    }

    @Test func everyFailureHasItsDocumentedExitStatus() {
        #expect(FailureReport.exitCode(for: TransportError.unreachable("refused")) == 3)
        #expect(FailureReport.exitCode(for: TransportError.timedOut(.seconds(1))) == 3)
        #expect(FailureReport.exitCode(for: SyncError.httpStatus(code: 500, url: "u", message: nil)) == 4)
        #expect(FailureReport.exitCode(for: SyncError.invalidJSON(url: "u", detail: "d")) == 5)
        #expect(FailureReport.exitCode(for: TransportError.truncated("cut")) == 5)
        #expect(FailureReport.exitCode(for: TransportError.invalidResponse("Received HTTP/0.9 when not allowed")) == 5)
        #expect(FailureReport.exitCode(for: StorageError.cannotOpen(path: "p", reason: "r")) == 6)
        #expect(FailureReport.exitCode(for: CacheError.notStored("u")) == 7)
        #expect(FailureReport.exitCode(for: CancellationError()) == 130)
    }

    @Test func commandsParseTheirOptions() throws {
        let get = try GetCommand.parse(["http://o.test/x", "-H", "Accept: application/json", "--policy", "cache-only", "-i", "-v"])
        #expect(get.policy == .returnCacheDataDontLoad)
        #expect(get.include && get.verbose)
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "--policy", "sometimes"]) }
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "--json", "-i"]) }
        #expect(throws: (any Error).self) { try SyncCommand.parse(["http://o.test/posts", "--limit", "0"]) }
        #expect(throws: (any Error).self) { try SyncCommand.parse(["http://o.test/posts", "--cache-size", "big"]) }
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "--max-time", "inf"]) }
        #expect(try GetCommand.parse(["http://o.test/x", "--max-time", "0"]).maxTime == 0)
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "--max-time", "1e20"]) }
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "-d", "@"]) }
        // A body file that cannot be read is a file problem (exit 6), found before the request.
        let unreadable = try GetCommand.parse(["http://o.test/x", "-d", "@/nonexistent/body.json"])
        #expect(throws: FileError.self) { try unreadable.makeRequest() }
    }

    /// A command offers only the storage options it uses: one it would ignore is refused (exit 64,
    /// docs/cli.md).
    @Test func commandsRefuseStorageOptionsTheyWouldIgnore() throws {
        let sync = try SyncCommand.parse(["http://o.test/posts", "--db-dir", "/d", "--cache-size", "2M", "--store", "sqlite"])
        #expect(sync.cacheSize.capacity == 2 << 20 && sync.storage.store == "sqlite" && sync.storage.location.itemDatabasePath == "/d/data.sqlite")
        #expect(try GetCommand.parse(["http://o.test/x", "--cache-size", "1M"]).storage.cacheCapacity == 1 << 20)
        #expect(try ItemsCommand.parse(["posts", "--store", "sqlite"]).storage.store == "sqlite")
        // Each line parses without the option, so each refusal below is the option's.
        _ = try (CheckCommand.parse([]), RemoveCommand.parse(["posts"]), CollectionsCommand.parse([]))
        _ = try (ExplainCommand.parse(["http://o.test/x"]), CacheCommand.Stats.parse([]))
        #expect(throws: (any Error).self) { try ItemsCommand.parse(["posts", "--cache-size", "1M"]) }
        #expect(throws: (any Error).self) { try CheckCommand.parse(["--cache-size", "1M"]) }
        #expect(throws: (any Error).self) { try RemoveCommand.parse(["posts", "--cache-size", "1M"]) }
        #expect(throws: (any Error).self) { try CollectionsCommand.parse(["--cache-size", "1M"]) }
        #expect(throws: (any Error).self) { try GetCommand.parse(["http://o.test/x", "--store", "sqlite"]) }
        #expect(throws: (any Error).self) { try ExplainCommand.parse(["http://o.test/x", "--store", "sqlite"]) }
        #expect(throws: (any Error).self) { try CacheCommand.Stats.parse(["--store", "sqlite"]) }
        #expect(try CacheCommand.Stats.parse(["--cache-size", "1M"]).storage.cacheCapacity == 1 << 20)
        _ = try CacheCommand.List.parse([])
        #expect(throws: (any Error).self) { try CacheCommand.List.parse(["--cache-size", "1M"]) }
        #expect(throws: (any Error).self) { try ExplainCommand.parse(["http://o.test/x", "--cache-size", "1M"]) }
    }
}
