import Foundation
import SwiftVisionCore
import Testing

/// A video made from real photos: the astronaut's face moves over the coffee photo on a known path,
/// leaves the frame and comes back.
public enum MovingFaceVideo {
    public static let size = (width: 640, height: 480)
    /// Where the face is in each frame (its centre), nil while it is out of view.
    public static let path: [CGPoint?] = (0..<70).map { index in
        switch index {
        case 0..<40: CGPoint(x: 150 + index * 8, y: 180 + index * 2)
        case 40..<50: nil
        default: CGPoint(x: 470 - (index - 50) * 6, y: 300 - (index - 50) * 3)
        }
    }
    /// The face patch: astronaut.png around the face, 160×160; the face centre sits at `faceOffset` in it.
    public static let patchSide = 160
    public static let faceOffset = CGPoint(x: 76, y: 70)

    public static func frames() throws -> [VisionImage] {
        let background = try Fixtures.image("coffee.png").resized(width: size.width, height: size.height).buffer
        let patch = try Fixtures.image("astronaut.png").cropped(to: CGRect(x: 130, y: 30, width: 200, height: 200))
            .resized(width: patchSide, height: patchSide).buffer
        return try path.map { center in
            var frame = background
            if let center {
                try Fixtures.paste(patch, into: &frame, x: Int(center.x - faceOffset.x), y: Int(center.y - faceOffset.y))
            }
            return VisionImage(buffer: frame)
        }
    }
}

/// Two real objects cut from photos moving over a plain frame: a dog from left to right, a person from
/// right to left, higher up; they cross (the person passes behind the dog), and the dog is hidden for
/// three frames.
public enum MovingObjectsVideo {
    public static let frameCount = 48
    public static let hiddenFrames = 20..<23

    public struct Truth {
        public var dog: CGRect?
        public var person: CGRect
    }

    public static func truth(_ index: Int) -> Truth {
        let dog = CGRect(x: 20 + index * 9, y: 270, width: 150, height: 200)
        let person = CGRect(x: 520 - index * 8, y: 40, width: 110, height: 320)
        return Truth(dog: hiddenFrames.contains(index) ? nil : dog, person: person)
    }

    public static func frames() throws -> [VisionImage] {
        let dog = try Fixtures.image("dog.jpg").cropped(to: CGRect(x: 125, y: 200, width: 200, height: 330)).resized(width: 150, height: 200).buffer
        let person = try Fixtures.image("bus.jpg").cropped(to: CGRect(x: 40, y: 400, width: 180, height: 500)).resized(width: 110, height: 320).buffer
        let plain = try PixelBuffer(format: .bgr, width: 640, height: 480, bytes: [UInt8](repeating: 180, count: 640 * 480 * 3))
        return try (0..<frameCount).map { index in
            var frame = plain
            let truth = truth(index)
            try Fixtures.paste(person, into: &frame, x: Int(truth.person.minX), y: Int(truth.person.minY))
            if let box = truth.dog { try Fixtures.paste(dog, into: &frame, x: Int(box.minX), y: Int(box.minY)) }
            return VisionImage(buffer: frame)
        }
    }
}

/// One person cut from bus.jpg walking across the coffee photo on a known straight path.
public enum SeededTrackingVideo {
    /// The frames, one every `step` pixels of the walk, and the person's box in each.
    public static func frames(step: Int = 12) throws -> (frames: [VisionImage], truth: [CGRect]) {
        let person = try Fixtures.image("bus.jpg").cropped(to: CGRect(x: 40, y: 400, width: 180, height: 500)).resized(width: 90, height: 250).buffer
        let background = try Fixtures.image("coffee.png").resized(width: 640, height: 480).buffer
        let truth = (0..<(720 / step)).map { CGRect(x: 100 + $0 * step, y: 110 + $0 * step / 12, width: 90, height: 250) }
        let frames = try truth.map { box in
            var frame = background
            try Fixtures.paste(person, into: &frame, x: Int(box.minX), y: Int(box.minY))
            return VisionImage(buffer: frame)
        }
        return (frames, truth)
    }
}

extension Fixtures {
    /// A 64×48 photo as PNG, WebP (lossless), BMP and TIFF, written by OpenCV in the reference venv; as a
    /// two-frame GIF and lossy animated WebP, written by Pillow; and as HEIF and AVIF, written by libheif's
    /// `heif-enc`. Keyed by format ("animated.webp" for the animation).
    public static func smallImages(in folder: URL) throws -> [String: Data] {
        // The PNG carries a text chunk before its pixels: an ancillary chunk, whose damage a decoder may
        // survive (its critical chunks' checksums refuse any other change in the first 512 bytes).
        let script = """
            import cv2, sys
            from PIL import Image, PngImagePlugin
            small = cv2.resize(cv2.imread(sys.argv[1]), (64, 48), interpolation=cv2.INTER_AREA)
            for name in ("seed.webp", "seed.bmp", "seed.tiff"):
                cv2.imwrite(sys.argv[2] + "/" + name, small, [cv2.IMWRITE_WEBP_QUALITY, 101] if name.endswith("webp") else [])
            text = PngImagePlugin.PngInfo()
            text.add_text("Comment", "a seed for mutations " * 20)
            image = Image.fromarray(small[:, :, ::-1])
            image.save(sys.argv[2] + "/seed.png", pnginfo=text)
            turned = image.rotate(90)
            image.quantize(64).save(sys.argv[2] + "/seed.gif", save_all=True, append_images=[turned.quantize(64)], duration=100)
            image.save(sys.argv[2] + "/seed.animated.webp", save_all=True, append_images=[turned], duration=100, quality=80)
            """
        let python = Fixtures.cache.root.appendingPathComponent("tools-venv/bin/python")
        let run = try Fixtures.run(python, ["-c", script, try Fixtures.sample("bus.jpg").path, folder.path])
        try #require(run.status == 0, "\(run.errors)")
        let png = folder.appendingPathComponent("seed.png")
        for avif in [false, true] {
            try heifEncoded(png, to: folder.appendingPathComponent(avif ? "seed.avif" : "seed.heif"), avif: avif, quality: 80)
        }
        var images: [String: Data] = [:]
        for format in ["png", "webp", "bmp", "tiff", "gif", "animated.webp", "heif", "avif"] {
            images[format] = try Data(contentsOf: folder.appendingPathComponent("seed.\(format)"))
        }
        return images
    }

    /// Encodes the PNG at `png` as HEIF (HEVC) or, with `avif`, AVIF at `quality` (0–100) into `destination`
    /// with libheif's own encoder, `heif-enc` (Debian's libheif-examples, which `make test` installs).
    public static func heifEncoded(_ png: URL, to destination: URL, avif: Bool, quality: Int) throws {
        let made = try run(
            URL(fileURLWithPath: "/usr/bin/heif-enc"), (avif ? ["-A"] : []) + ["-q", "\(quality)", "-o", destination.path, png.path],
            timeout: 120)
        try #require(made.status == 0, "heif-enc (make test installs libheif-examples): \(made.errors)")
    }
}
