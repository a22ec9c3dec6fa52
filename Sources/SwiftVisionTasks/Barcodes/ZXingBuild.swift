import Foundation
import SwiftVisionRuntime

/// The zxing-cpp that reads the pixels: 3.x from the library scripts/build-zxing.sh builds, loaded with
/// `dlopen`, else Debian's 1.4, in libSwiftVisionBarcodes.so, also loaded with `dlopen` (``DebianZXingLibrary``).
enum ZXingBuild: Sendable {
    case zxing3(ZXingLibrary)
    case debian

    /// The build of this process: zxing-cpp 3 when ``SwiftVisionCache/barcodeLibrary`` loads, else Debian's.
    static let preferred: ZXingBuild = loaded.map { .zxing3($0) } ?? .debian

    /// Why zxing-cpp 3 is not in use, nil when it is.
    static var fallbackReason: String? {
        guard case .failure(let error) = loadResult else { return nil }
        return error.localizedDescription
    }

    private static let loadResult = Result { try ZXingLibrary(path: SwiftVisionCache.current.barcodeLibrary.path) }
    private static var loaded: ZXingLibrary? { try? loadResult.get() }

    /// The build in words, such as "zxing-cpp 3.1.1 (/root/.cache/swiftvision/lib/libZXing-swiftvision.so)".
    var description: String {
        switch self {
        case .zxing3(let library): "zxing-cpp \(library.version) (\(library.path))"
        case .debian: "zxing-cpp 1.4 (Debian's libZXing)"
        }
    }
}
