import Storage
import Testing

@Suite("Path components")
struct PathComponentsTests {
    @Test(arguments: [
        ("a", "."), ("ab", "."), ("-", "."), ("a/", "."),
        ("/a", "/"), ("/", "/"), ("x/a", "x"), ("x//a", "x"), ("/x/y/", "/x"), ("/x/y/cache.sqlite", "/x/y"),
    ])
    func theParentOfAPath(path: String, parent: String) {
        #expect(PathComponents.parent(of: path) == parent)
    }
}
