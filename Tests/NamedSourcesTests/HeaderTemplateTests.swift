import Testing
@testable import NamedSources

@Suite("Header templates: ${VAR} and $(command), expanded only when a request is made")
struct HeaderTemplateTests {
    let environment = ["TOKEN": "s3cret", "EMPTY": ""]

    func expand(_ text: String, run: (String) throws(SourceError) -> String = { _ in "from-command" }) throws(SourceError) -> String {
        try HeaderTemplate(text).expanded(header: "Authorization", source: "repos", environment: environment, run: run)
    }

    @Test func variablesAndCommandsAreReplaced() throws {
        #expect(try expand("Bearer ${TOKEN}") == "Bearer s3cret")
        #expect(try expand("Bearer $(pass show api)") == "Bearer from-command")
        #expect(try expand("a ${ TOKEN } $$5 $x") == "a s3cret $5 $x")
        #expect(try expand("plain") == "plain")
    }

    @Test func anUnsetOrEmptyVariableIsAnErrorNamingItAndTheSource() {
        #expect(throws: SourceError.unsetVariable("MISSING", header: "Authorization", source: "repos")) { try expand("Bearer ${MISSING}") }
        #expect(throws: SourceError.unsetVariable("EMPTY", header: "Authorization", source: "repos")) { try expand("${EMPTY}") }
        let message = SourceError.unsetVariable("MISSING", header: "Authorization", source: "repos").description
        #expect(message == "source 'repos': Authorization needs the environment variable MISSING, which is not set")
    }

    @Test func aCommandThatFailsOrPrintsNothingIsAnError() {
        #expect(throws: SourceError.commandFailed("x", header: "Authorization", source: "repos", reason: "exit status 1")) {
            try expand("$(x)") { _ throws(SourceError) in throw .commandFailed("x", header: "", source: "", reason: "exit status 1") }
        }
        #expect(throws: SourceError.commandFailed("x", header: "Authorization", source: "repos", reason: "it printed nothing")) {
            try expand("$(x)") { _ in "" }
        }
    }

    @Test func aValueWithALineBreakIsNeverSent() {
        #expect(throws: SourceError.badValue(header: "Authorization", source: "repos")) { try expand("$(x)") { _ in "a\r\nInjected: 1" } }
    }

    @Test(arguments: ["${TOKEN", "$(cmd", "${}", "$()", "${9X}", "${A-B}"])
    func brokenTemplatesAreRefused(text: String) {
        #expect(throws: SourceError.self) { try HeaderTemplate(text).parts() }
    }

    @Test func theOriginSaysWhereTheValueComesFrom() throws {
        #expect(try HeaderTemplate("Bearer ${TOKEN}").origin(environment: environment) == .environment([("TOKEN", true)]))
        #expect(try HeaderTemplate("${NOPE}").origin(environment: environment) == .environment([("NOPE", false)]))
        #expect(try HeaderTemplate("$(pass show x)").origin(environment: environment) == .command(["pass show x"]))
        #expect(try HeaderTemplate("application/json").origin(environment: environment) == .file)
    }

    @Test func aLiteralSecretIsFlaggedAndHidden() {
        #expect(HeaderTemplate("Bearer abc").isLiteralSecret(header: "Authorization"))
        #expect(HeaderTemplate("Bearer abc").shown(header: "Authorization") == "***")
        #expect(HeaderTemplate("abc").isLiteralSecret(header: "X-Api-Key"))
        #expect(!HeaderTemplate("Bearer ${T}").isLiteralSecret(header: "Authorization"))
        #expect(!HeaderTemplate("application/json").isLiteralSecret(header: "Accept"))
        #expect(HeaderTemplate("application/json").shown(header: "Accept") == "application/json")
    }

    @Test func theRealCommandRunnerReturnsTheFirstLineWithoutItsBreak() throws {
        #expect(try CommandOutput.run("printf 'tok\\n'") == "tok")
        #expect(throws: SourceError.self) { try CommandOutput.run("exit 3") }
    }
}
