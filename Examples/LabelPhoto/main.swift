// Labels a photo, written as an iOS app labels one with ML Kit: the options, the labeler and the
// completion handler are ML Kit's; only the line that makes the image differs (a file on Linux, a
// UIImage on iOS).
//
//     swift run example-label-photo PHOTO
import Dispatch
import Foundation
import MLKitImageLabeling

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: example-label-photo PHOTO\n".utf8))
    exit(64)
}

let options = ImageLabelerOptions()
options.confidenceThreshold = 0.5
let labeler = ImageLabeler.imageLabeler(options: options)

let image: VisionImage
do {
    image = try VisionImage(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}

// As on iOS, the completion runs on the main queue: this program runs it with dispatchMain().
labeler.process(image) { labels, error in
    guard error == nil, let labels else {
        FileHandle.standardError.write(Data("error: \(error?.localizedDescription ?? "no labels")\n".utf8))
        exit(1)
    }
    for label in labels {
        print(String(format: "%@\t%.3f\t%d", label.text, label.confidence, label.index))
    }
    exit(0)
}
dispatchMain()
