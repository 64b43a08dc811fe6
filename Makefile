# Porthole: build, run, test, install. `make run` and `make test` work on a fresh Debian/Ubuntu
# machine: `make deps` installs the Debian packages that are missing (as root, else with sudo).

SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
CONFIG     ?= debug
BUILD_DIR  := .build/$(CONFIG)

# Build: GTK 3 + WebKitGTK. Tests: Xvfb (+ xauth for xvfb-run), a private D-Bus session bus.
# Screenshots: ImageMagick's `import`.
DEB_PACKAGES := pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev libsoup-3.0-dev \
                xvfb xauth dbus-daemon dbus-x11 imagemagick fonts-dejavu-core \
                appstream desktop-file-utils libglib2.0-bin

# The UI tests' environment: repeatable settings, no input methods, no accessibility bus.
TEST_ENV := GSETTINGS_BACKEND=memory GTK_IM_MODULE=none NO_AT_BRIDGE=1 GTK_CSD=1 LC_ALL=C.UTF-8
XVFB     := xvfb-run -a -s "-screen 0 1280x1024x24 -nolisten tcp"

.PHONY: all deps build run test unit-test ui-test clean screenshot install uninstall bench bench-peers

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
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
	@command -v $(SWIFT) >/dev/null || { echo "error: '$(SWIFT)' not found: install the Swift 6 toolchain and put it on PATH" >&2; exit 1; }

build: deps
	$(SWIFT) build -c $(CONFIG)

run: build
	$(BUILD_DIR)/porthole

# All tests: unit tests (no display needed) and the integration tests under Xvfb, in one run
# on a private session bus. XCTest runs test methods on the main thread, as GTK needs.
test: deps
	$(SWIFT) build --build-tests
	$(TEST_ENV) timeout 1200 $(XVFB) dbus-run-session -- $(SWIFT) test --skip-build --disable-swift-testing

unit-test: deps
	$(SWIFT) test --disable-swift-testing --filter 'PortholeCoreTests|GLibBridgeTests'

ui-test: deps
	$(SWIFT) build --build-tests
	$(TEST_ENV) timeout 1200 $(XVFB) dbus-run-session -- $(SWIFT) test --skip-build --disable-swift-testing --filter PortholeUITests

# The README's picture: the browser on its bundled start page, under Xvfb.
screenshot: build
	$(TEST_ENV) xvfb-run -a -s "-screen 0 1060x800x24 -nolisten tcp" sh -c '$(BUILD_DIR)/porthole & pid=$$!; sleep 6; import -window root -crop 1034x756+0+0 +repage docs/screenshot.png; kill $$pid'
	@echo "wrote docs/screenshot.png"

# Installs like a GNOME application. The binary is a release build with the Swift runtime linked
# in statically, so it runs without the toolchain, stripped at install (`install -s`); its own
# scratch directory keeps it apart from the development build (and from a `swift test` that
# holds .build).
INSTALL_SCRATCH ?= .build/install
BINDIR  = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
INSTALLED_FILES = $(BINDIR)/porthole \
	$(DATADIR)/porthole/porthole.conf \
	$(DATADIR)/porthole/porthole.conf.example \
	$(DATADIR)/applications/dev.porthole.Porthole.desktop \
	$(DATADIR)/metainfo/dev.porthole.Porthole.metainfo.xml \
	$(DATADIR)/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg \
	$(DATADIR)/man/man1/porthole.1 \
	$(DESTDIR)$(PREFIX)/lib/systemd/user/porthole-kiosk.service \
	$(DATADIR)/porthole/cage/porthole-cage-session \
	$(DATADIR)/porthole/cage/porthole-cage.service

install: deps
	$(SWIFT) build -c release --static-swift-stdlib --product porthole --scratch-path $(INSTALL_SCRATCH)
	install -Dm755 -s $(INSTALL_SCRATCH)/release/porthole $(BINDIR)/porthole
	install -Dm644 Resources/porthole.conf $(DATADIR)/porthole/porthole.conf
	install -Dm644 Resources/porthole.conf.example $(DATADIR)/porthole/porthole.conf.example
	install -Dm644 Resources/dev.porthole.Porthole.desktop $(DATADIR)/applications/dev.porthole.Porthole.desktop
	install -Dm644 Resources/dev.porthole.Porthole.metainfo.xml $(DATADIR)/metainfo/dev.porthole.Porthole.metainfo.xml
	install -Dm644 Resources/dev.porthole.Porthole.svg $(DATADIR)/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg
	install -Dm644 Resources/porthole.1 $(DATADIR)/man/man1/porthole.1
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/user $(DATADIR)/porthole/cage
	sed 's|/usr/local|$(PREFIX)|g' Resources/systemd/porthole-kiosk.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/porthole-kiosk.service
	install -m755 Resources/cage/porthole-cage-session $(DATADIR)/porthole/cage/porthole-cage-session
	sed 's|/usr/local|$(PREFIX)|g' Resources/cage/porthole-cage.service > $(DATADIR)/porthole/cage/porthole-cage.service

uninstall:
	rm -f $(INSTALLED_FILES)
	-rmdir $(DATADIR)/porthole/cage $(DATADIR)/porthole 2>/dev/null

clean:
	rm -rf .build

# Benchmarks (issue 6): Porthole beside the engine floor (bench/floor/floor.c) and the peer
# browsers that are installed, plus the policy's speed; prints a Markdown table and writes it to
# docs/benchmarks.md. BENCH_ROUNDS=N (default 5), BENCH_QUICK=1 for a ~2-minute smoke run.
# bench/README.md says what is measured; `make bench-peers` installs the peers (apt-get).
# Porthole is measured as `make install` builds it (release, Swift runtime linked in statically).
bench: deps
	$(SWIFT) build -c release --product policy-bench
	$(SWIFT) build -c release --static-swift-stdlib --product porthole --scratch-path $(INSTALL_SCRATCH)
	mkdir -p .build/bench
	cc -O2 -Wall -Wextra -o .build/bench/floor bench/floor/floor.c $$(pkg-config --cflags --libs webkit2gtk-4.1)
	rm -f .build/bench/policy.md; \
	.build/release/policy-bench --markdown .build/bench/policy.md > .build/bench/policy.out 2>&1; rc=$$?; \
	python3 bench/run.py --porthole $(INSTALL_SCRATCH)/release/porthole --floor .build/bench/floor \
	  --config bench/bench.conf --policy .build/bench/policy.md --policy-output .build/bench/policy.out \
	  --policy-rc $$rc --pages .build/bench/pages --out docs/benchmarks.md --json .build/bench/results.json \
	  --command "$$(env | grep -E '^BENCH_(ROUNDS|QUICK)=' | sort | tr '\n' ' ')make bench"

bench-peers:
	sh bench/install-peers.sh
