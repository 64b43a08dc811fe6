"""The X display as a harness drives and watches it: XTest pointer input and a pixel probe.

Python 3 standard library, plus libX11/libXtst through ctypes (or `xdotool` for input). Used by
run.py (the kiosk reset scenario) and soak-resets.py."""

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import time


def _x11():
    x11 = ctypes.util.find_library("X11")
    if not x11:
        return None
    lib = ctypes.CDLL(x11)
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XFlush.argtypes = [ctypes.c_void_p]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    lib.XDefaultRootWindow.restype = ctypes.c_ulong
    lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    lib.XGetImage.restype = ctypes.c_void_p
    lib.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                              ctypes.c_ulong, ctypes.c_int]
    lib.XGetPixel.restype = ctypes.c_ulong
    lib.XGetPixel.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    lib.XDestroyImage.argtypes = [ctypes.c_void_p]
    return lib


class Pointer:
    """Moves the X pointer on one display: XTest through ctypes, else `xdotool`."""

    def __init__(self, display):
        self.display = display
        self.dpy = None
        self.x11 = _x11()
        xtst = ctypes.util.find_library("Xtst")
        if self.x11 and xtst:
            self.xtst = ctypes.CDLL(xtst)
            self.xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                                       ctypes.c_ulong]
            self.xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
            self.dpy = self.x11.XOpenDisplay(display.encode())
        if not self.dpy and not shutil.which("xdotool"):
            raise RuntimeError("cannot move the pointer: neither libXtst nor xdotool (apt-get install libxtst6)")
        self.flip = False

    def nudge(self):
        """One motion event over the page, to a point other than the last one."""
        self.flip = not self.flip
        x, y = (400, 300) if self.flip else (500, 360)
        if self.dpy:
            self.xtst.XTestFakeMotionEvent(self.dpy, -1, x, y, 0)
            self.x11.XFlush(self.dpy)
        else:
            subprocess.run(["xdotool", "mousemove", str(x), str(y)], env=dict(os.environ, DISPLAY=self.display),
                           check=False, capture_output=True, timeout=10)

    def click(self):
        """A left click where `nudge` last moved the pointer (after moving it)."""
        self.nudge()
        if self.dpy:
            for down in (1, 0):
                self.xtst.XTestFakeButtonEvent(self.dpy, 1, down, 0)
            self.x11.XFlush(self.dpy)
        else:
            subprocess.run(["xdotool", "click", "1"], env=dict(os.environ, DISPLAY=self.display),
                           check=False, capture_output=True, timeout=10)

    def close(self):
        if self.dpy:
            self.x11.XCloseDisplay(self.dpy)
            self.dpy = None


class PixelProbe:
    """Reads one pixel of the root window (XGetImage): what the screen shows there. Xvfb runs no
    compositor, so the root window's image is what the windows drew, as a visitor would see it."""

    def __init__(self, display, x, y):
        self.x, self.y = x, y
        self.x11 = _x11()
        if not self.x11:
            raise RuntimeError("cannot read the screen: libX11 not found")
        self.dpy = self.x11.XOpenDisplay(display.encode())
        if not self.dpy:
            raise RuntimeError("cannot open display %s" % display)
        self.root = self.x11.XDefaultRootWindow(self.dpy)

    def rgb(self):
        """(r, g, b) of the pixel now."""
        all_planes, z_pixmap = 0xFFFFFFFF, 2
        image = self.x11.XGetImage(self.dpy, self.root, self.x, self.y, 1, 1, all_planes, z_pixmap)
        if not image:
            return None
        try:
            p = self.x11.XGetPixel(image, 0, 0)
        finally:
            self.x11.XDestroyImage(image)
        return (p >> 16) & 255, (p >> 8) & 255, p & 255

    def wait_for(self, colour, timeout, interval=0.001, tolerance=8):
        """Polls until the pixel is `colour` (within `tolerance` per channel); the monotonic time
        of the first read that saw it (taken before the read), or None on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            t = time.monotonic()
            seen = self.rgb()
            if seen and all(abs(a - b) <= tolerance for a, b in zip(seen, colour)):
                return t
            if t > deadline:
                return None
            time.sleep(interval)

    def close(self):
        if self.dpy:
            self.x11.XCloseDisplay(self.dpy)
            self.dpy = None
