// ML Kit's base image labeler: the labeler, its options and labels (MLKitImageLabelingCommon).
@_exported import MLKitImageLabelingCommon
