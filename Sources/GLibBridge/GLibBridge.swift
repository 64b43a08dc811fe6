// Placeholder until the GLib seam lands.
