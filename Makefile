# Build, test and install restoration-tool.
#
#   make                      release binary, Swift standard library linked in statically
#   make test                 the test suite (swift test)
#   make install              binary, man page and bash, zsh and fish completions under PREFIX
#   make uninstall            removes what install put there
#
# PREFIX (default /usr/local) and DESTDIR (a staging root for packagers) follow the GNU
# conventions: `make install PREFIX=$HOME/.local`, `make install DESTDIR=/tmp/stage`.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

BINARY := .build/release/restoration-tool
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: all build test install uninstall

all: build

# Static: the binary runs without the toolchain's runtime libraries, and starts faster.
build:
	$(SWIFT) build -c release --static-swift-stdlib

test:
	$(SWIFT) test

install: build
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BINARY)" "$(BINDIR)/restoration-tool"
	install -m 644 man/restoration-tool.1 "$(MANDIR)/restoration-tool.1"
	"$(BINARY)" --generate-completion-script bash > "$(BASHDIR)/restoration-tool"
	"$(BINARY)" --generate-completion-script zsh > "$(ZSHDIR)/_restoration-tool"
	"$(BINARY)" --generate-completion-script fish > "$(FISHDIR)/restoration-tool.fish"

uninstall:
	rm -f "$(BINDIR)/restoration-tool" "$(MANDIR)/restoration-tool.1" "$(BASHDIR)/restoration-tool" \
		"$(ZSHDIR)/_restoration-tool" "$(FISHDIR)/restoration-tool.fish"
