import ArgumentParser
import Foundation
import HTTPCache
import HTTPTypes

/// Prints a response the way `fresh get` was asked to: body only, `-i` head and body, or
/// `--json`; to stdout or to a file.
struct ResponsePrinter {
    var include: Bool
    var json: Bool
    var output: String?

    func print(_ response: CachedResponse) throws {
        var bytes = Data()
        if json {
            bytes = try JSONSerialization.data(withJSONObject: jsonObject(response), options: [.sortedKeys, .withoutEscapingSlashes])
            bytes.append(0x0A)
        } else {
            if include {
                var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
                for field in response.headerFields { head += "\(field.name.rawName): \(field.value)\r\n" }
                bytes.append(Data((head + "\r\n").utf8))
            }
            bytes.append(response.body)
        }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: bytes) else {
                throw OutputError.cannotWrite(output)
            }
        } else {
            FileHandle.standardOutput.write(bytes)
        }
    }

    private func jsonObject(_ response: CachedResponse) -> [String: Any] {
        let decision = response.decision
        var decisionObject: [String: Any] = [
            "outcome": decision.label, "stored": decision.stored, "requestsSent": decision.requestsSent,
            "bytesReceived": decision.bytesReceived, "bytesSaved": decision.bytesSaved, "reasons": decision.reasons,
        ]
        decisionObject["notStoredReason"] = decision.notStoredReason
        decisionObject["currentAge"] = decision.currentAge
        decisionObject["freshnessLifetime"] = decision.freshnessLifetime?.seconds
        var object: [String: Any] = [
            "url": response.url.absoluteString,
            "status": response.status.code,
            "headers": response.headerFields.map { [$0.name.rawName, $0.value] },
            "decision": decisionObject,
        ]
        if let text = String(data: response.body, encoding: .utf8) {
            object["body"] = text
        } else {
            object["body"] = response.body.base64EncodedString()
            object["bodyEncoding"] = "base64"
        }
        return object
    }
}

/// The `-o FILE` of `fresh get` could not be written.
enum OutputError: Error, CustomStringConvertible {
    case cannotWrite(String)

    var description: String {
        switch self {
        case .cannotWrite(let path): "cannot write the output file \(path)"
        }
    }
}
