import Foundation
import HTTPCache
import SyncEngine
import Testing

@Suite("Collection identity and names")
struct CollectionIdentityTests {
    @Test func pagingAndSizeParametersDoNotMakeAnotherCollection() {
        let a = CollectionIdentity.of(URL(string: "HTTP://API.Example.test:80/v1/posts?limit=20&lang=ko&cursor=x")!)
        let b = CollectionIdentity.of(URL(string: "http://me:pw@api.example.test/v1/posts?lang=ko&page=3#top")!)
        #expect(a == b && a == "http://api.example.test/v1/posts?lang=ko")
        #expect(CollectionIdentity.of(URL(string: "http://api.example.test/v1/posts?lang=en")!) != a)
    }

    @Test func namesComeFromTheLastPathSegmentThatIsNotANumber() {
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/v1/users/42/repos?per_page=5")!) == "repos")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/api/posts/")!) == "posts")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/")!) == "x.test")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/data/countries.json")!) == "countries")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/.json")!) == "json")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/Some%20Thing")!) == "some-thing")
    }

    @Test func credentialsBecomeAnAuthorizationField() {
        let url = URL(string: "https://me:s3cret@x.test/a")!
        #expect(URLCredentials.basicAuthorization(in: url) == "Basic " + Data("me:s3cret".utf8).base64EncodedString())
        #expect(URLCredentials.removed(from: url).absoluteString == "https://x.test/a")
        #expect(URLCredentials.basicAuthorization(in: URL(string: "https://x.test/a")!) == nil)
    }
}
