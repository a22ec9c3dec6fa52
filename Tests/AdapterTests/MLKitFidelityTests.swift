import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision

/// Defaults and helpers that code ported from ML Kit relies on.
@Suite struct MLKitFidelityTests {
    @Test func objectDetectionStreamsByDefaultAsInMLKit() {
        // ML Kit's ObjectDetectorOptions.detectorMode defaults to .stream (its API reference).
        #expect(ObjectDetectorOptions().detectorMode == .stream)
    }

    @Test func downloadNotificationsAnswerToMLKitsNames() {
        #expect(Notification.Name.mlkitModelDownloadDidSucceed == .modelDownloadDidSucceed)
        #expect(Notification.Name.mlkitModelDownloadDidFail == .modelDownloadDidFail)
    }

    @Test func deviceOrientationsGiveMLKitSamplesImageOrientations() {
        // The table of ML Kit's iOS samples (UIUtilities.imageOrientation), written out:
        // (device, back camera, front camera).
        let table: [(DeviceOrientation, ImageOrientation, ImageOrientation)] = [
            (.portrait, .right, .leftMirrored), (.landscapeLeft, .up, .downMirrored),
            (.portraitUpsideDown, .left, .rightMirrored), (.landscapeRight, .down, .upMirrored),
            (.faceUp, .up, .up), (.faceDown, .up, .up), (.unknown, .up, .up),
        ]
        #expect(table.count == DeviceOrientation.allCases.count)
        for (device, back, front) in table {
            #expect(imageOrientation(deviceOrientation: device, cameraPosition: .back) == back, "\(device)")
            #expect(imageOrientation(deviceOrientation: device, cameraPosition: .unspecified) == back, "\(device)")
            #expect(imageOrientation(deviceOrientation: device, cameraPosition: .front) == front, "\(device)")
        }
    }
}
