# Build, test, install and package restoration-tool.
#
#   make                      release binary, Swift standard library linked in statically
#   make test                 the test suite (swift test --disable-swift-testing)
#   make docs                 RestorationKit's documentation catalog, built with DocC into
#                             .build/docs (warnings are errors)
#   make install              installs what `make` built: binary (stripped), man page, and
#                             bash, zsh and fish completions under PREFIX; it never builds
#   make uninstall            removes what install put there
#   make deb                  a Debian package of what `make` built, in dist/
#   make dist                 a release tarball of the sources at HEAD and its SHA-256, in dist/
#
# PREFIX (default /usr/local) and DESTDIR (a staging root for packagers) follow the GNU
# conventions: `make install PREFIX=$HOME/.local`, `make install DESTDIR=/tmp/stage`.
# Build as yourself, then install as root if PREFIX needs it: `make && sudo make install`.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
STRIP ?= strip
# The package's maintainer: who made the commit it is built from, unless given.
MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2> /dev/null)

VERSION := $(shell sed -n 's/^ *static let version = "\(.*\)"$$/\1/p' Sources/restoration-tool/RestorationTool.swift)
BINARY := .build/release/restoration-tool
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR ?= $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: all build test docs install uninstall deb dist

all: build

# Static: the binary runs without the toolchain's runtime libraries, and starts faster.
build:
	$(SWIFT) build -c release --static-swift-stdlib

test:
	$(SWIFT) test --disable-swift-testing

# The library's public symbols (swift package dump-symbol-graph) and its catalog, converted by
# the toolchain's docc: no plugin to fetch. Only RestorationKit's symbol graphs are documented.
DOCC ?= docc
docs:
	$(SWIFT) package dump-symbol-graph --minimum-access-level public > .build/symbol-graph.log
	rm -rf .build/docs .build/docs-symbols && mkdir -p .build/docs-symbols
	cp "$$(sed -n 's/^Files written to //p' .build/symbol-graph.log)"/RestorationKit*.symbols.json .build/docs-symbols/
	"$(DOCC)" convert Sources/RestorationKit/RestorationKit.docc --additional-symbol-graph-dir .build/docs-symbols \
		--output-path .build/docs --fallback-display-name RestorationKit --fallback-bundle-identifier org.restoration-tool.RestorationKit \
		--warnings-as-errors

# No dependency on `build`: run as root, a build would need root's PATH to hold swift and
# would leave root-owned files in .build.
install:
	@test -x "$(BINARY)" || { echo "make install: $(BINARY) is missing; run make first (as yourself, not as root)" >&2; exit 1; }
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BINARY)" "$(BINDIR)/restoration-tool"
	$(STRIP) "$(BINDIR)/restoration-tool"
	install -m 644 man/restoration-tool.1 "$(MANDIR)/restoration-tool.1"
	"$(BINARY)" --generate-completion-script bash > "$(BASHDIR)/restoration-tool"
	"$(BINARY)" --generate-completion-script zsh > "$(ZSHDIR)/_restoration-tool"
	"$(BINARY)" --generate-completion-script fish > "$(FISHDIR)/restoration-tool.fish"

# The directories install made go too when they are left empty, up to (not including) the
# prefix: rmdir removes none that holds anything.
uninstall:
	rm -f "$(BINDIR)/restoration-tool" "$(MANDIR)/restoration-tool.1" "$(BASHDIR)/restoration-tool" \
		"$(ZSHDIR)/_restoration-tool" "$(FISHDIR)/restoration-tool.fish"
	@for dir in "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"; do \
		while [ "$$dir" != "$(DESTDIR)$(PREFIX)" ] && [ "$${dir#$(DESTDIR)$(PREFIX)/}" != "$$dir" ] \
			&& rmdir "$$dir" 2> /dev/null; do dir=$$(dirname "$$dir"); done; \
	done

# The package holds what install puts under /usr (zsh's completions where Debian's zsh looks,
# the man page compressed, the licence as Debian's copyright file). Its Depends line is what
# dpkg-shlibdeps finds the binary needs (libc6, libgcc-s1, libstdc++6 with their versions).
deb:
	@test -x "$(BINARY)" || { echo "make deb: $(BINARY) is missing; run make first" >&2; exit 1; }
	@command -v dpkg-deb > /dev/null && command -v dpkg-shlibdeps > /dev/null \
		|| { echo "make deb: needs dpkg-deb and dpkg-shlibdeps (apt-get install dpkg-dev)" >&2; exit 1; }
	rm -rf .build/deb && mkdir -p .build/deb/root/DEBIAN .build/deb/debian dist
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/.build/deb/root PREFIX=/usr \
		ZSHDIR=$(CURDIR)/.build/deb/root/usr/share/zsh/vendor-completions > /dev/null
	gzip -9n .build/deb/root/usr/share/man/man1/restoration-tool.1
	install -d .build/deb/root/usr/share/doc/restoration-tool
	install -m 644 LICENSE .build/deb/root/usr/share/doc/restoration-tool/copyright
	printf 'Source: restoration-tool\n\nPackage: restoration-tool\nArchitecture: any\n' > .build/deb/debian/control
	cd .build/deb && dpkg-shlibdeps -O root/usr/bin/restoration-tool 2> /dev/null \
		| sed -n 's/^shlibs:Depends=//p' > depends
	@test -s .build/deb/depends || { echo "make deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
	{ echo "Package: restoration-tool"; \
	  echo "Version: $(VERSION)"; \
	  echo "Architecture: $$(dpkg --print-architecture)"; \
	  echo "Maintainer: $(MAINTAINER)"; \
	  echo "Installed-Size: $$(du -sk .build/deb/root/usr | cut -f1)"; \
	  echo "Depends: $$(cat .build/deb/depends)"; \
	  echo "Section: utils"; \
	  echo "Priority: optional"; \
	  echo "Description: inspect iOS and macOS saved application state"; \
	  echo " Reads UIKit state-restoration archives (data.data), iOS scene sessions and"; \
	  echo " macOS AppKit window state on any machine: dump, validate, diff, tree, scan."; \
	} > .build/deb/root/DEBIAN/control
	dpkg-deb --root-owner-group --build .build/deb/root "dist/restoration-tool_$(VERSION)_$$(dpkg --print-architecture).deb"

# The sources of the commit checked out (not uncommitted changes), as GitHub's release
# tarballs are, with a checksum file that `sha256sum -c` reads.
dist:
	mkdir -p dist
	git archive --format=tar.gz --prefix=restoration-tool-$(VERSION)/ -o dist/restoration-tool-$(VERSION).tar.gz HEAD
	cd dist && sha256sum restoration-tool-$(VERSION).tar.gz > restoration-tool-$(VERSION).tar.gz.sha256
	@echo "dist/restoration-tool-$(VERSION).tar.gz"
