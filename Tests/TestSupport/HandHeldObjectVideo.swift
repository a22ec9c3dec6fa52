import Foundation

import SwiftVisionCore

/// A 640×480 video made from real photos with known truth: an object cut from one sample photo moves
/// over another along a seeded path — smooth, then fast (30–60 px a frame, sudden turns), then under a
/// patch of a third photo (partly, fully for a stretch, out the other side), then growing and shrinking.
/// The truth is the path itself.
public struct HandHeldObjectVideo: Sendable {
    /// A patch of a sample photo: `name`, the rectangle cut from it, and the size it is scaled to.
    public struct Cut: Sendable {
        public var name: String
        public var rect: CGRect
        public var width: Int
        public var height: Int

        /// The patch of `name` inside `rect`, scaled to `width` × `height`.
        public init(name: String, rect: CGRect, width: Int, height: Int) {
            (self.name, self.rect, self.width, self.height) = (name, rect, width, height)
        }

        public func image() throws -> VisionImage {
            try Fixtures.image(name).cropped(to: rect)
        }
    }

    public static let size = (width: 640, height: 480)
    public static let frameCount = 200
    /// The occluder appears at this frame, left of the object's path.
    public static let occluderFrame = 100

    public let object: Cut
    public let source: VisionImage
    public let scene: PixelBuffer
    public let cover: PixelBuffer
    /// The object's box in each frame.
    public let truth: [CGRect]
    /// Where the occluder covers the scene (from `occluderFrame` on).
    public let occluderBox: CGRect

    /// A video of `object` over `background`, covered for a while by `occluder`, on the path seeded by `seed`.
    public init(object: Cut, background: String, occluder: Cut, seed: UInt64) throws {
        self.object = object
        source = try object.image()
        scene = try Fixtures.image(background).resized(width: Self.size.width, height: Self.size.height).buffer
        cover = try occluder.image().resized(width: occluder.width, height: occluder.height).buffer
        var random = SeededGenerator(seed: seed)
        let (width, height) = (Double(object.width), Double(object.height))
        let frame = CGSize(width: Double(Self.size.width), height: Double(Self.size.height))
        occluderBox = CGRect(
            x: 300 - Double(occluder.width) / 2, y: 250 - Double(occluder.height) / 2, width: Double(occluder.width),
            height: Double(occluder.height))
        var centres: [CGPoint] = []
        var scales: [Double] = []
        var centre = CGPoint(x: 40 + width / 2 + random.next(in: 0...40), y: 30 + height / 2 + random.next(in: 0...40))
        var velocity = CGPoint(x: 5, y: 2)
        func keepInside(_ scale: Double) {
            let (halfWidth, halfHeight) = (width * scale / 2 + 5, height * scale / 2 + 5)
            if centre.x < halfWidth || centre.x > frame.width - halfWidth { velocity.x = -velocity.x }
            if centre.y < halfHeight || centre.y > frame.height - halfHeight { velocity.y = -velocity.y }
            centre.x = min(max(centre.x, halfWidth), frame.width - halfWidth)
            centre.y = min(max(centre.y, halfHeight), frame.height - halfHeight)
        }
        // Under the occluder: enters from the left, fully hidden in the middle, leaves on the right.
        let entry = CGPoint(x: occluderBox.minX - width / 2 - 30, y: occluderBox.midY)
        let exit = CGPoint(x: occluderBox.maxX + width * 0.1, y: occluderBox.midY + 20)
        for index in 0..<Self.frameCount {
            var scale = 1.0
            switch index {
            case 0..<50:
                // Smooth: a slow drift with a gentle wobble.
                centre.x += velocity.x
                centre.y += velocity.y + 3 * sin(Double(index) / 6)
            case 50..<90:
                // Fast: 30–60 px a frame, a new direction every 4–8 frames.
                if (index - 50) % Int(4 + random.next(in: 0...4)) == 0 || index == 50 {
                    let angle = random.next(in: 0...(2 * .pi)), speed = random.next(in: 30...60)
                    velocity = CGPoint(x: speed * cos(angle), y: speed * sin(angle))
                }
                centre.x += velocity.x
                centre.y += velocity.y
            case 90..<Self.occluderFrame:
                // A fast glide to the left of where the occluder will appear.
                let start = centres[89], fraction = Double(index - 89) / Double(Self.occluderFrame - 90)
                centre = CGPoint(x: start.x + (entry.x - start.x) * fraction, y: start.y + (entry.y - start.y) * fraction)
            case Self.occluderFrame..<145:
                let fraction = Double(index - Self.occluderFrame + 1) / Double(145 - Self.occluderFrame)
                centre = CGPoint(x: entry.x + (exit.x - entry.x) * fraction, y: entry.y + (exit.y - entry.y) * fraction)
                velocity = CGPoint(x: 8, y: -6)
            default:
                // Growing to 1.3× and shrinking to 0.8× while moving 8–25 px a frame, turning now and then.
                scale = 1.05 + 0.25 * sin(Double(index - 145) / 55 * 2 * .pi)
                if (index - 145) % 12 == 11 {
                    let angle = random.next(in: 0...(2 * .pi)), speed = random.next(in: 8...25)
                    velocity = CGPoint(x: speed * cos(angle), y: speed * sin(angle))
                }
                centre.x += velocity.x
                centre.y += velocity.y
            }
            keepInside(scale)
            centres.append(centre)
            scales.append(scale)
        }
        truth = zip(centres, scales).map { centre, scale in
            let (boxWidth, boxHeight) = ((width * scale).rounded(), (height * scale).rounded())
            return CGRect(x: (centre.x - boxWidth / 2).rounded(), y: (centre.y - boxHeight / 2).rounded(), width: boxWidth, height: boxHeight)
        }
    }

    /// The fraction of the object's box in view in frame `index`: inside the frame and not under the occluder.
    public func visibility(_ index: Int) -> Double {
        let box = truth[index]
        let inside = box.intersection(CGRect(x: 0, y: 0, width: Self.size.width, height: Self.size.height))
        guard !inside.isNull else { return 0 }
        var area = inside.width * inside.height
        if index >= Self.occluderFrame, case let covered = inside.intersection(occluderBox), !covered.isNull {
            area -= covered.width * covered.height
        }
        return area / (box.width * box.height)
    }

    /// Frame `index`: the background, the object in its box, the occluder over both once it has appeared.
    public func frame(_ index: Int) throws -> VisionImage {
        var frame = scene
        let box = truth[index]
        try Fixtures.paste(source.resized(width: Int(box.width), height: Int(box.height)).buffer, into: &frame, x: Int(box.minX), y: Int(box.minY))
        if index >= Self.occluderFrame {
            try Fixtures.paste(cover, into: &frame, x: Int(occluderBox.minX), y: Int(occluderBox.minY))
        }
        return VisionImage(buffer: frame)
    }
}
