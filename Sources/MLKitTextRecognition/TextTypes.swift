@_exported import MLKitVision
import SwiftVisionTasks

/// The text recognised in an image, as ML Kit's `Text`.
public typealias Text = SwiftVisionTasks.RecognizedText
/// A block of text (a paragraph or column), as ML Kit's `TextBlock`.
public typealias TextBlock = SwiftVisionTasks.TextBlock
/// A line of a block, as ML Kit's `TextLine`.
public typealias TextLine = SwiftVisionTasks.TextLine
/// A word of a line, as ML Kit's `TextElement`.
public typealias TextElement = SwiftVisionTasks.TextElement
/// The options of a ``TextRecognizer``, as ML Kit's `TextRecognizerOptions`.
public typealias TextRecognizerOptions = SwiftVisionTasks.TextEngineOptions
