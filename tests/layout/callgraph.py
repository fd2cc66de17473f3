#!/usr/bin/env python3
"""
callgraph.py: the call graph between the project's C files, read from the
object files with nm (a file calls another when it leaves undefined a
global symbol the other defines), and its cycles. Usage:
  callgraph.py [--edges] OBJ...
prints every cycle (strongly connected component of more than one file)
as "cycle: a.c b.c ..." and exits 1 when there is one, else 0; --edges
also prints each edge "a.c -> b.c: sym ...".
"""
import os
import subprocess
import sys


def src_name(obj):
    """foo/CMakeFiles/t.dir/bar/x.c.o -> bar/x.c (path below the target dir)."""
    path = obj[:-2] if obj.endswith(".o") else obj
    if ".dir/" in path:
        path = path.split(".dir/", 1)[1]
    return path.replace("__/", "")


def symbols(obj):
    out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVWG":
            defined.add(parts[2])
    return defined, undefined


def sccs(nodes, edges):
    """Tarjan's strongly connected components, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main(argv):
    show = "--edges" in argv
    objs = sorted(set(a for a in argv if a.endswith(".o")))
    owner, needs = {}, {}
    for o in objs:
        name = src_name(o)
        d, u = symbols(o)
        needs[name] = u
        for s in d:
            owner.setdefault(s, name)
    edges = {}
    for name, u in needs.items():
        for s in u:
            t = owner.get(s)
            if t and t != name:
                edges.setdefault(name, {}).setdefault(t, []).append(s)
    if show:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}: {' '.join(sorted(edges[a][b]))}")
    bad = sccs(sorted(needs), edges)
    for comp in bad:
        print("cycle: " + " ".join(comp))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
