#!/bin/sh
# install.sh — what a user of an installed green touches: the build
# installed with DESTDIR into a temporary directory, then moved (to a
# name with a space in it); its manual pages, green-cc --help, a threaded
# program compiled and run with the moved tree, the kernel's headers,
# the debug: line the moved
# green-explore prints, where green links dynamically a shared object, a
# dynamically linked program and green-run from the moved tree (where it
# does not, the refusal of -shared and -static-pie), the refusals of a
# --threads without a mode and of -fsanitize=undefined,thread, pkg-config
# (its flags build a green program with the system's compiler), and
# quickstart's --prefix check.
. "$GREEN_SRC/tests/lib.sh"
scratch install
timeout_of 60
unset MAKEFLAGS MFLAGS MAKELEVEL

prefix=$(sed -n 's/^prefix = //p' "$B/Makefile")
# (a loaded machine may take longer to copy the C++ headers)
if ! timeout 300 make -s -C "$B" install DESTDIR="$T/d" >"$T/log" 2>&1; then
	fail "make install DESTDIR=...: $(tail -5 "$T/log")"
	finish
	exit 1
fi
pass "make install with DESTDIR"
M="$T/moved tree"
mv "$T/d$prefix" "$M" || exit 1
rm -rf "$T/d"
cc="$M/bin/green-cc"

# ---- the manual pages
if command -v man >/dev/null 2>&1; then
	for p in "1 green-cc" "1 green-c++" "1 green-explore" "7 green" \
	         "3 pthread_attr_getstackmode_np" "3 pthread_rwlockattr_setkind_np" "3 pthread_clockjoin_np" \
	         "1 green-run"; do
		out=$(MANWIDTH=80 man -M "$M/share/man" $p 2>&1)
		case $out in
		*NAME*"${p#* }"*) pass "man $p" ;;
		*) fail "man $p: $(printf '%s\n' "$out" | head -3)" ;;
		esac
	done
else
	echo "SKIP: man is not installed"
fi

# ---- green-cc --help: green's options, then gcc's
"$cc" --help >"$T/help" 2>&1
first=$(grep -n -e '--threads=green|1to1' "$T/help" | head -1 | cut -d: -f1)
sched=$(grep -n -e '--sched-points' "$T/help" | head -1 | cut -d: -f1)
gcc=$(grep -n '^Usage: ' "$T/help" | head -1 | cut -d: -f1)
if [ "${first:-0}" = 1 ] && [ -n "$sched" ] && [ -n "$gcc" ] && [ "$sched" -lt "$gcc" ]; then
	pass "green-cc --help: green's options first, then the compiler's"
else
	fail "green-cc --help: $(head -3 "$T/help")"
fi

# ---- the moved tree compiles and runs a threaded program
for how in "--threads=green - same" "--threads 1to1 different"; do
	set -- $how
	[ "$2" = - ] && set -- "$1" "$3"
	if "$cc" -O2 -Wall -o "$T/m1tid" "$S/tests/prog/m1tid.c" $1 ${3:+"$2"} >"$T/err" 2>&1 &&
	   [ "$($TO $GREEN_RUN "$T/m1tid")" = "${3:-$2}" ]; then
		pass "a moved install compiles and runs a threaded program ($1 ${3:+$2})"
	else
		fail "moved install, $how: $(head -3 "$T/err")"
	fi
done
# the moved tree's links to the system's kernel headers (docs/kernel.md)
printf '#include <linux/futex.h>\n#include <pthread.h>\nint main(void) { return FUTEX_WAKE_PRIVATE != 129; }\n' > "$T/kh.c"
if "$cc" -O2 -o "$T/kh" "$T/kh.c" >"$T/err" 2>&1 && $TO $GREEN_RUN "$T/kh"; then
	pass "a moved install finds <linux/futex.h>"
else
	fail "moved install, <linux/futex.h>: $(head -3 "$T/err")"
fi
if [ -x "$M/bin/green-c++" ]; then
	if "$M/bin/green-c++" -O2 -o "$T/tls" "$S/tests/cxx/tls.cc" >"$T/err" 2>&1 &&
	   $TO $GREEN_RUN "$T/tls" >/dev/null 2>&1; then
		pass "the moved green-c++ compiles and runs a threaded program"
	else
		fail "moved green-c++: $(head -3 "$T/err")"
	fi
fi

# ---- the moved green-explore's debug: line works as printed: the
# program names the extension where the tree was installed, which is
# gone, so the line sources the moved tree's copy (green-explore.in)
GDB=${GDB:-}
if [ -z "$GREEN_RUN" ] && [ -n "$GDB" ] && command -v "$GDB" >/dev/null 2>&1 &&
   "$GDB" -nx -batch -ex 'python print("py-ok")' 2>/dev/null | grep -q py-ok &&
   [ -f "$M/share/green/green-gdb.py" ]; then
	if "$cc" -O1 -g -o "$T/order" "$S/tests/explore/order.c" >"$T/err" 2>&1; then
		line=$($TO "$M/bin/green-explore" -q -n 50 -- "$T/order" | sed -n 's/^debug: *//p')
		cmd=$(printf '%s\n' "$line" | sed "s|gdb |$GDB -nx -batch |
			s| -ex run | -ex run -ex 'info green-threads' |")
		out=$(cd "$T" && $TO sh -c "$cmd" 2>&1 </dev/null)
		case $line in
		*"source $M/share/green/green-gdb.py"*)
			if printf '%s\n' "$out" | grep -Eq '^\* +[0-9]+ '; then
				pass "the moved green-explore's debug: line loads the moved extension"
			else
				fail "the moved green-explore's debug: line: $line"
				printf '%s\n' "$out" | tail -8 | sed 's/^/    | /'
			fi ;;
		*) fail "the moved green-explore's debug: line does not source the moved extension: '$line'" ;;
		esac
	else
		fail "moved green-cc, tests/explore/order.c: $(head -3 "$T/err")"
	fi
