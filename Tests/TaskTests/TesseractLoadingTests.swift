import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Tesseract is loaded with `dlopen` when text is first recognised, not linked: the binaries start without
/// Tesseract, Leptonica and their image libraries (issue 15), and a missing library is a clear error.
@Suite struct TesseractLoadingTests {
    static func isTesseractOrLeptonica(_ library: String) -> Bool {
        library.hasPrefix("libtesseract") || library.hasPrefix("liblept")
    }

    @Test func theCommandLineNeedsNoTesseractAndStillReadsText() throws {
        let executable = Fixtures.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "run `swift build` first")
        let needed = try Fixtures.neededLibraries(of: executable)
        #expect(needed.contains { $0.hasPrefix("libc.so") }, "readelf listed \(needed)")
        #expect(!needed.contains(where: Self.isTesseractOrLeptonica), "\(needed)")

        let run = try Fixtures.run(executable, ["text", "--json", try Fixtures.sample("page.png").path])
        #expect(run.status == 0, "\(run.errors)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let words = (line["text"] as? String ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        let found = Fixtures.pageWords.filter(words.contains)
        #expect(Double(found.count) >= 0.9 * Double(Fixtures.pageWords.count), "read \(words)")
    }

    @Test func recognisingTextLoadsTesseractIntoThisProcess() throws {
        let needed = try Fixtures.neededLibraries(of: URL(fileURLWithPath: "/proc/self/exe"))
        #expect(needed.contains { $0.hasPrefix("libc.so") }, "readelf listed \(needed)")
        #expect(!needed.contains(where: Self.isTesseractOrLeptonica), "\(needed)")

        let text = try TextRecognitionTests.accurate.get().results(in: try Fixtures.image("page.png"))
        #expect(TextRecognitionTests.recall(of: Fixtures.pageWords, in: text) >= 0.9, "read \(text.text)")
        // /proc files report no size: read them to their end.
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile()
        #expect(String(decoding: maps, as: UTF8.self).contains("/libtesseract.so.5"))
    }

    @Test func aMissingLibraryIsAClearError() throws {
        #expect {
            try TesseractLibrary(name: "libtesseract.so.0-absent")
        } throws: { error in
            guard case .tesseractNotInstalled(let library, let reason) = error as? VisionTaskError else { return false }
            let message = (error as? VisionTaskError)?.description ?? ""
            return library == "libtesseract.so.0-absent" && reason.contains("libtesseract.so.0-absent")
                && message.hasPrefix("Tesseract 5 (libtesseract.so.0-absent) is not installed")
                && message.contains("apt install libtesseract5")
        }
        // zlib loads but has none of Tesseract's functions: the first one bound is named.
        #expect(throws: VisionTaskError.tesseractNotInstalled(library: "libz.so.1", reason: "missing function TessDeleteText")) {
            try TesseractLibrary(name: "libz.so.1")
        }
    }
}
