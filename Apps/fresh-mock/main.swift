// fresh-mock: the mock API server. All logic lives in the MockServer library.
import MockServer

await FreshMockCommand.launch()
