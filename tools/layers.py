#!/usr/bin/env python3
"""layers.py — the core's floors (src/core/layers.txt) hold.

Every .c, .h and .S of src/core/<folder>/ and src/sysio/ may include the
headers of its own folder and of the floors below it.  An include of a
higher floor must be listed in layers.txt ("up FILE HEADER REASON");
a listed one that the file no longer makes fails too, as does a folder
of src/core/ with no floor, and a header of the core included without
its folder's name ("gthread.h" where "base/gthread.h" is meant).
Headers outside these floors (the CPU contract, the seam headers, musl's
and the system's) are not floors and may be included from anywhere.
Run from the top of the tree, or name the layers file and the tree:
    tools/layers.py [LAYERS.txt [SRC]]
Prints one line per finding; exits 1 if there is any.
"""
import os, re, sys


def load(path):
    floors, ups = [], {}
    for n, line in enumerate(open(path), 1):
        line = line.split('#', 1)[0].rstrip()
        if not line.strip():
            continue
        w = line.split(None, 3)
        if w[0] == 'floor' and len(w) >= 2:
            floors.append(w[1])
        elif w[0] == 'up' and len(w) == 4:
            ups[(w[1], w[2])] = n
        else:
            print(f'{path}:{n}: neither a floor nor an "up FILE HEADER REASON" line')
            ups = None
            break
    return floors, ups


def main(args):
    layers = args[0] if args else 'src/core/layers.txt'
    src = args[1] if len(args) > 1 else 'src'
    floors, ups = load(layers)
    if ups is None:
        return 1
    bad = 0
    rank = {f: i for i, f in enumerate(floors)}
    core = os.path.join(src, 'core')
    for d in sorted(os.listdir(core)):
        if os.path.isdir(os.path.join(core, d)) and 'core/' + d not in rank:
            print(f'{core}/{d}: a folder with no floor in {layers}')
            bad += 1
    # which floor declares each header: by folder path for the core,
    # by bare name for the I/O layer
    core_headers = {}
    for f in floors:
        d = os.path.join(src, f)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.endswith('.h'):
                core_headers.setdefault(name, []).append(f)
    seen = set()
    for f in floors:
        d = os.path.join(src, f)
        if not os.path.isdir(d):
            print(f'{layers}: floor {f} has no folder {d}')
            bad += 1
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(('.c', '.h', '.S')):
                continue
            path = os.path.join(d, name)
            rel = f + '/' + name
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(), re.M):
                parts = inc.split('/')
                if len(parts) == 2 and 'core/' + parts[0] in rank:
                    to = 'core/' + parts[0]
                    if not os.path.exists(os.path.join(src, to, parts[1])):
                        continue              # not ours (a musl header of that path)
                elif len(parts) == 1 and inc in core_headers:
                    owners = core_headers[inc]
                    if owners == ['sysio']:
                        to = 'sysio'
                    elif f in owners and f == 'sysio':
                        to = f
                    else:
                        print(f'{path}: includes "{inc}": name its folder ("{owners[0][5:]}/{inc}")')
                        bad += 1
                        continue
                else:
                    continue
                if rank[to] > rank[f]:
                    seen.add((rel, inc))
                    if (rel, inc) not in ups:
                        print(f'{path}: includes {inc}, a floor above ({to} over {f}): '
                              f'not in {layers}')
                        bad += 1
    for (rel, inc), n in sorted(ups.items(), key=lambda x: x[1]):
        if (rel, inc) not in seen:
            print(f'{layers}:{n}: {rel} no longer includes {inc} from a floor above: drop the line')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
