// swift-tools-version: 6.0
import PackageDescription

/// The modules named as on iOS, where ported ML Kit, Vision and MediaPipe code finds the names it imports. On
/// Apple platforms the real frameworks have these names, so they are declared for Linux only.
struct PortedModule {
    /// The module's name, as the iOS framework or pod.
    var name: String
    /// The ported modules it re-exports, as its iOS namesake does.
    var exports: [String] = []
    /// Whether it is a product (the two `…Common` modules are reached through the others).
    var isProduct = true
    /// Whether it wraps the task core (re-exporting modules hold a single file of exports).
    var usesTaskCore = true
}

#if os(Linux)
let portedModules: [PortedModule] = [
    PortedModule(name: "MLKitCommon"),
    PortedModule(name: "MLKitVision", exports: ["MLKitCommon"]),
    PortedModule(name: "MLKitImageLabelingCommon", exports: ["MLKitVision"], isProduct: false),
    PortedModule(name: "MLKitImageLabeling", exports: ["MLKitImageLabelingCommon"], usesTaskCore: false),
    PortedModule(name: "MLKitImageLabelingCustom", exports: ["MLKitImageLabelingCommon"]),
    PortedModule(name: "MLKitObjectDetectionCommon", exports: ["MLKitVision"], isProduct: false),
    PortedModule(name: "MLKitObjectDetection", exports: ["MLKitObjectDetectionCommon"], usesTaskCore: false),
    PortedModule(name: "MLKitObjectDetectionCustom", exports: ["MLKitObjectDetectionCommon"]),
    PortedModule(name: "MLKitFaceDetection", exports: ["MLKitVision"]),
    PortedModule(name: "MLKitBarcodeScanning", exports: ["MLKitVision"]),
    PortedModule(name: "MLKitTextRecognition", exports: ["MLKitVision"]),
    PortedModule(name: "MLKitTextRecognitionChinese", exports: ["MLKitTextRecognition"], usesTaskCore: false),
    PortedModule(name: "MLKitTextRecognitionDevanagari", exports: ["MLKitTextRecognition"], usesTaskCore: false),
    PortedModule(name: "MLKitTextRecognitionJapanese", exports: ["MLKitTextRecognition"], usesTaskCore: false),
    PortedModule(name: "MLKitTextRecognitionKorean", exports: ["MLKitTextRecognition"], usesTaskCore: false),
    PortedModule(name: "MLKitPoseDetection", exports: ["MLKitVision"]),
    PortedModule(name: "MLKitSegmentationSelfie", exports: ["MLKitVision"]),
    PortedModule(
        name: "MLKit",
        exports: [
            "MLKitImageLabeling", "MLKitImageLabelingCustom", "MLKitObjectDetection", "MLKitObjectDetectionCustom",
            "MLKitFaceDetection", "MLKitBarcodeScanning", "MLKitTextRecognition", "MLKitTextRecognitionChinese",
            "MLKitTextRecognitionDevanagari", "MLKitTextRecognitionJapanese", "MLKitTextRecognitionKorean",
            "MLKitPoseDetection", "MLKitSegmentationSelfie",
        ],
        usesTaskCore: false
    ),
    PortedModule(name: "Vision"),
    PortedModule(name: "MediaPipeTasksVision"),
]
/// Code in the shape of the iOS guides, compiled against the ported modules alone (and the shared fixtures).
let portTests: [Target] = [
    .testTarget(
        name: "PortsTests",
        dependencies: ["MLKit", "MediaPipeTasksVision", "Vision", "SwiftVisionCore", "SwiftVisionRuntime", "SwiftVisionTestSupport"]
    )
]
// Programs written as the iOS guides' apps are, with only the image lines changed; make test runs them.
let portExamples: [Target] = [
    .executableTarget(name: "example-label-photo", dependencies: ["MLKitImageLabeling"], path: "Examples/LabelPhoto"),
    .executableTarget(name: "example-compare-images", dependencies: ["MediaPipeTasksVision"], path: "Examples/CompareImages"),
    .executableTarget(
        name: "example-face-glasses", dependencies: ["MLKitFaceDetection", "SwiftVisionCore"], path: "Examples/FaceGlasses"),
    .executableTarget(name: "example-track-rectangle", dependencies: ["Vision", "SwiftVisionCore"], path: "Examples/TrackRectangle"),
    .executableTarget(
        name: "example-live-embeddings", dependencies: ["MediaPipeTasksVision", "SwiftVisionCore"], path: "Examples/LiveEmbeddings"),
    .executableTarget(
        name: "example-objects-then-labels",
        dependencies: ["MLKitObjectDetection", "MLKitImageLabeling", "MLKitImageLabelingCustom", "SwiftVisionCore"],
        path: "Examples/ObjectsThenLabels"),
]
#else
let portedModules: [PortedModule] = []
let portTests: [Target] = []
let portExamples: [Target] = []
#endif

