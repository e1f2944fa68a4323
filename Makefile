# make                      build gqlcache for release
# make install PREFIX=DIR   install the binary, man page and completions under DIR
#                           (default /usr/local; see Scripts/install.sh)
PREFIX ?= /usr/local

.PHONY: all build install

all: build

build:
	swift build -c release --product gqlcache

install:
	Scripts/install.sh --prefix "$(PREFIX)"
