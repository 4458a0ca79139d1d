import Foundation
import Testing
@testable import NamedSources

@Suite("The sources file")
struct SourcesFileTests {
    let directory = NSTemporaryDirectory() + "fresh-sources-tests-" + UUID().uuidString

    var file: SourcesFile { SourcesFile(path: directory + "/sources.toml") }

    func write(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: file.path, atomically: true, encoding: .utf8)
    }

    @Test func itIsFoundWhereTheEnvironmentSays() {
        #expect(SourcesFile.located(environment: ["FRESH_CONFIG_DIR": "/c", "XDG_CONFIG_HOME": "/x"]).path == "/c/sources.toml")
        #expect(SourcesFile.located(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/fresh/sources.toml")
        #expect(SourcesFile.located(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path == "/h/.config/fresh/sources.toml")
    }

    @Test func noFileIsNoSources() throws {
        #expect(try file.load().isEmpty)
    }

    /// A file that cannot be read says why: a directory in its place, or bytes that are not UTF-8.
    @Test func aFileThatCannotBeReadSaysWhy() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: true)
        #expect(throws: SourceError.cannotAccess(path: file.path, reason: "it is a directory")) { try file.load() }
        try FileManager.default.removeItem(atPath: file.path)
        try Data([0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: SourceError.cannotAccess(path: file.path, reason: "not UTF-8 text")) { try file.load() }
    }

    @Test func addedSourcesReadBackAndTheFileIsPrivate() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let repos = Source(name: "repos", url: "https://api.example.com/repos",
                           headers: [("Authorization", HeaderTemplate("Bearer ${TOKEN}")), ("Accept", HeaderTemplate("application/json"))],
                           paginate: "cursor:param=after", items: "data", key: "id", limit: 50)
        try file.add(repos)
        try file.add(Source(name: "users", url: "http://127.0.0.1:1/users"))
        let loaded = try file.load()
        #expect(loaded.map(\.name) == ["repos", "users"])
        #expect(loaded[0].url == repos.url && loaded[0].paginate == repos.paginate && loaded[0].limit == 50)
        #expect(Set(loaded[0].headers.map(\.name)) == ["Authorization", "Accept"])
        #expect(loaded[0].headers.first { $0.name == "Authorization" }?.value == HeaderTemplate("Bearer ${TOKEN}"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(text.contains("${TOKEN}"), "kept as written, never expanded")
        #expect(throws: SourceError.exists("repos")) { try file.add(repos) }
        try file.remove(named: "repos")
        #expect(try file.load().map(\.name) == ["users"])
        #expect(throws: SourceError.unknown("repos", known: ["users"])) { try file.remove(named: "repos") }
    }

    @Test func anEntryThatDoesNotValidateCanStillBeRemoved() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write("""
            [sources.good]
            url = "https://h/a"
            [sources.bad]
            url = "https://h/b"
            colour = "blue"
            """)
        #expect(throws: SourceError.self) { try file.load() }
        try file.remove(named: "bad")
        #expect(try file.load().map(\.name) == ["good"])
        #expect(throws: SourceError.unknown("nope", known: ["good"])) { try file.remove(named: "nope") }
    }

    @Test func sinceParallelCACertAndInsecureAreKeptAndReadBack() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var issues = Source(name: "issues", url: "https://api.example.com/issues")
        issues.since = "since=updated_at"
        issues.parallel = 1
        issues.cacert = "/etc/private-ca.pem"
        issues.insecure = true
        try file.add(issues)
        #expect(try file.source(named: "issues") == issues)
        try write("[sources.x]\nurl = 'https://x'\nparallel = 0")
        #expect(throws: SourceError.self) { try file.load() }
        try write("[sources.x]\nurl = 'https://x'\ninsecure = 'yes'")
        #expect(throws: SourceError.self) { try file.load() }
    }

    @Test func aHandWrittenFileIsRead() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write("""
            # mine
            [sources.gh]
            url = "https://api.github.com/user/repos"
            limit = 100
            headers = { Authorization = "token $(pass show gh)" }
            """)
        let source = try file.source(named: "gh")
        #expect(source.limit == 100 && source.headers.map(\.name) == ["Authorization"])
    }

    @Test(arguments: [
        ("[sources.gh]\nurl = 'https://x'\nlimt = 5", "source 'gh': unknown key 'limt'"),
        ("[sources.gh]\nlimit = 5", "source 'gh' needs url"),
        ("[sources.gh]\nurl = 'https://x'\nlimit = 0", "limit must be a whole number"),
        ("[sources.gh]\nurl = 'https://x'\nheaders = { A = '${X' }", "never closed"),
        ("[other]\nx = 1", "unknown table 'other'"),
        ("[sources.gh\nurl = 'x'", "line 1"),
    ])
    func aBrokenFileSaysWhereAndWhy(text: String, expected: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(text)
        #expect {
            try file.load()
        } throws: { error in
            guard case SourceError.badFile(let path, let reason) = error else { return false }
            return path == file.path && reason.contains(expected)
        }
    }
}
