#!/usr/bin/env python3
"""Generate the test fixtures for restoration-tool.

Usage:  python3 generate.py [OUTPUT_DIR]      (default: the folder this script is in)
        python3 generate.py --benchmark FOLDER
        python3 generate.py --help

Python 3.11, standard library only. The output is deterministic: no clock, no unseeded
randomness, dictionaries written in a fixed order, so running the script twice writes
byte-identical files (a test regenerates into a temp dir and compares bytes).

Three layers:
  1. KeyedArchiver -- builds the NSKeyedArchiver *structure* ($archiver/$version/$top/$objects)
     from Python values; plistlib (FMT_BINARY, plistlib.UID) writes the bytes.
  2. restoration_archive() -- the UIKit state-restoration layout on top of (1): the outer
     archive, one nested keyed archive (NSData) per identifier path, view archives under
     kViewRestorationDataKey. restoration_parts() gives the same archive as editable Python
     structures and archive_from_parts() encodes them; validate/ uses the pair to make one
     variant of a clean archive per validation rule, and diff/ to make pairs of archives (A, B)
     that differ in one kind of way each.
  3. A tiny hand-written binary-plist writer for the hostile files that plistlib refuses to
     write (cycles, bad offsets, 16-byte negative ints, NaN dates, invalid strings...).

Inline vs. object convention (mirrors NSKeyedArchiver):
  * As a value under a key -- a `$top` entry or a field of an Obj -- a bare Python
    bool/int/float is written INLINE, the way encodeBool:/encodeInteger:/encodeDouble:forKey:
    do. Int(n)/Bool(b)/Double(x) say the same thing explicitly.
  * To store a number as an NSNumber *object* under a key (encodeObject:@(n) forKey:), wrap it
    in NSNumber(x): the key then holds a UID pointing at a plain number in $objects.
  * Inside collections (list/NSArray, dict/NSDictionary, NSSet ...) every element is an object,
    so plain numbers there always become NSNumber objects (UID -> plain number).
  * Everything else (str, bytes, datetime, containers, helpers) is an object and is stored by
    UID. None is UID 0 ("$null").
"""

import datetime
import os
import plistlib
import random
import struct
import sys
import uuid
from plistlib import UID

UTC = datetime.timezone.utc
APPLE_EPOCH = datetime.datetime(2001, 1, 1, tzinfo=UTC)   # NSDate reference date


# ============================================================================================
# 1. Keyed-archive value helpers
# ============================================================================================

class Int:
    """Force an inline integer (encodeInteger:forKey:)."""
    def __init__(self, value):
        self.value = int(value)


class Bool:
    """Force an inline boolean (encodeBool:forKey:)."""
    def __init__(self, value):
        self.value = bool(value)


class Double:
    """Force an inline real (encodeDouble:forKey:)."""
    def __init__(self, value):
        self.value = float(value)


class NSNumber:
    """A number stored as an object (UID -> plain number in $objects), not inline."""
    def __init__(self, value):
        self.value = value


class NSDate:
    """An NSDate given directly as seconds since 2001-01-01 (exact control over the double)."""
    def __init__(self, seconds):
        self.seconds = float(seconds)


class _ObjectList:
    """Base for the array-like Foundation classes that encode NS.objects."""
    classname = None

    def __init__(self, items):
        self.items = list(items)


class NSMutableArray(_ObjectList):
    classname = "NSMutableArray"


class NSSet(_ObjectList):
    classname = "NSSet"


class NSOrderedSet(_ObjectList):
    classname = "NSOrderedSet"


class NSURL:
    """NSURL: NS.base (an NSURL or None -> $null) + NS.relative (a string)."""
    def __init__(self, base, relative):
        self.base = base
        self.relative = relative


class NSMutableString:
    def __init__(self, string):
        self.string = string


class NSMutableData:
    def __init__(self, data):
        self.data = bytes(data)


class NSNull:
    pass


class Proxy:
    """_UIObjectIdentifierPathProxy: how UIKit encodes a reference to a restorable object."""
    def __init__(self, path):
        self.path = path


class Obj:
    """An object of an arbitrary class. `fields` may be filled in after creation, which is how
    a cycle is made (o.fields["self"] = o) before the object is encoded."""
    def __init__(self, classname, classes=None, fields=None):
        self.classname = classname
        self.classes = list(classes) if classes else [classname, "NSObject"]
        self.fields = dict(fields) if fields else {}


class Raw:
    """Escape hatch: this plist value is written literally where a reference or an inline
    value would go (e.g. Raw(UID(9999)) for an out-of-range reference)."""
    def __init__(self, value):
        self.value = value


# $classes chains as Foundation writes them.
CLASS_CHAINS = {
    "NSArray": ["NSArray", "NSObject"],
    "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"],
    "NSDictionary": ["NSDictionary", "NSObject"],
    "NSSet": ["NSSet", "NSObject"],
    "NSOrderedSet": ["NSOrderedSet", "NSObject"],
    "NSDate": ["NSDate", "NSObject"],
    "NSUUID": ["NSUUID", "NSObject"],
    "NSURL": ["NSURL", "NSObject"],
    "NSMutableString": ["NSMutableString", "NSString", "NSObject"],
    "NSMutableData": ["NSMutableData", "NSData", "NSObject"],
    "NSNull": ["NSNull", "NSObject"],
    "_UIObjectIdentifierPathProxy": ["_UIObjectIdentifierPathProxy", "NSObject"],
}


def _seconds_since_2001(moment):
    if moment.tzinfo is None:
        raise ValueError("datetimes must be timezone-aware (UTC)")
    # timedelta / timedelta divides exact microsecond counts: correctly rounded double.
    return (moment - APPLE_EPOCH) / datetime.timedelta(seconds=1)


class KeyedArchiver:
    """Builds the plist tree of one NSKeyedArchiver archive.

    Like Foundation, an object gets its UID *before* its contents are encoded (so a cycle
    resolves to that UID), its fields follow it in $objects, and its class dictionary is added
    after them the first time the class is seen. Objects are shared by Python identity;
    strings, data and numbers are shared by value (as constant NSStrings / tagged NSNumbers
    usually are)."""

    def __init__(self):
        self._objects = ["$null"]
        self._top = {}
        self._uid_by_identity = {}
        self._keep_alive = []          # so id() values cannot be reused while archiving
        self._uid_by_value = {}
        self._class_uids = {}

    # -- public ------------------------------------------------------------------------------
    def encode(self, key, value):
        """encodeXxx:forKey: on the root coder."""
        self._top[key] = self._field(value)

    def archive(self):
        return {
            "$archiver": "NSKeyedArchiver",
            "$version": 100000,
            "$top": self._top,
            "$objects": self._objects,
        }

    # -- values under a key ------------------------------------------------------------------
    def _field(self, value):
        if isinstance(value, (Int, Bool, Double, Raw)):
            return value.value
        if isinstance(value, (bool, int, float)):
            return value                       # inline, see the module docstring
        return self._ref(value)

    # -- objects ------------------------------------------------------------------------------
    def _append(self, plist_value):
        self._objects.append(plist_value)
        return UID(len(self._objects) - 1)

    def _ref(self, value):
        """Encode `value` as an object and return its UID."""
        if value is None:
            return UID(0)
        if isinstance(value, Raw):
            return value.value
        if isinstance(value, (Int, Bool, Double)):
            raise TypeError("Int/Bool/Double are inline values; they cannot be objects")

        scalar = _scalar_key(value)
        if scalar is not None:
            if scalar not in self._uid_by_value:
                plain = value.value if isinstance(value, NSNumber) else value
                self._uid_by_value[scalar] = self._append(plain)
            return self._uid_by_value[scalar]

        if id(value) in self._uid_by_identity:
            return self._uid_by_identity[id(value)]
        uid = self._append(None)               # reserve the slot first: cycles point here
        self._uid_by_identity[id(value)] = uid
        self._keep_alive.append(value)
        self._objects[uid.data] = self._encode_object(value)
        return uid

    def _class(self, chain):
        key = tuple(chain)
        if key not in self._class_uids:
            self._class_uids[key] = self._append({"$classname": chain[0], "$classes": list(chain)})
        return self._class_uids[key]

    def _with_class(self, fields, chain):
        fields["$class"] = self._class(chain)  # after the fields, as Foundation orders it
        return fields

    def _encode_object(self, value):
        if isinstance(value, datetime.datetime):
            value = NSDate(_seconds_since_2001(value))
        if isinstance(value, NSDate):
            return self._with_class({"NS.time": value.seconds}, CLASS_CHAINS["NSDate"])
        if isinstance(value, list):
            return self._with_class({"NS.objects": [self._ref(v) for v in value]},
                                    CLASS_CHAINS["NSArray"])
        if isinstance(value, _ObjectList):
            return self._with_class({"NS.objects": [self._ref(v) for v in value.items]},
                                    CLASS_CHAINS[value.classname])
        if isinstance(value, dict):
            keys = [self._ref(k) for k in value]
            objects = [self._ref(v) for v in value.values()]
            return self._with_class({"NS.keys": keys, "NS.objects": objects},
                                    CLASS_CHAINS["NSDictionary"])
        if isinstance(value, uuid.UUID):
            return self._with_class({"NS.uuidbytes": value.bytes}, CLASS_CHAINS["NSUUID"])
        if isinstance(value, NSURL):
            fields = {"NS.base": self._ref(value.base), "NS.relative": self._ref(value.relative)}
            return self._with_class(fields, CLASS_CHAINS["NSURL"])
        if isinstance(value, NSMutableString):
            # NSString/NSData write their contents as an inline plist value, not a UID.
            return self._with_class({"NS.string": value.string}, CLASS_CHAINS["NSMutableString"])
        if isinstance(value, NSMutableData):
            return self._with_class({"NS.data": value.data}, CLASS_CHAINS["NSMutableData"])
        if isinstance(value, NSNull):
            return self._with_class({}, CLASS_CHAINS["NSNull"])
        if isinstance(value, Proxy):
            fields = {"kObjectIdentifierPathProxyIdentifierPathKey": self._ref(value.path)}
            return self._with_class(fields, CLASS_CHAINS["_UIObjectIdentifierPathProxy"])
        if isinstance(value, Obj):
            fields = {key: self._field(v) for key, v in value.fields.items()}
            return self._with_class(fields, value.classes)
        raise TypeError(f"cannot archive {type(value).__name__}")


