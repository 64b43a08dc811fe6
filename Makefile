# Porthole: build, run, test, install. `make run` and `make test` work on a fresh Debian/Ubuntu
# machine: `make deps` installs the Debian packages that are missing (as root, else with sudo).

SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
CONFIG     ?= debug
BUILD_DIR  := .build/$(CONFIG)

# Build: GTK 3 + WebKitGTK. Tests: Xvfb (+ xauth for xvfb-run), a private D-Bus session bus.
# Screenshots: ImageMagick's `import`, xdotool (the visitor controls' click). Translations: gettext
# (xgettext, msgfmt), CJK fonts.
# The app icon's PNG sizes: rsvg-convert (librsvg2-bin), at install time only.
# Windows' WM_CLASS: xlsclients (x11-utils). The idle warning's sound: GStreamer's headers (WebKitGTK
# already needs its libraries). The accessibility test: a real AT-SPI bus and pyatspi to walk it.
# Speech: espeak-ng's library (its voices come with it); the speech tests read the audio they wrote
# with sox.
DEB_PACKAGES := pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev libsoup-3.0-dev libcrypt-dev libespeak-ng-dev sox \
                xvfb xauth dbus-daemon dbus-x11 imagemagick fonts-dejavu-core \
                appstream desktop-file-utils libglib2.0-bin systemd gettext fonts-noto-cjk locales \
                bubblewrap xdg-dbus-proxy x11-utils libgstreamer1.0-dev at-spi2-core python3-pyatspi xdotool \
                gstreamer1.0-alsa librsvg2-bin

# The kiosk boot test: the compositor and Xwayland the package recommends, python3 for its page.
KIOSK_TEST_PACKAGES := cage xwayland dbus-user-session python3
# The audio test (by hand, not in `make test`: it builds the release tree and takes ~30 s): the
# compositor, an X server for it, and the key presser.
AUDIO_TEST_PACKAGES := cage xwayland xvfb xdotool sox python3 gstreamer1.0-alsa imagemagick
# The verified boot (by hand, not in `make test` or CI): a Debian 12 tree booted by systemd-nspawn,
# an X server for cage's screen, the page's server, and ImageMagick to read the screenshot.
KIOSK_BOOT_PACKAGES := debootstrap systemd-container xvfb python3 imagemagick

# `make deb` also needs these (not everyone's deps): dpkg-shlibdeps, strip, lintian.
DEB_BUILD_PACKAGES := dpkg-dev binutils lintian
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/PortholeCore/Window/AboutPorthole.swift)

# Translations: po/LANG.po for each language in po/LINGUAS, compiled into .build/locale, where
# the development build and the tests find them (Localization.localeDirectory()).
LINGUAS    := $(shell cat po/LINGUAS)
LOCALE_DIR := .build/locale
MO_FILES   := $(foreach lang,$(LINGUAS),$(LOCALE_DIR)/$(lang)/LC_MESSAGES/porthole.mo)

# The UI tests' environment: repeatable settings, no input methods, no accessibility bus (except
# AccessibilityTreeTests, which runs the binary with the bridge on, on a bus of its own, and walks
# its tree with pyatspi as Orca would).
TEST_ENV := GSETTINGS_BACKEND=memory GTK_IM_MODULE=none NO_AT_BRIDGE=1 GTK_CSD=1 LC_ALL=C.UTF-8
XVFB     := xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp"

.PHONY: all deps icons launcher install-packages bench-selftest deb deb-test audio-test kiosk-boot-test kiosk-systemd-boot-test build run test man check-files unit-test ui-test clean screenshot screenshot-visitor install uninstall bench bench-floors bench-peers bench-small bench-startpath symbol-order soak locale pot fuzz

all: build

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"
	@command -v $(SWIFT) >/dev/null || { echo "error: '$(SWIFT)' not found: install the Swift 6 toolchain and put it on PATH" >&2; exit 1; }

install-packages:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "Debian packages: all present"; \
	fi

# WebKit loads every library in the web extensions directory: the development build gets one that
# holds only Porthole's (the installed binary finds PREFIX/lib/porthole/web-extensions instead).
WEB_EXTENSION_DIR = mkdir -p $(BUILD_DIR)/web-extensions && \
	ln -sf ../libPortholeWebExtension.so $(BUILD_DIR)/web-extensions/libPortholeWebExtension.so

