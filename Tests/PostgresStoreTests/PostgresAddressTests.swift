import Foundation
@testable import StoreAddress
import Testing

/// Connection URIs, the PG* variables and the password file, read as libpq reads them.
@Suite("PostgreSQL addresses")
struct PostgresAddressTests {
    @Test func aURIGivesHostPortUserPasswordAndDatabase() throws {
        let address = try PostgresAddress(parsing: "postgresql://kim:s%40cret@db.example:6543/team?sslmode=require", environment: [:])
        #expect(address.endpoint == .tcp(host: "db.example", port: 6543))
        #expect(address.user == "kim" && address.password == "s@cret" && address.database == "team" && address.tlsMode == .require)
    }

    @Test func thePasswordIsNeverShown() throws {
        let address = try PostgresAddress(parsing: "postgres://kim:hunter2@db.example/team", environment: [:])
        #expect(address.description == "postgresql://kim:***@db.example:5432/team")
        #expect(PostgresAddress.redacting("postgresql://kim:hunter2@db/x?password=hunter2&sslmode=disable")
                == "postgresql://kim:***@db/x?password=***&sslmode=disable")
        // The error of an address that cannot be used says what is wrong, never the password.
        let message: String
        do {
            _ = try PostgresAddress(parsing: "postgresql://kim:hunter2@db/x?nope=1", environment: [:])
            message = ""
        } catch let error as AddressError {
            message = error.description
        }
        #expect(message.contains("nope") && !message.contains("hunter2"))
    }

    @Test func aSocketDirectoryIsAHostThatStartsWithASlash() throws {
        let encoded = try PostgresAddress(parsing: "postgresql://fresh@%2Ftmp%2Fpg/db", environment: [:])
        #expect(encoded.endpoint == .socket(directory: "/tmp/pg", port: 5432))
        let parameter = try PostgresAddress(parsing: "postgresql:///db?host=/run/postgresql&port=5433&user=fresh", environment: [:])
        #expect(parameter.endpoint == .socket(directory: "/run/postgresql", port: 5433))
        #expect(parameter.description == "postgresql://fresh@%2Frun%2Fpostgresql:5433/db")
    }

    @Test func whatTheURILeavesOutComesFromThePGVariablesThenTheDefaults() throws {
        let environment = ["PGHOST": "pg.internal", "PGPORT": "5444", "PGUSER": "ci", "PGPASSWORD": "pw", "PGDATABASE": "mirror"]
        let address = try PostgresAddress(parsing: "postgresql://", environment: environment)
        #expect(address.endpoint == .tcp(host: "pg.internal", port: 5444))
        #expect(address.user == "ci" && address.password == "pw" && address.database == "mirror")
        #expect(address.description == "postgresql://ci@pg.internal:5444/mirror", "a password from the environment is not in the URI either")
        let defaults = try PostgresAddress(parsing: "postgresql:///", environment: ["PGUSER": "kim"])
        #expect(defaults.endpoint == .socket(directory: "/var/run/postgresql", port: 5432))
        #expect(defaults.database == "kim", "the database is named after the user")
        let uriWins = try PostgresAddress(parsing: "postgresql://other@h/d", environment: environment)
        #expect(uriWins.user == "other" && uriWins.database == "d")
    }

    @Test func thePasswordFileIsReadWhenNothingElseGivesAPassword() throws {
        let file = NSTemporaryDirectory() + "fresh-pgpass-" + UUID().uuidString
        defer { unlink(file) }
        try """
            # comment
            other.host:*:*:kim:wrong
            db.example:5432:team:kim:pa\\:ss
            *:*:*:*:fallback
            """.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let address = try PostgresAddress(parsing: "postgresql://kim@db.example/team", environment: ["PGPASSFILE": file])
        #expect(address.password == "pa:ss")
        let socket = try PostgresAddress(parsing: "postgresql://x@%2Ftmp/y", environment: ["PGPASSFILE": file])
        #expect(socket.password == "fallback")
        chmod(file, 0o644)
        let ignored = try PostgresAddress(parsing: "postgresql://kim@db.example/team", environment: ["PGPASSFILE": file])
        #expect(ignored.password == nil, "a password file others can read is ignored, as libpq ignores it")
    }

    @Test(arguments: ["postgresql://h:99999/d", "postgresql://h/d?sslmode=sometimes", "postgresql://a,b/d", "mysql://h/d"])
    func whatCannotBeUsedIsOneLine(_ text: String) {
        #expect(throws: AddressError.self) { try PostgresAddress(parsing: text, environment: [:]) }
    }
}
