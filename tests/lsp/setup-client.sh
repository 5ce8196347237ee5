#!/bin/sh
# Installs the LSP client library VS Code's own client is built on
# (vscode-languageserver-protocol, with vscode-jsonrpc) from npm into a
# cache directory, once, and prints that directory's node_modules. Test
# tooling only: nothing of it is part of the build. Exits 77 with a
# message when npm or node is missing or the install fails.
#   PTXSURF_NPM_CACHE=DIR   where (default: ~/.cache/ptxsurf-lsp-client)
set -u
dir=${PTXSURF_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxsurf-lsp-client}
want=vscode-languageserver-protocol@3.17.5
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "SKIPPED: node and npm are needed for the LSP client test (apt-get install nodejs npm)" >&2
	exit 77
fi
if [ ! -f "$dir/node_modules/vscode-languageserver-protocol/package.json" ] ||
	! grep -q '"version": "3.17.5"' "$dir/node_modules/vscode-languageserver-protocol/package.json"; then
	mkdir -p "$dir" || exit 77
	[ -f "$dir/package.json" ] || echo '{ "name": "ptxsurf-lsp-client-tests", "private": true }' >"$dir/package.json"
	if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$want" >"$dir/install.log" 2>&1; then
		cat "$dir/install.log" >&2
		echo "SKIPPED: npm could not install $want" >&2
		exit 77
	fi
fi
echo "$dir/node_modules"