build: deps locale
	$(SWIFT) build -c $(CONFIG)
	$(WEB_EXTENSION_DIR)

locale: $(MO_FILES)

# The app icon in hicolor's fixed sizes beside the scalable SVG. GTK sets a window's icon from
# every size the theme has for it and takes a fixed size over the SVG when it matches exactly:
# with these, the UI process never loads librsvg (6.6 MB less PSS in the shared harness, see
# docs/performance-choices.md); desktops still find the SVG.
ICON_SIZES := 16 24 32 48 64 128 256
ICON_DIR   := .build/icons
ICON_FILES := $(foreach size,$(ICON_SIZES),$(ICON_DIR)/$(size)x$(size)/dev.porthole.Porthole.png)

icons: $(ICON_FILES)

$(ICON_DIR)/%/dev.porthole.Porthole.png: Resources/dev.porthole.Porthole.svg
	@mkdir -p $(dir $@)
	rsvg-convert -w $(firstword $(subst x, ,$*)) -h $(firstword $(subst x, ,$*)) -o $@ $<

$(LOCALE_DIR)/%/LC_MESSAGES/porthole.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

# Regenerates po/porthole.pot and po/POTFILES from the sources; then `msgmerge --update po/LANG.po
# po/porthole.pot` brings each language up to date for its translator.
pot:
	po/make-pot.sh

run: build
	$(BUILD_DIR)/porthole

