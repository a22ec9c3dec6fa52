import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct TextRecognitionTests {
    /// The words of scikit-image's page.png as a person reads them (the code line left out).
    static let accurate = Result { try TextEngine.shared(TextEngineOptions()) }

    /// The share of `expected` words found among the recognised ones (each recognised word counts once).
    static func recall(of expected: [String], in text: RecognizedText) -> Double {
        var words = text.blocks.flatMap(\.lines).flatMap(\.elements).map(\.text)
        let found = expected.filter { word in
            guard let index = words.firstIndex(of: word) else { return false }
            words.remove(at: index)
            return true
        }
        return Double(found.count) / Double(expected.count)
    }

    /// Scenes rendered with known words and the share of them that must be read.
    static let scenes: [(String, Double)] = [
        ("paragraph.png", 0.97), ("paragraph-rotated.png", 0.9), ("small-print.png", 0.9), ("notice-on-bus.jpg", 0.85),
    ]

    @Test(arguments: scenes)
    func readsRenderedWords(name: String, minimumRecall: Double) throws {
        let scene = try VisionFixtures.scene(name, in: VisionFixtures.text, file: \.file)
        let text = try Self.accurate.get().results(in: VisionImage(contentsOfFile: scene.file))
        let recall = Self.recall(of: scene.words.map(\.text), in: text)
        #expect(recall >= minimumRecall, "\(name): read \(text.text)")
    }

    /// libSwiftVisionTesseract.so's stand-in for Tesseract's universal ambiguity table loader is the one the process
    /// finds first once text is read, and `swiftvision text` reads the same words, boxes and confidences with
    /// it as with Tesseract building the table (the support library out of reach), at both levels: on page.png,
    /// on the rendered scenes, and on the paragraph turned a quarter (whose orientation the legacy engine finds).
    @Test func theAmbiguityTableChangesNoWord() throws {
        _ = try Self.accurate.get().results(in: try Fixtures.image("page.png"))
        let support = Fixtures.packageRoot.appendingPathComponent(".build/debug/" + TesseractLibrary.supportFileName).path
        let loaded = try #require(dlopen(support, RTLD_NOW | RTLD_NOLOAD), "\(support) is not loaded")
        defer { dlclose(loaded) }
        let first = dlsym(UnsafeMutableRawPointer(bitPattern: 0), TesseractLibrary.loadUniversal)
        #expect(first != nil && first == dlsym(loaded, TesseractLibrary.loadUniversal))
        let scenes = try ["paragraph.png", "notice-on-bus.jpg", "paragraph-rotated.png"].map {
            try VisionFixtures.scene($0, in: VisionFixtures.text, file: \.file).file
        }
        let inputs = [try Fixtures.sample("page.png").path] + scenes
        let without = ["SWIFTVISION_TESSERACT_SUPPORT_LIBRARY": "/nonexistent/" + TesseractLibrary.supportFileName]
        for level in ["fast", "accurate"] {
            let arguments = ["text", "--json", "--level", level] + inputs
            let skipped = try Fixtures.run(Fixtures.executable, arguments)
            let built = try Fixtures.run(Fixtures.executable, arguments, environment: without)
            #expect(skipped.status == 0 && built.status == 0, "\(skipped.errors) \(built.errors)")
            #expect(skipped.output.split(separator: "\n").count == inputs.count && skipped.output.contains("\"coins\""))
            #expect(skipped.output == built.output, "\(level)")
        }
    }

    /// The rendered paragraph with its pixels turned upside down and a quarter either way: reading it as it
    /// stands finds few or unsure words, so the orientation is looked for and the page read turned.
    @Test(arguments: [ImageOrientation.down, .left, .right])
    func readsTurnedPages(turn: ImageOrientation) throws {
        let scene = try VisionFixtures.scene("paragraph.png", in: VisionFixtures.text, file: \.file)
        let turned = try VisionImage(buffer: VisionImage(contentsOfFile: scene.file).buffer, orientation: turn).upright()
        let text = try Self.accurate.get().results(in: VisionImage(buffer: turned.buffer))
        let recall = Self.recall(of: scene.words.map(\.text), in: text)
        #expect(recall >= 0.9, "\(turn): read \(text.text)")
    }

    @Test func wordBoxesMatchWhereTheWordsWereDrawn() throws {
        let scene = try VisionFixtures.scene("paragraph.png", in: VisionFixtures.text, file: \.file)
        let text = try Self.accurate.get().results(in: VisionImage(contentsOfFile: scene.file))
        let words = text.blocks.flatMap(\.lines).flatMap(\.elements)
        var matched = 0
        for word in scene.words {
            let truth = CGRect(x: word.box[0], y: word.box[1], width: word.box[2], height: word.box[3])
            guard let read = words.first(where: { $0.text == word.text && $0.frame.intersects(truth) }) else { continue }
            let overlap = read.frame.intersection(truth)
            let union = read.frame.union(truth)
            if overlap.width * overlap.height >= 0.6 * union.width * union.height { matched += 1 }
        }
        #expect(Double(matched) >= 0.9 * Double(scene.words.count), "\(matched) of \(scene.words.count) boxes match")
        // Reading order: four lines, top to bottom, in one block.
        let lines = text.blocks.flatMap(\.lines)
        #expect(lines.count == 4 && lines.map(\.frame.minY) == lines.map(\.frame.minY).sorted())
        #expect(text.text.hasPrefix("The quick brown fox"))
        #expect(words.allSatisfy { (0...1).contains($0.confidence) && $0.recognizedLanguage == "eng" })
    }

    @Test func readsTheScannedPageUnderUnevenLight() throws {
        let page = try Fixtures.image("page.png")
        let accurate = try Self.accurate.get().results(in: page)
        #expect(Self.recall(of: Fixtures.pageWords, in: accurate) >= 0.9, "\(accurate.text)")
        // One plain pass over the unevenly lit scan reads much less.
        let fast = try TextEngine.shared(TextEngineOptions(recognitionLevel: .fast)).results(in: page)
        #expect(Self.recall(of: Fixtures.pageWords, in: fast) < Self.recall(of: Fixtures.pageWords, in: accurate))
    }

    /// Without the text line detector (its model not installed), the reading as before it.
    static let withoutDetector = Result { try TextEngine(options: TextEngineOptions(), detector: nil) }

    /// Street photos of ICDAR 2015's incidental scene text (eval/data/scenetext) whose short, scattered words
    /// Tesseract's automatic layout misses: each reads at least one of the words ICDAR publishes for it, in
    /// the sparse-text reading that follows a reading with few or unsure words, or, where the text line detector
    /// is installed, line by line from it. Before those readings, none of these four gave a word
    /// (eval/README.md, "Scene text").
    @Test(arguments: ["img_296.jpg", "img_310.jpg", "img_344.jpg", "img_395.jpg"], [true, false])
    func readsScatteredWordsInAStreetPhoto(name: String, detecting: Bool) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../eval/data/scenetext").standardizedFileURL
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        let words = try #require((truth as? [String: [[String: Any]]])?[name]).compactMap { $0["text"] as? String }
            .filter { $0 != "###" }.map { $0.lowercased() }
        let engine = try (detecting ? Self.accurate : Self.withoutDetector).get()
        let text = try engine.results(in: VisionImage(contentsOfFile: folder.appendingPathComponent(name).path))
        let read = text.blocks.flatMap(\.lines).flatMap(\.elements).map { $0.text.lowercased() }
        #expect(words.contains { read.contains($0) }, "\(name): ICDAR \(words), read \(read)")
    }

    @Test func optionsShapeTheResult() throws {
        let scene = try VisionFixtures.scene("paragraph.png", in: VisionFixtures.text, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let literal = try TextEngine.shared(TextEngineOptions(usesLanguageCorrection: false)).results(in: image)
        #expect(Self.recall(of: scene.words.map(\.text), in: literal) >= 0.9)
        // Lines are about 8 % of this image's height: a 20 % minimum leaves none.
        let tall = try TextEngine.shared(TextEngineOptions(minimumTextHeight: 0.2)).results(in: image)
        #expect(tall.blocks.isEmpty)
        let tagged = try TextEngine.shared(TextEngineOptions(languages: ["en-US"]))
        #expect(tagged.languages == ["eng"])
        #expect(TextEngine.supportedLanguages().contains("eng"))
    }

    @Test func badInputGivesEmptyTextOrClearErrors() async throws {
        let page = try Fixtures.image("page.png")
        func read(_ options: TextEngineOptions) throws -> RecognizedText {
            try TextEngine.shared(options).results(in: page)
        }
        #expect(throws: VisionTaskError.self) { try read(TextEngineOptions(languages: ["tlh"])) }
        #expect(throws: VisionTaskError.self) { try read(TextEngineOptions(languages: [])) }
        #expect(throws: VisionTaskError.self) { try read(TextEngineOptions(minimumTextHeight: 2)) }
        let missing = TextEngineOptions(dataDirectory: URL(fileURLWithPath: "/nonexistent/tessdata"))
        let error = #expect(throws: VisionTaskError.self) { try read(missing) }
        #expect(error?.description.contains("/nonexistent/tessdata") == true)
        // Trained data that Tesseract cannot load (garbage, or cut short) is a clear error, and the
        // failed instance is freed once (it was freed twice, a use-after-free).
        let broken = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data("not trained data".utf8).write(to: broken.appendingPathComponent("eng.traineddata"))
        try Data("not trained data".utf8).write(to: broken.appendingPathComponent("osd.traineddata"))
        for _ in 0..<3 {
            #expect(throws: VisionTaskError.self) { try read(TextEngineOptions(dataDirectory: broken)) }
        }
        let recognizer = try Self.accurate.get()
        let tiny = try VisionImage(pixels: Data([0]), width: 1, height: 1, format: .gray)
        #expect(try recognizer.results(in: tiny).blocks.isEmpty)
        let blank = try VisionImage(pixels: Data(repeating: 255, count: 400 * 300), width: 400, height: 300, format: .gray)
        #expect(try recognizer.results(in: blank).text.isEmpty)
    }

    /// One recogniser serves concurrent callers in turn, with the same results as one at a time.
    @Test func concurrentCallsGiveTheSameText() async throws {
        let scene = try VisionFixtures.scene("small-print.png", in: VisionFixtures.text, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let recognizer = try TextEngine.shared(TextEngineOptions(recognitionLevel: .fast))
        let alone = try recognizer.results(in: image).text
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<3 { group.addTask { try recognizer.results(in: image).text } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts == [alone, alone, alone])
    }
}
