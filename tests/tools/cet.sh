#!/bin/sh
# cet.sh — the CPU contract's CET marking (x86_64; docs/ports.md#cet).
# src/arch/x86_64/context.S assembled with -fcf-protection=branch and
# =full must begin each entry point with endbr64 and carry the IBT
# property, and never the shadow-stack one (its switch keeps no shadow
# stack); assembled without, neither (a build without CET pays nothing).
# Then says whether this machine could enforce them.
. "$GREEN_SRC/tests/lib.sh"
[ "$GREEN_ARCH" = x86_64 ] || { echo "SKIP: CET is x86_64's"; exit 77; }
[ -n "${OBJDUMP:-}" ] || { echo "SKIP: no objdump"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "SKIP: no readelf"; exit 77; }
scratch cet
CTX=$S/src/arch/x86_64/context.S
for flag in none branch full; do
	case $flag in none) f= ;; *) f=-fcf-protection=$flag ;; esac
	if ! ${CC:-cc} $f -c "$CTX" -o "$T/ctx.o" 2>"$T/err"; then
		fail "context.S does not assemble with ${f:-no CET flag}: $(cat "$T/err")"
		continue
	fi
	props=$(readelf -n "$T/ctx.o" | sed -n 's/.*x86 feature: *//p')
	for fn in __green_arch_switch __green_arch_make __green_arch_start; do
		first=$($OBJDUMP -d --no-show-raw-insn "$T/ctx.o" |
			awk -v fn="<$fn>:" '$2 == fn { getline; print $2; exit }')
		case $flag:$first in
		none:endbr64) fail "$fn begins with endbr64 without -fcf-protection" ;;
		none:*) ;;
		*:endbr64) ;;
		*) fail "$fn begins with '$first', not endbr64, with $f" ;;
		esac
	done
	case $flag:$props in
	none:) pass "without -fcf-protection: no endbr64, no property" ;;
	none:*) fail "without -fcf-protection the object claims: $props" ;;
	*:IBT) pass "with $f: endbr64 at every entry point, the IBT property and no SHSTK" ;;
	*) fail "with $f the property is '$props', not IBT alone" ;;
	esac
done
if grep -qw user_shstk /proc/cpuinfo 2>/dev/null; then
	echo "NOTE: this CPU has user_shstk: a process that enabled a shadow stack would have it enforced"
else
	echo "NOTE: this CPU has no user_shstk: nothing here enforces CET (Linux enforces no user-space IBT)"
fi
finish