# All tests: unit tests (no display needed) and the integration tests under Xvfb, in one run
# on a private session bus. XCTest runs test methods on the main thread, as GTK needs.
# The tree the packaging tests check (Tests/TestSupport/InstalledTree.swift) is installed here
# while the tests' debug build runs: the release build it needs runs mostly one compiler at a
# time (whole-module), so on two cores the two builds overlap instead of the release build being
# a third of the tests' time. Its exit status and output are kept for the tests to report.
TEST_INSTALL := .build/test-install
test: deps check-files locale bench-selftest
	@rm -rf $(TEST_INSTALL) $(TEST_INSTALL).status && mkdir -p $(TEST_INSTALL)
	@echo "make install DESTDIR=$(TEST_INSTALL) PREFIX=/usr (beside the debug build; output in $(TEST_INSTALL).log)"
	@{ $(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(TEST_INSTALL) PREFIX=/usr >$(TEST_INSTALL).log 2>$(TEST_INSTALL).err; \
	   echo $$? >$(TEST_INSTALL).status; } & \
	$(SWIFT) build --build-tests; built=$$?; wait; exit $$built
	$(WEB_EXTENSION_DIR)
	@# CI keeps only the end of what a run prints: a failed run ends with its failures again (the
	@# failed cases and their assertions, or the case a timeout stopped), from .build/test.log.
	@{ PORTHOLE_TEST_INSTALL=$(CURDIR)/$(TEST_INSTALL) $(TEST_ENV) timeout 1200 $(XVFB) dbus-run-session -- $(SWIFT) test --skip-build --disable-swift-testing; \
	   echo $$? >.build/test.status; } 2>&1 | tee .build/test.log; \
	rc=$$(cat .build/test.status); [ "$$rc" = 0 ] && exit 0; \
	echo "== make test failed (exit $$rc); what failed, from .build/test.log:"; \
	grep -E ": error: |^Test Case '.*' failed" .build/test.log || grep "^Test Case '.*' started" .build/test.log | tail -1; \
	exit $$rc

# The benchmark harness checked against a fake browser (bench/selftest.sh: ~25 s, Xvfb and the bus,
# no real browser): its samples, report, targets and clean-up, so that a change to bench/run.py
# that breaks them fails here rather than in the next `make bench`.
bench-selftest: deps
	sh bench/selftest.sh

# porthole.conf(5) is generated from the configuration schema the loader uses; a test fails when
# the committed page differs. Run after adding or documenting a key.
man:
	$(SWIFT) build --product porthole
	$(BUILD_DIR)/porthole --dump-config-man-page > Resources/porthole.conf.5

# Shipped files checked by their own tools: every systemd unit passes `systemd-analyze verify`
# without a single warning, the AppStream metainfo `appstreamcli validate --strict`.
SYSTEMD_UNITS := Resources/systemd/porthole-kiosk.service Resources/cage/porthole-cage.service
check-files:
	sh Tests/Packaging/verify-units.sh $(SYSTEMD_UNITS)
	sh -n Resources/cage/porthole-kiosk-setup Resources/cage/porthole-cage-session
	appstreamcli validate --strict --no-net Resources/dev.porthole.Porthole.metainfo.xml
	desktop-file-validate Resources/dev.porthole.Porthole.desktop
	@# As installed: with the translations from po/ merged in (msgfmt --desktop, --xml).
	mkdir -p .build/check-files
	msgfmt --desktop --template=Resources/dev.porthole.Porthole.desktop -d po -o .build/check-files/dev.porthole.Porthole.desktop
	msgfmt --xml --template=Resources/dev.porthole.Porthole.metainfo.xml -d po -o .build/check-files/dev.porthole.Porthole.metainfo.xml
	desktop-file-validate .build/check-files/dev.porthole.Porthole.desktop
	appstreamcli validate --strict --no-net .build/check-files/dev.porthole.Porthole.metainfo.xml

unit-test: deps locale
	$(SWIFT) test --disable-swift-testing --filter 'PortholeCoreTests|GLibBridgeTests'

ui-test: deps check-files locale
	$(SWIFT) build --build-tests
	$(WEB_EXTENSION_DIR)
	$(WEB_EXTENSION_DIR)
	$(TEST_ENV) timeout 1200 $(XVFB) dbus-run-session -- $(SWIFT) test --skip-build --disable-swift-testing --filter PortholeUITests

# The README's picture: the browser on its bundled start page, under Xvfb.
screenshot: build
	$(TEST_ENV) xvfb-run -a -s "-screen 0 1060x800x24 -nolisten tcp" sh -c '$(BUILD_DIR)/porthole & pid=$$!; sleep 6; import -window root -crop 1034x756+0+0 +repage docs/screenshot.png; kill $$pid'
	@echo "wrote docs/screenshot.png"
	@# In Traditional Chinese, in a real zh_TW.UTF-8 locale as a Taiwanese kiosk has one (compiled
	@# from Debian's `locales` into .build/locales): GTK then draws its labels in the Traditional
	@# forms of Noto Sans CJK (in C.UTF-8 it cannot tell which Han forms to use).
	mkdir -p .build/locales && localedef -i zh_TW -f UTF-8 .build/locales/zh_TW.UTF-8
	$(TEST_ENV) LC_ALL=zh_TW.UTF-8 LOCPATH=.build/locales xvfb-run -a -s "-screen 0 1060x800x24 -nolisten tcp" sh -c '$(BUILD_DIR)/porthole & pid=$$!; sleep 6; import -window root -crop 1034x756+0+0 +repage docs/screenshot-zh_TW.png; kill $$pid'
	@echo "wrote docs/screenshot-zh_TW.png"

# The README's pictures of the kiosk's visitor controls (Larger text, High contrast, More time),
# in English and Russian: the kiosk on a local library page, under Xvfb (xdotool clicks once).
screenshot-visitor: build
	sh Tests/Accessibility/visitor-screenshots.sh $(BUILD_DIR)/porthole

# Installs like a GNOME application. The browser is a release build (a C launcher and the library
# it opens, with the Swift runtime linked in statically), so it runs without the toolchain,
# stripped at install (`install -s`); its own scratch directory keeps it apart from the
# development build (and from a `swift test` that holds .build).
INSTALL_SCRATCH ?= .build/install
BINDIR  = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
# WebKit loads the web process extension (Porthole's second enforcement layer) into each web
# process; the binary finds it at ../lib/porthole/web-extensions. SwiftPM links the Swift runtime
# statically only into executables, so the library asks for it itself (-static-stdlib) and is
# shown where the toolchain keeps the static runtime.
WEB_EXTENSION_DIR_INSTALLED = $(DESTDIR)$(PREFIX)/lib/porthole/web-extensions
SWIFT_STATIC_LIB_DIR = $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/swift_static/linux
# One set of flags for every release build in this scratch directory, so a second install (and
# `make bench` or `make soak` after one) builds nothing. SwiftPM does not compile again when only
# the flags change: `make launcher` starts the directory over when they differ (build-flags).
# The library is linked by lld (the toolchain's own) with its functions in the order of
# launcher/symbol-order.txt (`make symbol-order` makes it by running the browser): the code a start
# and a page run sits together, so the kernel, which maps a library 64 KB around each page touched,
# maps less of it (docs/performance-choices.md, "The library's code laid out by use"). Every Swift
# function gets its own section so that the linker can move it; relative relocations are packed
# (DT_RELR, glibc 2.36), 8 KB where they took 928 KB. The link map beside it is what the ordering
# tool reads.
SYMBOL_ORDER = launcher/symbol-order.txt
LIBRARY_MAP = $(INSTALL_SCRATCH)/libPortholeWebExtension.map
INSTALL_BUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(INSTALL_SCRATCH) \
	-Xswiftc -static-stdlib -Xlinker -L$(SWIFT_STATIC_LIB_DIR) \
	-Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(SYMBOL_ORDER) -Xlinker --no-warn-symbol-ordering \
	-Xlinker -Map=$(CURDIR)/$(LIBRARY_MAP)
# The installed `porthole` is launcher/porthole.c: it opens the extension's library, which holds
# the browser's code too, and runs it, so the UI process and every web process share one copy of
# the Swift runtime (the library is looked for in ../lib/porthole/web-extensions, then
# web-extensions/ beside the binary, where WebProcessExtension looks). `make bench` runs the
# launcher from $(LAUNCHER_DIR). The library there is a stripped copy, as `make install` installs
# it: a symbolic link into SwiftPM's `release` (itself a link) did not resolve inside the web
# process's sandbox, so the web processes of `make bench` ran without the extension.
LAUNCHER_DIR = $(INSTALL_SCRATCH)/launcher
# The toolchain's own clang: it is there wherever Swift is (SwiftPM links with it too).
LAUNCHER_CC = $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/clang
launcher:
	@# A tree built with other flags kept its objects (SwiftPM compiles again for sources, not
	@# flags), and SwiftPM relinks when its inputs change, not when the ordering file does.
	@if [ -d $(INSTALL_SCRATCH) ] && [ "$$(cat $(INSTALL_SCRATCH)/build-flags 2>/dev/null)" != '$(INSTALL_BUILD)' ]; then \
	  echo "$(INSTALL_SCRATCH) was built with other flags: building it again"; rm -rf $(INSTALL_SCRATCH); fi
	@if [ $(SYMBOL_ORDER) -nt $(INSTALL_SCRATCH)/release/libPortholeWebExtension.so ]; then \
	  rm -f $(INSTALL_SCRATCH)/release/libPortholeWebExtension.so $(INSTALL_SCRATCH)/*/release/libPortholeWebExtension.so; fi
	$(INSTALL_BUILD) --product PortholeWebExtension
	@echo '$(INSTALL_BUILD)' > $(INSTALL_SCRATCH)/build-flags
	@# The runtime's argv grabber reads all of /proc/self/maps whenever the library loads; the
	@# ProcessArguments target answers in its place (its header says why). A toolchain that
	@# renamed what it answers would link the grabber again without a word: say so here.
	@if grep -q 'libswiftCore\.a(CommandLine\.cpp\.o)' $(LIBRARY_MAP); then \
	  echo "the library links the Swift runtime's CommandLine.cpp.o: Sources/ProcessArguments no longer replaces it" >&2; exit 1; fi
	mkdir -p $(LAUNCHER_DIR)/web-extensions
	@# install would write through an older tree's link into SwiftPM's release: remove it first.
	rm -f $(LAUNCHER_DIR)/web-extensions/libPortholeWebExtension.so
	install -m644 -s $(INSTALL_SCRATCH)/release/libPortholeWebExtension.so $(LAUNCHER_DIR)/web-extensions/libPortholeWebExtension.so
	$(LAUNCHER_CC) -O2 -Wall -Wextra -D_FORTIFY_SOURCE=2 -Wl,-z,relro,-z,now -o $(LAUNCHER_DIR)/porthole launcher/porthole.c

INSTALLED_FILES = $(BINDIR)/porthole \
	$(WEB_EXTENSION_DIR_INSTALLED)/libPortholeWebExtension.so \
	$(DATADIR)/porthole/porthole.conf \
	$(DATADIR)/porthole/porthole.conf.example \
	$(DATADIR)/applications/dev.porthole.Porthole.desktop \
	$(DATADIR)/metainfo/dev.porthole.Porthole.metainfo.xml \
	$(DATADIR)/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg \
	$(foreach size,$(ICON_SIZES),$(DATADIR)/icons/hicolor/$(size)x$(size)/apps/dev.porthole.Porthole.png) \
	$(DATADIR)/man/man1/porthole.1 \
	$(DATADIR)/man/man5/porthole.conf.5 \
	$(DESTDIR)$(PREFIX)/lib/systemd/user/porthole-kiosk.service \
	$(DESTDIR)$(PREFIX)/lib/systemd/system/porthole-cage.service \
	$(DATADIR)/porthole/cage/porthole-cage-session \
	$(DESTDIR)$(PREFIX)/sbin/porthole-kiosk-setup \
	$(DATADIR)/man/man8/porthole-kiosk-setup.8 \
	$(DATADIR)/doc/porthole/admin-guide.md \
	$(foreach lang,$(LINGUAS),$(DATADIR)/locale/$(lang)/LC_MESSAGES/porthole.mo)

install: locale icons launcher
	install -Dm755 -s $(LAUNCHER_DIR)/porthole $(BINDIR)/porthole
	install -Dm644 -s $(INSTALL_SCRATCH)/release/libPortholeWebExtension.so $(WEB_EXTENSION_DIR_INSTALLED)/libPortholeWebExtension.so
	install -Dm644 Resources/porthole.conf $(DATADIR)/porthole/porthole.conf
	install -Dm644 Resources/porthole.conf.example $(DATADIR)/porthole/porthole.conf.example
	install -d $(DATADIR)/applications $(DATADIR)/metainfo
	msgfmt --desktop --template=Resources/dev.porthole.Porthole.desktop -d po -o $(DATADIR)/applications/dev.porthole.Porthole.desktop
	msgfmt --xml --template=Resources/dev.porthole.Porthole.metainfo.xml -d po -o $(DATADIR)/metainfo/dev.porthole.Porthole.metainfo.xml
	chmod 644 $(DATADIR)/applications/dev.porthole.Porthole.desktop $(DATADIR)/metainfo/dev.porthole.Porthole.metainfo.xml
	install -Dm644 Resources/dev.porthole.Porthole.svg $(DATADIR)/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg
	for size in $(ICON_SIZES); do \
	  install -Dm644 $(ICON_DIR)/$${size}x$${size}/dev.porthole.Porthole.png $(DATADIR)/icons/hicolor/$${size}x$${size}/apps/dev.porthole.Porthole.png; \
	done
	install -Dm644 Resources/porthole.1 $(DATADIR)/man/man1/porthole.1
	install -Dm644 Resources/porthole.conf.5 $(DATADIR)/man/man5/porthole.conf.5
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user $(DESTDIR)$(PREFIX)/lib/systemd/system $(DATADIR)/porthole/cage \
	  $(DESTDIR)$(PREFIX)/sbin $(DATADIR)/man/man8 $(DATADIR)/doc/porthole
	sed 's|/usr/local|$(PREFIX)|g' Resources/systemd/porthole-kiosk.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/porthole-kiosk.service
	install -m755 Resources/cage/porthole-cage-session $(DATADIR)/porthole/cage/porthole-cage-session
	sed 's|/usr/local|$(PREFIX)|g' Resources/cage/porthole-cage.service > $(DESTDIR)$(PREFIX)/lib/systemd/system/porthole-cage.service
	sed 's|/usr/local|$(PREFIX)|g' Resources/cage/porthole-kiosk-setup > $(DESTDIR)$(PREFIX)/sbin/porthole-kiosk-setup
	chmod 755 $(DESTDIR)$(PREFIX)/sbin/porthole-kiosk-setup
	install -m644 Resources/porthole-kiosk-setup.8 $(DATADIR)/man/man8/porthole-kiosk-setup.8
	install -m644 docs/admin-guide.md $(DATADIR)/doc/porthole/admin-guide.md
	for lang in $(LINGUAS); do \
	  install -Dm644 $(LOCALE_DIR)/$$lang/LC_MESSAGES/porthole.mo $(DATADIR)/locale/$$lang/LC_MESSAGES/porthole.mo; \
	done
	@# Installed into the running system (no DESTDIR): refresh the icon theme's cache, as the package's
	@# trigger does. Without one GTK looks for every directory hicolor's index.theme lists under this
	@# prefix at each start (~660 stat calls); a staged install leaves it to the packaging.
	if [ -z "$(DESTDIR)" ] && command -v gtk-update-icon-cache >/dev/null; then \
	  gtk-update-icon-cache -q -t -f $(DATADIR)/icons/hicolor; fi

# The Debian package: porthole_VERSION_ARCH.deb from a `make install` staging tree, checked by
# lintian. `make deb-test` checks its fields and files and runs the unpacked binary.
deb:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES) $(DEB_BUILD_PACKAGES)"
	sh packaging/deb/build-deb.sh $(VERSION) .

deb-test: deb
	sh Tests/Packaging/deb-test.sh porthole_$(VERSION)_$$(dpkg --print-architecture).deb

# Boot to kiosk from the package (as root, on a machine that may be changed: it installs the
# .deb, adds a user and enables the kiosk for it): cage nested on Xvfb runs the units' commands,
# and the screenshot shows the page a local server sent. Writes kiosk-boot.png.
# Audio where users run it (issue 25): speech and the More time tone from the installed tree
# (make install DESTDIR=.build/audio-root PREFIX=/usr), in kiosk mode under cage on Xvfb, with
# ALSA only (no sound server), recorded through an ALSA file device and checked with sox stat.
# AUDIO_STACK=pulse: a PulseAudio null sink instead (PULSEAUDIO_ROOT=a tree holding pulseaudio
# and parec, default /); the script's header says more.
audio-test: locale
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(AUDIO_TEST_PACKAGES)"
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/.build/audio-root PREFIX=/usr
	sh Tests/Packaging/audio-test.sh $(CURDIR)/.build/audio-root .build/audio-test

kiosk-boot-test: deb
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(KIOSK_TEST_PACKAGES)"
	sh Tests/Packaging/kiosk-boot-test.sh ./porthole_$(VERSION)_$$(dpkg --print-architecture).deb kiosk-boot.png || [ $$? = 77 ]

# Verified boot, by hand (as root; not part of `make test` or .ci/run): a clean Debian 12 from
# debootstrap (cached in /var/tmp/porthole-boot), the .deb installed and the kiosk enabled as the
# admin guide says, booted by a real systemd (systemd-nspawn --boot) with the units' sandboxing in
# effect; the kiosk must come up and show a local server's page. Writes kiosk-systemd-boot.png.
kiosk-systemd-boot-test: deb
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(KIOSK_BOOT_PACKAGES)"
	sh Tests/Packaging/kiosk-systemd-boot.sh ./porthole_$(VERSION)_$$(dpkg --print-architecture).deb kiosk-systemd-boot.png

uninstall:
	rm -f $(INSTALLED_FILES)
	@# The icon cache `make install` refreshed: rebuilt for the icons other software left, else removed.
	if [ -z "$(DESTDIR)" ] && [ -f $(DATADIR)/icons/hicolor/icon-theme.cache ]; then \
	  if find $(DATADIR)/icons/hicolor -type f ! -name icon-theme.cache ! -name index.theme | grep -q .; then \
	    gtk-update-icon-cache -q -t -f $(DATADIR)/icons/hicolor || true; \
	  else rm -f $(DATADIR)/icons/hicolor/icon-theme.cache; fi; fi
	-rmdir $(DATADIR)/porthole/cage $(DATADIR)/porthole $(DATADIR)/doc/porthole $(WEB_EXTENSION_DIR_INSTALLED) $(DESTDIR)$(PREFIX)/lib/porthole 2>/dev/null

clean:
	rm -rf .build

# Fuzzing (issue 21): FUZZ_CASES mutations (default 20,000; a few minutes) of the bundled files
# and a Chrome policy folder, loaded as Porthole loads them. Fails on a crash, a case over 5 s, a
# problem without a line, or an accepted file allowing a probe URL the original blocked while no
# allow or site line changed. Not part of `make test`. FUZZ_SEED=N for other mutations.
FUZZ_CASES ?= 20000
FUZZ_SEED ?= 21
fuzz: deps locale
	$(SWIFT) build -c release --product config-fuzz
	.build/release/config-fuzz --cases $(FUZZ_CASES) --seed $(FUZZ_SEED) --resources Resources

# The engine floor and its variants (bench/floor/), the reference of every benchmark below, and
# Porthole's benchmark configuration with its sandbox off (a measurement only: WebKit's sandbox and
# Porthole's own code apart).
bench-floors:
	mkdir -p .build/bench
	cc -O2 -Wall -Wextra -o .build/bench/floor bench/floor/floor.c $$(pkg-config --cflags --libs webkit2gtk-4.1)
	cc -O2 -Wall -Wextra -o .build/bench/floor-variants bench/floor/floor-variants.c $$(pkg-config --cflags --libs webkit2gtk-4.1)
	{ cat bench/bench.conf; printf '\n[Browser]\nsandbox=false\n'; } > .build/bench/unsandboxed.conf

# Benchmarks (issue 6): Porthole beside the engine floor (bench/floor/floor.c), the sandboxed floor,
# Porthole with its sandbox off (WebKit's sandbox and Porthole's own code apart) and the peer
# browsers that are installed, plus the policy's speed; prints a Markdown table and writes it to
# docs/benchmarks.md. BENCH_ROUNDS=N (default 7), BENCH_QUICK=1 for a short smoke run (3 rounds).
# bench/README.md says what is measured; `make bench-peers` installs the peers (apt-get).
# Porthole is measured as `make install` builds it (the launcher and its library, release, Swift
# runtime linked in statically).
bench: deps
	$(SWIFT) build -c release --product policy-bench
	$(SWIFT) build -c release --product speech-bench
	$(MAKE) --no-print-directory launcher
	$(MAKE) --no-print-directory bench-floors
	rm -f .build/bench/policy.md; \
	.build/release/speech-bench --markdown .build/bench/speech.md > .build/bench/speech.out 2>&1 || cp .build/bench/speech.out .build/bench/speech.md; \
	.build/release/policy-bench --markdown .build/bench/policy.md > .build/bench/policy.out 2>&1; rc=$$?; \
	python3 bench/run.py --porthole $(LAUNCHER_DIR)/porthole --floor .build/bench/floor \
	  --sandboxed-floor .build/bench/floor-variants --chrome-floor .build/bench/floor-variants \
	  --unsandboxed-config .build/bench/unsandboxed.conf \
	  --config bench/bench.conf --policy .build/bench/policy.md --policy-output .build/bench/policy.out \
	  --policy-rc $$rc --speech .build/bench/speech.md --pages .build/bench/pages --portal \
	  --reset-rounds $(if $(filter-out 0,$(BENCH_QUICK)),3,9) --acceptance docs/benchmarks-peers.md \
	  --out docs/benchmarks.md --json .build/bench/results.json \
	  --command "$$(env | grep -E '^BENCH_(ROUNDS|QUICK)=' | sort | tr '\n' ' ')make bench"

bench-peers:
	sh bench/install-peers.sh

# The small-machine profile (issue 26): the same start-up and memory measurements with the whole run
# (Xvfb, the bus, the browsers) on one core and under a 1 GiB memory limit (bench/small-machine.sh),
# Porthole against the floor, the sandboxed floor and the sandboxed floor with the chrome, and with
# its sandbox off; the report goes to docs/benchmarks-small.md.
SMALL_MEMORY ?= 1G
bench-small: deps
	$(MAKE) --no-print-directory launcher
	$(MAKE) --no-print-directory bench-floors
	SMALL_MEMORY=$(SMALL_MEMORY) sh bench/small-machine.sh python3 bench/run.py --porthole $(LAUNCHER_DIR)/porthole \
	  --floor .build/bench/floor --sandboxed-floor .build/bench/floor-variants \
	  --chrome-floor .build/bench/floor-variants --unsandboxed-config .build/bench/unsandboxed.conf --config bench/bench.conf --peers none \
	  --pages .build/bench/pages --profile "one core (taskset -c 0), $(SMALL_MEMORY) memory limit (bench/small-machine.sh)" \
	  --out docs/benchmarks-small.md --json .build/bench/results-small.json \
	  --command "$$(env | grep -E '^BENCH_(ROUNDS|QUICK)=' | sort | tr '\n' ' ')make bench-small"

# Start-up step by step (issue 26; bench/startpath.py, needs root and perf): uprobes and exec
# events along the path to the first request, for the floor, the sandboxed floor, Porthole as
# `make bench` runs it, and the same Porthole with `[Browser] sandbox=false` (measurement only:
# what WebKit's sandbox adds to a start). Prints a Markdown table, also .build/bench/startpath.md.
STARTPATH_ROUNDS ?= 11
bench-startpath: deps
	$(MAKE) --no-print-directory launcher
	$(MAKE) --no-print-directory bench-floors
	python3 bench/startpath.py --rounds $(STARTPATH_ROUNDS) \
	  --browser floor='.build/bench/floor {url}' \
	  --browser 'floor, sandboxed=FLOOR_SANDBOX=1 .build/bench/floor-variants {url}' \
	  --browser 'Porthole=$(LAUNCHER_DIR)/porthole --config bench/bench.conf {url}' \
	  --browser 'Porthole, sandbox off=$(LAUNCHER_DIR)/porthole --config .build/bench/unsandboxed.conf {url}' \
	  --extension $(LAUNCHER_DIR)/web-extensions/libPortholeWebExtension.so --out .build/bench/startpath.md

# The order of the library's functions (issue 26; bench/symbolorder.py, needs root and valgrind):
# the browser run from the unstripped library, its UI process and web processes under callgrind, on
# the typical page (sandboxed and not), the 20-link chain and a kiosk through an idle reset; the
# functions that ran, in the order the linker is to place them, go to launcher/symbol-order.txt,
# and the library is linked again with them. Rerun after large changes to what a start runs.
symbol-order: deps
	$(MAKE) --no-print-directory launcher
	@$(MAKE) --no-print-directory install-packages PACKAGES="valgrind matchbox-window-manager"
	python3 bench/symbolorder.py --library $(INSTALL_SCRATCH)/release/libPortholeWebExtension.so \
	  --launcher $(LAUNCHER_DIR)/porthole --map $(LIBRARY_MAP) --pages .build/bench/pages --out $(SYMBOL_ORDER)
	$(MAKE) --no-print-directory launcher

# The idle-reset soak (issue 15): the kiosk, built as `make install` builds it, through
# SOAK_RESETS visitor sessions (default 1,000, 30-45 min), its memory sampled every 25; prints a
# Markdown report (also .build/bench/soak.md, every sample in .build/bench/soak.json) and exits
# 2 when the UI process is not flat. Not part of `make test`; bench/README.md says what it measures.
SOAK_RESETS ?= 1000
# Each session opens a second page from the home page before its reset (issue 20: 1,000 sessions
# with navigation must stay flat); SOAK_NAVIGATE=0 soaks with a pointer nudge only.
SOAK_NAVIGATE ?= 1
soak: deps
	$(MAKE) --no-print-directory launcher
	mkdir -p .build/bench
	python3 bench/soak-resets.py --porthole $(LAUNCHER_DIR)/porthole --resets $(SOAK_RESETS) \
	  $(if $(filter 1,$(SOAK_NAVIGATE)),--navigate) \
	  --out .build/bench/soak.md --json .build/bench/soak.json --command "SOAK_RESETS=$(SOAK_RESETS) SOAK_NAVIGATE=$(SOAK_NAVIGATE) make soak"
