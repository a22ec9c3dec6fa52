// Finds the objects in a photo, then labels each one's crop, written as an iOS app does with ML Kit's
// ObjectDetector and ImageLabeler: with a .tflite classifier given, a custom labeler over it, as ML Kit's
// custom models guide builds one. Only the lines that make and crop images differ (SwiftVision's image
// where an app has a UIImage).
//
//     swift run example-objects-then-labels PHOTO [CLASSIFIER.tflite]
// prints a line per object: its box in pixels, its first label (the coarse category, else the COCO class) and
// the crop's best label.
import Foundation
import MLKitImageLabeling
import MLKitImageLabelingCustom
import MLKitObjectDetection
import SwiftVisionCore

let arguments = CommandLine.arguments
guard (2...3).contains(arguments.count) else {
    FileHandle.standardError.write(Data("usage: example-objects-then-labels PHOTO [CLASSIFIER.tflite]\n".utf8))
    exit(64)
}

do {
    let objectOptions = ObjectDetectorOptions()
    objectOptions.detectorMode = .singleImage
    objectOptions.shouldEnableMultipleObjects = true
    objectOptions.shouldEnableClassification = true
    let detector = ObjectDetector.objectDetector(options: objectOptions)

    let labeler: ImageLabeler
    if arguments.count == 3 {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: arguments[2]))
        options.confidenceThreshold = 0.2
        labeler = ImageLabeler.imageLabeler(options: options)
    } else {
        let options = ImageLabelerOptions()
        options.confidenceThreshold = 0.2
        labeler = ImageLabeler.imageLabeler(options: options)
    }

    let photo = try SwiftVisionCore.VisionImage(contentsOf: URL(fileURLWithPath: arguments[1]))
    for object in try detector.results(in: MLKitVision.VisionImage(image: photo)) {
        let crop = try photo.cropped(to: object.frame)
        let best = try labeler.results(in: MLKitVision.VisionImage(image: crop)).first
        print(String(
            format: "%.0f %.0f %.0f %.0f\t%@\t%@ %.3f", object.frame.minX, object.frame.minY, object.frame.width, object.frame.height,
            object.labels.first?.text ?? "-", best?.text ?? "-", best?.confidence ?? 0))
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
