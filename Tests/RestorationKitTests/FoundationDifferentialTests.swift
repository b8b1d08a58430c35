import Foundation
import XCTest
@testable import RestorationKit

/// Foundation as a second, independent encoder and decoder: keyed archives written by
/// swift-corelibs-foundation's `NSKeyedArchiver`, in binary and XML, are decoded by its
/// `NSKeyedUnarchiver` (the oracle) and by ours, and compared value by value.
///
/// Known faults of Foundation on Linux, worked around here (Fixtures/README.md lists them):
/// `setClassName` is ignored (class descriptions are renamed after writing), equal numbers
/// share one stored object (each number gets an archive of its own), the XML writer writes −0.0
/// as 0.0 (the sign is compared in binary only) and `NSKeyedUnarchiver` never returns on a
/// reference cycle (cycles are checked against the archive's own structure instead).
final class FoundationDifferentialTests: XCTestCase {
    private var compared = 0

    static let formats: [PropertyListSerialization.PropertyListFormat] = [.binary, .xml]

    /// One archive per value: Foundation on Linux merges equal numbers across an archive.
    static var objectValues: [(name: String, value: Any?)] {
        var values: [(String, Any?)] = [
            ("ascii", "TabController/:[1]:/NavigationController"), ("nonASCII", "Zürich – 日本"),
            ("emoji", "🚀 e\u{301}"), ("empty", ""), ("nul", "A\u{0}B"),
            ("true", NSNumber(value: true)), ("false", NSNumber(value: false)),
            ("int8Min", NSNumber(value: Int8.min)), ("int8Max", NSNumber(value: Int8.max)),
            ("int16Min", NSNumber(value: Int16.min)), ("uint16Max", NSNumber(value: UInt16.max)),
            ("int32Min", NSNumber(value: Int32.min)), ("uint32Max", NSNumber(value: UInt32.max)),
            ("int64Min", NSNumber(value: Int64.min)), ("int64Max", NSNumber(value: Int64.max)),
            ("uint64Max", NSNumber(value: UInt64.max)), ("twoPow63", NSNumber(value: UInt64(1) << 63)),
            ("minus42", NSNumber(value: -42)), ("zero", NSNumber(value: 0)),
            ("float", NSNumber(value: Float(0.8926057))), ("double", NSNumber(value: 0.1)),
            ("negativeZero", NSNumber(value: -0.0)), ("nan", NSNumber(value: Double.nan)),
            ("infinity", NSNumber(value: Double.infinity)), ("minusInfinity", NSNumber(value: -Double.infinity)),
            ("tiny", NSNumber(value: Double.leastNonzeroMagnitude)), ("huge", NSNumber(value: Double.greatestFiniteMagnitude)),
            ("date", NSDate(timeIntervalSinceReferenceDate: 426_355_518)),
            ("dateFraction", NSDate(timeIntervalSinceReferenceDate: 428_947_518.123456)),
            ("dateBefore1970", NSDate(timeIntervalSinceReferenceDate: -1_000_000_000.25)),
            ("dateFarFuture", NSDate(timeIntervalSinceReferenceDate: 3_000_000_000.5)),
            ("dataEmpty", NSData()), ("data", NSData(bytes: [0, 1, 2, 0xFF], length: 4)),
            ("dataLarge", NSData(data: Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))),
            ("uuid", NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            ("urlAbsolute", NSURL(string: "https://example.com/cities?name=Z%C3%BCrich")!),
            ("urlRelative", NSURL(string: "child/page.html", relativeTo: URL(string: "https://example.com/base/"))!),
            ("array", NSArray(array: ["a", NSNumber(value: 1), NSArray(array: ["nested"])])),
            ("arrayEmpty", NSArray()), ("mutableArray", NSMutableArray(array: ["x", "y"])),
            ("set", NSSet(array: ["red", "green", "blue"])),
            ("orderedSet", NSOrderedSet(array: ["first", "second", "third"])), ("orderedSetEmpty", NSOrderedSet()),
            ("mutableOrderedSet", NSMutableOrderedSet(array: ["b", "a"])),
            ("dictionary", NSDictionary(dictionary: ["theme": "dark", "sync": NSDictionary(dictionary: ["on": "yes"])])),
            ("dictionaryNumberKeys", NSDictionary(dictionary: [NSNumber(value: 1): "one", NSNumber(value: -3): "minus three"])),
            ("null", NSNull()), ("nil", nil),
        ]
        values.append(("nestedArchive", NSData(data: try! NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["inner", NSNumber(value: 7)]), requiringSecureCoding: false))))
        return values
    }

    func testObjectValues() throws {
        for format in Self.formats {
            for (name, value) in Self.objectValues {
                let data = archive(format) { $0.encode(value, forKey: "value") }
                let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
                unarchiver.requiresSecureCoding = false
                let theirs = unarchiver.decodeObject(forKey: "value")
                let ours = try XCTUnwrap(try KeyedArchiveDecoder().decode(Array(data)).top["value"], name)
                assertSame(ours, theirs, at: "\(format == .xml ? "xml" : "binary") \(name)", signOfZero: format == .binary)
            }
        }
        print("FoundationDifferential: \(compared) values compared (objects, binary and XML)")
        XCTAssertGreaterThan(compared, 150)
    }

    func testInlinePrimitives() throws {
        for format in Self.formats {
            let data = archive(format) { coder in
                coder.encode(true, forKey: "bool")
                coder.encode(Int32.min, forKey: "int32")
                coder.encode(Int64.min, forKey: "int64Min")
                coder.encode(Int64.max, forKey: "int64Max")
                coder.encode(-42, forKey: "int")
                coder.encode(Float(0.8926057), forKey: "float")
                coder.encode(Double.pi, forKey: "double")
                coder.encode(-1.5e300, forKey: "doubleLarge")
            }
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = false
            let top = try KeyedArchiveDecoder().decode(Array(data)).top
            let label = format == .xml ? "xml" : "binary"
            XCTAssertEqual(top["bool"], .boolean(unarchiver.decodeBool(forKey: "bool")), label)
            XCTAssertEqual(top["int32"], .integer(Int128(unarchiver.decodeInt32(forKey: "int32"))), label)
            XCTAssertEqual(top["int64Min"], .integer(Int128(unarchiver.decodeInt64(forKey: "int64Min"))), label)
            XCTAssertEqual(top["int64Max"], .integer(Int128(unarchiver.decodeInt64(forKey: "int64Max"))), label)
            XCTAssertEqual(top["int"], .integer(Int128(unarchiver.decodeInteger(forKey: "int"))), label)
            // Binary archives keep a float as a 4-byte real; XML has one kind of real.
            let float = unarchiver.decodeFloat(forKey: "float")
            switch top["float"]?.content {
            case .float(let value)?: XCTAssertEqual(value.bitPattern, float.bitPattern, label)
            case .real(let value)? where format == .xml: XCTAssertEqual(Float(value), float, label)
            default: XCTFail("\(label): float is \(String(describing: top["float"]))")
            }
            XCTAssertEqual(top["double"], .real(unarchiver.decodeDouble(forKey: "double")), label)
            XCTAssertEqual(top["doubleLarge"], .real(unarchiver.decodeDouble(forKey: "doubleLarge")), label)
            compared += 8
        }
    }

    /// Objects shared under two keys are one stored object; a cycle is a reference back to an
    /// object still being decoded.
    func testSharedObjectsAndCycles() throws {
        for format in Self.formats {
            let shared = AppState(name: "shared", child: nil)
            let data = archive(format) { coder in
                coder.encode(shared, forKey: "first")
                coder.encode(shared, forKey: "second")
            }
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = false
            let first = unarchiver.decodeObject(forKey: "first") as AnyObject
            XCTAssertTrue(first === unarchiver.decodeObject(forKey: "second") as AnyObject, "Foundation shares it")
            let top = try KeyedArchiveDecoder().decode(Array(data)).top
            XCTAssertEqual(top["first"], top["second"])
            assertSame(try XCTUnwrap(top["first"]), first, at: "shared", signOfZero: true)

            // A parent whose child refers back to it. NSKeyedUnarchiver does not return on this
            // archive, so the oracle is the archive's structure: the child's `child` field is the
            // parent's own UID.
            let parent = AppState(name: "parent", child: nil)
            parent.child = AppState(name: "child", child: parent)
            let cyclic = archive(format) { $0.encode(parent, forKey: "root") }
            let plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: cyclic, format: nil) as? [String: Any])
            let objects = try XCTUnwrap(plist["$objects"] as? [Any])
            let rootUID = try uid(try XCTUnwrap((plist["$top"] as? [String: Any])?["root"]))
            let childUID = try uid(try XCTUnwrap((objects[rootUID] as? [String: Any])?["child"]))
            XCTAssertEqual(try uid(try XCTUnwrap((objects[childUID] as? [String: Any])?["child"])), rootUID)
            guard case .object(let root)? = try KeyedArchiveDecoder().decode(Array(cyclic)).top["root"]?.content,
                  case .object(let child)? = root.fields["child"]?.content
            else { return XCTFail("root and child are objects") }
            XCTAssertEqual(child.fields["child"], .cycle(UInt64(rootUID)))
            XCTAssertEqual(child.fields["name"], .string("child"))
            compared += 4
        }
    }

    /// An app class stored under a UIKit name, as UIKit's own classes appear in real archives.
    func testAppClassesRenamedToUIKitNames() throws {
        for format in Self.formats {
            let state = AppState(name: "settings", child: AppState(name: "about", child: nil))
            let written = archive(format) { $0.encode(state, forKey: "root") }
            let data = try renamingClass(NSStringFromClass(AppState.self), to: "UIViewController", in: written, format: format)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = false
            unarchiver.setClass(AppState.self, forClassName: "UIViewController")
            let theirs = try XCTUnwrap(unarchiver.decodeObject(forKey: "root") as? AppState)
            guard case .object(let ours)? = try KeyedArchiveDecoder().decode(Array(data)).top["root"]?.content else {
                return XCTFail("an object")
            }
            XCTAssertEqual(ours.className, "UIViewController")
            XCTAssertEqual(ours.classChain, ["UIViewController", "NSObject"])
            assertSame(.object(ours), theirs, at: "renamed", signOfZero: true)
        }
    }

    // MARK: Comparison

    /// Compares our decoded value with Foundation's object, counting the values compared.
    private func assertSame(_ ours: ArchiveValue, _ theirs: Any?, at path: String, signOfZero: Bool, file: StaticString = #filePath, line: UInt = #line) {
        compared += 1
        switch (ours.content, theirs) {
        case (.null, nil):
            return
        case (.object(let object), let null as NSNull) where object.className == "NSNull":
            _ = null
            XCTAssertEqual(object.fields.count, 0, path, file: file, line: line)
        case (.string(let string), let other as String):
            XCTAssertEqual(string, other, path, file: file, line: line)
        case (_, let number as NSNumber):
            assertSameNumber(ours, number, at: path, signOfZero: signOfZero, file: file, line: line)
        case (.date(let seconds), let date as Date):
            XCTAssertEqual(seconds, date.timeIntervalSinceReferenceDate, path, file: file, line: line)
        case (.data(let data), let other as Data):
            XCTAssertEqual(Array(data.bytes), Array(other), path, file: file, line: line)
        case (.archive(let archive), let other as Data):
            // NSData holding a keyed archive: decoded by us, by Foundation on request.
            guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: other) else { return XCTFail("\(path): Foundation cannot read the nested archive", file: file, line: line) }
            unarchiver.requiresSecureCoding = false
            for (key, value) in archive.top.entries {
                assertSame(value, unarchiver.decodeObject(forKey: key), at: path + " > " + key, signOfZero: signOfZero, file: file, line: line)
            }
        case (.uuid(let bytes), let uuid as UUID):
            XCTAssertEqual(bytes, withUnsafeBytes(of: uuid.uuid) { Array($0) }, path, file: file, line: line)
        case (.url(let url), let other as URL):
            // Foundation on Linux reads a URL with a base as the absolute URL, without the base:
            // ours keeps both parts, whose resolution must be Foundation's URL.
            var base: URL?
            if let baseURL = url.base.urlValue { base = URL(string: baseURL.relative) }
            XCTAssertEqual(URL(string: url.relative, relativeTo: base)?.absoluteString, other.absoluteString, path, file: file, line: line)
        case (.orderedSet(let elements), let other as NSOrderedSet):
            assertSameElements(elements, other.array, at: path, signOfZero: signOfZero, file: file, line: line)
        case (.array(let elements), let other as [Any]):
            assertSameElements(elements, other, at: path, signOfZero: signOfZero, file: file, line: line)
        case (.set(let elements), let other as Set<AnyHashable>):
            XCTAssertEqual(elements.count, other.count, path, file: file, line: line)
            for element in elements {
                guard let match = other.first(where: { matches(element, $0) }) else { return XCTFail("\(path): \(element) is not in Foundation's set", file: file, line: line) }
                assertSame(element, match, at: path + "{}", signOfZero: signOfZero, file: file, line: line)
            }
        case (.dictionary(let dictionary), let other as [AnyHashable: Any]):
            XCTAssertEqual(dictionary.count, other.count, path, file: file, line: line)
            for entry in dictionary.entries {
                guard let key = other.keys.first(where: { matches(entry.key, $0) }) else { return XCTFail("\(path): key \(entry.key) is not in Foundation's dictionary", file: file, line: line) }
                assertSame(entry.key, key.base, at: path + " key", signOfZero: signOfZero, file: file, line: line)
                assertSame(entry.value, other[key], at: path + "[\(key)]", signOfZero: signOfZero, file: file, line: line)
            }
        case (.object(let object), let state as AppState):
            XCTAssertEqual(object.fields.keys.sorted(), ["child", "name"], path, file: file, line: line)
            assertSame(object.fields["name"] ?? .null, state.name, at: path + ".name", signOfZero: signOfZero, file: file, line: line)
            assertSame(object.fields["child"] ?? .null, state.child, at: path + ".child", signOfZero: signOfZero, file: file, line: line)
        default:
            XCTFail("\(path): ours is \(ours), Foundation's is \(String(describing: theirs))", file: file, line: line)
        }
    }

    private func assertSameNumber(_ ours: ArchiveValue, _ number: NSNumber, at path: String, signOfZero: Bool, file: StaticString, line: UInt) {
        let type = String(cString: number.objCType)
        switch ours.content {
        case .boolean(let value):
            XCTAssertEqual(type, "c", "\(path): Foundation's is not a boolean", file: file, line: line)
            XCTAssertEqual(value, number.boolValue, path, file: file, line: line)
        case .integer(let value):
            if value > Int128(Int64.max) {
                XCTAssertEqual(value, Int128(number.uint64Value), path, file: file, line: line)
            } else {
                XCTAssertEqual(value, Int128(number.int64Value), path, file: file, line: line)
            }
        case .float(let value):
            let theirs = number.floatValue
            XCTAssertEqual(type, "f", "\(path): Foundation's is not a float", file: file, line: line)
            XCTAssertTrue(value.bitPattern == theirs.bitPattern || (value.isNaN && theirs.isNaN), "\(path): \(value) vs \(theirs)", file: file, line: line)
        case .real(let value):
            let theirs = number.doubleValue
            if value.isNaN || theirs.isNaN {
                XCTAssertTrue(value.isNaN && theirs.isNaN, path, file: file, line: line)
            } else if signOfZero {
                XCTAssertEqual(value.bitPattern, theirs.bitPattern, "\(path): \(value) vs \(theirs)", file: file, line: line)
            } else {
                XCTAssertEqual(value, theirs, path, file: file, line: line)
            }
        default:
            XCTFail("\(path): ours is \(ours), Foundation's is the number \(number)", file: file, line: line)
        }
    }

    private func assertSameElements(_ ours: ArchiveValue.Elements, _ theirs: [Any], at path: String, signOfZero: Bool, file: StaticString, line: UInt) {
        XCTAssertEqual(ours.count, theirs.count, path, file: file, line: line)
        for (index, (element, other)) in zip(ours, theirs).enumerated() {
            assertSame(element, other, at: path + "[\(index)]", signOfZero: signOfZero, file: file, line: line)
        }
    }

    /// Whether our value stands for Foundation's, for finding a set element or dictionary key.
    private func matches(_ ours: ArchiveValue, _ theirs: AnyHashable) -> Bool {
        switch ours.content {
        case .string(let string): return theirs.base as? String == string
        case .integer(let value): return (theirs.base as? NSNumber).map { Int128($0.int64Value) == value } ?? false
        default: return false
        }
    }

    // MARK: Writing

    private func archive(_ format: PropertyListSerialization.PropertyListFormat, _ body: (NSKeyedArchiver) -> Void) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format
        body(archiver)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// `setClassName` has no effect on Linux: the class description is renamed in the written
    /// property list instead, and written again in the same format.
    private func renamingClass(_ name: String, to newName: String, in data: Data, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        var plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var objects = try XCTUnwrap(plist["$objects"] as? [Any])
        for (index, object) in objects.enumerated() {
            guard var description = object as? [String: Any], description["$classname"] as? String == name else { continue }
            description["$classname"] = newName
            description["$classes"] = (description["$classes"] as? [String])?.map { $0 == name ? newName : $0 }
            objects[index] = description
        }
        plist["$objects"] = objects
        return try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
    }

    /// A UID as PropertyListSerialization hands it out: on Linux a private class whose stored
    /// `value` is the number.
    private func uid(_ value: Any) throws -> Int {
        if let dictionary = value as? [String: Any], let number = dictionary["CF$UID"] as? Int { return number }
        let stored = Mirror(reflecting: value).children.first { $0.label == "value" }?.value
        return try XCTUnwrap((stored as? any BinaryInteger).map { Int($0) }, "no UID in \(value)")
    }
}

/// An app class: a name and an optional child, which may refer back to its parent.
final class AppState: NSObject, NSCoding {
    let name: String
    var child: AppState?

    init(name: String, child: AppState?) {
        self.name = name
        self.child = child
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(child, forKey: "child")
    }

    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? ""
        child = coder.decodeObject(forKey: "child") as? AppState
    }
}
