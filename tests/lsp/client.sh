#!/bin/sh
# The language server end to end through a real LSP client library from
# npm (tests/lsp/client.js). Skipped, saying so, without node and npm.
cd "$(dirname "$0")/../.." || exit 1
PROG=${PROG:-./ptxsurf-as}
modules=$(sh tests/lsp/setup-client.sh) || {
	echo "lsp-client: SKIPPED: no LSP client library (see above); tests/lsp/protocol.sh still ran"
	exit 77
}
node tests/lsp/client.js "$PROG" "$modules"
