"""Scene-session and macOS saved-state fixtures, for generate.py.

No real file of either format is public: these folders are built from the public descriptions
gathered in docs/format.md and docs/formats/ (UIKit's `_UISceneUserActivityManager`; mac_apt,
Ballenthin's parser, Metasploit, DLEAPP). plistlib writes every property list; `openssl enc
-aes-128-cbc -nopad` (OpenSSL's command line, an implementation we did not write) encrypts the
macOS records, with a zero IV, as AppKit does. Keys and identifiers are fixed, so the output is
deterministic.
"""

import datetime
import plistlib
import struct
import subprocess

import generate as g

UTC = datetime.timezone.utc


# ============================================================================================
# iOS 13+ scene sessions
# ============================================================================================

SESSION_VIEWING = "5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B"
SESSION_BROKEN = "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D"
SESSION_OLDER_FORM = "C0FFEE00-1234-4567-89AB-CDEF01234567"
# A session whose scene returned no activity (UIKit deleted its data.data), and one the known
# sessions list without a folder.
SESSION_NO_ACTIVITY = "D1D2D3D4-0000-4000-8000-000000000001"
SESSION_NO_FOLDER = "E1E2E3E4-0000-4000-8000-000000000002"


def scene_activity(activity_type, title, user_info):
    """A scene's data.data as UIKit writes it: an XML plist (writeToURL:) whose user info is a
    keyed archive under CanvasRestorationUserActivityUserInfoKey."""
    activity = {"CanvasRestorationUserActivityTypeKey": activity_type}
    if title is not None:
        activity["CanvasRestorationUserActivityTitleKey"] = title
    activity["CanvasRestorationUserActivityUserInfoDataKey"] = g.keyed_archive_bytes(
        {"CanvasRestorationUserActivityUserInfoKey": user_info})
    return plistlib.dumps(activity, fmt=plistlib.FMT_XML)


def scene_files(prefix, note_id=42, scroll=128.5):
    folder = prefix + "com.example.notes.savedState/"
    viewing_info = {
        "noteID": g.NSNumber(note_id),
        "scrollOffset": g.NSNumber(scroll),
        "lastEdited": datetime.datetime(2026, 3, 14, 9, 26, 53, 500000, tzinfo=UTC),
        "revision": g.NSNumber(2**63 + 5),
        "delta": g.NSNumber(-7),
        "tags": ["groceries", "weekly"],
    }
    # The known-session map's values: keyed archives of each session (shape invented: no
    # public source shows their keys).
    def session(identifier):
        return g.keyed_archive_bytes({"root": g.Obj("UISceneSession", fields={
            "persistentIdentifier": identifier,
            "role": "UIWindowSceneSessionRoleApplication",
            "configuration": g.Obj("UISceneConfiguration", fields={
                "name": "Default Configuration", "delegateClassName": "SwiftUI.AppSceneDelegate"}),
        })})
    known = {identifier: session(identifier)
             for identifier in (SESSION_VIEWING, SESSION_BROKEN, SESSION_OLDER_FORM, SESSION_NO_ACTIVITY, SESSION_NO_FOLDER)}
    broken = {
        "CanvasRestorationUserActivityTypeKey": "com.example.notes.editing",
        # Announces a binary property list, then breaks off.
        "CanvasRestorationUserActivityUserInfoDataKey": b"bplist00\xd1\x01\x02",
    }
    older = {
        "CanvasRestorationUserActivityTypeKey": "com.example.notes.list",
        "CanvasRestorationUserActivityUserInfoKey": {"folder": "Recipes"},
    }
    return {
        folder + "KnownSceneSessions/data.data": plistlib.dumps(known, fmt=plistlib.FMT_BINARY),
        folder + SESSION_VIEWING + "/data.data": scene_activity("com.example.notes.viewing", "Groceries", viewing_info),
        folder + SESSION_VIEWING + "/userInfo.data": plistlib.dumps({"windowRole": "main"}, fmt=plistlib.FMT_XML),
        folder + SESSION_BROKEN + "/data.data": plistlib.dumps(broken, fmt=plistlib.FMT_XML),
        folder + SESSION_OLDER_FORM + "/data.data": plistlib.dumps(older, fmt=plistlib.FMT_XML),
        folder + SESSION_NO_ACTIVITY + "/userInfo.data": plistlib.dumps({"windowRole": "auxiliary"}, fmt=plistlib.FMT_XML),
    }


