@_exported import MLKitImageLabelingCommon

/// ML Kit's name for the options of a labeler with a custom model: `CustomImageLabelerOptions(localModel:)`.
public typealias CustomImageLabelerOptions = ImageLabelerOptions
