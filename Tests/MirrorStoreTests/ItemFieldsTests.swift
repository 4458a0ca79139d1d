import JSON
import MirrorStore
import Testing

struct ItemFieldsTests {
    @Test func rowsShowATitleAndWhoOrWhen() {
        let post = ItemFields.choose(for: #"{"id":1,"title":"t","author":"a","updated_at":"2024"}"#)
        #expect(post == RowFields(title: [JSONPath(["title"])], subtitle: [JSONPath(["author"])]))
        let user = ItemFields.choose(for: #"{"login":"kim","user":{"login":"x"},"created_at":"2024"}"#)
        #expect(user == RowFields(title: [JSONPath(["login"])], subtitle: [JSONPath(["user", "login"])]))
        let chosen = ItemFields.choose(for: #"{"id":1,"title":"t"}"#, title: JSONPath(["id"]))
        #expect(chosen.title == [JSONPath(["id"])])
        #expect(ItemFields.choose(for: nil) == RowFields(title: [], subtitle: []))
    }
}
