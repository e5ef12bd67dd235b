import Foundation
import Game

/// A level file that could not be read at all (as opposed to one that does not parse).
struct LevelFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): cannot read the level file: \(reason)" }
}

/// The bundled level, or the one at `path`.
func loadLevel(path: String?) throws -> Level {
    guard let path else { return BundledLevels.defaultLevel() }
    let data: Data
    do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
        throw LevelFileError(path: path, reason: "no such file")
    } catch let error as CocoaError where error.code == .fileReadNoPermission {
        throw LevelFileError(path: path, reason: "permission denied")
    } catch {
        throw LevelFileError(path: path, reason: error.localizedDescription)
    }
    guard let text = String(data: data, encoding: .utf8) else {
        throw LevelFileError(path: path, reason: "it is not UTF-8 text")
    }
    return try LevelParser(file: path).parse(text)
}
