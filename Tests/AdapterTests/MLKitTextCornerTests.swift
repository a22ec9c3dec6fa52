import Foundation
import SwiftVisionCore
import SwiftVisionTasks
import Testing

@testable import MLKitTextRecognition

/// ML Kit's text `cornerPoints` are the task's corners: turned with a tilted word, not the upright frame's.
struct MLKitTextCornerTests {
    /// ICDAR 2015's img_206.jpg (eval/data/scenetext), whose "ROLEX" is tilted about 29°, read with the text line
    /// detector: each block's, line's and element's `cornerPoints` are the task's corners, clockwise from the top left.
    @Test func cornerPointsAreTheTasksTurnedCorners() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../eval/data/scenetext/img_206.jpg").standardizedFileURL
        let read = try TextEngine.shared(TextEngineOptions()).results(in: SwiftVisionCore.VisionImage(contentsOfFile: file.path))
        let text = MLKitTextRecognition.Text(read)
        let lines = read.blocks.flatMap(\.lines)
        #expect(lines.flatMap(\.elements).contains { $0.text == "ROLEX" && $0.corners != Quadrilateral(rect: $0.frame) })
        for (block, task) in zip(text.blocks, read.blocks) {
            #expect(block.cornerPoints.map(\.cgPointValue) == task.corners.corners)
            for (line, taskLine) in zip(block.lines, task.lines) {
                #expect(line.cornerPoints.map(\.cgPointValue) == taskLine.corners.corners)
                for (element, word) in zip(line.elements, taskLine.elements) {
                    #expect(element.cornerPoints.map(\.cgPointValue) == word.corners.corners)
                }
            }
        }
    }
}
