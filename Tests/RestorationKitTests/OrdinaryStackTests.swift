import Foundation
import XCTest
@testable import RestorationKit

/// Every public call and every command's work runs on the caller's thread, and fits the 512 KiB
/// of a secondary thread on Apple systems at the largest limits the command line accepts: 256
/// keyed archives inside one another, values 4 096 levels deep. Nothing hops to a thread with a
/// larger stack (there is none to hop to), so a recursion per level of input would crash here.
final class OrdinaryStackTests: XCTestCase {
    /// `--max-depth 4096 --max-archive-depth 256`, the command line's largest.
    let limits = DecodingLimits(maxDepth: 4096, maxArchiveDepth: 256)
    let stackSize = 512 << 10

    /// A restoration archive of one object, "Root", whose state `state` encodes, written by
    /// Foundation's NSKeyedArchiver.
    private func restorationArchive(state: (NSKeyedArchiver) -> Void) -> Data {
        let objectArchiver = NSKeyedArchiver(requiringSecureCoding: false)
        state(objectArchiver)
        objectArchiver.finishEncoding()
        let outer = NSKeyedArchiver(requiringSecureCoding: false)
        outer.encode(2, forKey: "kUIStateRestorationArchiveMajorVersionKey")
        outer.encode(1, forKey: "kUIStateRestorationArchiveMinorVersionKey")
        outer.encode(["Root"] as NSArray, forKey: "kRootRestorationIdentifiersKey")
        outer.encode(objectArchiver.encodedData as NSData, forKey: "Root")
        outer.finishEncoding()
        return outer.encodedData
    }

    /// Keyed archives `archives` deep in all, the file's and the object's included, the
    /// innermost holding `leaf`.
    private func nestedArchives(_ archives: Int, leaf: String) -> Data {
        var data = Data(leaf.utf8)
        for _ in 0..<(archives - 2) {
            let archiver = NSKeyedArchiver(requiringSecureCoding: false)
            archiver.encode(data as NSData, forKey: "inner")
            archiver.finishEncoding()
            data = archiver.encodedData
        }
        return restorationArchive { $0.encode(data as NSData, forKey: "value") }
    }

    /// An object whose state holds arrays `levels` deep, in an XML archive (Foundation's
    /// archiver compares nested arrays in full to share equal ones, which takes hours here).
    private func deepValue(_ levels: Int, leaf: String) -> Data {
        let state = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
            + "<key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>"
            + "<key>$top</key><dict><key>value</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>"
            + "<key>$objects</key><array><string>$null</string>"
            + String(repeating: "<array>", count: levels) + "<string>\(leaf)</string>" + String(repeating: "</array>", count: levels)
            + "</array></dict></plist>\n"
        return restorationArchive { $0.encode(Data(state.utf8) as NSData, forKey: "value") }
    }

    func testEveryCommandsWorkFitsASecondaryThreadsStack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ordinary-stack-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            ("nested-a.data", nestedArchives(256, leaf: "a")), ("nested-b.data", nestedArchives(256, leaf: "b")),
            ("deep-a.data", deepValue(4_000, leaf: "a")), ("deep-b.data", deepValue(4_000, leaf: "b")),
            ("too-nested.data", nestedArchives(257, leaf: "a")),
        ]
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        let paths = files.map { folder.appendingPathComponent($0.0).path }
        let limits = limits
        let outcome = try onSmallStack(timeout: 300, stackSize: stackSize) { () -> [String] in
            var seen: [String] = []
            for pair in [(paths[0], paths[1]), (paths[2], paths[3])] {
                let a = try RestorationArchive(contentsOf: pair.0, limits: limits)
                let b = try RestorationArchive.read(contentsOf: [pair.1], limits: limits)[0].get()
                let text = try XCTUnwrap(TextDumpFormatter().format(a, file: "a", outputLimit: .max))
                let json = JSONOutput.text([DumpDocument(file: "a", archive: a)], asArray: false)
                let report = ArchiveValidator().report(for: a, file: "a")
                let changes = ArchiveDiffer().diff(a, b)
                let compared = RestorationArchive.readForComparison(contentsOf: [pair.0, pair.1], limits: limits)
                let comparedChanges = try ArchiveDiffer().diff(compared[0].get(), compared[1].get())
                let tree = RestorationTree(a)
                let treeText = TreeTextFormatter(style: TextStyle(enabled: false)).format(tree)
                let graph = TreeGraphFormatter(language: .dot).format([(file: "a", tree: tree)])
                let keyed = try KeyedArchiveDecoder(limits: limits).decode(try InputFile.read(pair.0, limit: limits.maxInputBytes)[...])
                seen.append([
                    "\(a.objects.count) objects", "text \(text.utf8.count > 0)", "json \(json.hasSuffix("}\n"))", report.verdict.description,
                    "\(changes.count) changes", "\(comparedChanges == changes)", "tree \(treeText.contains("Root"))", "graph \(graph.contains("digraph"))",
                    "same \(a == a) \(a == b)", "top \(keyed.top.count)",
                ].joined(separator: ", "))
            }
            // The archive one level too deep is refused with the limit's error.
            do throws(ArchiveError) {
                _ = try RestorationArchive(contentsOf: paths[4], limits: limits)
                seen.append("too-nested read")
            } catch {
                seen.append(error.reason)
            }
            // Each file as the data.data of an app's .savedState folder.
            let scanned = folder.appendingPathComponent("scanned")
            for (index, path) in paths.enumerated() {
                let savedState = scanned.appendingPathComponent("com.example.app\(index).savedState")
                try FileManager.default.createDirectory(at: savedState, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: path, toPath: savedState.appendingPathComponent("data.data").path)
            }
            let inProgress = "<plist version=\"1.0\"><dict><key>kRestorationTriesLeft</key><integer>1</integer><key>deep</key>"
                + String(repeating: "<array>", count: 4_000) + "<true/>" + String(repeating: "</array>", count: 4_000) + "</dict></plist>"
            try Data(inProgress.utf8).write(to: scanned.appendingPathComponent("com.example.app0.savedState/inprogress.data"))
            let scan = ArchiveScanner(limits: limits).scan([scanned.path])
            seen.append("scan \(scan.rows.count) rows, \(scan.rows.filter { $0.reason != nil }.count) with a reason")
            // A side file 4 000 levels deep is read without a tree.
            let sidecars = SavedStateDirectory.sidecarDiagnostics(in: scanned.appendingPathComponent("com.example.app0.savedState").path, limits: limits)
            seen.append(sidecars.map(\.message).joined())
            return seen
        }
        XCTAssertEqual(outcome, [
            "1 objects, text true, json true, valid (0 errors, 0 warnings), 1 changes, true, tree true, graph true, same true false, top 4",
            "1 objects, text true, json true, valid (0 errors, 0 warnings), 1 changes, true, tree true, graph true, same true false, top 4",
            "keyed archives nest deeper than the limit of 256 levels (--max-archive-depth)",
            "scan 5 rows, 1 with a reason",
            "inprogress.data shows a restore was interrupted and 1 attempt is left: if the next restore is interrupted too, UIKit deletes the archive",
        ])
    }
}
