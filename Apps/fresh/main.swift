// The `fresh` executable: everything lives in FreshCLI. It is built without the PostgreSQL
// client, so that it starts fast: `fresh-postgresql` runs a command that opens such a mirror.
import Composition
import FreshCLI

PostgresClient.current = .inProgram(named: "fresh-postgresql")
await FreshCommand.launch()
