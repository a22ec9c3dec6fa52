import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwiftVision
import Testing

@testable import SwiftVisionServer

/// `POST /v1/segment`, served through the registry line of the segmentation task.
@Suite(.serialized) struct SegmentEndpointTests {
    @Test func segmentAnswersWithTheCommandsJSON() async throws {
        try await EndpointTests.app().test(.router) { client in
            let response = try await client.execute(uri: "/v1/segment", method: .post, headers: Samples.jpeg, body: try Samples.body("zidane.jpg"))
            #expect(response.status == .ok)
            let object = try Samples.json(response)
            #expect(object["width"] as? Int == 1280 && object["height"] as? Int == 720)
            #expect(object["maskWidth"] as? Int == 256 && object["maskHeight"] as? Int == 256)
            // The same answer as the task's own (the command's --json line less "file").
            let output = try JSONDecoder().decode(SegmentTask.Output.self, from: Data(buffer: response.body))
            let direct = try SegmentTask().output(for: try VisionImage(data: try Samples.data("zidane.jpg")))
            #expect(output.modelMask.confidences == (try JSONDecoder().decode(SegmentTask.Output.self, from: JSONEncoder().encode(direct))).modelMask.confidences)
            #expect(abs(output.personFraction - direct.personFraction) < 0.001 && direct.personFraction > 0.3)

            let page = try Samples.json(try await client.execute(uri: "/v1/segment", method: .post, headers: Samples.png, body: try Samples.body("page.png")))
            #expect((page["personFraction"] as? Double ?? 1) < 0.01)

            let bad = try await client.execute(uri: "/v1/segment?smoothing=3", method: .post, headers: Samples.jpeg, body: try Samples.body("zidane.jpg"))
            #expect(bad.status == .badRequest)
            #expect(try Samples.errorCode(bad) == "bad_option")
        }
    }
}
