import CBarcodeShim
import Foundation
import SwiftVisionRuntime

/// Debian's zxing-cpp 1.4 behind the functions of CBarcodeShim.h, in libSwiftVisionBarcodes.so (the package's
/// SwiftVisionBarcodes product), loaded with `dlopen` on first use so that a process that reads no barcode
/// with it never maps libZXing. Looked for at `$SWIFTVISION_BARCODES_LIBRARY`, else next to the executable
/// (where `swift build` puts it), else on the dynamic linker's search path. Immutable, so safe to share.
final class DebianZXingLibrary: Sendable {
    let lastError: svb_last_errorFunction
    let readBarcodes: svb_read_barcodesFunction
    let freeBarcodes: svb_free_barcodesFunction

    static let fileName = "libSwiftVisionBarcodes.so"

    /// The library of this process, loaded by the first call; throws ``VisionTaskError/engineFailed(_:)``
    /// saying where it was looked for when it cannot be loaded.
    static func shared() throws -> DebianZXingLibrary { try loadResult.get() }

    private static let loadResult = Result { try DebianZXingLibrary(candidates: candidates) }

    /// The paths tried in order.
    private static var candidates: [String] {
        DynamicLibrary.candidates(fileName: fileName, variable: "SWIFTVISION_BARCODES_LIBRARY")
    }

    /// A reason the library could not be used.
    private struct LoadFailure: Error, CustomStringConvertible {
        let description: String
    }

    private init(candidates: [String]) throws {
        var opened: DynamicLibrary?
        var attempts: [String] = []
        for path in candidates where opened == nil {
            do {
                opened = try DynamicLibrary(path: path) { LoadFailure(description: $0) }
            } catch {
                attempts.append("\(error)")
            }
        }
        guard let library = opened else {
            throw VisionTaskError.engineFailed(
                "zxing-cpp 1.4 (\(Self.fileName), the package's SwiftVisionBarcodes product) could not be loaded; build it"
                    + " next to the executable or set SWIFTVISION_BARCODES_LIBRARY to its path: "
                    + attempts.joined(separator: "; "))
        }
        let expected = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(SVB_INTERFACE_CAPACITY)) { text in
            svb_describe_interface(text.baseAddress!)
            return String(cString: text.baseAddress!)
        }
        do {
            try library.checkInterface(symbol: "svb_interface", expected: expected, fileName: Self.fileName)
        } catch {
            throw VisionTaskError.engineFailed("zxing-cpp 1.4: \(error)")
        }
        do {
            lastError = try library.function("svb_last_error")
            readBarcodes = try library.function("svb_read_barcodes")
            freeBarcodes = try library.function("svb_free_barcodes")
        } catch {
            throw VisionTaskError.engineFailed("zxing-cpp 1.4 (\(Self.fileName)): \(error); it is from another version of SwiftVision")
        }
    }
}
