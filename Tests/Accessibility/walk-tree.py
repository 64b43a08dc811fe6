#!/usr/bin/python3
# Walks a running Porthole's accessibility tree on the AT-SPI bus, as Orca sees it, and reports
# every control a keyboard or a screen reader can reach (focusable, or with an action) that has
# no name or no role. Usage: walk-tree.py PID [SECONDS [NAME [dialog]]]: waits up to SECONDS (default
# 60) for the window, and for a showing control named NAME when given, then walks. Prints one JSON object: "controls"
# (role and name of each control found) and "problems"; exits 1 when there are problems, 2 when
# the application did not appear on the bus in SECONDS (default 60). With "dialog", it waits
# for a showing dialog holding NAME (NAME "" for any) and also reports the dialog ("dialog": its
# name and the control that has the focus); a dialog without a name, or with no focused control
# or an unnamed one, is a problem: Orca says the dialog's name and the focus as it opens.
import json
import sys
import time

import pyatspi

pid = int(sys.argv[1])
patience = float(sys.argv[2]) if len(sys.argv) > 2 else 60
wait_for = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
dialog_mode = len(sys.argv) > 4 and sys.argv[4] == "dialog"

# Roles that tell a screen reader nothing about what a control is.
NO_ROLE = {pyatspi.ROLE_INVALID, pyatspi.ROLE_UNKNOWN, pyatspi.ROLE_REDUNDANT_OBJECT}


def application():
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def actions(accessible):
    try:
        return accessible.queryAction().nActions
    except NotImplementedError:
        return 0
    except Exception:
        return 0


def labelled(accessible):
    try:
        return any(relation.getRelationType() == pyatspi.RELATION_LABELLED_BY for relation in accessible.getRelationSet())
    except Exception:
        return False


def walk(accessible, path, controls, problems, seen):
    # A tree, walked once; the counter only stops a runaway (a cycle a toolkit bug could make).
    seen[0] += 1
    if accessible is None or seen[0] > 20000 or len(path) > 80:
        return
    role = accessible.getRole()
    role_name = accessible.getRoleName()
    name = (accessible.name or "").strip()
    states = accessible.getState()
    here = path + [f"{role_name}:{name}" if name else role_name]
    # A web page's content is the page's (and WebKit's) to name: WebKit puts it on the bus from
    # the web process, under the web view. Porthole's own window is the UI process's objects.
    try:
        elsewhere = accessible.get_process_id() != pid
    except Exception:
        elsewhere = True
    if elsewhere or role in (pyatspi.ROLE_DOCUMENT_WEB, pyatspi.ROLE_DOCUMENT_FRAME):
        return
    focusable = states.contains(pyatspi.STATE_FOCUSABLE)
    count = actions(accessible)
    if focusable or count > 0:
        controls.append({"role": role_name, "name": name, "focusable": focusable, "actions": count,
                         "showing": states.contains(pyatspi.STATE_SHOWING), "path": " > ".join(here)})
        if role in NO_ROLE:
            problems.append(f"no role: {' > '.join(here)}")
        if not name and not labelled(accessible):
            problems.append(f"no name: {role_name} at {' > '.join(here)}")
    for index in range(accessible.childCount):
        try:
            child = accessible.getChildAtIndex(index)
        except Exception:
            continue
        walk(child, here, controls, problems, seen)


def showing_dialog(app):
    """The dialog that shows (holding a control named NAME when given), or None."""
    for index in range(app.childCount):
        window = app.getChildAtIndex(index)
        try:
            if window is None or window.getRole() not in (pyatspi.ROLE_DIALOG, pyatspi.ROLE_ALERT):
                continue
            if not window.getState().contains(pyatspi.STATE_SHOWING):
                continue
            if wait_for is None or pyatspi.findDescendant(window, lambda a: a is not None and (a.name or "") == wait_for) is not None:
                return window
        except Exception:
            continue
    return None


def focused_in(window):
    return pyatspi.findDescendant(window, lambda a: a is not None and a.getState().contains(pyatspi.STATE_FOCUSED))


def ready(app):
    """The window is on the bus with its controls (a frame holding at least one button); in the
    dialog mode, the dialog shows and something in it has the focus."""
    if dialog_mode:
        window = showing_dialog(app)
        return window is not None and focused_in(window) is not None
    for index in range(app.childCount):
        frame = app.getChildAtIndex(index)
        if frame is None or frame.getRole() != pyatspi.ROLE_FRAME:
            continue
        if wait_for is not None:
            def wanted(a):
                return a is not None and (a.name or "") == wait_for and a.getState().contains(pyatspi.STATE_SHOWING)
        else:
            def wanted(a):
                return a is not None and a.getRole() in (pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON)
        if pyatspi.findDescendant(frame, wanted) is not None:
            return True
    return False


deadline = time.monotonic() + patience
app = None
while time.monotonic() < deadline:
    app = application()
    if app is not None and ready(app):
        break
    app = None
    time.sleep(0.2)
if app is None and dialog_mode:
    # Say what was there: a dialog without the focus is a finding, not a missing application.
    app = application()
    window = showing_dialog(app) if app is not None else None
    if window is not None:
        controls, problems = [], [f"nothing in the dialog {window.name!r} has the focus"]
        walk(window, [], controls, problems, [0])
        print(json.dumps({"application": app.name, "controls": controls, "problems": problems,
                          "dialog": {"name": window.name, "focused": None}}, ensure_ascii=False))
        sys.exit(1)
    app = None
if app is None:
    print(json.dumps({"controls": [], "problems": [f"process {pid} did not appear on the accessibility bus"
                                                   + (f" with a showing control named {wait_for}" if wait_for else "")]}))
    sys.exit(2)

controls, problems = [], []
walk(app, [], controls, problems, [0])
report = {"application": app.name, "controls": controls, "problems": problems}
if dialog_mode:
    window = showing_dialog(app)
    focus = focused_in(window) if window is not None else None
    if window is None or not (window.name or "").strip():
        problems.append("the dialog has no name")
    if focus is None:
        problems.append("nothing in the dialog has the focus")
    elif not (focus.name or "").strip() and not labelled(focus):
        problems.append(f"the focused {focus.getRoleName()} has no name")
    report["dialog"] = {"name": window.name if window is not None else None,
                        "focused": {"role": focus.getRoleName(), "name": focus.name or ""} if focus is not None else None}
print(json.dumps(report, ensure_ascii=False))
sys.exit(1 if problems else 0)
