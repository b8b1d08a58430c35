import Foundation
import XCTest

/// The archives in `Fixtures/evidence/` reproduce what Apple's `restorationArchiveTool` printed
/// for a real iOS 8 archive and what UIKit logged restoring it (FORMAT.md, "Evidence"). UIKit
/// restored that archive, selected tab included: the tool must show every value the source shows
/// and find nothing wrong with it.
final class EvidenceTests: XCTestCase {
    static let archives = ["evidence/statedemo-ios8.data", "evidence/statedemo-ios8.xml"]

    /// The log's identifier paths, in the log's order.
    static let identifierPaths = [
        "TabController",
        "TabController/:[0]:/_TtC20StateRestorationDemo19FirstViewController",
        "TabController/:[1]:/NavigationController",
        "TabController/:[1]:/NavigationController/:[0]:/_TtC20StateRestorationDemo20SecondViewController",
        "TabController/:[1]:/NavigationController/:[1]:/_TtC20StateRestorationDemo18CityViewController",
    ]

    func testDumpShowsEveryValueTheSourceShows() throws {
        for name in Self.archives {
            let run = try ToolRunner.run(["dump", "Fixtures/" + name])
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = run.stdout
            // "Top Level": major 2, minor 1, bundle 1, system 8.0, the timestamp, iPhone.
            for shown in [
                "Archive Version.........2.1\n", "Bundle Version..........\"1\"\n", "System Version..........\"8.0\"\n",
                "Timestamp...............2014-07-06T16:05:18Z\n", "User Interface Idiom....phone (0)\n",
            ] {
                XCTAssertTrue(text.contains(shown), "\(name): \(shown) missing from\n\(text)")
            }
            // "Restoration class map is { … }"
            XCTAssertTrue(text.contains("    \(Self.identifierPaths[4]) → StateRestorationDemo.CityViewController (_TtC20StateRestorationDemo18CityViewController)\n"), text)
            // "Root restoration identifier paths are ( … )", in that order.
            XCTAssertTrue(text.contains("Identifier Paths (5, in save order):\n" + Self.identifierPaths.map { "    \($0)\n" }.joined()), text)
            // The three objects the screenshot shows, key for key.
            XCTAssertTrue(text.contains("""
                Object: TabController
                    kTabBarSelectedViewControllerKey....Object Identifier Proxy: TabController/:[1]:/NavigationController
                    kViewControllerViewWasLoadedKey.....Yes

                """), text)
            XCTAssertTrue(text.contains("""
                Object: \(Self.identifierPaths[1])
                    encodingKeySliderValue.............0.8926057
                    kViewControllerViewWasLoadedKey....Yes

                """), text)
            XCTAssertTrue(text.contains("""
                Object: TabController/:[1]:/NavigationController
                    kUIViewControllerChildrenKey.......Array (2 items)
                        [0]...."\(Self.identifierPaths[3])"
                        [1]...."\(Self.identifierPaths[4])"
                    kViewControllerViewWasLoadedKey....Yes

                """), text)
            try GoldenFiles.assertMatches(text.replacingOccurrences(of: "File: Fixtures/" + name, with: "File: FILE"), "evidence-statedemo-ios8.txt")
        }
    }

    func testTheSliderValueIsTheFloatThatWasPrinted() throws {
        // restorationArchiveTool printed "0.8926057": a float, written as a 4-byte real.
        let run = try ToolRunner.run(["dump", "--json", "Fixtures/evidence/statedemo-ios8.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let objects = try XCTUnwrap(document["objects"] as? [[String: Any]])
        let first = try XCTUnwrap(objects.first { $0["identifierPath"] as? String == Self.identifierPaths[1] })
        let state = try XCTUnwrap(first["state"] as? [String: Any])
        let slider = try XCTUnwrap((state["encodingKeySliderValue"] as? [String: Any])?["$float"] as? Double, "tagged as a 4-byte real")
        XCTAssertEqual(Float(slider), Float("0.8926057"), "reads back as the float that was written")
        XCTAssertEqual(try XCTUnwrap(run.stdout.range(of: "\"$float\": 0.8926057\n")).isEmpty, false,
            "written with the float's own digits, as restorationArchiveTool printed it")
    }

    func testValidateIsClean() throws {
        for name in Self.archives {
            for strict in [[], ["--strict"]] {
                let run = try ToolRunner.run(["validate"] + strict + ["Fixtures/" + name])
                XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
                XCTAssertEqual(run.stdout, "Fixtures/\(name): valid (0 errors, 0 warnings)\n")
            }
        }
    }

    func testTreeDrawsTheTabsAndMarksTheSelectedOne() throws {
        for name in Self.archives {
            let run = try ToolRunner.run(["tree", "Fixtures/" + name])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout, """
                TabController
                ├── [0] _TtC20StateRestorationDemo19FirstViewController
                └── [1] NavigationController  (selected)
                    ├── [0] _TtC20StateRestorationDemo20SecondViewController
                    └── [1] _TtC20StateRestorationDemo18CityViewController  class StateRestorationDemo.CityViewController
                5 objects, 0 views, 0 dangling references

                """)
        }
    }
}
