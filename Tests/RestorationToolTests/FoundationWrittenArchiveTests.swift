import Foundation
import XCTest

/// A whole UIKit-shaped restoration archive written by Foundation's `NSKeyedArchiver` (an encoder
/// we did not write), laid out as FORMAT.md's Evidence shows: the outer `$top` keys, one keyed
/// archive per saved object, views under `kViewRestorationDataKey`, references as
/// `_UIObjectIdentifierPathProxy`. Every command reads it, and `dump --json` gives back the values
/// Foundation's `NSKeyedUnarchiver` reads.
final class FoundationWrittenArchiveTests: XCTestCase {
    static let tab = "TabController"
    static let first = tab + "/:[0]:/_TtC4Demo19FirstViewController"
    static let nav = tab + "/:[1]:/NavigationController"
    static let list = nav + "/:[0]:/_TtC4Demo18ListViewController"
    static let table = list + "/TableView"

    private func archived(_ format: PropertyListSerialization.PropertyListFormat, _ body: (NSKeyedArchiver) -> Void) throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format
        body(archiver)
        archiver.finishEncoding()
        // Rename the proxy class as UIKit's.
        var plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: archiver.encodedData, format: nil) as? [String: Any])
        let proxyName = NSStringFromClass(UIKitPathProxy.self)
        plist["$objects"] = (plist["$objects"] as? [Any])?.map { object -> Any in
            guard var description = object as? [String: Any], description["$classname"] as? String == proxyName else { return object }
            description["$classname"] = "_UIObjectIdentifierPathProxy"
            description["$classes"] = ["_UIObjectIdentifierPathProxy", "NSObject"]
            return description
        }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
    }

    private func restorationArchive(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        let tableView = try archived(format) { $0.encode("{0, 44}", forKey: "kScrollViewContentOffsetKey") }
        let states: [(String, Data)] = [
            (Self.tab, try archived(format) {
                $0.encode(UIKitPathProxy(Self.nav), forKey: "kTabBarSelectedViewControllerKey")
                $0.encode(true, forKey: "kViewControllerViewWasLoadedKey")
            }),
            (Self.first, try archived(format) {
                $0.encode(Float(0.8926057), forKey: "encodingKeySliderValue")
                $0.encode(true, forKey: "kViewControllerViewWasLoadedKey")
            }),
            (Self.nav, try archived(format) {
                $0.encode(NSArray(array: [Self.list]), forKey: "kUIViewControllerChildrenKey")
                $0.encode(true, forKey: "kViewControllerViewWasLoadedKey")
            }),
            (Self.list, try archived(format) {
                $0.encode(true, forKey: "kViewControllerViewWasLoadedKey")
                $0.encode(NSDictionary(dictionary: [Self.table: NSData(data: tableView)]), forKey: "kViewRestorationDataKey")
                $0.encode(Int64(-7), forKey: "selectedRow")
            }),
        ]
        return try archived(format) { coder in
            coder.encode(2, forKey: "kUIStateRestorationArchiveMajorVersionKey")
            coder.encode(1, forKey: "kUIStateRestorationArchiveMinorVersionKey")
            coder.encode("7", forKey: "UIApplicationStateRestorationBundleVersion")
            coder.encode("17.5", forKey: "UIApplicationStateRestorationSystemVersion")
            coder.encode(NSDate(timeIntervalSinceReferenceDate: 738_921_660.25), forKey: "UIApplicationStateRestorationTimestamp")
            coder.encode(0, forKey: "UIApplicationStateRestorationUserInterfaceIdiom")
            coder.encode(NSArray(array: states.map(\.0)), forKey: "kRootRestorationIdentifiersKey")
            coder.encode(NSDictionary(dictionary: [Self.list: "_TtC4Demo18ListViewController"]), forKey: "kViewControllerRestorationClassMapKey")
            for (path, state) in states { coder.encode(NSData(data: state), forKey: path) }
        }
    }

    func testEveryCommandReadsIt() throws {
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("foundation-\(UUID().uuidString).data")
            defer { try? FileManager.default.removeItem(at: file) }
            try restorationArchive(format).write(to: file)
            let label = format == .xml ? "xml" : "binary"

            let validate = try ToolRunner.run(["validate", "--strict", file.path])
            XCTAssertEqual(validate.stdout, "\(file.path): valid (0 errors, 0 warnings)\n", label + validate.stderr)

            let tree = try ToolRunner.run(["tree", file.path])
            XCTAssertEqual(tree.stdout, """
                TabController
                ├── [0] _TtC4Demo19FirstViewController
                └── [1] NavigationController  (selected)
                    └── [0] _TtC4Demo18ListViewController  class Demo.ListViewController  (views: TableView)
                4 objects, 1 view, 0 dangling references

                """, label)

            let dump = try ToolRunner.run(["dump", file.path])
            XCTAssertEqual(dump.status, 0, label + dump.stderr)
            for shown in ["Timestamp...............2024-06-01T08:01:00.25Z", "kTabBarSelectedViewControllerKey....Object Identifier Proxy: \(Self.nav)",
                          "selectedRow........................-7", "kScrollViewContentOffsetKey....\"{0, 44}\""] {
                XCTAssertTrue(dump.stdout.contains(shown), "\(label): \(shown) missing from\n\(dump.stdout)")
            }

            // dump --json against Foundation's own reading of the same file.
            let json = try ToolRunner.run(["dump", "--json", file.path])
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], label)
            let objects = try XCTUnwrap(document["objects"] as? [[String: Any]])
            XCTAssertEqual(objects.map { $0["identifierPath"] as? String }, [Self.tab, Self.first, Self.nav, Self.list], label)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: file))
            unarchiver.requiresSecureCoding = false
            let firstData = try XCTUnwrap(unarchiver.decodeObject(forKey: Self.first) as? Data)
            let firstState = try NSKeyedUnarchiver(forReadingFrom: firstData)
            // A 4-byte real in the binary file ({"$float": …}); XML has one kind of real.
            let sliderValue = (objects[1]["state"] as? [String: Any])?["encodingKeySliderValue"]
            let slider = try XCTUnwrap((sliderValue as? [String: Any])?["$float"] as? Double ?? sliderValue as? Double)
            // A float is written with its own shortest digits, which read back as the same float.
            XCTAssertEqual(Float(slider), firstState.decodeFloat(forKey: "encodingKeySliderValue"), label)
            let date = try XCTUnwrap(unarchiver.decodeObject(forKey: "UIApplicationStateRestorationTimestamp") as? Date)
            XCTAssertEqual(date.timeIntervalSinceReferenceDate, 738_921_660.25, label)
            let listState = try XCTUnwrap(objects[3]["state"] as? [String: Any])
            XCTAssertEqual(listState["selectedRow"] as? Int, -7, label)
            let views = try XCTUnwrap(objects[3]["views"] as? [String: Any])
            XCTAssertEqual((views[Self.table] as? [String: Any])?["kScrollViewContentOffsetKey"] as? String, "{0, 44}", label)
        }
    }
}

/// `_UIObjectIdentifierPathProxy`, stored under that name (renamed after writing: Foundation on
/// Linux ignores `setClassName`).
final class UIKitPathProxy: NSObject, NSCoding {
    let path: String
    init(_ path: String) { self.path = path }
    func encode(with coder: NSCoder) { coder.encode(path, forKey: "kObjectIdentifierPathProxyIdentifierPathKey") }
    init?(coder: NSCoder) { path = coder.decodeObject(forKey: "kObjectIdentifierPathProxyIdentifierPathKey") as? String ?? "" }
}
