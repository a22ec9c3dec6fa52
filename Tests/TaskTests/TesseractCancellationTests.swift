import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// A request's cancellation reaches past Tesseract's recognition into the reading of its result: on a noisy
/// image the result iterator takes milliseconds a word for hundreds of words, which ran after a 504 was sent.
@Suite struct TesseractCancellationTests {
    @Test func readingTheResultStopsOnceTheTokenIsCancelled() throws {
        let engine = try TesseractEngine(languages: ["eng"], directory: TesseractLanguage.dataDirectory(nil))
        let page = try Fixtures.image("page.png").uprightGray()
        #expect(try engine.recognize(page, resolution: 300))
        // Read with no token, and with one that is not cancelled: the same words (23 here; `tesseract page.png -`
        // prints 30 words, reading the file's own resolution).
        let words = try engine.recognizedWords()
        #expect(words.count >= 20, "\(words.count) words")
        let open = CancellationToken()
        #expect(try open.run { try engine.recognizedWords() }.map(\.text) == words.map(\.text))
        // Cancelled after the recognition, before the reading: no word is read.
        let cancelled = CancellationToken()
        cancelled.cancel()
        #expect(throws: VisionTaskError.cancelled) { try cancelled.run { try engine.recognizedWords() } }
    }
}
