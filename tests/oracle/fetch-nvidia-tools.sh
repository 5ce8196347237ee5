#!/bin/sh
# Puts NVIDIA's CUDA 11.8 ptxas, nvdisasm and cuobjdump into a cache directory
# for the oracle tests, taken from Debian's non-free nvidia-cuda-toolkit
# package without installing it (no root needed beyond what apt-get download
# needs; the system's package state is not touched). CUDA 11.8 is the last
# toolkit whose ptxas still targets sm_50 and whose nvdisasm decodes it.
#
# Usage: tests/oracle/fetch-nvidia-tools.sh
#   cache: ${PTXSURF_ORACLE_DIR:-$HOME/.cache/ptxsurf-oracles}, tools go to its bin/
# Prints the bin directory on success; exits 1 with a message otherwise.
set -u

tools="ptxas nvdisasm cuobjdump"
want_version=11.8
cache=${PTXSURF_ORACLE_DIR:-${HOME:-/tmp}/.cache/ptxsurf-oracles}

fail() {
	echo "fetch-nvidia-tools: $*" >&2
	exit 1
}

have_all() {
	for t in $tools; do
		[ -x "$cache/bin/$t" ] || return 1
	done
	"$cache/bin/nvdisasm" --version 2>/dev/null | grep -q "release $want_version"
}

if have_all; then
	echo "$cache/bin"
	exit 0
fi

for cmd in apt-get dpkg-deb tar; do
	command -v "$cmd" >/dev/null 2>&1 ||
		fail "'$cmd' not found: the tools come from a Debian package (Debian bookworm expected)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxsurf-oracles.XXXXXX") || fail "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT INT TERM
# apt downloads as the unprivileged _apt user when run as root.
chmod 755 "$work"

# A private copy of the system's Debian sources with the non-free component
# added: nvidia-cuda-toolkit lives there. Both source formats are handled.
sources="$work/sources.list.d"
mkdir -p "$sources" "$work/lists/partial" "$work/archives/partial"
found=0
for f in /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] || continue
	awk '/^Components:/ && !/non-free( |$)/ { $0 = $0 " non-free" } { print }' "$f" \
		>"$sources/$(basename "$f")"
	found=1
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -r "$f" ] || continue
	awk '/^deb / && !/non-free( |$)/ { $0 = $0 " non-free" } { print }' "$f" \
		>"$sources/$(basename "$f")"
	found=1
done
[ "$found" = 1 ] || fail "no apt sources found under /etc/apt"

# apt_private apt-get|apt-cache ARGS...
apt_private() {
	tool=$1
	shift
	"$tool" -q \
		-o Dir::Etc::SourceList=/dev/null \
		-o Dir::Etc::SourceParts="$sources" \
		-o Dir::State::Lists="$work/lists" \
		-o Dir::Cache::Archives="$work/archives" \
		-o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache="" \
		-o Debug::NoLocking=1 \
		"$@"
}

apt_private apt-get update >"$work/update.log" 2>&1 ||
	fail "apt-get update with the non-free component failed: $(tail -n 3 "$work/update.log")"

version=$(apt_private apt-cache show --no-all-versions nvidia-cuda-toolkit 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
case "$version" in
"") fail "package nvidia-cuda-toolkit not found in the Debian non-free archive" ;;
*"$want_version"*) ;;
*) fail "nvidia-cuda-toolkit is version $version here, but $want_version is needed (sm_50 support)" ;;
esac

(cd "$work" && apt_private apt-get download "nvidia-cuda-toolkit=$version" >"$work/download.log" 2>&1) ||
	fail "downloading nvidia-cuda-toolkit $version failed: $(tail -n 3 "$work/download.log")"
deb=""
for f in "$work"/nvidia-cuda-toolkit_*.deb; do
	[ -f "$f" ] && deb=$f
done
[ -n "$deb" ] || fail "the downloaded .deb is missing"

# Find each tool's real binary in the package (not a wrapper in /usr/bin if
# the package ever ships one) and unpack only those files.
dpkg-deb --fsys-tarfile "$deb" >"$work/pkg.tar" || fail "cannot read $deb"
tar -tf "$work/pkg.tar" >"$work/contents" || fail "cannot list $deb"
members=""
for t in $tools; do
	m=$(grep -E "/bin/$t\$" "$work/contents" | head -n 1)
	[ -n "$m" ] || fail "$t is not in $(basename "$deb")"
	members="$members $m"
done
mkdir -p "$work/x"
# shellcheck disable=SC2086  # members are tar paths without spaces
tar -xf "$work/pkg.tar" -C "$work/x" $members || fail "cannot unpack the tools"

mkdir -p "$cache/bin" || fail "cannot create $cache/bin"
for m in $members; do
	if ! cp "$work/x/$m" "$cache/bin/" || ! chmod 755 "$cache/bin/$(basename "$m")"; then
		fail "cannot copy $m to $cache/bin"
	fi
done
have_all || fail "the unpacked nvdisasm does not run or is not release $want_version"
echo "$cache/bin"
