# debsrc.sh — fetch Debian source packages with apt-get source (sourced by
# ./quickstart and tests/real/posix-suite.sh; bash).

say() { printf '==> %s\n' "$*"; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

enable_deb_src() {
	local f=/etc/apt/sources.list.d/green-deb-src.sources
	[ -f "$f" ] && return 0
	grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && return 0
	grep -qs '^deb-src ' /etc/apt/sources.list && return 0
	say "enabling Debian source packages (deb-src)"
	as_root tee "$f" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	as_root apt-get update -qq
}

# fetch_source PACKAGE UNPACKED-DIR: unless UNPACKED-DIR exists, run
# `apt-get source PACKAGE` in its parent directory; exits if that does not
# produce UNPACKED-DIR.  PACKAGE is taken from bookworm unless it names
# its release (pkg/trixie): a newer suite's source packages, enabled on
# the machine for something else, must not be taken instead.
fetch_source() {
	[ -d "$2" ] && return 0
	local dir spec=$1
	case $spec in */*) ;; *) spec=$spec/bookworm ;; esac
	dir=$(dirname "$2")
	enable_deb_src
	say "fetching Debian source package $spec"
	mkdir -p "$dir"
	(cd "$dir" && apt-get source -qq "$spec" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
	[ -d "$2" ] || { echo "apt-get source $1 did not produce $2" >&2; exit 1; }
}
