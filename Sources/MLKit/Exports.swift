// Every ML Kit vision API of this package, for programs that import them all at once.
@_exported import MLKitBarcodeScanning
@_exported import MLKitFaceDetection
@_exported import MLKitImageLabeling
@_exported import MLKitImageLabelingCustom
@_exported import MLKitObjectDetection
@_exported import MLKitObjectDetectionCustom
@_exported import MLKitPoseDetection
@_exported import MLKitSegmentationSelfie
@_exported import MLKitTextRecognition
@_exported import MLKitTextRecognitionChinese
@_exported import MLKitTextRecognitionDevanagari
@_exported import MLKitTextRecognitionJapanese
@_exported import MLKitTextRecognitionKorean
