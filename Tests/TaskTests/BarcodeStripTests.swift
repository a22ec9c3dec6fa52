import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Images one pixel thin and thousands long, as a line-scan camera or a cropped scan gives: one row across
/// the first Code 128 symbol of pyzbar's code128 photo, stretched to 3000 pixels, lying and standing. A row
/// across a linear code holds all of it, and zxing-cpp 3.1.1's Python binding (Tests/Python/Reference/zxing_peer.py)
/// reads it.
@Suite struct BarcodeStripTests {
    @Test(arguments: [false, true])
    func readsTheCodeInAOnePixelStripAsZXingDoes(standing: Bool) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.image("pyzbar-code128.png")
        let row = try photo.cropped(to: CGRect(x: 0, y: 40, width: photo.width, height: 1)).resized(width: 3000, height: 1)
        let strip = standing ? try row.rotated(by: .clockwise90).upright() : row
        let file = folder.appendingPathComponent("strip.png")
        try strip.encoded(fileExtension: ".png", quality: 0).write(to: file)
        let peer = try BarcodePeerTests.peerReads([file.path])[file.path, default: []].map(\.text)
        #expect(peer == ["Rana temporaria"], "peer \(peer)")
        let found = try BarcodeEngine().results(in: VisionImage(contentsOf: file))
        #expect(found.map(\.rawValue) == peer)
    }
}
