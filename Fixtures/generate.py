#!/usr/bin/env python3
"""Generate the test fixtures for restoration-tool.

Usage:  python3 generate.py [OUTPUT_DIR]      (default: the folder this script is in)

Python 3.11, standard library only. The output is deterministic: no clock, no unseeded
randomness, dictionaries written in a fixed order, so running the script twice writes
byte-identical files (a test regenerates into a temp dir and compares bytes).

Three layers:
  1. KeyedArchiver -- builds the NSKeyedArchiver *structure* ($archiver/$version/$top/$objects)
     from Python values; plistlib (FMT_BINARY, plistlib.UID) writes the bytes.
  2. restoration_archive() -- the UIKit state-restoration layout on top of (1): the outer
     archive, one nested keyed archive (NSData) per identifier path, view archives under
     kViewRestorationDataKey.
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


def restoration_archive(saved, *, system_version, timestamp, idiom, bundle_version=None,
                        class_map=None, extra_top=None):
    """The outer data.data archive (plist tree).

    saved      -- [(identifier path, that object's $top dict)] in save order
    class_map  -- {path: restoration class name}, or None for no kViewControllerRestorationClassMapKey
    extra_top  -- more $top keys (kFirstRespondersKey, app-level keys, ...)
    """
    top = {
        "kUIStateRestorationArchiveMajorVersionKey": 2,
        "kUIStateRestorationArchiveMinorVersionKey": 1,
    }
    if bundle_version is not None:
        top["UIApplicationStateRestorationBundleVersion"] = bundle_version
    top["UIApplicationStateRestorationSystemVersion"] = system_version
    top["UIApplicationStateRestorationTimestamp"] = timestamp
    top["UIApplicationStateRestorationUserInterfaceIdiom"] = idiom
    top["kRootRestorationIdentifiersKey"] = [path for path, _ in saved]
    if class_map is not None:
        top["kViewControllerRestorationClassMapKey"] = dict(class_map)
    for path, state in saved:
        top[path] = keyed_archive_bytes(state)      # NSData: the object's own archive
    if extra_top:
        top.update(extra_top)
    return keyed_archive(top)


# --- ios8-tabbar ----------------------------------------------------------------------------

MODULE = "_TtC20StateRestorationDemo"
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
        system_version="8.0",
        bundle_version="1",
        timestamp=datetime.datetime(2014, 7, 6, 16, 5, 18, tzinfo=UTC),
        idiom=0,
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
        elif isinstance(v, dict):
            keys = [add(k) for k in v]
            values = [add(x) for x in v.values()]
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
        "not-restoration.data": keyed_archive_bytes({"root": {"name": "x", "count": 2}}),
        "plain.plist": binary({"CFBundleVersion": "1", "items": [1, 2, 3]}),
    }


def float32_file():
    """Well-formed, but hand-written: CoreFoundation writes a float-typed NSNumber
    (encodeFloat:forKey:) as a 4-byte real (0x22), which plistlib never writes."""
    return hand_keyed(
        {
            "kScrollViewZoomScaleKey": Leaf(enc_real32(1.5)),
            "floatPointOne": Leaf(enc_real32(0.1)),       # reads back as 0.10000000149011612
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


def uid_bomb(levels=200):
    """$objects[k] is an NSArray holding UID k+1 twice: 2**200 leaves if expanded naively."""
    first = 2
    objects = ["$null", NSARRAY_CLASS]
    for k in range(first, first + levels):
        objects.append({"$class": UID(1), "NS.objects": [UID(k + 1), UID(k + 1)]})
    objects.append("leaf")
    return binary(keyed_tree({"root": UID(first)}, objects))


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
    }
    files.update(hostile_xml_files())
    return {"hostile/" + name: data for name, data in files.items()}


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
        system_version="8.0",
        bundle_version="1",
        timestamp=datetime.datetime(2014, 7, 6, 16, 5, 18, tzinfo=UTC),
        idiom=0,
        class_map={path: CITY_VC})


def main(argv):
    out_dir = argv[1] if len(argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = well_formed_files()
    files.update(hostile_files(files["ios8-tabbar.data"]))
    for name, data in files.items():
        path = os.path.join(out_dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