/// The umbrella ported modules, which the benchmarks and tests use.
let portedUmbrellas: [Target.Dependency] = portedModules.map(\.name)
    .filter { ["MLKit", "Vision", "MediaPipeTasksVision"].contains($0) }
    .map { .byName(name: $0) }

/// The test targets of the layers below the server, one per layer (docs/architecture.md): each names the
/// layer its suites are about; a suite may also drive the adapters above, to compare them with the core.
let layerTests: [Target] = ["CoreTests", "RuntimeTests", "TaskTests", "AdapterTests", "CLITests"].map { name in
    .testTarget(
        name: name,
        dependencies: ["SwiftVision", "SwiftVisionCore", "SwiftVisionRuntime", "SwiftVisionTasks", "SwiftVisionTestSupport"]
            + portedUmbrellas
    )
}


let package = Package(
    name: "SwiftVision",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftVision", targets: ["SwiftVision"]),
        .library(name: "SwiftVisionCollections", targets: ["SwiftVisionCollections"]),
        .executable(name: "swiftvision", targets: ["SwiftVisionCLI"]),
        .executable(name: "swiftvision-bench", targets: ["SwiftVisionBench"]),
        // OpenCV's image codecs, video and trackers, loaded by the shim on first use (see CVisionMedia.h).
        .library(name: "SwiftVisionMedia", type: .dynamic, targets: ["CVisionMedia"]),
        // OpenCV's core and imgproc, loaded by the shim on first use (see CVisionImaging.h).
        .library(name: "SwiftVisionImaging", type: .dynamic, targets: ["CVisionImaging"]),
        // Debian's zxing-cpp 1.4, the fallback barcode reader, loaded on first use (see CBarcodeShim.h).
        .library(name: "SwiftVisionBarcodes", type: .dynamic, targets: ["CBarcodeReader"]),
        // Lets LSTM-only Tesseract instances start without the legacy engine's ambiguity table (see CTesseractSupport.h).
        .library(name: "SwiftVisionTesseract", type: .dynamic, targets: ["CTesseractSupport"]),
    ] + portedModules.filter(\.isProduct).map { .library(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // All of Debian's OpenCV, for libSwiftVisionMedia.so only.
        .systemLibrary(
            name: "COpenCV",
            pkgConfig: "opencv4",
            providers: [.apt(["libopencv-dev", "libopencv-contrib-dev"])]
        ),
        // The C shim: libjpeg, libpng and libwebp; OpenCV through the two libraries below, loaded on first use.
        .target(name: "CVisionShim", linkerSettings: ["png16", "jpeg", "webp", "webpdemux"].map { .linkedLibrary($0) }),
        // OpenCV's core and imgproc, for libSwiftVisionImaging.so (headers through the `opencv4` link to
        // /usr/include/opencv4, so that pkg-config's list of every OpenCV module stays off the link).
        .target(
            name: "CVisionImaging",
            cxxSettings: [.headerSearchPath("opencv4")],
            linkerSettings: ["opencv_core", "opencv_imgproc"].map { .linkedLibrary($0) }
        ),
        .target(
            name: "CVisionMedia",
            dependencies: ["COpenCV"],
            linkerSettings: ["opencv_core", "opencv_imgcodecs", "opencv_videoio", "opencv_tracking"].map { .linkedLibrary($0) }
        ),
        .target(name: "CLiteRt"),
        .systemLibrary(name: "CZXing", pkgConfig: "zxing", providers: [.apt(["libzxing-dev"])]),
        // The types of libSwiftVisionBarcodes.so's functions (CBarcodeReader: Debian's zxing-cpp 1.4), bound with dlopen.
        .target(name: "CBarcodeShim"),
        .target(name: "CBarcodeReader", dependencies: ["CZXing"], linkerSettings: [.linkedLibrary("ZXing")]),
        // Our own declarations of zxing-cpp 3's C API, bound with dlopen (scripts/build-zxing.sh builds the library).
        .target(name: "CZXingC"),
        // Our own declarations of Tesseract's C API, bound with dlopen when text is first recognised.
        .target(name: "CTesseract"),
        .target(name: "CTesseractSupport", linkerSettings: [.linkedLibrary("dl")]),
        // Our own declarations of libcurl's easy API, bound with dlopen when a model is first downloaded.
        .target(name: "CCurl"),
        // The int8 dot-product kernel of the collections' approximate search, built for AVX2 and plain x86-64.
        .target(name: "CVectorKernels", cSettings: [.unsafeFlags(["-O3"])]),
        // Layer 1: images, geometry, video, drawing and image → tensor; the only importer of the OpenCV shim.
        .target(name: "SwiftVisionCore", dependencies: ["CVisionShim"]),
        // Layer 2: the LiteRT runtime, TFLite metadata, the model store, the cache and model downloads.
        .target(
            name: "SwiftVisionRuntime",
            dependencies: [
                "SwiftVisionCore",
                "CLiteRt",
                "CCurl",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Layer 3: the task core (runner, registry, containers), processors and the engines of every task.
        .target(
            name: "SwiftVisionTasks",
            dependencies: ["SwiftVisionCore", "SwiftVisionRuntime", "CBarcodeShim", "CTesseract", "CZXingC"]
        ),
        // Layer 4: the public umbrella of the Swift-style API (layers 1–3).
        .target(name: "SwiftVision", dependencies: ["SwiftVisionCore", "SwiftVisionRuntime", "SwiftVisionTasks"]),
        // Beside layer 4: collections of analysed photos and video frames in SQLite or PostgreSQL, searched by
        // image, label, face and text.
        .target(
            name: "SwiftVisionCollections",
            dependencies: [
                "SwiftVision",
                "CVectorKernels",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Layer 5: the HTTP API, the live-stream WebSocket and the web page, over the task registry.
        .target(
            name: "SwiftVisionServer",
            dependencies: [
                "SwiftVision",
                "SwiftVisionCollections",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/Public")]
        ),
        .executableTarget(
            name: "SwiftVisionCLI",
            dependencies: [
                "SwiftVision",
                "SwiftVisionCollections",
                "SwiftVisionServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // LLVM's linker, to pack the binary's ~47,000 relative relocations (glibc 2.36's DT_RELR): the loader
            // no longer reads 1 MB of them at every start, and `swiftvision --help` peaks ~1 MiB lower.
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
            ]
        ),
        .executableTarget(
            name: "SwiftVisionBench",
            dependencies: ["SwiftVision", "SwiftVisionCollections", .product(name: "Hummingbird", package: "hummingbird")] + portedUmbrellas),
        // Test inputs shared by every test target: fixtures, the reference scripts' runner, bad inputs.
        .target(
            name: "SwiftVisionTestSupport",
            dependencies: ["SwiftVision", "SwiftVisionCore", "SwiftVisionRuntime", "SwiftVisionTasks",
                .target(name: "MLKitCommon", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/TestSupport"
        ),
    ] + layerTests + [
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "SwiftVisionServer",
                "SwiftVision",
                "SwiftVisionCore",
                "SwiftVisionTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "CollectionsTests",
            dependencies: [
                "SwiftVisionCollections", "SwiftVision", "SwiftVisionTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ] + portedModules.map { module in
        // Layer 4 beside the umbrella: the adapters of the three iOS API styles, thin over the task core.
        .target(
            name: module.name,
            dependencies: module.exports.map { .byName(name: $0) }
                + (module.usesTaskCore ? ["SwiftVisionCore", "SwiftVisionRuntime", "SwiftVisionTasks"] : [])
        )
    } + portTests + portExamples,
    cxxLanguageStandard: .cxx17
)
