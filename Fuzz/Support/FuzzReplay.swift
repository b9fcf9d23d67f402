import Foundation

/// The entry point of a fuzz target in a plain (non-libFuzzer) build: runs `check` on every file named on the
/// command line, or on every file in a named folder, so a corpus or a crash input can be replayed with
/// `BOTHAM_FUZZ=1 swift run FuzzX Fuzz/Corpus/FuzzX`.
public enum FuzzReplay {
    /// Replays the inputs named by `arguments` through `check` and returns how many ran.
    @discardableResult
    public static func run(arguments: [String], check: ([UInt8]) -> Void) -> Int {
        var count = 0
        for path in arguments {
            for file in inputFiles(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("cannot read \(file)")
                    continue
                }
                check([UInt8](data))
                count += 1
            }
        }
        print("replayed \(count) input(s)")
        return count
    }

    private static func inputFiles(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
    }
}
