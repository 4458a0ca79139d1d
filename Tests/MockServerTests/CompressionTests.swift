import CompressNIO
import Foundation
import HTTPFields
import HTTPTypes
import NIOCore
import Testing

@testable import MockServer

@Suite("Content coding (Accept-Encoding, gzip)")
struct CompressionTests {
    @Test func gzipIsSentWhenAcceptedWithItsOwnStrongETag() async throws {
        try await withMockServer { _, client in
            let plain = try await client.get("/exercises")
            let compressed = try await client.get("/exercises", headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(compressed.headers[.vary] == "Accept-Encoding")
            let plainTag = try #require(plain.headers[.eTag])
            #expect(compressed.headers[.eTag] == String(plainTag.dropLast()) + "-gzip\"")
            var body = try #require(compressed.body)
            #expect(body.readableBytes * 4 < plain.body!.readableBytes)
            #expect(try body.decompress(with: .gzip()) == plain.body)
        }
    }

    @Test func revalidationComparesTheValidatorOfTheEncodingChosen() async throws {
        try await withMockServer { _, client in
            let gzip: HTTPFields = [.acceptEncoding: "gzip"]
            let compressedTag = try #require(try await client.get("/exercises", headers: gzip).headers[.eTag])
            var conditional = gzip
            conditional[.ifNoneMatch] = compressedTag
            let notModified = try await client.get("/exercises", headers: conditional)
            #expect(notModified.status == .notModified)
            #expect(notModified.headers[.eTag] == compressedTag)
            #expect(notModified.headers[.contentEncoding] == nil)
            let identity = try await client.get("/exercises", headers: [.ifNoneMatch: compressedTag])
            #expect(identity.status == .ok)
            #expect(identity.headers[.contentEncoding] == nil)
        }
    }

    @Test func smallBodiesAreSentAsTheyAre() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/posts/1", headers: [.acceptEncoding: "gzip"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentEncoding] == nil)
            #expect(response.headers[.vary] == "Accept-Encoding")
        }
    }

    @Test(arguments: [
        (nil, ContentCoding.identity), ("gzip", .gzip), ("GZIP;q=0.5", .gzip), ("x-gzip", .gzip), ("*", .gzip),
        ("gzip;q=0", .identity), ("*;q=0", .identity), ("gzip;q=0, *", .identity), ("identity", .identity),
        ("br, deflate", .identity), ("gzip;q=abc", .gzip), (" , ;q=1,", .identity), ("*;q=0, gzip;q=0.1", .gzip),
    ] as [(String?, ContentCoding)])
    func acceptEncodingChoosesTheCoding(header: String?, expected: ContentCoding) {
        #expect(ContentCoding.preferred(acceptEncoding: header) == expected)
    }

    @Test func ifMatchAcceptsTheTagOfEitherEncoding() throws {
        let representation = Representation(exactly: RepresentationContent(
            encoding: Array(repeating: "x", count: 2000), changed: .exactly(SeedData.epoch)))
        let gzip = try #require(representation.gzip)
        for tag in [representation.identity.entityTagHeader, gzip.entityTagHeader] {
            #expect(representation.stronglyMatches(try #require(EntityTagList(fieldValue: tag))))
        }
        #expect(!representation.stronglyMatches(try #require(EntityTagList(fieldValue: "\"other\""))))
    }
}