def _scalar_key(value):
    """Key under which equal plain values share one $objects entry (None: not a scalar)."""
    if isinstance(value, NSNumber):
        value = value.value
    if isinstance(value, float):
        return ("float", repr(value))          # repr keeps -0.0 apart from 0.0
    if isinstance(value, (str, bytes, bool, int)):
        return (type(value).__name__, value)
    return None


def keyed_archive(top):
    """The plist tree of a keyed archive whose root coder encoded `top` (key -> value)."""
    archiver = KeyedArchiver()
    for key, value in top.items():
        archiver.encode(key, value)
    return archiver.archive()


def binary(tree):
    return plistlib.dumps(tree, fmt=plistlib.FMT_BINARY)


def keyed_archive_bytes(top):
    return binary(keyed_archive(top))


def uids_to_cf_dicts(tree):
    """plistlib's XML writer rejects UID; Apple's XML form writes {"CF$UID": n} instead."""
    if isinstance(tree, UID):
        return {"CF$UID": tree.data}
    if isinstance(tree, dict):
        return {k: uids_to_cf_dicts(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [uids_to_cf_dicts(v) for v in tree]
    return tree


# ============================================================================================
# 2. The UIKit state-restoration layout
# ============================================================================================

# iOS 8 moved bundles to /private/var/containers/...; the container UUID is fixed so the
# output is deterministic.
BUNDLE_PATH = ("/private/var/containers/Bundle/Application/"
               "6A1F2D3C-4B5E-4F60-8A7B-9C0D1E2F3A4B/StateRestorationDemo.app")


def storyboard_proxy():
    return Obj("_UIStoryboardProxy", fields={
        "kStoryboardNameKey": "Main",
        "kStoryboardBundlePathKey": BUNDLE_PATH,
    })


def view_controller_state(storyboard_identifier=None, view_was_loaded=True, views=None, **keys):
    """$top of one view controller's own archive. `views` maps view identifier path -> that
    view's $top; each becomes NSData holding the view's keyed archive. Extra keyword
    arguments are further keys (container keys, app keys)."""
    state = {
        "kObjectIsViewControllerKey": True,
        "kViewControllerViewWasLoadedKey": view_was_loaded,
    }
    if storyboard_identifier is not None:
        state["UIStateRestorationViewControllerStoryboard"] = storyboard_proxy()
        state["UIStateRestorationViewControllerStoryboardIdentifier"] = storyboard_identifier
    state.update(keys)
    if views:
        state["kViewRestorationDataKey"] = {
            path: keyed_archive_bytes(view_top) for path, view_top in views.items()}
    return state


def scroll_view_state(offset="{0, 128.5}", **keys):
    state = {
        "kScrollViewContentOffsetKey": offset,
        "kScrollViewZoomScaleKey": 1.0,
        "kScrollViewContentInsetKey": "{64, 0, 49, 0}",
    }
    state.update(keys)
    return state


def restoration_parts(saved, *, system_version, timestamp, idiom, bundle_version=None,
                      class_map=None, extra_top=None):
    """The outer data.data archive as editable Python structures, before any encoding, so a
    variant can change one piece (a listed path, one object's state, a metadata key) and
    leave the rest as it was. archive_from_parts() turns them into the plist tree.

    saved      -- [(identifier path, that object's $top dict)] in save order
    class_map  -- {path: restoration class name}, or None for no kViewControllerRestorationClassMapKey
    extra_top  -- more $top keys (kFirstRespondersKey, app-level keys, ...)
    """
    metadata = {
        "kUIStateRestorationArchiveMajorVersionKey": 2,
        "kUIStateRestorationArchiveMinorVersionKey": 1,
    }
    if bundle_version is not None:
        metadata["UIApplicationStateRestorationBundleVersion"] = bundle_version
    metadata["UIApplicationStateRestorationSystemVersion"] = system_version
    metadata["UIApplicationStateRestorationTimestamp"] = timestamp
    metadata["UIApplicationStateRestorationUserInterfaceIdiom"] = idiom
    return {
        "metadata": metadata,                       # $top keys written first, in this order
        "listed": [path for path, _ in saved],      # kRootRestorationIdentifiersKey
        "class_map": None if class_map is None else dict(class_map),
        "entries": dict(saved),                     # path -> $top dict, or bytes as they are
        "extra_top": dict(extra_top or {}),
    }


def archive_from_parts(parts):
    """The plist tree of the outer archive described by restoration_parts()."""
    return keyed_archive(top_from_parts(parts))


def top_from_parts(parts):
    """The outer archive's $top (key -> value, before encoding), in the order it is encoded."""
    top = dict(parts["metadata"])
    top["kRootRestorationIdentifiersKey"] = list(parts["listed"])
    if parts["class_map"] is not None:
        top["kViewControllerRestorationClassMapKey"] = dict(parts["class_map"])
    for path, state in parts["entries"].items():
        # NSData: the object's own archive. Bytes are written unchanged (a damaged entry).
        top[path] = state if isinstance(state, bytes) else keyed_archive_bytes(state)
    top.update(parts["extra_top"])
    return top


def restoration_archive(saved, **options):
    """The outer data.data archive (plist tree); see restoration_parts() for the arguments."""
    return archive_from_parts(restoration_parts(saved, **options))


# --- ios8-tabbar ----------------------------------------------------------------------------

MODULE = "_TtC20StateRestorationDemo"
# The "Top Level" values Apple's restorationArchiveTool printed for the real archive (FORMAT.md,
# "Evidence"); ios8-tabbar borrows them.
STATEDEMO_METADATA = dict(
    system_version="8.0",
    bundle_version="1",
    timestamp=datetime.datetime(2014, 7, 6, 16, 5, 18, tzinfo=UTC),
    idiom=0,
)
FIRST_VC = MODULE + "19FirstViewController"
SECOND_VC = MODULE + "20SecondViewController"
CITY_VC = MODULE + "18CityViewController"

TAB = "TabController"
NAV0 = TAB + "/:[0]:/NavigationController"
NAV1 = TAB + "/:[1]:/NavigationController"
FIRST = NAV0 + "/:[0]:/" + FIRST_VC
SECOND = NAV1 + "/:[0]:/" + SECOND_VC
CITY = NAV1 + "/:[1]:/" + CITY_VC
MAP = CITY + "/MapViewController"          # presented: continues from presenter, no index
TABLE_VIEW = FIRST + "/TableView"
TEXT_VIEW = SECOND + "/NotesTextView"


def ios8_tabbar_archive():
    saved = [   # pre-order, the order UIKit walks the hierarchy while saving
        (TAB, view_controller_state(
            "TabController",
            # This container writes its children as proxies; the navigation controllers
            # below use identifier-path strings (both forms occur).
            kUIViewControllerChildrenKey=[Proxy(NAV0), Proxy(NAV1)],
            kTabBarSelectedViewControllerKey=Proxy(NAV1),
            kTabBarIsCustomizingKey=False)),
        (NAV0, view_controller_state(
            "NavigationController",
            kUIViewControllerChildrenKey=[FIRST])),
        (FIRST, view_controller_state(
            "FirstViewController",
            views={TABLE_VIEW: scroll_view_state()},
            SelectedRow=4)),
        (NAV1, view_controller_state(
            "NavigationController",
            kUIViewControllerChildrenKey=[SECOND, CITY])),
        (SECOND, view_controller_state(
            "SecondViewController",
            views={TEXT_VIEW: scroll_view_state(
                offset="{0, 0}",
                kTextSelectedTextLocationKey=12,
                kTextSelectedTextLengthKey=5,
                kTextSelectedTextKey="notes",
                kTextFirstResponderKey=True,
                kTextEditableKey=True)})),
        (CITY, view_controller_state(
            "CityViewController",
            kPresentedViewControllerKey=Proxy(MAP),
            cityName="Zürich",
            cityPopulation=NSNumber(402762))),
        (MAP, view_controller_state(
            "MapViewController",
            mapRegion="{{47.3769, 8.5417}, {0.05, 0.05}}")),
    ]
    return restoration_archive(
        saved,
        **STATEDEMO_METADATA,
        class_map={CITY: CITY_VC},
        extra_top={
            "kFirstRespondersKey": [TEXT_VIEW],
            # Window id and size-class values are not documented anywhere public: invented.
            "WindowIdentifierToSizeClassMapKey": {
                "UIWindow-MainWindow": {
                    "VerticalSizeClassStringKey": "UIUserInterfaceSizeClassRegular",
                    "HorizontalSizeClassStringKey": "UIUserInterfaceSizeClassCompact",
                },
            },
            "AppLaunchCount": Int(3),
        })


# --- evidence: StateRestorationDemo as Apple's restorationArchiveTool printed it ----------------
# ../shared/FORMAT.md, "Evidence": the tool's output for a real iOS 8 archive and UIKit's log of
# restoring it (shagedorn/StateRestorationDemo, Presentation/data_example.png and log_example.png).
# Every key and value below is one the screenshot prints; nothing else is added.

EVIDENCE_TAB = "TabController"
EVIDENCE_FIRST = EVIDENCE_TAB + "/:[0]:/" + FIRST_VC
EVIDENCE_NAV = EVIDENCE_TAB + "/:[1]:/NavigationController"
EVIDENCE_SECOND = EVIDENCE_NAV + "/:[0]:/" + SECOND_VC
EVIDENCE_CITY = EVIDENCE_NAV + "/:[1]:/" + CITY_VC


def evidence_statedemo_archive():
    """The outer archive: the "Top Level" keys, the class map, the log's five identifier paths in
    the log's order, and one entry per path. The screenshot shows the first three objects' keys;
    it ends before the last two, whose archives are therefore empty (no key is invented)."""
    saved = [
        (EVIDENCE_TAB, keyed_archive_bytes({
            "kTabBarSelectedViewControllerKey": Proxy(EVIDENCE_NAV),
            "kViewControllerViewWasLoadedKey": True,
        })),
        # "encodingKeySliderValue............0.8926057": a float (encodeFloat:forKey:), which
        # CoreFoundation writes as a 4-byte real; plistlib cannot, so this one is hand-written.
        (EVIDENCE_FIRST, hand_keyed(
            {"encodingKeySliderValue": Leaf(enc_real32(0.8926057)), "kViewControllerViewWasLoadedKey": True},
            ["$null"])),
        (EVIDENCE_NAV, keyed_archive_bytes({
            "kUIViewControllerChildrenKey": [EVIDENCE_SECOND, EVIDENCE_CITY],
            "kViewControllerViewWasLoadedKey": True,
        })),
        (EVIDENCE_SECOND, keyed_archive_bytes({})),
        (EVIDENCE_CITY, keyed_archive_bytes({})),
    ]
    return restoration_archive(
        saved,
        **STATEDEMO_METADATA,
        class_map={EVIDENCE_CITY: CITY_VC})


def evidence_files():
    """evidence/: archives that reproduce what real files and Apple's tools showed."""
    archive = evidence_statedemo_archive()
    return {
        "evidence/statedemo-ios8.data": binary(archive),
        "evidence/statedemo-ios8.xml": plistlib.dumps(uids_to_cf_dicts(archive), fmt=plistlib.FMT_XML),
    }


# --- ios7-plain -----------------------------------------------------------------------------

def ios7_plain_archive():
    nav = "UINavigationController"
    detail = nav + "/BNRDetailViewController"
    saved = [
        # No storyboard (BNR-style code-built controllers) and plain paths without indexes.
        (nav, view_controller_state(kUIViewControllerChildrenKey=[detail])),
        (detail, view_controller_state(
            views={detail + "/nameField": {
                "kTextSelectedTextLocationKey": 3,
                "kTextSelectedTextLengthKey": 0,
                "kTextFirstResponderKey": False,
            }},
            **{"item.itemKey": "B1D5E6F7-0A1B-4C2D-8E3F-405162738495"})),
    ]
    return restoration_archive(
        saved,
        system_version="7.1",
        timestamp=datetime.datetime(2013, 11, 2, 9, 30, 15, 250000, tzinfo=UTC),
        idiom=1,
        class_map=None,
        extra_top={"kIgnoreSnapshotKey": True})


# --- values ---------------------------------------------------------------------------------

def values_state():
    """One key per value kind, for lossless decoding. Note: plistlib shares equal scalars
    with (type, value) as the key, and 0.0 == -0.0, so this archive must contain no 0.0
    anywhere or the -0.0 below would be written as 0.0."""
    account = Obj("StateRestorationDemo.Account", fields={"name": "Ada", "id": 7})
    settings = Obj("StateRestorationDemo.Settings",
                   ["StateRestorationDemo.Settings", "NSObject"],
                   {"theme": "dark", "fontSize": 14, "showsMap": True, "account": account})
    shared = Obj("StateRestorationDemo.Bookmark", fields={"title": "Shared bookmark"})
    loop = Obj("StateRestorationDemo.Node", fields={"name": "self-loop"})
    loop.fields["next"] = loop                               # points back to itself
    parent = Obj("StateRestorationDemo.Node", fields={"name": "parent"})
    child = Obj("StateRestorationDemo.Node", fields={"name": "child", "parent": parent})
    parent.fields["child"] = child                           # a two-object cycle
    float32_point_one = struct.unpack(">f", struct.pack(">f", 0.1))[0]

    return view_controller_state(
        # inline integers (encodeInteger:) -- plistlib writes 2**64-1 as a 16-byte int
        intNegative=-42,
        intInt64Max=2**63 - 1,
        intInt64Min=-2**63,
        intUInt64Max=2**64 - 1,
        int2Pow53Plus1=2**53 + 1,
        # inline reals / bools
        realPointOne=0.1,
        realFloat=float32_point_one,         # 0.1f widened to double: 0.10000000149011612
        realNegativeZero=-0.0,
        boolTrue=True,
        boolFalse=Bool(False),
        # the same numbers as NSNumber objects (UID -> plain number)
        numberNegative=NSNumber(-42),
        numberUInt64Max=NSNumber(2**64 - 1),
        numberReal=NSNumber(0.1),
        numberBool=NSNumber(True),
        numbersArray=[-42, 2**63 - 1, -2**63, 2**64 - 1, 2**53 + 1, 0.1, float32_point_one,
                      True, False],
        # dates
        dateFraction=NSDate(428947518.123456),
        dateBefore2001=NSDate(-86400.5),
        # strings
        stringEmpty="",
        stringUnicode="Zürich – 日本 ☕ 🚀 e\u0301",     # UTF-16 with a surrogate pair
        # data
        dataBinary=bytes(range(20)),          # not an archive: must not be decoded as one
        mutableData=NSMutableData(b"\xde\xad\xbe\xef"),
        # Foundation objects
        uuid=uuid.UUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        urlAbsolute=NSURL(None, "https://example.com/cities?name=Z%C3%BCrich"),
        urlRelative=NSURL(NSURL(None, "https://example.com/base/"), "child/page.html"),
        dictStringKeys={"alpha": 1, "beta": "two", "gamma": [3]},
        dictIntKeys={1: "one", 2: "two", -3: "minus three"},
        set=NSSet(["red", "green", "blue"]),
        orderedSet=NSOrderedSet(["first", "second", "third"]),
        mutableArray=NSMutableArray([1, "two", 3.5]),
        arrayEmpty=[],
        mutableString=NSMutableString("edited text"),
        null=NSNull(),
        nilValue=None,                        # encodeObject:nil -> UID 0 ($null)
        # objects of app classes
        settings=settings,                    # unknown class with a nested Obj
        sharedFirst=shared,                   # the same object under two keys
        sharedSecond=shared,
        cycleSelf=loop,
        cycleParent=parent,
    )


def values_archive():
    nested_model = keyed_archive_bytes({
        "root": Obj("StateRestorationDemo.Model", fields={"version": 2, "name": "model"}),
    })
    return restoration_archive(
        [("RootViewController", values_state())],
        system_version="17.5",
        bundle_version="42",
        timestamp=NSDate(428947518.5),
        idiom=0,
        class_map={"RootViewController": MODULE + "18RootViewController"},
        extra_top={
            "AppPreferences": {"theme": "dark", "launchCount": 12},   # app-level NSDictionary
            "AppArchivedModel": nested_model,   # NSData that is a keyed archive, not a path
        })


def special_value(code, **fields):
    """An NSValue holding one of Foundation's structures: `NS.special` and the structure's
    fields, as Apple's Foundation archives them (swift-corelibs-foundation's test resources
    hold a rect, a range and edge insets written on macOS)."""
    return Obj("NSValue", fields=dict({"NS.special": code}, **fields))


def nsvalue_archive():
    """One saved object whose state holds each NSValue structure, and NSValues that stay
    objects. The structures' fields follow Apple's archives; a saved state holding them is
    invented (FORMAT.md's evidence has none)."""
    return restoration_archive(
        [("RootViewController", view_controller_state(
            anchorPoint=special_value(1, **{"NS.pointval": "{0.5, 1}"}),
            contentSize=special_value(2, **{"NS.sizeval": "{375, 1334.5}"}),
            visibleRect=special_value(3, **{"NS.rectval": "{{0, 64}, {375, 603}}"}),
            selectedRange=special_value(4, **{"NS.rangeval.location": 3, "NS.rangeval.length": 5}),
            contentInsets=special_value(12, **{"NS.edgeval.top": 20.5, "NS.edgeval.left": 1.5,
                                               "NS.edgeval.bottom": 34.25, "NS.edgeval.right": 2.5}),
            # Codes 10, 11, 13 and 14 as -[NSConcreteValue encodeWithCoder:] writes them (reals
            # from encodeDouble:forKey:); no archive of them is in FORMAT.md's evidence.
            transform=special_value(10, **{"NS.atval.a": 0.5, "NS.atval.b": 0.0, "NS.atval.c": 0.0,
                                           "NS.atval.d": 2.0, "NS.atval.tx": 10.0, "NS.atval.ty": -20.25}),
            safeAreaInsets=special_value(11, **{"NS.edgeval.top": 47.0, "NS.edgeval.left": 0.0,
                                                "NS.edgeval.bottom": 34.0, "NS.edgeval.right": 0.0}),
            titleOffset=special_value(13, **{"NS.offset.h": 1.5, "NS.offset.v": -3.0}),
            layoutMargins=special_value(14, **{"NS.dirEdgeVal.top": 8.0, "NS.dirEdgeVal.leading": 16.0,
                                               "NS.dirEdgeVal.bottom": 8.0, "NS.dirEdgeVal.trailing": 16.0}),
            # A rect spelled as swift-corelibs-foundation spells it: numbers, and the text kept.
            spelledRect=special_value(3, **{"NS.rectval": "{{0.0, 64.0}, {375.0, 603.0}}"}),
            # A rect whose string spells no numbers: the string alone.
            textRect=special_value(3, **{"NS.rectval": "{{nan, 1}, {2, 3}}"}),
            # Not exactly Foundation's fields: objects, every field shown.
            unknownStructure=special_value(99, **{"NS.rectval": "{{1, 2}, {3, 4}}"}),
            extraField=special_value(3, **{"NS.rectval": "{{1, 2}, {3, 4}}", "note": "extra"}),
            wrongType=special_value(4, **{"NS.rangeval.location": "3", "NS.rangeval.length": 5}),
        ))],
        system_version="17.5", bundle_version="42", timestamp=NSDate(428947518.5), idiom=0)


# --- validate/: one clean archive, then one variant per validation rule ---------------------
# Each variant is clean_archive_parts() plus one change, so a fixture breaks its own rule and no
# other error-severity rule. The paths reuse TAB, NAV0 and NAV1 from ios8-tabbar.

LIST = NAV0 + "/:[0]:/ListViewController"
LIST_TABLE = LIST + "/TableView"
SETTINGS = NAV1 + "/:[0]:/SettingsViewController"
ABOUT = SETTINGS + "/AboutViewController"      # presented: continues from presenter, no index
SETTINGS_CLASS = "_TtC4Demo22SettingsViewController"

MAJOR_VERSION = "kUIStateRestorationArchiveMajorVersionKey"
TIMESTAMP = "UIApplicationStateRestorationTimestamp"
IDIOM = "UIApplicationStateRestorationUserInterfaceIdiom"
CHILDREN = "kUIViewControllerChildrenKey"
PRESENTED = "kPresentedViewControllerKey"
SELECTED_TAB = "kTabBarSelectedViewControllerKey"
VIEWS = "kViewRestorationDataKey"
FIRST_RESPONDERS = "kFirstRespondersKey"


def clean_archive_parts():
    """validate/clean.data as restoration_parts(): valid, no warnings. Built afresh on every
    call, so a variant may edit what it gets."""
    saved = [   # pre-order, as UIKit saves
        (TAB, view_controller_state(
            kUIViewControllerChildrenKey=[Proxy(NAV0), Proxy(NAV1)],
            kTabBarSelectedViewControllerKey=Proxy(NAV1),
            kTabBarIsCustomizingKey=False)),
        (NAV0, view_controller_state(kUIViewControllerChildrenKey=[LIST])),
        (LIST, view_controller_state(
            views={LIST_TABLE: {"kScrollViewContentOffsetKey": "{0, 44}"}})),
        (NAV1, view_controller_state(kUIViewControllerChildrenKey=[SETTINGS])),
        (SETTINGS, view_controller_state(kPresentedViewControllerKey=Proxy(ABOUT))),
        (ABOUT, view_controller_state()),
    ]
    return restoration_parts(
        saved,
        system_version="17.5",
        bundle_version="42",
        # No fraction, so the timestamp prints the same in every format.
        timestamp=datetime.datetime(2024, 6, 3, 9, 41, 0, tzinfo=UTC),
        idiom=0,
        class_map={SETTINGS: SETTINGS_CLASS},
        extra_top={FIRST_RESPONDERS: [LIST_TABLE]})


def insert_after(items, anchor, item):
    """Put `item` right after `anchor` in a list: where a pre-order save would have put it."""
    items.insert(items.index(anchor) + 1, item)


def insert_entry_after(entries, anchor, path, state):
    """The same for the ordered path -> state dictionary (keeps $objects in save order)."""
    pairs = list(entries.items())
    index = [p for p, _ in pairs].index(anchor) + 1
    pairs.insert(index, (path, state))
    entries.clear()
    entries.update(pairs)


def add_saved(parts, path, state=None):
    """A listed-and-saved leaf view controller, appended after everything else: the paths this
    is used for have no sensible place in the pre-order."""
    parts["listed"].append(path)
    parts["entries"][path] = view_controller_state() if state is None else state


def dangling_reference_parts():
    parts = clean_archive_parts()
    # A children entry for a controller that was never saved ("Can't find Child View Controller").
    parts["entries"][NAV1][CHILDREN].append(NAV1 + "/:[1]:/DetailViewController")
    # A presented-controller proxy to a path that was never saved ...
    parts["entries"][SETTINGS][PRESENTED] = Proxy(SETTINGS + "/GoneViewController")
    # ... which replaces AboutViewController as the presented one, so About is not saved either.
    parts["listed"].remove(ABOUT)
    del parts["entries"][ABOUT]
    return parts


def missing_object_parts():
    parts = clean_archive_parts()
    # Listed (where pre-order puts a controller List presents) but no entry; nothing refers to it.
    insert_after(parts["listed"], LIST, LIST + "/FilterViewController")
    return parts


def unlisted_object_parts():
    parts = clean_archive_parts()
    # A view controller's archive in $top whose path kRootRestorationIdentifiersKey omits.
    insert_entry_after(parts["entries"], LIST, NAV0 + "/:[1]:/GhostViewController",
                       view_controller_state())
    return parts


def duplicate_path_parts():
    parts = clean_archive_parts()
    insert_after(parts["listed"], SETTINGS, SETTINGS)   # listed twice; one entry
    return parts


def malformed_path_parts():
    parts = clean_archive_parts()
    add_saved(parts, NAV0 + "/:[x]:/BadIndexViewController")     # index is not a number
    add_saved(parts, NAV0 + "/:[2]/HalfIndexViewController")     # closing ':' missing
    add_saved(parts, NAV0 + "/:[3]:")                            # ends in an index component
    add_saved(parts, TAB + "//EmptyComponentViewController")     # empty component
    return parts


def orphan_path_parts():
    parts = clean_archive_parts()
    add_saved(parts, "LostContainer/:[0]:/OrphanViewController")  # LostContainer not saved
    return parts


def duplicate_sibling_identifier_parts():
    parts = clean_archive_parts()
    # Two children with one path: no index component tells them apart.
    parts["entries"][NAV0][CHILDREN] = [LIST, LIST]
    return parts


def class_map_unknown_path_parts():
    parts = clean_archive_parts()
    # A path no object was saved under (a warning) and an empty class name (an error).
    parts["class_map"][TAB + "/:[2]:/NavigationController"] = "_TtC4Demo20NavigationController"
    parts["class_map"][TAB] = ""
    return parts


def unsupported_version_parts():
    parts = clean_archive_parts()
    parts["metadata"][MAJOR_VERSION] = 3
    return parts


def malformed_metadata_parts():
    parts = clean_archive_parts()
    # A missing key is no finding (each metadata key is optional in some iOS version) ...
    del parts["metadata"][TIMESTAMP]
    # ... a value of the wrong type is.
    parts["metadata"][IDIOM] = "phone"          # a string object instead of an inline integer
    return parts


def undecodable_state_parts():
    parts = clean_archive_parts()
    # The bplist00 magic, then garbage: the trailer read from the last 32 bytes is nonsense.
    parts["entries"][LIST] = b"bplist00" + b"\xab" * 40
    # A view entry that is not a property list at all.
    parts["entries"][SETTINGS][VIEWS] = {SETTINGS + "/FormView": bytes(16)}
    return parts


def selected_tab_not_child_parts():
    parts = clean_archive_parts()
    # Saved, so not a dangling reference, but not one of the tab bar's children.
    parts["entries"][TAB][SELECTED_TAB] = Proxy(LIST)
    return parts


def selected_tab_not_child_by_path_parts():
    parts = clean_archive_parts()
    # As real tab bar controllers write it (FORMAT.md, Evidence): no children list, so the tabs
    # are known from the paths alone; List's path is not directly under TabController.
    del parts["entries"][TAB][CHILDREN]
    parts["entries"][TAB][SELECTED_TAB] = Proxy(LIST)
    return parts


def proxy_without_path_parts():
    parts = clean_archive_parts()
    # A proxy object with no kObjectIdentifierPathProxyIdentifierPathKey field at all.
    parts["entries"][SETTINGS][PRESENTED] = Obj(
        "_UIObjectIdentifierPathProxy", CLASS_CHAINS["_UIObjectIdentifierPathProxy"])
    return parts


def first_responder_unknown_path_parts():
    parts = clean_archive_parts()
    # Neither a saved object or view nor a view of a saved object (a view of List that wrote no
    # state of its own would have no entry, and is not reported).
    parts["extra_top"][FIRST_RESPONDERS] = [TAB + "/:[2]:/NavigationController/SearchField"]
    return parts


RULE_VARIANTS = {   # file name (the rule's name) -> parts
    "dangling-reference": dangling_reference_parts,
    "missing-object": missing_object_parts,
    "unlisted-object": unlisted_object_parts,
    "duplicate-path": duplicate_path_parts,
    "malformed-path": malformed_path_parts,
    "orphan-path": orphan_path_parts,
    "duplicate-sibling-identifier": duplicate_sibling_identifier_parts,
    "class-map-unknown-path": class_map_unknown_path_parts,
    "unsupported-version": unsupported_version_parts,
    "malformed-metadata": malformed_metadata_parts,
    "undecodable-state": undecodable_state_parts,
    "selected-tab-not-child": selected_tab_not_child_parts,
    "selected-tab-not-child-by-path": selected_tab_not_child_by_path_parts,
    "proxy-without-path": proxy_without_path_parts,
    "first-responder-unknown-path": first_responder_unknown_path_parts,
}


def repeated_top_key_archive():
    """clean.data with two $top keys written twice (hand-written: plistlib cannot repeat a key):
    the system version, the second time pointing at the bundle version's string, and Settings'
    entry, the second time pointing at About's archive."""
    tree = archive_from_parts(clean_archive_parts())
    top = tree["$top"]
    pairs = list(top.items())
    pairs.append(("UIApplicationStateRestorationSystemVersion", top["UIApplicationStateRestorationBundleVersion"]))
    pairs.append((SETTINGS, top[ABOUT]))
    tree["$top"] = Pairs(pairs)
    return write_bplist(flatten(tree))


def repeated_root_key_files():
    """clean.data whose root dictionary holds $top twice, the second an empty dictionary
    (hand-written: plistlib cannot repeat a key), in binary and in XML."""
    tree = archive_from_parts(clean_archive_parts())
    pairs = list(tree.items()) + [("$top", {})]
    binary_file = write_bplist(flatten(Pairs(pairs)))
    xml = plistlib.dumps(uids_to_cf_dicts(tree), fmt=plistlib.FMT_XML)
    closing = b"</dict>\n</plist>\n"
    assert xml.endswith(closing)
    xml = xml[:-len(closing)] + b"\t<key>$top</key>\n\t<dict/>\n" + closing
    return {"repeated-root-key.data": binary_file, "repeated-root-key.xml": xml}


def repeated_view_data_archive():
    """clean.data with List's own archive holding kViewRestorationDataKey twice (hand-written:
    plistlib cannot repeat a key): first its table view, as UIKit writes it, then a header
    view and an entry that is not a view archive."""
    parts = clean_archive_parts()
    state = view_controller_state(views={LIST_TABLE: {"kScrollViewContentOffsetKey": "{0, 44}"}})
    state["second view data"] = {LIST + "/Header": keyed_archive_bytes({"kHeaderHeightKey": 28.0}),
                                 LIST + "/Footer": "not an archive"}
    tree = keyed_archive(state)
    tree["$top"] = Pairs([("kViewRestorationDataKey" if key == "second view data" else key, value)
                          for key, value in tree["$top"].items()])
    parts["entries"][LIST] = write_bplist(flatten(tree))
    return binary(archive_from_parts(parts))


def repeated_children_archive(second):
    """clean.data with the first navigation controller's state holding kUIViewControllerChildrenKey
    twice (hand-written: plistlib cannot repeat a key): its list as UIKit writes it, then
    `second`."""
    parts = clean_archive_parts()
    state = view_controller_state(kUIViewControllerChildrenKey=[LIST])
    state["second children"] = second
    tree = keyed_archive(state)
    tree["$top"] = Pairs([("kUIViewControllerChildrenKey" if key == "second children" else key, value)
                          for key, value in tree["$top"].items()])
    parts["entries"][NAV0] = write_bplist(flatten(tree))
    return binary(archive_from_parts(parts))


def saved_state_directory(archive_bytes, tries_left):
    """A <bundle-id>.savedState directory: data.data plus the two plists UIKit keeps beside it."""
    return {
        "data.data": archive_bytes,
        "inprogress.data": binary({"kRestorationTriesLeft": tries_left,
                                   "kRestorationExtended": False}),
        "restorationInfo.plist": binary({"kIgnoreSnapshotKey": "NO"}),
    }


def unreadable_sidecars_directory(archive_bytes):
    """A .savedState directory whose two side files are damaged: inprogress.data cut off inside
    its trailer, restorationInfo.plist not a property list at all."""
    directory = saved_state_directory(archive_bytes, 3)
    directory["inprogress.data"] = directory["inprogress.data"][:-12]
    directory["restorationInfo.plist"] = b"kIgnoreSnapshotKey=NO\n"
    return directory


# --- diff/: pairs (A, B) for `restoration-tool diff`, built on the clean archive ------------
# Each pair differs in one kind of way; A is clean_archive_parts() itself unless the change
# needs something in A to change or remove.

DETAIL = NAV1 + "/:[1]:/DetailViewController"  # pushed onto the second navigation controller
LIST_CLASS = "_TtC4Demo18ListViewController"
# The length prefix counts "NewSettingsViewController" (25 characters), so the name demangles.
NEW_SETTINGS_CLASS = "_TtC4Demo25NewSettingsViewController"
LIST_SEARCH_BAR = LIST + "/SearchBar"
APP_LAUNCH_COUNT = "AppLaunchCount"
APP_PREFERENCES = "AppPreferences"


def sample_preferences():
    """An app NSDictionary with a nested one (a fresh object on every call)."""
    return {"theme": "dark", "fontSize": 14, "sync": {"enabled": True, "interval": 30}}


def metadata_a_parts():
    parts = clean_archive_parts()
    parts["extra_top"][APP_LAUNCH_COUNT] = Int(3)
    return parts


def metadata_b_parts():
    """Only archive-level data changes: every saved object is written exactly as in A."""
    parts = metadata_a_parts()
    parts["metadata"]["UIApplicationStateRestorationBundleVersion"] = "43"
    parts["metadata"]["UIApplicationStateRestorationSystemVersion"] = "17.6"
    parts["metadata"][TIMESTAMP] = datetime.datetime(2024, 6, 3, 10, 41, 0, tzinfo=UTC)
    parts["metadata"][IDIOM] = 1
    parts["class_map"][LIST] = LIST_CLASS          # new entry; Settings' entry unchanged
    parts["extra_top"][APP_LAUNCH_COUNT] = Int(4)
    return parts


def objects_b_parts():
    parts = clean_archive_parts()
    # About is no longer presented: not saved, not listed, and Settings has no presented proxy.
    del parts["entries"][SETTINGS][PRESENTED]
    parts["listed"].remove(ABOUT)
    del parts["entries"][ABOUT]
    # A controller pushed onto the second navigation controller, saved after Settings (pre-order).
    parts["entries"][NAV1][CHILDREN].append(DETAIL)
    insert_after(parts["listed"], SETTINGS, DETAIL)
    insert_entry_after(parts["entries"], SETTINGS, DETAIL, view_controller_state())
    return parts


def state_a_parts():
    parts = clean_archive_parts()
    parts["entries"][SETTINGS]["preferences"] = sample_preferences()
    parts["entries"][SETTINGS]["lastOpened"] = datetime.datetime(2024, 6, 2, 18, 30, 0, tzinfo=UTC)
    return parts


def state_b_parts():
    parts = state_a_parts()
    parts["entries"][LIST]["selectedRow"] = Int(7)                     # key added
    preferences = parts["entries"][SETTINGS]["preferences"]
    preferences["sync"]["interval"] = 60                                # nested value changed
    del preferences["fontSize"]                                         # key removed
    preferences["language"] = "de"                                      # key added
    del parts["entries"][SETTINGS]["lastOpened"]                        # key removed
    parts["entries"][LIST][VIEWS] = {                                   # view key changed
        LIST_TABLE: keyed_archive_bytes({"kScrollViewContentOffsetKey": "{0, 300}"})}
    return parts


def children_b_parts():
    parts = clean_archive_parts()
    # The same two proxies, tab 1 first. The paths keep their index components.
    parts["entries"][TAB][CHILDREN] = [Proxy(NAV1), Proxy(NAV0)]
    return parts


def class_b_parts():
    parts = clean_archive_parts()
    parts["class_map"][SETTINGS] = NEW_SETTINGS_CLASS
    return parts


def views_b_parts():
    parts = clean_archive_parts()
    # TableView removed, SearchBar added. kFirstRespondersKey is left as it is (it still names
    # the TableView), so the pair differs in views only.
    parts["entries"][LIST][VIEWS] = {
        LIST_SEARCH_BAR: keyed_archive_bytes({"kTextSelectedTextKey": "city"})}
    return parts


# One name in two spellings that are canonically equivalent, distinct bytes: "é" as U+00E9 (NFC)
# and as "e" + U+0301 (NFD). Foundation compares strings by code units, so an archive can hold
# both as distinct keys and paths.
COMPOSED = "Caf\u00e9"
DECOMPOSED = "Cafe\u0301"
COMPOSED_VC = LIST + "/" + COMPOSED
DECOMPOSED_VC = LIST + "/" + DECOMPOSED


def normalization_a_parts():
    """clean + two leaf controllers under List whose paths differ only in how "é" is written
    (both listed and saved, each with its own `note`), and Settings' key `Café` written
    composed."""
    parts = clean_archive_parts()
    add_saved(parts, COMPOSED_VC, view_controller_state(note="composed"))
    add_saved(parts, DECOMPOSED_VC, view_controller_state(note="decomposed"))
    parts["entries"][SETTINGS][COMPOSED] = "menu"
    return parts


def normalization_b_parts():
    """A, with the decomposed controller's note changed and Settings' key written decomposed:
    two changes that comparing strings canonically would not see."""
    parts = normalization_a_parts()
    parts["entries"][DECOMPOSED_VC]["note"] = "decomposed, edited"
    del parts["entries"][SETTINGS][COMPOSED]
    parts["entries"][SETTINGS][DECOMPOSED] = "menu"
    return parts


APP_SNAPSHOT = "AppSnapshot"


def shared_bytes_a_parts():
    """clean + an app-level key holding the very bytes of List's entry (invented: UIKit saves
    no such key; an app could)."""
    parts = clean_archive_parts()
    parts["extra_top"][APP_SNAPSHOT] = keyed_archive_bytes(parts["entries"][LIST])
    return parts


def shared_bytes_b_parts():
    """The app-level key holds Settings' entry instead. List's entry is the same in both, but
    its bytes are also where B holds others, so diff must decode them to show what changed."""
    parts = clean_archive_parts()
    parts["extra_top"][APP_SNAPSHOT] = keyed_archive_bytes(parts["entries"][SETTINGS])
    return parts


def unlisted_b_parts():
    """About is no longer listed, but its entry is still in $top, byte for byte: an object
    removed, and an app-level key added whose value diff shows decoded."""
    parts = clean_archive_parts()
    parts["listed"].remove(ABOUT)
    return parts


DIFF_PAIRS = {   # pair name -> (A parts, B parts)
    "metadata": (metadata_a_parts, metadata_b_parts),
    "objects": (clean_archive_parts, objects_b_parts),
    "state": (state_a_parts, state_b_parts),
    "children": (clean_archive_parts, children_b_parts),
    "class": (clean_archive_parts, class_b_parts),
    "views": (clean_archive_parts, views_b_parts),
    "normalization": (normalization_a_parts, normalization_b_parts),
    "shared-bytes": (shared_bytes_a_parts, shared_bytes_b_parts),
    "unlisted": (clean_archive_parts, unlisted_b_parts),
}


def reordered_keys_base_parts():
    """clean + NSDictionaries with more than one key: a second class-map entry (clean's class
    map has one), the app dictionary AppPreferences in $top and the same dictionary under
    Settings' key `preferences` (a dictionary inside a nested archive)."""
    parts = clean_archive_parts()
    parts["class_map"][LIST] = LIST_CLASS
    parts["entries"][SETTINGS]["preferences"] = sample_preferences()
    parts["extra_top"][APP_PREFERENCES] = sample_preferences()
    return parts


def reversed_dictionaries(tree):
    """A copy of a keyed-archive tree in which every NSDictionary with more than one key stores
    NS.keys and NS.objects in reverse order (the pairs stay matched and no UID changes), in
    nested archives (NSData holding a keyed archive) too."""
    def reverse(item):
        if isinstance(item, dict) and len(item.get("NS.keys", ())) > 1:
            return dict(item, **{"NS.keys": item["NS.keys"][::-1],
                                 "NS.objects": item["NS.objects"][::-1]})
        if isinstance(item, bytes) and item.startswith(b"bplist00"):
            nested = plistlib.loads(item)
            changed = reversed_dictionaries(nested)
            return item if changed == nested else binary(changed)
        return item
    return dict(tree, **{"$objects": [reverse(item) for item in tree["$objects"]]})


def reordered_keys_tree():
    """The base with its NSDictionaries reversed and $top in reverse encoding order, the order
    write_top_unsorted() keeps. $objects is otherwise the base's, UID for UID."""
    tree = reversed_dictionaries(archive_from_parts(reordered_keys_base_parts()))
    tree["$top"] = {key: tree["$top"][key] for key in reversed(list(tree["$top"]))}
    return tree


def sorted_dicts(value):
    if isinstance(value, dict):
        return {key: sorted_dicts(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_dicts(item) for item in value]
    return value


def write_top_unsorted(tree):
    """Binary plist of a keyed-archive tree with $top's keys in the tree's own order.
    plistlib.dumps sorts every dictionary's keys by default; with sort_keys=False it keeps
    insertion order, so every other dictionary is sorted here first, as it would be."""
    ordered = {key: tree[key] if key == "$top" else sorted_dicts(tree[key]) for key in sorted(tree)}
    return plistlib.dumps(ordered, fmt=plistlib.FMT_BINARY, sort_keys=False)


# ============================================================================================
# 3. Hand-written binary plist writer (for what plistlib cannot or will not write)
# ============================================================================================
# Layout: "bplist00", objects, offset table, 32-byte trailer
#   (6 unused, offsetIntSize, objectRefSize, numObjects u64, topObject u64, offsetTableOffset u64)

def _uint_size(n):
    """Smallest of 1/2/4/8 bytes that holds the unsigned value n."""
    for size in (1, 2, 4, 8):
        if n < 1 << (8 * size):
            return size
    raise OverflowError(n)


def enc_int(value, size=None):
    """0x1n integer of 2**n bytes. Default size is CoreFoundation's: negative -> 8 bytes,
    else the smallest of 1/2/4/8, or 16 above Int64.max. Forced sizes may be anything."""
    if size is None:
        if value < 0 or value >= 1 << 63:
            size = 8 if value < 0 else 16
        else:
            size = _uint_size(value)
    nibble = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[size]
    return bytes([0x10 | nibble]) + value.to_bytes(size, "big", signed=value < 0)


def _count_marker(high, count):
    """Type nibble + count; counts >= 15 use nibble 0xF and a following int object."""
    if count < 15:
        return bytes([high | count])
    return bytes([high | 0x0F]) + enc_int(count)


def enc_real64(value):
    return b"\x23" + struct.pack(">d", value)


def enc_real32(value):
    return b"\x22" + struct.pack(">f", value)


def enc_date(seconds):
    return b"\x33" + struct.pack(">d", seconds)


def enc_data(payload, declared_length=None):
    length = len(payload) if declared_length is None else declared_length
    return _count_marker(0x40, length) + payload


def enc_ascii(raw):
    """0x5n string from raw bytes -- they need not be ASCII (that is the point)."""
    return _count_marker(0x50, len(raw)) + raw


def enc_utf16(units):
    """0x6n string from raw UTF-16 code units (may hold NUL or lone surrogates)."""
    return _count_marker(0x60, len(units)) + b"".join(u.to_bytes(2, "big") for u in units)


def enc_uid(n):
    size = _uint_size(n)
    return bytes([0x80 | (size - 1)]) + n.to_bytes(size, "big")


class Pairs:
    """A dictionary written from a list of (key, value) pairs, so a key may repeat."""
    def __init__(self, pairs):
        self.pairs = list(pairs)


class Leaf:
    """An object whose encoding does not depend on the reference size."""
    def __init__(self, encoded):
        self.encoded = encoded

    def encode(self, ref_size):
        return self.encoded


class ArrayNode:
    def __init__(self, refs):
        self.refs = list(refs)

    def encode(self, ref_size):
        return _count_marker(0xA0, len(self.refs)) + b"".join(
            r.to_bytes(ref_size, "big") for r in self.refs)


class DictNode:
    def __init__(self, key_refs, value_refs):
        self.key_refs = list(key_refs)
        self.value_refs = list(value_refs)

    def encode(self, ref_size):
        return _count_marker(0xD0, len(self.key_refs)) + b"".join(
            r.to_bytes(ref_size, "big") for r in self.key_refs + self.value_refs)


def write_bplist(nodes, top=0, *, magic=b"bplist00", num_objects=None, top_object=None,
                 offset_overrides=None):
    """Serialize `nodes` (object i = nodes[i]). The keyword arguments falsify the header or
    trailer: num_objects/top_object replace the trailer fields, offset_overrides maps an
    object index to the offset written for it in the offset table."""
    ref_size = _uint_size(max(len(nodes) - 1, 0))
    out = bytearray(magic)
    offsets = []
    for node in nodes:
        offsets.append(len(out))
        out += node.encode(ref_size)
    for index, offset in (offset_overrides or {}).items():
        offsets[index] = offset
    table_offset = len(out)
    offset_size = _uint_size(max(offsets + [table_offset]))
    for offset in offsets:
        out += offset.to_bytes(offset_size, "big")
    out += struct.pack(">6xBBQQQ", offset_size, ref_size,
                       len(nodes) if num_objects is None else num_objects,
                       top if top_object is None else top_object,
                       table_offset)
    return bytes(out)


def flatten(value):
    """Python tree -> node list (object 0 is the root). No sharing of equal values, dicts keep
    insertion order. Leaves: Leaf, str, bytes, bool, int, float, UID."""
    nodes = []

    def add(v):
        index = len(nodes)
        nodes.append(None)
        if isinstance(v, Leaf):
            nodes[index] = v
        elif isinstance(v, (dict, Pairs)):
            pairs = v.pairs if isinstance(v, Pairs) else list(v.items())
            keys = [add(k) for k, _ in pairs]
            values = [add(x) for _, x in pairs]
            nodes[index] = DictNode(keys, values)
        elif isinstance(v, list):
            nodes[index] = ArrayNode([add(x) for x in v])
        elif isinstance(v, UID):
            nodes[index] = Leaf(enc_uid(v.data))
        elif isinstance(v, bool):
            nodes[index] = Leaf(b"\x09" if v else b"\x08")
        elif isinstance(v, int):
            nodes[index] = Leaf(enc_int(v))
        elif isinstance(v, float):
            nodes[index] = Leaf(enc_real64(v))
        elif isinstance(v, bytes):
            nodes[index] = Leaf(enc_data(v))
        elif isinstance(v, str):
            if v.isascii():
                nodes[index] = Leaf(enc_ascii(v.encode("ascii")))
            else:
                raw = v.encode("utf-16-be")
                nodes[index] = Leaf(enc_utf16(
                    [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw), 2)]))
        else:
            raise TypeError(f"cannot hand-write {type(v).__name__}")
        return index

    add(value)
    return nodes


def keyed_tree(top, objects):
    """A literal keyed-archive tree: for hostile archives the $objects are spelled out."""
    return {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": top, "$objects": objects}


def hand_keyed(top, objects):
    return write_bplist(flatten(keyed_tree(top, objects)))


NSARRAY_CLASS = {"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]}
NSDATE_CLASS = {"$classname": "NSDate", "$classes": ["NSDate", "NSObject"]}


# ============================================================================================
# 4. Fixture files
# ============================================================================================

def well_formed_files():
    ios8 = ios8_tabbar_archive()
    return {
        "ios8-tabbar.data": binary(ios8),
        "ios8-tabbar.xml": plistlib.dumps(uids_to_cf_dicts(ios8), fmt=plistlib.FMT_XML),
        "ios7-plain.data": binary(ios7_plain_archive()),
        "values.data": binary(values_archive()),
        "float32.data": float32_file(),
        "nsvalue.data": binary(nsvalue_archive()),
        "not-restoration.data": keyed_archive_bytes({"root": {"name": "x", "count": 2}}),
        "plain.plist": binary({"CFBundleVersion": "1", "items": [1, 2, 3]}),
        # Enough saved objects for the work that is spread over processors (64 and up).
        "many-objects.data": benchmark_archive(random.Random(80), 80),
    }


def float32_file():
    """Well-formed, but hand-written: CoreFoundation writes a float-typed NSNumber
    (encodeFloat:forKey:) as a 4-byte real (0x22), which plistlib never writes."""
    return hand_keyed(
        {
            "kScrollViewZoomScaleKey": Leaf(enc_real32(1.5)),
            "floatPointOne": Leaf(enc_real32(0.1)),       # shown as 0.1, the float's own digits
            "floatNegative": Leaf(enc_real32(-2.5)),
            "floatObject": UID(1),
        },
        ["$null", Leaf(enc_real32(0.25))])


def long_identifier_path():
    """1 000 000 characters: single-letter components a/b/.../z/a/..., the last one doubled
    so the length comes out even."""
    components = [chr(ord("a") + i % 26) for i in range(500_000)]
    components[-1] *= 2
    path = "/".join(components)
    assert len(path) == 1_000_000
    return path


def nested_archives(levels=1000):
    """Archive k's $top["nested"] is NSData holding archive k+1; the innermost holds a string."""
    data = binary(keyed_tree({"leaf": UID(1)}, ["$null", "bottom"]))
    for _ in range(levels - 1):
        data = binary(keyed_tree({"nested": UID(1)}, ["$null", data]))
    return data


def uid_bomb(levels=200, leaf="leaf"):
    """$objects[k] is an NSArray holding UID k+1 twice: 2**200 leaves if expanded naively."""
    first = 2
    objects = ["$null", NSARRAY_CLASS]
    for k in range(first, first + levels):
        objects.append({"$class": UID(1), "NS.objects": [UID(k + 1), UID(k + 1)]})
    objects.append(leaf)
    return binary(keyed_tree({"root": UID(first)}, objects))


def many_entry_bombs(count=100):
    """A restoration archive of `count` saved objects whose entries are each a UID bomb, all
    different (a writer stores equal data once): taken one by one, each would be expanded to the
    limit, `count` times the work of one. 2**24 leaves each: shallow enough for every reader
    to follow (UIDs 24 deep), too many to expand."""
    saved = [("Root/:[%d]:/Bomb" % i, uid_bomb(levels=24, leaf="leaf-%d" % i)) for i in range(count)]
    return binary(restoration_archive(
        saved, system_version="17.5", bundle_version="1", idiom=0,
        timestamp=datetime.datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)))


def demangling_bomb_name(levels=24):
    """A 249-byte Swift type mangling whose substitutions double at every level: the runtime's
    demangler expands it to 1.3 GB (Array<(Array<(…)>, Array<(…)>)>)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "$sSaySiG" + "".join("SayA%s_A%stG" % (letters[i], letters[i]) for i in range(levels)) + "D"


def demangling_bomb_archive():
    """The name as a restoration class and as an app object's class."""
    path = "Root/:[0]:/Bomb"
    bomb = demangling_bomb_name()
    return restoration_archive(
        [("Root", view_controller_state(kUIViewControllerChildrenKey=[path])),
         (path, view_controller_state(model=Obj(bomb, fields={"value": 1})))],
        class_map={path: bomb}, **STATEDEMO_METADATA)


def escape_bomb():
    """Escaping multiplies: 60 000 ESC characters referenced 4 000 times are 240 MB of text,
    inside a limit that counts bytes as stored, but six times that once each is escaped."""
    objects = ["$null", {"$class": UID(3), "NS.objects": [UID(2)] * 4000}, "\x1b" * 60_000, NSARRAY_CLASS]
    return binary(keyed_tree({"root": UID(1)}, objects))


def structure_bomb(levels=12, width=1000):
    """Output from structure alone: an array of `width` short strings shared 2**levels times
    through nested arrays (4 million values, inside the value limit) is 16 KB that prints
    295 MB of text."""
    objects = ["$null", NSARRAY_CLASS, {"$class": UID(1), "NS.objects": [UID(3 + i) for i in range(width)]}]
    objects += ["x%d" % i for i in range(width)]
    top = 2
    for _ in range(levels):
        objects.append({"$class": UID(1), "NS.objects": [UID(top)] * 2})
        top = len(objects) - 1
    return binary(keyed_tree({"root": UID(top)}, objects))


def shared_subtrees_archive(leaf, levels=18):
    """A restoration archive whose one object holds an array shared at every level (2**levels
    leaves, all `leaf`): two of these that differ in the leaf differ at every one of its paths."""
    objects = ["$null", NSARRAY_CLASS, leaf]
    top = 2
    for _ in range(levels):
        objects.append({"$class": UID(1), "NS.objects": [UID(top), UID(top)]})
        top = len(objects) - 1
    state = binary(keyed_tree({"kViewControllerViewWasLoadedKey": True, "model": UID(top)}, objects))
    return binary(restoration_archive([("Root", state)], **STATEDEMO_METADATA))


def shared_user_info_activity(levels=20):
    """A scene session's data.data (binary, as plistlib writes it) whose user-info archive holds
    an array shared at every level: under 1 KB that expands to 2**levels leaves and about three
    million values, within one file's limits. A folder of many such files is the attack."""
    objects = ["$null", NSARRAY_CLASS, "a"]
    top = 2
    for _ in range(levels):
        objects.append({"$class": UID(1), "NS.objects": [UID(top), UID(top)]})
        top = len(objects) - 1
    user_info = binary(keyed_tree({"CanvasRestorationUserActivityUserInfoKey": UID(top)}, objects))
    return plistlib.dumps({"CanvasRestorationUserActivityTypeKey": "com.example.viewing",
                           "CanvasRestorationUserActivityUserInfoDataKey": user_info}, fmt=plistlib.FMT_BINARY)


def long_key_archive(step, length=20_000, count=2000):
    """One object whose state holds `count` values under one key of `length` characters."""
    state = {"L" * length: {"v%d" % i: i + step for i in range(count)}}
    return binary(restoration_archive([("Root", state)], **STATEDEMO_METADATA))


def shared_string_bomb(length=1 << 16, references=8192):
    """$objects[1] is an NSArray holding one long string `references` times: a small file that
    prints half a gibibyte, because every reference prints the string."""
    objects = ["$null", {"$class": UID(3), "NS.objects": [UID(2)] * references}, "A" * length, NSARRAY_CLASS]
    return binary(keyed_tree({"root": UID(1)}, objects))


def hostile_files(ios8_bytes):
    small = flatten({"key": "value", "list": [1, 2, 3]})
    trailer_start = len(ios8_bytes) - 32
    table_offset = struct.unpack(">Q", ios8_bytes[-8:])[0]
    rng = random.Random(1234)

    files = {
        "empty.data": b"",
        "random.data": bytes(rng.getrandbits(8) for _ in range(4096)),
        # Note: CoreFoundation accepts any "bplist0?" header; plistlib wants "bplist00".
        "bad-magic.data": b"bplist01" + ios8_bytes[8:],
        "truncated-trailer.data": ios8_bytes[:trailer_start + 16],
        # Cut half-way through the objects, then the original trailer: its offset table
        # offset and offsets now point past the end of the file.
        "truncated-objects.data": ios8_bytes[:table_offset // 2] + ios8_bytes[trailer_start:],
        "offset-out-of-range.data": write_bplist(small, offset_overrides={2: 0xFFFFFFFF}),
        "top-object-out-of-range.data": write_bplist(small, top_object=len(small)),
        # The trailer claims 2^40 objects: an offset table far larger than the file.
        "object-count-out-of-range.data": write_bplist(small, num_objects=1 << 40),
        # object 0 = [object 1, object 2] but only objects 0 and 1 exist
        "ref-out-of-range.data": write_bplist([ArrayNode([1, 2]), Leaf(enc_int(7))]),
        "plist-cycle.data": write_bplist([ArrayNode([1, 0]), Leaf(enc_ascii(b"x"))]),
        "shared-bomb.data": write_bplist(
            [ArrayNode([i + 1, i + 1]) for i in range(200)] + [Leaf(enc_int(1))]),
        "nested-arrays.data": write_bplist(
            [ArrayNode([i + 1]) for i in range(99_999)] + [ArrayNode([])]),
        "nested-archives.data": nested_archives(),
        "uid-cycle.data": binary(keyed_tree(
            {"root": UID(1)},
            ["$null", {"$class": UID(2), "NS.objects": [UID(1)]}, NSARRAY_CLASS])),
        "uid-out-of-range.data": binary(keyed_tree({"root": UID(9999)}, ["$null"])),
        "uid-bomb.data": uid_bomb(),
        "many-entry-bombs.data": many_entry_bombs(),
        "shared-string-bomb.data": shared_string_bomb(),
        "class-not-dict.data": binary(keyed_tree(
            {"root": UID(1)},
            ["$null", {"$class": UID(2), "NS.string": "x"}, "NSMutableString"])),
        "objects-not-array.data": plistlib.dumps(
            {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": UID(1)},
             "$objects": {"0": "$null", "1": "value"}}, fmt=plistlib.FMT_BINARY),
        "utf16-nul.data": hand_keyed(
            {"inline": Leaf(enc_utf16([0x41, 0x0000, 0x42, 0xD800, 0x43])), "title": UID(1)},
            ["$null", Leaf(enc_utf16([0x41, 0x0000, 0x42, 0xD800, 0x43]))]),
        "ascii-invalid-utf8.data": hand_keyed(
            {"inline": Leaf(enc_ascii(b"x\xc3\x28\xffy")), "title": UID(1)},
            ["$null", Leaf(enc_ascii(b"x\xc3\x28\xffy"))]),
        "int16.data": hand_keyed(
            {
                "uint64Max": Leaf(enc_int(2**64 - 1, size=16)),
                "negative": Leaf(enc_int(-42, size=16)),
                "twoPow64": Leaf(enc_int(2**64, size=16)),
                "int128Max": Leaf(enc_int(2**127 - 1, size=16)),
            },
            ["$null"]),
        "date-extremes.data": hand_keyed(
            {
                # plist dates (0x33) ...
                "dateNaN": Leaf(enc_date(float("nan"))),
                "dateHuge": Leaf(enc_date(1e300)),
                "dateHugeNegative": Leaf(enc_date(-1e300)),
                # ... and NSDate objects with the same NS.time values
                "nsdateNaN": UID(1),
                "nsdateHuge": UID(3),
                "nsdateHugeNegative": UID(4),
            },
            ["$null",
             {"$class": UID(2), "NS.time": Leaf(enc_real64(float("nan")))},
             NSDATE_CLASS,
             {"$class": UID(2), "NS.time": 1e300},
             {"$class": UID(2), "NS.time": -1e300}]),
        "huge-data-length.data": hand_keyed(
            {"blob": UID(1)},
            ["$null", Leaf(enc_data(b"\x00\x01\x02\x03", declared_length=1 << 32))]),
        "long-path.data": binary(long_path_archive()),
        "demangling-bomb.data": binary(demangling_bomb_archive()),
        "escape-bomb.data": escape_bomb(),
    }
    files.update(hostile_xml_files())
    return {"hostile/" + name: data for name, data in files.items()}


def validate_files():
    """validate/: the clean archive, one archive per rule, and savedState directories whose
    inprogress.data says none is left (0 tries), the next restore is the last (1), a restore was
    interrupted with tries to spare (3), or whose side files cannot be read."""
    clean = binary(archive_from_parts(clean_archive_parts()))
    files = {"clean.data": clean}
    for rule, parts in RULE_VARIANTS.items():
        files[rule + ".data"] = binary(archive_from_parts(parts()))
    files["repeated-top-key.data"] = repeated_top_key_archive()
    files["repeated-view-data.data"] = repeated_view_data_archive()
    files.update(repeated_root_key_files())
    # The second list the same as the first: the repeat is the one finding. Then a second list
    # naming a path no object was saved under, which is checked as the first is.
    files["repeated-state-key.data"] = repeated_children_archive([LIST])
    files["repeated-children.data"] = repeated_children_archive([NAV0 + "/:[1]:/GoneViewController"])
    directories = {directory: saved_state_directory(clean, tries_left)
                   for directory, tries_left in (("pending-discard", 0), ("last-try", 1), ("interrupted-restore", 3))}
    directories["unreadable-sidecar"] = unreadable_sidecars_directory(clean)
    for directory, contents in directories.items():
        for name, data in contents.items():
            files[f"{directory}.savedState/{name}"] = data
    return {"validate/" + name: data for name, data in files.items()}


def diff_files():
    """diff/: for each pair NAME-a.data and NAME-b.data, plus the files whose bytes differ from
    their twin while their meaning does not (reordered keys, XML)."""
    files = {}
    for name, (a_parts, b_parts) in DIFF_PAIRS.items():
        files[name + "-a.data"] = binary(archive_from_parts(a_parts()))
        files[name + "-b.data"] = binary(archive_from_parts(b_parts()))
    files["reordered-keys-base.data"] = binary(archive_from_parts(reordered_keys_base_parts()))
    files["reordered-keys.data"] = write_top_unsorted(reordered_keys_tree())
    clean = archive_from_parts(clean_archive_parts())
    files["xml-twin.xml"] = plistlib.dumps(uids_to_cf_dicts(clean), fmt=plistlib.FMT_XML)
    # validate/undecodable-state.data in XML: its damaged entry's bytes are the same, read from
    # base64 instead of lying 1 750 bytes into the file.
    damaged = archive_from_parts(RULE_VARIANTS["undecodable-state"]())
    files["undecodable-state-twin.xml"] = plistlib.dumps(uids_to_cf_dicts(damaged), fmt=plistlib.FMT_XML)
    return {"diff/" + name: data for name, data in files.items()}


XML_HEADER = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
              b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
              b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n')


def hostile_xml_files():
    """XML attacks on libplist's parser, which the tool guards with a pre-scan."""
    return {
        # libplist recurses once per level and accepts white space inside a tag, so the
        # pre-scan must see "<array\n>" as an array too.
        "xml-deep-newline.xml": XML_HEADER + b"<array\n>" * 100_000 + b"</array>" * 100_000 + b"</plist>\n",
        # "Billion laughs": entities that expand a thousand-fold per level.
        "xml-entity-bomb.xml": (
            b'<?xml version="1.0"?>\n<!DOCTYPE plist [\n'
            b'<!ENTITY a "aaaaaaaaaa">\n'
            + b"".join(b'<!ENTITY %c "%s">\n' % (ord(name), (b"&%c;" % ord(prev)) * 10)
                       for prev, name in zip("abcdefgh", "bcdefghi"))
            + b']>\n<plist version="1.0"><string>&i;</string></plist>\n'),
        "xml-unclosed.xml": XML_HEADER + b"<dict><key>$archiver</key><string>NSKeyedArchiver",
    }


def long_path_archive():
    path = long_identifier_path()
    return restoration_archive(
        [(path, view_controller_state("CityViewController"))],
        **STATEDEMO_METADATA,
        class_map={path: CITY_VC})


# --- benchmark inputs (not committed: Tests/Benchmarks/run writes them to a scratch folder) --

def benchmark_object_state(rng, path, index):
    """A realistic view controller's $top with a dozen keys and one view archive."""
    return view_controller_state(
        storyboard_identifier="Controller%d" % (index % 40) if index % 4 == 0 else None,
        views={path + "/TableView": {
            "kScrollViewContentOffsetKey": "{0, %d.5}" % rng.randrange(0, 5000),
            "kScrollViewZoomScaleKey": 1.0}},
        selectedRow=rng.randrange(0, 1000),
        itemIdentifier="item-%08x" % rng.getrandbits(32),
        scrollFraction=rng.random(),
        lastRefresh=APPLE_EPOCH + datetime.timedelta(seconds=700_000_000 + rng.randrange(0, 10_000_000)),
        filters=["filter-%d" % rng.randrange(0, 50) for _ in range(rng.randrange(1, 5))],
        isEditing=rng.random() < 0.3,
        pageIndex=rng.randrange(0, 40),
        thumbnail=bytes(rng.getrandbits(8) for _ in range(16)),
    )


def benchmark_archive(rng, objects):
    """A tab bar of navigation controllers holding `objects` view controllers in all."""
    return benchmark_binary(benchmark_saved(rng, objects))


def benchmark_saved(rng, objects):
    """The saved objects of benchmark_archive(), as restoration_parts() takes them."""
    tabs = max(1, objects // 200)
    saved = []
    tab_proxies = [Proxy("Tabs/:[%d]:/Navigation" % tab) for tab in range(tabs)]
    saved.append(("Tabs", view_controller_state(
        kUIViewControllerChildrenKey=tab_proxies, kTabBarSelectedViewControllerKey=tab_proxies[0])))
    remaining = objects - 1 - tabs
    for tab in range(tabs):
        nav = "Tabs/:[%d]:/Navigation" % tab
        count = remaining // tabs + (1 if tab < remaining % tabs else 0)
        children = ["%s/:[%d]:/Controller%d" % (nav, i, i) for i in range(count)]
        saved.append((nav, view_controller_state(kUIViewControllerChildrenKey=children)))
        saved += [(child, benchmark_object_state(rng, child, i)) for i, child in enumerate(children)]
    return saved


def benchmark_binary(saved):
    return binary(restoration_archive(
        saved, system_version="17.5", bundle_version="7", idiom=0,
        timestamp=datetime.datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)))


def later_save(saved):
    """The same objects saved again after the user moved on: one in a hundred has another
    selected row, the rest are saved alike."""
    later = []
    for index, (path, state) in enumerate(saved):
        if index % 100 == 50 and "selectedRow" in state:
            state = dict(state, selectedRow=state["selectedRow"] + 1)
        later.append((path, state))
    return later


def benchmark_files():
    """big.data (20 000 objects, about 20 MB), big-later.data (the same saved again with 200 of
    them changed) and corpus/0000.data … 0999.data (2-20 KB)."""
    rng = random.Random(2026)
    saved = benchmark_saved(rng, 20_000)
    files = {"big.data": benchmark_binary(saved), "big-later.data": benchmark_binary(later_save(saved))}
    for number in range(1000):
        files["corpus/%04d.data" % number] = benchmark_archive(rng, rng.randrange(3, 14))
    sys.dont_write_bytecode = True   # no __pycache__ in Fixtures/
    import saved_state
    files.update(saved_state.benchmark_files(rng))
    return files


def shared_braces_archive(braces):
    """450 saved objects whose entries are one state listing 1 000 children no object was
    saved under, each named with `braces` `{`: every graph language escapes them, so what
    tree, diff and validate would write outgrows the 220 KB read (hostile round 3, rows 2-4)."""
    names = ["Gone/%s/%d" % ("{" * braces, i) for i in range(1000)]
    state = binary(keyed_tree({"kUIViewControllerChildrenKey": UID(1)},
                              ["$null", {"$class": UID(2), "NS.objects": [UID(3 + i) for i in range(1000)]}, NSARRAY_CLASS] + names))
    listed = ["P%d" % i for i in range(450)]
    top = {path: UID(1) for path in listed}
    top.update({"kRootRestorationIdentifiersKey": UID(2), "kUIStateRestorationArchiveMajorVersionKey": 2})
    return binary(keyed_tree(top, ["$null", state, {"$class": UID(3), "NS.objects": [UID(4 + i) for i in range(450)]}, NSARRAY_CLASS] + listed))


def parse_arguments(argv):
    import argparse
    parser = argparse.ArgumentParser(
        prog="generate.py",
        description="Write restoration-tool's test fixtures (deterministic: the same bytes every run).")
    parser.add_argument("output", nargs="?", default=os.path.dirname(os.path.abspath(__file__)),
                        help="folder to write the fixtures into (default: the folder this script is in)")
    parser.add_argument("--benchmark", metavar="FOLDER",
                        help="write the benchmark inputs (big.data, corpus/) into FOLDER instead")
    options = parser.parse_args(argv[1:])
    if options.benchmark is not None and options.output != parser.get_default("output"):
        parser.error("give either an output folder or --benchmark FOLDER, not both")
    return options


def write_files(folder, files):
    for name, data in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main(argv):
    options = parse_arguments(argv)
    if options.benchmark is not None:
        write_files(options.benchmark, benchmark_files())
        return 0
    files = well_formed_files()
    files.update(hostile_files(files["ios8-tabbar.data"]))
    files.update(validate_files())
    files.update(diff_files())
    files.update(evidence_files())
    # Scene sessions and macOS window state (see saved_state.py).
    sys.dont_write_bytecode = True   # no __pycache__ in Fixtures/
    import saved_state
    files.update(saved_state.saved_state_files())
    # Inputs whose cost is output itself: run by Tests/Hostile/harness.py (release build, default
    # limits) and by tests with a small --max-output-size.
    files["amplification/structure-bomb.data"] = structure_bomb()
    files["amplification/diff-shared-a.data"] = shared_subtrees_archive("a")
    files["amplification/diff-shared-b.data"] = shared_subtrees_archive("b")
    files["amplification/diff-long-key-a.data"] = long_key_archive(0)
    files["amplification/diff-long-key-b.data"] = long_key_archive(1)
    files["amplification/shared-braces-a.data"] = shared_braces_archive(180)
    files["amplification/shared-braces-b.data"] = shared_braces_archive(181)
    files["amplification/shared-user-info.data"] = shared_user_info_activity()
    write_files(options.output, files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
