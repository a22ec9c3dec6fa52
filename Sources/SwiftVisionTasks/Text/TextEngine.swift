import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Recognises printed text with Tesseract 5, as ML Kit's `TextRecognizer`: blocks, lines and
/// words with their boxes and confidences, in reading order.
///
/// Safe to share between threads: each recognition runs on a Tesseract instance of its own, started
/// when every one is busy, up to `parallelRecognitions` of them; past that a recognition waits.
package final class TextEngine: @unchecked Sendable {
    /// The options the recogniser was started with.
    package let options: TextEngineOptions
    /// The Tesseract data names in use, such as `["eng"]`.
    package let languages: [String]
    /// Each instance serves one recognition at a time, which makes the class safe to share.
    private let engines: InstancePool<Engines>
    /// The scene-text line detector for accurate recognition, nil when its model is not installed (the reading
    /// is then as before it: the sparse-text second pass, ``addingSparseWords(to:on:unflattened:reader:)``).
    private let detector: TextLineDetector?
    /// The reader of the detector's lines, nil when its model is not installed (Tesseract then reads each line).
    private let recognizer: TextLineRecognizer?
    /// Tells the recogniser's lines that stand upside down, nil when its model or the recogniser's is not installed
    /// (each line is then read as the detector turned it).
    private let direction: TextDirectionClassifier?

    /// One Tesseract instance that reads text and, for accurate recognition, one that finds the page's
    /// orientation, loaded on a thread of its own while the first one loads and reads.
    private struct Engines {
        let text: TesseractEngine
        let orientation: Prefetched<TesseractEngine?>?
    }

    /// The resolution Tesseract is told the prepared page has.
    static let resolution = 300
    /// The resolution that asks Tesseract to estimate the image's resolution from the size of its text, as it does
    /// for an image that states none: a photo has no paper size. On `make eval`'s scene-text section the sparse
    /// reading (then run on readings of fewer than 10 words) gave word recall 0.092 and precision 0.250 with the
    /// estimate, 0.086 and 0.233 at 300 dpi.
    static let estimatedResolution = 0
    /// Accurate recognition rescales the page so that a typical line is about this many pixels high.
    static let lineHeight = 36.0
    /// Lines between these heights, in pixels, are read as they are.
    static let comfortableLineHeights = 22.0...110.0
    /// Orientation guesses below this confidence (Tesseract's scale) are ignored.
    static let minimumOrientationConfidence: Float = 2
    /// A reading with fewer words, or a lower mean word confidence (0–1), looks turned, and the page's
    /// orientation is checked. Upright test pages read 18 or more words at 0.92–0.97; turned a quarter they read
    /// none or one, upside down 0.35–0.48.
    static let minimumUprightWords = 10
    /// See ``minimumUprightWords``.
    static let minimumUprightConfidence: Float = 0.8
    /// Words of the sparse-text reading (see ``addingSparseWords(to:on:unflattened:reader:)``) below this confidence (0–1) are
    /// left out. Set on `make eval`'s scene-text section (40 ICDAR 2015 photos, 163 words): word recall 0.104 at
    /// 0.7 and 0.8, 0.098 at 0.9; word precision 0.218, 0.288 and 0.286.
    static let minimumSparseConfidence: Float = 0.8
    /// Words read in a detected line below this confidence (0–1) are left out. Set on eval/scenetext_dev.py's DEV
    /// set (60 ICDAR 2015 training photos, 319 words) with the Python prototype of this reading (rapidocr's detector,
    /// Tesseract 5.3 single-line): word recall 0.492, 0.480, 0.455, 0.442, 0.420 and precision 0.401, 0.503, 0.547,
    /// 0.603, 0.641 at 0, 0.3, 0.4, 0.5 and 0.6.
    static let minimumLineWordConfidence: Float = 0.5
    /// Lines that ``TextLineRecognizer`` reads with a lower confidence (the mean probability of their characters,
    /// 0–1) are left out: rapidocr's `text_score`. On eval/scenetext_dev.py's DEV set (60 ICDAR 2015 training photos,
    /// 319 words), with words at 0.7 or more, word recall is 0.473 and precision 0.537 at 0, 0.3, 0.5 and 0.7
    /// alike (the word threshold decides); 0.5 keeps rapidocr's rule for lines of unsure words.
    static let minimumRecognizedLineConfidence: Float = 0.5
    /// Words that ``TextLineRecognizer`` reads with a lower confidence (the mean probability of their characters,
    /// 0–1) are left out: the highest that loses no word on the DEV set. With lines at 0.5: word recall 0.473,
    /// 0.473, 0.473, 0.467, 0.461, 0.448 and precision 0.503, 0.517, 0.537, 0.571, 0.605, 0.653 at 0, 0.6, 0.7, 0.8,
    /// 0.85 and 0.9.
    static let minimumRecognizedWordConfidence: Float = 0.7
    /// A detected line this many times taller than wide is read turned a quarter counter-clockwise, as PaddleOCR
    /// reads its crops.
    static let uprightLineAspect = 1.5

    /// Starts Tesseract with the options' languages, to run up to `parallelRecognitions` recognitions at once.
    /// The accurate level also reads the lines that `detector` finds in a photo (see ``results(in:)``), with
    /// `recognizer` when given (also turned half a turn where `direction` finds lines upside down), else with
    /// Tesseract.
    package init(
        options: TextEngineOptions = .init(), parallelRecognitions: Int = Interpreter.defaultParallelInferences,
        detector: TextLineDetector? = nil, recognizer: TextLineRecognizer? = nil, direction: TextDirectionClassifier? = nil
    ) throws {
        guard (0...1).contains(options.minimumTextHeight) else {
            throw VisionTaskError.invalidOption("must lie in 0…1, not \(options.minimumTextHeight)", key: "minimumTextHeight")
        }
        guard !options.languages.isEmpty else { throw VisionTaskError.invalidOption("no recognition language given") }
        let directory = TesseractLanguage.dataDirectory(options.dataDirectory)
        let installed = TesseractLanguage.installed(in: directory)
        languages = try options.languages.map { language in
            guard let name = TesseractLanguage.tesseractName(for: language, installed: installed) else {
                throw VisionTaskError.unsupportedLanguage(language, installed: installed, directory: directory.path)
            }
            return name
        }
        self.options = options
        self.detector = options.recognitionLevel == .accurate ? detector : nil
        self.recognizer = self.detector == nil ? nil : recognizer
        self.direction = self.recognizer == nil ? nil : direction
        let languages = languages
        engines = try InstancePool(limit: parallelRecognitions) {
            let orientation =
                options.recognitionLevel == .accurate && installed.contains("osd")
                ? Prefetched { try? TesseractEngine(languages: ["osd"], directory: directory, orientationOnly: true) } : nil
            do {
                let text = try TesseractEngine(
                    languages: languages, directory: directory, usesLanguageCorrection: options.usesLanguageCorrection)
                return Engines(text: text, orientation: orientation)
            } catch {
                // Not still loading when the process ends on this error.
                _ = orientation?.value
                throw error
            }
        }
    }

    /// A recogniser for `options` kept by `store`, so that the process starts Tesseract once per set of
    /// options and trained-data file (starting it takes a while), with the cache's text line detector
    /// (``TextLineDetector/defaultModelName``), line recogniser (``TextLineRecognizer/defaultModelName``) and line
    /// direction classifier (``TextDirectionClassifier/defaultModelName``) at the accurate level when they are
    /// installed.
    package static func shared(_ options: TextEngineOptions, store: ModelStore = .shared) throws -> TextEngine {
        func installed(_ name: String) -> URL? {
            let file = SwiftVisionCache.current.model(named: name)
            return options.recognitionLevel == .accurate && FileManager.default.fileExists(atPath: file.path) ? file : nil
        }
        let detector = try installed(TextLineDetector.defaultModelName).map { try TextLineDetector(url: $0, store: store) }
        let recognizer = try installed(TextLineRecognizer.defaultModelName).map { try TextLineRecognizer(url: $0, store: store) }
        let direction = try installed(TextDirectionClassifier.defaultModelName).map {
            try TextDirectionClassifier(url: $0, store: store)
        }
        let directory = TesseractLanguage.dataDirectory(options.dataDirectory)
        let installed = TesseractLanguage.installed(in: directory)
        let main = options.languages.first.flatMap { TesseractLanguage.tesseractName(for: $0, installed: installed) } ?? "eng"
        let data = directory.appendingPathComponent("\(main).traineddata")
        let parallel = store.parallelInferences
        guard FileManager.default.fileExists(atPath: data.path) else {
            return try TextEngine(
                options: options, parallelRecognitions: parallel, detector: detector, recognizer: recognizer,
                direction: direction)
        }
        return try store.resource(kind: "tesseract", file: data, variant: options) { _ in
            try TextEngine(
                options: options, parallelRecognitions: parallel, detector: detector, recognizer: recognizer,
                direction: direction)
        }
    }

    /// The languages with installed data, as Tesseract names them (without `osd`, which only finds orientation).
    package static func supportedLanguages(dataDirectory: URL? = nil) -> [String] {
        TesseractLanguage.installed(in: TesseractLanguage.dataDirectory(dataDirectory)).filter { $0 != "osd" }
    }

    /// The text in `image`, with boxes in its upright pixels.
    package func results(in image: VisionImage) throws -> RecognizedText {
        let upright = try image.uprightGray()
        return try engines.withInstance { engines in
            var page = TextPage(upright: upright)
            var words: [TesseractEngine.Word]
            if options.recognitionLevel == .fast {
                words = try engines.text.words(in: page.gray, resolution: Self.resolution)
            } else {
                let unflattened = page
                (page, words) = try readAccurately(page.flattened(), engines: engines)
                if Self.looksMisread(words), let detector {
                    let lines = try readingLines(detector.lines(in: image), in: image, gray: upright, reader: engines.text)
                    if !lines.isEmpty { return text(from: lines, height: upright.height) }
                }
                words = try addingSparseWords(to: words, on: page, unflattened: unflattened, reader: engines.text)
            }
            return text(from: words, on: page)
        }
    }

    /// Reads the flattened page at a comfortable size, and again turned upright when that reading looks turned and
    /// Tesseract's orientation detection is sure the page is.
    private func readAccurately(_ flattened: TextPage, engines: Engines) throws -> (TextPage, [TesseractEngine.Word]) {
        let reading = try readAtComfortableSize(flattened, reader: engines.text)
        // Waited for even when unused, so that no thread is still loading it when the process ends.
        guard let finder = engines.orientation?.value ?? nil, Self.looksMisread(reading.1) else { return reading }
        let turned = try turnedUpright(flattened, finder: finder)
        guard turned.quarterTurns != flattened.quarterTurns else { return reading }
        return try readAtComfortableSize(turned, reader: engines.text)
    }

    /// The words of a reading with few or mostly unsure words (``looksMisread(_:)``: a photo of a sign or a label
    /// rather than a page), with the words that Tesseract's sparse-text reading is sure of in place of less sure
    /// words of the first reading where they overlap, and as blocks after the first reading's where they do not.
    /// Tesseract's automatic layout looks for columns and paragraphs, and in a photo it often finds none around
    /// short words scattered over the scene. The sparse reading is of the page before its light was flattened (`unflattened`, turned as
    /// `page`) at its own size: flattening assumes dark print on light paper and washes out light letters on a
    /// dark sign, and a page rescaled for lines found in a scene is rarely the better size for its words.
    private func addingSparseWords(
        to words: [TesseractEngine.Word], on page: TextPage, unflattened: TextPage, reader: TesseractEngine
    ) throws -> [TesseractEngine.Word] {
        guard Self.looksMisread(words) else { return words }
        let plain = try unflattened.turned(by: page.quarterTurns).gray
        let (scaleX, scaleY) = (Double(page.gray.width) / Double(plain.width), Double(page.gray.height) / Double(plain.height))
        let sure = try reader.words(in: plain, resolution: Self.estimatedResolution, layout: .sparse).compactMap { sparse in
            var word = sparse
            word.box = CGRect(
                x: sparse.box.minX * scaleX, y: sparse.box.minY * scaleY, width: sparse.box.width * scaleX,
                height: sparse.box.height * scaleY)
            return word.confidence >= Self.minimumSparseConfidence ? word : nil
        }
        guard !sure.isEmpty else { return words }
        // The first reading less its words that a surer sparse word covers; a removed word's block or line
        // start passes to the next word kept.
        var kept: [TesseractEngine.Word] = []
        var (startsBlock, startsLine) = (false, false)
        for var word in words {
            if sure.contains(where: { $0.confidence > word.confidence && Self.overlapMostly($0.box, word.box) }) {
                startsBlock = startsBlock || word.startsBlock
                startsLine = startsLine || word.startsLine
                continue
            }
            word.startsBlock = word.startsBlock || startsBlock
            word.startsLine = word.startsLine || startsLine || startsBlock
            (startsBlock, startsLine) = (false, false)
            kept.append(word)
        }
        var added = sure.filter { word in !kept.contains { Self.overlapMostly($0.box, word.box) } }
        guard !added.isEmpty else { return kept }
        added[0].startsBlock = true
        added[0].startsLine = true
        return kept + added
    }

    /// The words of each detected line (`quadrilaterals`, upright pixels), its crop warped upright and read by
    /// ``TextLineRecognizer`` from `image` (words of lines at ``minimumRecognizedLineConfidence`` and at
    /// ``minimumRecognizedWordConfidence`` or more), also turned half a turn where ``linesReadBothWays(_:)`` says
    /// (the surer reading kept), or without the recogniser by Tesseract as a single line from `gray`, the upright gray
    /// image (words at ``minimumLineWordConfidence`` or more), with their boxes taken back to upright pixels; lines
    /// without such a word are left out. Each line keeps its detected turned rectangle as its corners
    /// and each word the inverse warp of its box's corners, both top left first in the text's direction. Used in
    /// place of the first reading when that looks misread (``looksMisread(_:)``): on the DEV set
    /// (eval/scenetext_dev.py) the first reading's words added to Tesseract's took precision from 0.603 to 0.324 for
    /// recall 0.442 to 0.467.
    private func readingLines(
        _ quadrilaterals: [Quadrilateral], in image: VisionImage, gray: PixelBuffer, reader: TesseractEngine
    ) throws -> [TextLine] {
        let page = try recognizer == nil ? VisionImage(buffer: gray) : image.upright()
        // Top to bottom, then left to right, by each line's top left corner.
        let ordered = quadrilaterals.sorted { ($0.topLeft.y, $0.topLeft.x) < ($1.topLeft.y, $1.topLeft.x) }
        // Each line's crop, turned a quarter counter-clockwise where it stands tall; corners clipped to the image can
        // leave a box flat or folded: nothing to read there.
        let lines = try ordered.filter { $0.isConvex && $0.area >= 1 }.map { quadrilateral in
            let warped = try page.perspectiveCorrected(quadrilateral).buffer
            let crop = try recognizer == nil ? warped.converted(to: .gray) : warped
            let turned = Double(crop.height) >= Self.uprightLineAspect * Double(crop.width)
            let line = turned ? try VisionImage(buffer: crop, orientation: .left).upright().buffer : crop
            return (quadrilateral: quadrilateral, crop: crop, line: line, turned: turned)
        }
        let bothWays = try linesReadBothWays(lines.map(\.line))
        return try zip(lines, bothWays).compactMap { entry, bothWays -> TextLine? in
            let (quadrilateral, line, turned) = (entry.quadrilateral, entry.line, entry.turned)
            let (width, height) = (Double(entry.crop.width), Double(entry.crop.height))
            let (right, bottom) = (Double(line.width - 1), Double(line.height - 1))
            // The crop's corners are the quadrilateral's (VisionImage.perspectiveCorrected).
            let back = try Homography(
                from: Quadrilateral(rect: CGRect(x: 0, y: 0, width: width - 1, height: height - 1)), to: quadrilateral)
            let (read, upsideDown) =
                try recognizer.map { try Self.words(of: line, by: $0, bothWays: bothWays) }
                ?? (Self.words(of: line, by: reader), false)
            let words = read.map { read in
                let corners = Quadrilateral(rect: read.box).applying { corner in
                    // Half a turn took the line's (x, y) to (right − x, bottom − y), a quarter turn counter-clockwise
                    // the crop's (x, y) to (y, width − x).
                    let point = upsideDown ? CGPoint(x: right - corner.x, y: bottom - corner.y) : corner
                    return back.apply(to: turned ? CGPoint(x: width - point.y, y: point.x) : point)
                }
                return TextElement(text: read.text, corners: corners, confidence: read.confidence, recognizedLanguage: read.language)
            }
            guard !words.isEmpty else { return nil }
            // Read turned a quarter, the line's text starts at the crop's top right corner; half a turn, at the
            // bottom right corner of the line so far.
            let q = quadrilateral
            let along = turned
                ? Quadrilateral(topLeft: q.topRight, topRight: q.bottomRight, bottomRight: q.bottomLeft, bottomLeft: q.topLeft)
                : q
            return TextLine(
                elements: words,
                corners: upsideDown
                    ? Quadrilateral(
                        topLeft: along.bottomRight, topRight: along.bottomLeft, bottomRight: along.topLeft,
                        bottomLeft: along.topRight)
                    : along)
        }
    }

    /// The words that `reader` reads in `line` as a single line at ``minimumLineWordConfidence`` or more, in its
    /// pixels.
    private static func words(of line: PixelBuffer, by reader: TesseractEngine) throws -> [TesseractEngine.Word] {
        // Light letters on a dark sign may read better inverted: of the two readings the one with the surer words
        // is kept. On the DEV set: recall 0.433 to 0.445 at precision 0.577, 7 % more CPU time.
        let readings = try [line, line.inverted()].map {
            try reader.words(in: $0, resolution: Self.resolution, layout: .singleLine)
        }
        let read = readings.max { meanConfidence($0) < meanConfidence($1) } ?? []
        return read.filter { $0.confidence >= minimumLineWordConfidence }
    }

    /// The words that `recognizer` reads in `line` (see ``words(of:in:)``), and whether they were read with the line
    /// turned half a turn, in the turned line's pixels then: with `bothWays`, the line is read turned too and the
    /// reading with the higher confidence kept.
    private static func words(
        of line: PixelBuffer, by recognizer: TextLineRecognizer, bothWays: Bool
    ) throws -> ([TesseractEngine.Word], Bool) {
        let reading = try recognizer.read(line)
        guard bothWays else { return (Self.words(of: reading, in: line), false) }
        let turned = try VisionImage(buffer: line, orientation: .down).upright().buffer
        let turnedReading = try recognizer.read(turned)
        return turnedReading.confidence > reading.confidence
            ? (Self.words(of: turnedReading, in: turned), true) : (Self.words(of: reading, in: line), false)
    }

    /// Which of a photo's `lines` (each as it would be read) to read both ways (``words(of:by:bothWays:)``): those
    /// ``TextDirectionClassifier`` finds upside down, and all of them where more are upside down than surely upright.
    /// On eval/scenetext_dev.py's DEV set (60 ICDAR 2015 training photos, 319 words), word recall and precision
    /// upright / turned half a turn: 0.473 / 0.537 and 0.009 / 0.034 without the classifier; turning each line as it
    /// says (rapidocr's rule) 0.464 / 0.544 and 0.373 / 0.543 (it turned a few upright lines, whose words were then
    /// lost); reading those lines both ways 0.480 / 0.539 and 0.373 / 0.543; in a photo of mostly upside-down lines
    /// also those it leans to upside down (above 0.5) 0.480 / 0.539 and 0.433 / 0.531; all lines of such a photo (this
    /// rule) 0.480 / 0.539 and 0.480 / 0.528, the photos turned a quarter clockwise 0.279 / 0.511 (0.279 / 0.514
    /// before the rule), counter-clockwise 0.257 / 0.516 (0.248 / 0.556). Before the classifier, reading every line
    /// both ways whose confidence was below 0.7 found 2 more upright words (below 0.9: none more), for a second
    /// reading of most lines.
    private func linesReadBothWays(_ lines: [PixelBuffer]) throws -> [Bool] {
        guard let direction else { return lines.map { _ in false } }
        let directions = try lines.map { try direction.direction(of: $0) }
        let upsideDown = directions.filter(\.isUpsideDown).count
        let upright = directions.filter(\.isSurelyUpright).count
        return upsideDown > upright ? lines.map { _ in true } : directions.map(\.isUpsideDown)
    }

    /// The words of `reading`, the recogniser's reading of `line` (none when the line's confidence is below
    /// ``minimumRecognizedLineConfidence``), at ``minimumRecognizedWordConfidence`` or more, each boxed from its
    /// extent along the line over the line's height, in its pixels.
    private static func words(of reading: TextLineRecognizer.Reading, in line: PixelBuffer) -> [TesseractEngine.Word] {
        guard reading.confidence >= minimumRecognizedLineConfidence else { return [] }
        let (right, bottom) = (Double(line.width - 1), Double(line.height - 1))
        return reading.words.compactMap { word in
            guard word.confidence >= minimumRecognizedWordConfidence else { return nil }
            let (minX, maxX) = (min(word.minX, right), min(word.maxX, right))
            return TesseractEngine.Word(
                text: word.text, box: CGRect(x: minX, y: 0, width: maxX - minX, height: bottom),
                confidence: word.confidence, language: word.text.unicodeScalars.contains { $0.properties.isIdeographic }
                    ? "chi_sim" : "eng",
                startsBlock: false, startsLine: false)
        }
    }

    /// One block of one line per detected line, without lines below the minimum height (of an image `height`
    /// pixels high).
    private func text(from lines: [TextLine], height: Int) -> RecognizedText {
        let minimumHeight = Double(options.minimumTextHeight) * Double(height)
        return RecognizedText(
            blocks: lines
                // The height of the words' boxes, not of the detected rectangle around them.
                .filter { Double($0.wordsFrame.height) >= minimumHeight }
                .map { TextBlock(lines: [$0]) })
    }

    /// The mean confidence of `words`, 0 for none.
    private static func meanConfidence(_ words: [TesseractEngine.Word]) -> Float {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Float(words.count)
    }

    /// Whether two boxes share more than half of the smaller one.
    private static func overlapMostly(_ a: CGRect, _ b: CGRect) -> Bool {
        let shared = a.intersection(b)
        guard !shared.isNull else { return false }
        return shared.width * shared.height > 0.5 * min(a.width * a.height, b.width * b.height)
    }

    /// Whether a reading of the page as it stands may be of text sideways or upside down: few words, or words
    /// Tesseract is mostly unsure of. Only then is the page's orientation looked for (and the page read again
    /// when it is turned), so a page read well upright costs no orientation detection.
    static func looksMisread(_ words: [TesseractEngine.Word]) -> Bool {
        guard words.count >= minimumUprightWords else { return true }
        return words.map(\.confidence).reduce(0, +) / Float(words.count) < minimumUprightConfidence
    }

    /// The page turned upright when Tesseract's orientation detection is sure it is not.
    private func turnedUpright(_ page: TextPage, finder: TesseractEngine) throws -> TextPage {
        try CancellationToken.checkpoint()
        let sample = try page.scaled(by: min(1, 2000 / Double(max(page.gray.width, page.gray.height))))
        guard let found = finder.orientation(of: sample.gray, resolution: Self.resolution),
            found.confidence >= Self.minimumOrientationConfidence, found.degrees % 360 != 0
        else { return page }
        return try page.turned(by: -found.degrees / 90)
    }

    /// Reads the page, then once more rescaled if its lines are too small or too large for Tesseract.
    private func readAtComfortableSize(_ page: TextPage, reader: TesseractEngine) throws -> (TextPage, [TesseractEngine.Word]) {
        var page = page
        // Tiny images hold tiny text: enlarge them before the first reading.
        if max(page.gray.width, page.gray.height) < 800 {
            page = try page.scaled(by: 2)
        }
        let words = try reader.words(in: page.gray, resolution: Self.resolution)
        let heights = Self.lineHeights(of: words).sorted()
        guard !heights.isEmpty else { return (page, words) }
        let median = heights[heights.count / 2]
        guard !Self.comfortableLineHeights.contains(median) else { return (page, words) }
        let factor = min(4, Self.lineHeight / median)
        guard Double(page.gray.width * page.gray.height) * factor * factor <= 60_000_000 else { return (page, words) }
        let rescaled = try page.scaled(by: factor)
        return (rescaled, try reader.words(in: rescaled.gray, resolution: Self.resolution))
    }

    /// The height of each line of `words`.
    private static func lineHeights(of words: [TesseractEngine.Word]) -> [Double] {
        var heights: [Double] = []
        var line = CGRect.null
        for word in words {
            if word.startsLine, !line.isNull {
                heights.append(Double(line.height))
                line = .null
            }
            line = line.union(word.box)
        }
        if !line.isNull { heights.append(Double(line.height)) }
        return heights
    }

    /// Blocks of lines of words in the upright image's pixels, without lines below the minimum height.
    private func text(from words: [TesseractEngine.Word], on page: TextPage) -> RecognizedText {
        var blocks: [TextBlock] = []
        for word in words {
            let element = TextElement(
                text: word.text, frame: page.uprightRect(word.box), confidence: word.confidence,
                recognizedLanguage: word.language)
            if word.startsBlock || blocks.isEmpty {
                blocks.append(TextBlock(lines: []))
            }
            if word.startsLine || blocks[blocks.count - 1].lines.isEmpty {
                blocks[blocks.count - 1].lines.append(TextLine(elements: []))
            }
            let last = blocks[blocks.count - 1].lines.count - 1
            blocks[blocks.count - 1].lines[last].elements.append(element)
        }
        let minimumHeight = Double(options.minimumTextHeight) * Double(page.uprightSize.height)
        for index in blocks.indices {
            blocks[index].lines.removeAll { Double($0.frame.height) < minimumHeight }
        }
        return RecognizedText(blocks: blocks.filter { !$0.lines.isEmpty })
    }
}
