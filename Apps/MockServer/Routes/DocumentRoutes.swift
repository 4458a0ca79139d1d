import Foundation
import HTTPTypes

/// The read-only documents: `/exercises` (one large document), `/styles` (the pagination styles
/// and their URLs), `/db` (a `--data` file's collections, as json-server) and `/openapi.json`.
struct DocumentRoutes: Sendable {
    let store: MockStore
    let validators: Validators
    /// The OpenAPI document of this server's routes, encoded once.
    let openAPI: RepresentationContent
    /// The collections `/styles` lists URLs for.
    let styledCollections: [String]
    /// The style of `GET /NAME`.
    let defaultStyle: MockPaginationStyle

    /// Dispatches a GET or HEAD already matched to a document route.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        let representation: Representation
        switch request.route {
        case .exercises:
            representation = try store.representation(of: .exercises, key: "/exercises") { data throws(APIError) in
                guard let exercises = data.exercises else { throw .notFound("no exercises") }
                return RepresentationContent(encoding: exercises, changed: .exactly(SeedData.epoch))
            }
        case .styleIndex:
            let origin = request.origin
            representation = store.representation(of: .documentation, key: "\(origin)/styles") { _ in
                RepresentationContent(
                    encoding: StyleIndex(origin: origin, collections: styledCollections, defaultStyle: defaultStyle),
                    changed: .exactly(SeedData.epoch))
            }
        case .database:
            // Every collection, as a db.json holds them: built on each request, as any write changes it.
            let data = store.snapshot
            var object = JSONObjectBuilder()
            for name in data.collections.keys.sorted() { object.add(name, raw: JSONObjectBuilder.array(of: data.collections[name]?.items.all ?? [])) }
            let newest = data.collections.values.flatMap { $0.items.all.map(\.updatedAt) + [$0.baseline] }.max() ?? SeedData.epoch
            representation = Representation(RepresentationContent(body: object.data, changed: .exactly(newest)), lastModified: newest)
        default:
            representation = store.representation(of: .documentation, key: "/openapi.json") { _ in openAPI }
        }
        return validators.reply(to: request.headers, with: representation)
    }
}