# ============================================================================================
# macOS AppKit saved state
# ============================================================================================

def key(n):
    return bytes((n * 17 + i * 7) % 256 for i in range(16))


def encrypt(plaintext, data_key):
    """AES-128-CBC, zero IV, no padding, by OpenSSL's command line."""
    assert len(plaintext) % 16 == 0
    result = subprocess.run(
        ["openssl", "enc", "-aes-128-cbc", "-nopad", "-K", data_key.hex(), "-iv", "00" * 16],
        input=plaintext, stdout=subprocess.PIPE, check=True)
    return result.stdout


def envelope(archive, name=b"_NSWindow", extra=()):
    """A record's plaintext: a zero u32, the name, an rchv value, padding to whole blocks."""
    body = struct.pack(">II", 0, len(name)) + name + b"rchv" + struct.pack(">I", len(archive)) + archive
    for tag, value in extra:
        body += tag + struct.pack(">I", len(value)) + value
    return body + b"\0" * (-len(body) % 16)


def record(window_id, plaintext, data_key):
    ciphertext = encrypt(plaintext, data_key)
    return b"NSCR1000" + struct.pack(">II", window_id, 16 + len(ciphertext)) + ciphertext


def window_archive(title, frame, **keys):
    """A window's archive. `frame` is NSWindowFrame as the real folders hold it: eight numbers,
    the window's x, y, width and height, then its screen's, each followed by a space."""
    top = {"NSTitle": title, "NSWindowFrame": frame, "NSIsKey": g.Bool(True), "NSIsMain": g.Bool(True)}
    top.update(keys)
    return g.keyed_archive_bytes(top)


def terminal_state(directory):
    return {"Window Settings": [{
        "Tab Working Directory URL String": directory,
        "TabSelected": g.NSNumber(True),
        "Tab Session ID": "1B2C3D4E-0000-4000-8000-00000000A001",
        "Tab Scrollback Restorable": g.NSNumber(True),
    }]}


MENU_BAR_ID = 3
APP_ENTRY_ID = 0xFFFFFFFF


def windows_plist(windows):
    entries = [{"NSWindowID": wid, "NSDataKey": key(wid % 251), "NSTitle": title, "NSWindowNumber": 100 + (wid % 251)}
               for wid, title in windows]
    entries.append({"NSWindowID": MENU_BAR_ID, "NSDataKey": key(MENU_BAR_ID), "NSIsMainMenuBar": True})
    entries.append({"NSWindowID": APP_ENTRY_ID, "NSDataKey": key(APP_ENTRY_ID % 251), "NSIsGlobal": True,
                    "NSDockMenu": [{"name": "Open Recent", "sub": []}]})
    return plistlib.dumps(entries, fmt=plistlib.FMT_BINARY)


def terminal_folder(directory, second_title):
    """Terminal's folder: window 1 saved twice (the second is current), window 2, a record of
    window 7 whose key windows.plist no longer has, and a window snapshot."""
    records = b"".join([
        record(1, envelope(window_archive("zsh — 80×24", "100 200 800 600 0 0 1440 875 ",
                                          TTWindowState=terminal_state("file:///Users/ada/"))), key(1)),
        record(2, envelope(window_archive(second_title, "40 60 640 480 0 0 1440 875 ")), key(2)),
        record(7, envelope(window_archive("closed", "0 0 10 10 0 0 1440 875 ")), key(7)),
        record(1, envelope(window_archive("zsh — 120×40", "100 200 1000 700 0 0 1440 875 ",
                                          TTWindowState=terminal_state(directory))), key(1)),
    ])
    return {
        "windows.plist": windows_plist([(1, "zsh — 120×40"), (2, second_title)]),
        "data.data": records,
        "window_1.data": bytes((i * 37 + 11) % 256 for i in range(96)),
    }


