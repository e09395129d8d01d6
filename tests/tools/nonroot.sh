#!/bin/sh
# nonroot.sh — the README's route for a user without root, as that user:
# with the build's packages installed, `./quickstart build
# --prefix=$HOME/g` and `make -C build install` in a copy of the source
# tree, run as an unprivileged user (nobody) whose home is a scratch
# directory; then, as that user, `man green-cc`, `green-cc --help` and a
# threaded program and one that includes <linux/futex.h> compiled and
# run with the installed tree.  The
# sources quickstart would fetch, and the C++ runtime it would build,
# are copied in from this build (they are what a user fetches once).
# Needs root, to become the user; natively only.  It builds the
# libraries again: a few minutes.
. "$GREEN_SRC/tests/lib.sh"
[ -z "$GREEN_RUN" ] || { echo "SKIP: natively only (a cross build installs nothing to run)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to run as an unprivileged user"; exit 77; }
command -v setpriv >/dev/null 2>&1 || { echo "SKIP: no setpriv"; exit 77; }
uid=$(id -u nobody 2>/dev/null) gid=$(id -g nobody 2>/dev/null)
[ -n "$uid" ] || { echo "SKIP: no user nobody"; exit 77; }
mkvar() { sed -n "s/^$1 = //p" "$B/Makefile"; }
musl=$(mkvar MUSL_SRC) check=$(mkvar CHECK_SRC) cxxrt=$(mkvar CXXRT_CACHE)
scratch nonroot
chmod 755 "$T"
H=$T/home
mkdir -p "$H/src/build/src" "$H/.cache"
(cd "$S" && tar --exclude=./build --exclude='./build-*-*-*' --exclude=./.git -cf - .) |
	(cd "$H/src" && tar -xf -) || exit 1
cp -a "$musl" "$check" "$H/src/build/src/" || exit 1
[ -d "$cxxrt" ] && cp -a "$cxxrt" "$H/.cache/green"
chown -R "$uid:$gid" "$H"

# as_user COMMAND: COMMAND run by sh as nobody, in its home, with a
# clean environment
as_user() {
	setpriv --reuid="$uid" --regid="$gid" --clear-groups \
		env -i HOME="$H" PATH="$PATH" LANG=C.UTF-8 MANWIDTH=80 sh -c "cd \"\$HOME\" && $1"
}

if as_user 'cd src && ./quickstart build --prefix="$HOME/g" && make -C build install' >"$T/log" 2>&1; then
	pass "as nobody: ./quickstart build --prefix=\$HOME/g && make -C build install"
else
	fail "as nobody: quickstart build and install: $(tail -15 "$T/log")"
	finish
	exit 1
fi
if grep -q 'Permission denied' "$T/log"; then
	fail "the build or the install wanted a file it could not write: $(grep 'Permission denied' "$T/log" | head -3)"
fi

if command -v man >/dev/null 2>&1; then
	out=$(as_user 'man -M "$HOME/g/share/man" green-cc' 2>&1)
	case $out in
	*NAME*green-cc*) pass "as nobody: man green-cc (with the installed tree's pages)" ;;
	*) fail "as nobody: man green-cc: $(printf '%s\n' "$out" | head -3)" ;;
	esac
fi
out=$(as_user '"$HOME/g/bin/green-cc" --help' 2>&1 | head -1)
case $out in
usage:*--threads=green*) pass "as nobody: green-cc --help" ;;
*) fail "as nobody: green-cc --help: $out" ;;
esac
cp "$S/tests/prog/m1tid.c" "$H/m1tid.c" && chown "$uid:$gid" "$H/m1tid.c"
out=$(as_user '"$HOME/g/bin/green-cc" -O2 -o m1tid m1tid.c && ./m1tid' 2>&1)
if [ "$out" = same ]; then
	pass "as nobody: the installed green-cc compiles and runs a threaded program"
else
	fail "as nobody: the installed green-cc: $out"
fi
printf '#include <linux/futex.h>\n#include <stdio.h>\nint main(void) { printf("%%d\\n", FUTEX_WAKE_PRIVATE); return 0; }\n' > "$H/kh.c" &&
	chown "$uid:$gid" "$H/kh.c"
out=$(as_user '"$HOME/g/bin/green-cc" -O2 -o kh kh.c && ./kh' 2>&1)
if [ "$out" = 129 ]; then
	pass "as nobody: the installed green-cc finds <linux/futex.h>"
else
	fail "as nobody: the installed green-cc and <linux/futex.h>: $out"
fi
finish
