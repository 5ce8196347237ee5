#!/bin/sh
# Installs what building and testing ptxsurf-as needs on Debian/Ubuntu when it
# is missing: a C compiler, make, flex, bison, pkg-config and the Check unit
# test library, and node with npm (test tooling only: tests/lsp/client.sh
# drives the language server through an npm LSP client library); with
# --sanitizers also valgrind (make check-sanitize). Uses
# apt-get directly as root, or through sudo otherwise.
set -e
missing=""
if [ "${1:-}" = --sanitizers ]; then
	command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
fi
command -v cc >/dev/null 2>&1 || missing="$missing gcc libc6-dev"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v flex >/dev/null 2>&1 || missing="$missing flex"
command -v bison >/dev/null 2>&1 || missing="$missing bison"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkgconf"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists check 2>/dev/null; then
	missing="$missing check"
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: not root and no sudo; install them with apt-get and retry" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: missing:$missing; no apt-get here: install them with your package manager" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
