// GStreamer, for the kiosk's idle warning sound: WebKitGTK already depends on GStreamer and its
// base and good plugins for media, so the sound costs no new runtime package.
#include <gst/gst.h>
