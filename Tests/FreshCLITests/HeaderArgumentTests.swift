import ArgumentParser
import Testing
@testable import FreshCLI

@Suite("-H values with ${VAR} and $(command)")
struct HeaderArgumentTests {
    @Test func aVariableIsExpandedFromTheEnvironment() throws {
        let fields = try HeaderArgument.fields(["Authorization: Bearer ${TOKEN}", "Accept: application/json"], environment: ["TOKEN": "s3cret"])
        #expect(fields[.authorization] == "Bearer s3cret" && fields[.accept] == "application/json")
    }

    @Test func anUnsetVariableIsRefusedAndNeverSentAsWritten() {
        #expect(throws: HeaderArgument.Unexpandable.self) { try HeaderArgument.fields(["Authorization: Bearer ${TOKEN}"], environment: [:]) }
        #expect(throws: HeaderArgument.Unexpandable.self) { try HeaderArgument.fields(["X-Key: ${EMPTY}"], environment: ["EMPTY": ""]) }
        #expect(FailureReport.exitCode(for: HeaderArgument.Unexpandable(description: "x")) == 64)
    }

    @Test func aTemplateThatCannotBeReadIsAnInvalidArgument() {
        #expect(throws: ValidationError.self) { try HeaderArgument.parse("X-Token: ${unclosed") }
    }

    @Test func theNoteForASecretShowsQuotingThatWorks() {
        #expect(SyncCommand.template(of: "Bearer abc123") == "Bearer ${TOKEN}")
        #expect(SyncCommand.template(of: "abc123") == "${TOKEN}")
    }
}
