import SwiftVisionRuntime

/// A model file on this machine, as ML Kit's `LocalModel(path:)`.
public typealias LocalModel = SwiftVisionRuntime.LocalModel
/// A model downloaded by name from a model host, as ML Kit's remote models.
public typealias RemoteModel = SwiftVisionRuntime.RemoteModel
/// Downloads remote models and says which are on disk, as ML Kit's `ModelManager`.
public typealias ModelManager = SwiftVisionRuntime.ModelManager
/// When a remote model may be downloaded, as ML Kit's `ModelDownloadConditions`.
public typealias ModelDownloadConditions = SwiftVisionRuntime.ModelDownloadConditions
/// The keys of a download notification's `userInfo`, as ML Kit's `ModelDownloadUserInfoKey`.
public typealias ModelDownloadUserInfoKey = SwiftVisionRuntime.ModelDownloadUserInfoKey