else
	echo "SKIP: the debug: line of a moved install (no gdb with Python, or no extension installed)"
fi

# ---- refusals: one line on stderr, exit status 2, nothing written
refused() {
	want=$1
	shift
	"$cc" -o "$T/out.so" "$S/tests/prog/m1tid.c" "$@" >"$T/err" 2>&1
	st=$?
	if [ "$st" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -e "$want" "$T/err" &&
	   [ ! -e "$T/out.so" ]; then
		pass "green-cc $*: refused in one line"
	else
		fail "green-cc $*: status $st, want 2 and one line with '$want'"
		sed 's/^/    | /' "$T/err"
	fi
	rm -f "$T/out.so"
}
if [ -x "$M/bin/green-run" ]; then
	# ---- dynamic green from the moved tree (docs/dynamic.md): a shared
	# object, a program linked against it and libc.so, run as it is and
	# through green-run on both thread models
	printf 'int shared_value(void) { return 42; }\n' >"$T/lib.c"
	printf '#include <stdio.h>\nint shared_value(void);\nint main(void) { printf("%%d\\n", shared_value()); return 0; }\n' >"$T/main.c"
	if "$cc" -shared -fPIC -o "$T/libv.so" "$T/lib.c" >"$T/err" 2>&1 &&
	   "$cc" --dynamic -o "$T/usev" "$T/main.c" "$T/libv.so" -Wl,-rpath,"$T" >>"$T/err" 2>&1 &&
	   [ "$($TO "$T/usev")" = 42 ] && [ "$($TO "$M/bin/green-run" --threads=1to1 "$T/usev")" = 42 ]; then
		pass "the moved green-cc links a shared object and a program that uses it, and green-run runs it"
	else
		fail "moved install, -shared and --dynamic: $(head -3 "$T/err")"
	fi
	if "$cc" --dynamic -O2 -o "$T/m1tid-dyn" "$S/tests/prog/m1tid.c" >"$T/err" 2>&1 &&
	   [ "$($TO "$M/bin/green-run" "$T/m1tid-dyn")" = same ] &&
	   [ "$($TO "$M/bin/green-run" --threads=1to1 "$T/m1tid-dyn")" = different ]; then
		pass "the moved green-run runs one binary on green threads and on kernel threads"
	else
		fail "moved green-run: $(head -3 "$T/err")"
	fi
else
	refused "-shared: this build of green links static executables only" -shared -fPIC
	refused "-static-pie: this build of green links static executables only" -static-pie
fi
refused "--threads wants a mode" --threads
refused "use green-cc --race" -fsanitize=undefined,thread

# ---- pkg-config names the wrapper, and its flags build a green program
# with the system's gcc (pkg-config.specs, found through -B in the moved
# tree: its name has a space, which pkg-config escapes, hence eval)
if command -v pkg-config >/dev/null 2>&1; then
	pc() { PKG_CONFIG_PATH="$M/lib/pkgconfig" pkg-config "$@"; }
	ccvar=$(pc --variable=cc green)
	if [ "${ccvar##*/}" = green-cc ]; then
		pass "pkg-config: --variable=cc names green-cc"
	else
		fail "pkg-config: --variable=cc gives '$ccvar'"
	fi
	hostcc=${GREEN_TARGET_CC:-cc}   # the compiler green was configured with
	cflags=$(pc --cflags green) libs=$(pc --libs green) both=$(pc --cflags --libs green)
	rm -f "$T/pc1" "$T/pc2" "$T/pc1.o"
	if eval "\$hostcc $cflags -O2 -c -o \"\$T/pc1.o\" \"\$S/tests/prog/m1tid.c\"" >"$T/err" 2>&1 &&
	   eval "\$hostcc -o \"\$T/pc1\" \"\$T/pc1.o\" $libs" >>"$T/err" 2>&1 &&
	   [ "$($TO $GREEN_RUN "$T/pc1")" = same ]; then
		pass "pkg-config: cc \$(pkg-config --cflags green) -c, then --libs to link: a green program"
	else
		fail "pkg-config --cflags, --libs ($cflags | $libs): $(head -3 "$T/err")"
	fi
	if eval "\$hostcc $both -O2 -o \"\$T/pc2\" \"\$S/tests/prog/m1tid.c\"" >"$T/err" 2>&1 &&
	   [ "$($TO $GREEN_RUN "$T/pc2")" = same ]; then
		pass "pkg-config: cc \$(pkg-config --cflags --libs green) in one command: a green program"
	else
		fail "pkg-config --cflags --libs ($both): $(head -3 "$T/err")"
	fi
	if eval "\$hostcc $both -O2 -o \"\$T/pc3\" \"\$T/kh.c\"" >"$T/err" 2>&1 && $TO $GREEN_RUN "$T/pc3"; then
		pass "pkg-config: its flags find <linux/futex.h>"
	else
		fail "pkg-config --cflags --libs and <linux/futex.h>: $(head -3 "$T/err")"
	fi
fi

# ---- quickstart --prefix wants an absolute directory (before doing anything)
out=$("$S/quickstart" build --prefix=relative/dir 2>&1)
st=$?
if [ "$st" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then
	pass "quickstart --prefix=relative/dir: refused in one line"
else
	fail "quickstart --prefix=relative/dir: status $st: $out"
fi
finish