def wrong_key_folder():
    """Window 2's current record encrypted with window 1's key; window 1's envelope carries an
    unknown tag after its archive, which is kept."""
    records = b"".join([
        record(1, envelope(window_archive("kept", "0 0 300 200 0 0 1440 875 "), extra=[(b"kyds", b"\x01\x02\x03")]), key(1)),
        record(2, envelope(window_archive("wrong key", "0 0 300 200 0 0 1440 875 ")), key(1)),
    ])
    return {"windows.plist": windows_plist([(1, "kept"), (2, "wrong key")]), "data.data": records}


def torn_folder():
    """A last record whose length runs past the end of the file, as an interrupted append
    leaves it."""
    records = record(1, envelope(window_archive("kept", "0 0 300 200 0 0 1440 875 ")), key(1))
    torn = b"NSCR1000" + struct.pack(">II", 1, 4096) + b"\0" * 32
    return {"windows.plist": windows_plist([(1, "kept")]), "data.data": records + torn}


CONTAINER_UUID = "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"
FOLDER_UUID = "7F6E5D4C-3B2A-4918-8716-151413121110"


def daemon_container_files():
    """macOS 15's layout: talagent's daemon container, folders named by UUID and mapped to apps
    by ApplicationMapping.plist (a flat array: each app's dictionary, then its UUID)."""
    base = "macos/Daemon Containers/" + CONTAINER_UUID + "/Data/Library/Saved Application State/"
    mapping = [
        {"unprotected": {"bundleIdentifier": "com.apple.Terminal"}}, FOLDER_UUID,
        {"protected": {"signingIdentifier": "com.example.secure", "teamIdentifier": "ABCDE12345"}},
        "00000000-0000-4000-8000-000000000000",
    ]
    files = {base + "ApplicationMapping.plist": plistlib.dumps(mapping, fmt=plistlib.FMT_BINARY)}
    for name, data in terminal_folder("file:///Users/ada/", "Notes").items():
        files[base + FOLDER_UUID + ".savedState/" + name] = data
    return files


def benchmark_files(rng):
    """A macOS folder whose data.data holds about 10 MB of records (Terminal windows with long
    scrollback, saved many times over), and a folder of 1 000 scene sessions."""
    files = {}
    windows = [(wid, "window %d" % wid) for wid in range(1, 41)]
    files["macos-10mb/com.apple.Terminal.savedState/windows.plist"] = windows_plist(windows)
    records, size = [], 0
    while size < 10_000_000:
        wid = rng.randrange(1, 41)
        lines = ["$ make -j8 target%d  # %s" % (i, "x" * rng.randrange(10, 80)) for i in range(rng.randrange(20, 120))]
        state = terminal_state("file:///Users/ada/src/%d/" % wid)
        state["Window Settings"][0]["Tab Contents v2"] = lines
        archive = window_archive("window %d" % wid, "%d %d 800 600 0 0 1440 875 " % (wid, wid), TTWindowState=state)
        records.append(record(wid, envelope(archive), key(wid % 251)))
        size += len(records[-1])
    files["macos-10mb/com.apple.Terminal.savedState/data.data"] = b"".join(records)
    for index in range(1000):
        session = "%08X-0000-4000-8000-%012X" % (index, index)
        info = {"noteID": g.NSNumber(index), "scrollOffset": g.NSNumber(index * 1.5), "tags": ["a", "b"]}
        files["scenes-1000/com.example.notes.savedState/%s/data.data" % session] = scene_activity("com.example.viewing", "Note %d" % index, info)
    return files


def saved_state_files():
    files = {}
    files.update(daemon_container_files())
    files.update(scene_files("scenes/"))
    for name, data in terminal_folder("file:///Users/ada/src/", "Notes").items():
        files["macos/a/com.apple.Terminal.savedState/" + name] = data
    for name, data in terminal_folder("file:///Users/ada/src/tool/", "Notes — edited").items():
        files["macos/b/com.apple.Terminal.savedState/" + name] = data
    for name, data in wrong_key_folder().items():
        files["validate/wrong-key.savedState/" + name] = data
    for name, data in torn_folder().items():
        files["validate/torn-record.savedState/" + name] = data
    broken = scene_files("")["com.example.notes.savedState/" + SESSION_BROKEN + "/data.data"]
    files["validate/undecodable-user-info.savedState/" + SESSION_BROKEN + "/data.data"] = broken
    return files
