import SwiftVisionRuntime

/// A model file on this machine, as ML Kit's `LocalModel(path:)`.
public typealias LocalModel = SwiftVisionRuntime.LocalModel
/// A model downloaded into the model cache, from an address or by name from the model host, as ML Kit's
/// remote models.
public typealias RemoteModel = SwiftVisionRuntime.RemoteModel
/// ML Kit's `CustomRemoteModel`: on Linux every remote model is a custom one, so this is ``RemoteModel``
/// itself, made with `CustomRemoteModel(remoteModelSource:)`.
public typealias CustomRemoteModel = SwiftVisionRuntime.RemoteModel
/// Downloads remote models and says which are on disk, as ML Kit's `ModelManager`.
public typealias ModelManager = SwiftVisionRuntime.ModelManager
/// The server that hosts models by name in place of Firebase (`swiftvision serve --models`).
public typealias ModelHost = SwiftVisionRuntime.ModelHost
/// When a remote model may be downloaded, as ML Kit's `ModelDownloadConditions`.
public typealias ModelDownloadConditions = SwiftVisionRuntime.ModelDownloadConditions
/// The keys of a download notification's `userInfo`, as ML Kit's `ModelDownloadUserInfoKey`.
public typealias ModelDownloadUserInfoKey = SwiftVisionRuntime.ModelDownloadUserInfoKey
