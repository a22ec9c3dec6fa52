import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Tesseract's language data: where it is installed and how languages are named.
package enum TesseractLanguage {
    /// Folders where distributions install `.traineddata` files, searched in order after `$TESSDATA_PREFIX`.
    static let systemDirectories = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
        "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
    ]

    /// BCP 47 language subtags (and script variants) with the names of Tesseract's data for them.
    package static let bcp47: [String: String] = [
        "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "sv": "swe",
        "da": "dan", "nb": "nor", "no": "nor", "fi": "fin", "pl": "pol", "cs": "ces", "sk": "slk", "hu": "hun",
        "ro": "ron", "tr": "tur", "el": "ell", "ru": "rus", "uk": "ukr", "bg": "bul", "ar": "ara", "he": "heb",
        "hi": "hin", "th": "tha", "vi": "vie", "ja": "jpn", "ko": "kor", "zh-Hans": "chi_sim", "zh-Hant": "chi_tra",
        "zh": "chi_sim",
    ]

    /// The data folder: `directory` if given, else `$TESSDATA_PREFIX` (the folder itself or its
    /// `tessdata` subfolder), else the first system folder holding any data.
    static func dataDirectory(_ directory: URL?) -> URL {
        if let directory { return directory }
        var candidates: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            candidates += [prefix, (prefix as NSString).appendingPathComponent("tessdata")]
        }
        candidates += systemDirectories
        let found = candidates.first { !installed(in: URL(fileURLWithPath: $0)).isEmpty }
        return URL(fileURLWithPath: found ?? systemDirectories[0], isDirectory: true)
    }

    /// The languages with a `.traineddata` file in `directory`, sorted.
    static func installed(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }.sorted()
    }

    /// Tesseract's name for `language`: itself if installed, else the data for its BCP 47 tag
    /// (`en-US` → `eng`, `zh-Hant-TW` → `chi_tra`).
    static func tesseractName(for language: String, installed: [String]) -> String? {
        if installed.contains(language) { return language }
        let parts = language.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        guard let first = parts.first?.lowercased() else { return nil }
        let withScript = parts.count > 1 ? "\(first)-\(parts[1])" : first
        return (bcp47[withScript] ?? bcp47[first]).flatMap { installed.contains($0) ? $0 : nil }
    }
}
