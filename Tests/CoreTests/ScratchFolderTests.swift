import Foundation
import SwiftVisionTestSupport
import Testing

/// The test processes' temporary folders: one per process, removed with it or by the next run.
@Suite struct ScratchFolderTests {
    @Test func temporaryFoldersLieInThisProcesssFolder() throws {
        let folder = try Fixtures.temporaryDirectory()
        #expect(folder.deletingLastPathComponent().lastPathComponent == "swiftvision-tests-\(getpid())")
        #expect(FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func foldersOfFinishedProcessesAreRemovedAndRunningOnesKept() throws {
        let parent = try Fixtures.temporaryDirectory()
        // A process that has exited and been waited for: its ID names no running process.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let names = ["swiftvision-tests-\(finished.processIdentifier)", "swiftvision-tests-1", "swiftvision-tests-\(getpid())",
                     "swiftvision-tests-not-a-process", "other-\(finished.processIdentifier)"]
        for name in names {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent(name + "/inner"), withIntermediateDirectories: true)
        }
        ScratchFolder.removeAbandoned(in: parent)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
        #expect(left == Set(names.dropFirst()))
    }
}
