#!/usr/bin/env python3
"""includes.py — each file of src/ includes only internal headers it uses.

For every .c and internal .h under src/ (an internal header: any .h of
src/ but the copies of musl's headers a CPU port overrides,
src/arch/*/musl/), it fails when
  (a) the file includes green.h, the umbrella, which is for nobody; or
  (b) an internal header the file includes directly (#include "x.h")
      declares nothing the file uses.
green.h itself (a list of the parts, included by nobody) and seam.h's
includes of the seam headers are not held to (b).
How it decides what a header declares: comments and strings removed and
continued lines joined, a regular expression takes the names of its
#defines, the tags of the structs, unions and enums it defines (with a
body; `struct pollfd;` declares nothing), their enumerators, its
typedefs, and, at file level outside any braces, each declared function
(the name before the first parenthesis) or variable (the last name
before `;`, `=`, `[` or `,`); not its include guard.  seam.h also declares what the seam
headers it chooses between declare (musl-seam.h, glibc-seam.h,
contract.h and every port's arch.h) and the libc names musl-seam.h's
essay lists as the core's to use (hidden, __syscall, ...).  A file uses
a name when the name is one of its identifiers, comments, strings and
#include lines aside; defining a name counts.  A header named by more
than one file (arch.h, one per port) declares what any of them does.
Run from the top of the tree; prints one line per finding.
"""
import os, re, sys

SRC = 'src'
IDENT = re.compile(r'[A-Za-z_]\w*')
KEYWORDS = set('''auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while _Bool
_Noreturn _Alignas _Static_assert __extension__ __asm__ __volatile__ __attribute__
hidden'''.split())
SEAMS = ('musl-seam.h', 'glibc-seam.h', 'contract.h', 'arch.h')


def strip(text):
    """comments and string/char literals removed, continued lines joined"""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: ' ' if m.group(0)[0] == '/' else '""', text, flags=re.S)
    return text.replace('\\\n', ' ')


def declared(path):
    text = strip(open(path).read())
    names = set(re.findall(r'^\s*#\s*define\s+(\w+)', text, re.M))
    names -= set(re.findall(r'^\s*#\s*ifndef\s+(\w+)', text, re.M)[:1])   # the include guard
    code = re.sub(r'^\s*#[^\n]*', ' ', text, flags=re.M)
    for kind, tag, body in re.findall(r'\b(struct|union|enum)\s+(\w*)\s*\{([^{}]*)', code):
        if tag:
            names.add(tag)
        if kind == 'enum':
            names.update(m for m in re.findall(r'(?:^|,)\s*(\w+)', body))
    names.update(re.findall(r'\btypedef\b[^;]*?\b(\w+)\s*(?:\[[^;]*)?;', code))
    # file-level statements: depth 0 text, cut at ';' and at each '{'
    depth, stmt = 0, ''
    for ch in code:
        if ch == '{':
            if depth == 0:
                names.update(decl_names(stmt, body=True))
                stmt = ''
            depth += 1
        elif ch == '}':
            depth -= 1
        elif depth == 0:
            if ch == ';':
                names.update(decl_names(stmt))
                stmt = ''
            else:
                stmt += ch
    return {n for n in names if n not in KEYWORDS}


def decl_names(stmt, body=False):
    # attributes first: __attribute__((always_inline)) is no function name
    s = re.sub(r'__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)', ' ', stmt).strip()
    if not s or re.match(r'(struct|union|enum)\s+\w+\s*$', s) or s.startswith('typedef'):
        return []
    if '(' in s:                                  # a function: the name before its parameters
        m = re.search(r'(\w+)\s*\(', s)
        head = s[:m.start(1)] if m else ''
        if m and (re.search(r'\w', head) or not body):
            return [m.group(1)]
        return []
    if body:
        return []
    out = []
    for part in re.split(r',(?![^\[]*\])', re.sub(r'=.*', '', s)):
        ids = IDENT.findall(re.sub(r'\[[^\]]*\]', '', part))
        if ids:
            out.append(ids[-1])
    return out


def used(path):
    text = strip(open(path).read())
    text = re.sub(r'^\s*#\s*include[^\n]*', ' ', text, flags=re.M)
    return set(IDENT.findall(text))


def includes(path):
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(), re.M)


def sources():
    for d, subdirs, files in os.walk(SRC):
        subdirs.sort()
        if re.search(r'src/arch/[^/]+/musl', d):
            continue
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.join(d, f)


def main(files):
    headers = {}                                  # base name -> the files of that name
    for p in sources():
        if p.endswith('.h'):
            headers.setdefault(os.path.basename(p), []).append(p)
    decl = {}
    for name, paths in headers.items():
        decl[name] = set().union(*(declared(p) for p in paths))
    seam = set()
    for s in SEAMS:
        seam |= decl.get(s, set())
    essay = open(os.path.join(SRC, 'core/base/musl-seam.h')).read()
    essay = essay[essay.index('What the core may use'):essay.index('*/')]
    seam |= set(re.findall(r'^ \*   (\w+)', essay, re.M))
    seam |= set(re.findall(r'^ \*   \w+.*?, (\w+)', essay, re.M))
    decl['seam.h'] = decl.get('seam.h', set()) | seam
    bad = 0
    umbrella = os.path.join(SRC, 'core/green.h')
    for p in files or sources():
        if p == umbrella:
            continue
        uses = used(p)
        for inc in includes(p):
            name = os.path.basename(inc)
            if name == 'green.h':
                print(f'{p}: includes green.h, the umbrella: include the parts it uses')
                bad += 1
            elif os.path.basename(p) == 'seam.h' and name in SEAMS:
                pass                              # what it declares is the seam's
            elif name in decl and not (decl[name] & uses):
                print(f'{p}: includes {inc} but uses nothing it declares')
                bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
