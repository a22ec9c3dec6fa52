// ML Kit's base object detector: the detector, its options and objects (MLKitObjectDetectionCommon).
@_exported import MLKitObjectDetectionCommon
