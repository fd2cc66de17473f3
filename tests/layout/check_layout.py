#!/usr/bin/env python3
"""
check_layout.py: the layering rules of the source tree, checked on the
files and on the object files that the build made from them.

  check_layout.py SRC_DIR BUILD_DIR    check the project
  check_layout.py --includes DIR       include cycles among DIR's files
  check_layout.py --calls OBJ...       call cycles among the objects

Rules (docs/design.md):
  1. no include cycle between files (a header that includes, directly or
     through others, a header that includes it);
  2. a pure layer (netem/, agents/world, agents/predict, agents/lagcomp,
     agents/proto, agents/role) and util/ include no daemon header and
     none of libevent, libnl, libpcap or iniparser;
  3. no call cycle between .c files: file A calls file B when A's object
     leaves undefined a global symbol B's object defines (nm); a strongly
     connected component of more than one file is a ring;
  4. calls between folders point one way: the same on the graph whose
     nodes are the folders (daemon/ itself is reckond proper);
  5. the simulator (daemon/netsim) calls nothing of libevent, libnl or
     libpcap, and reckonctl needs neither libnl nor libpcap.
Each violation is printed on a line of its own; the exit status is 1 when
there is one, else 0.
"""
import json
import os
import re
import shlex
import subprocess
import sys

AREAS = ("daemon", "netem", "agents", "util")
PURE = ("netem", "agents/world", "agents/predict", "agents/lagcomp",
        "agents/proto", "agents/role", "util")
FOREIGN = re.compile(r"^(event2?/|event\.h|netlink/|pcap|iniparser\.h|"
                     r"dictionary\.h)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def sccs(nodes, edges):
    """Strongly connected components of more than one node (Tarjan,
    iterative), each sorted, in a stable order."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in sorted(nodes):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(sorted(edges.get(root, ()))))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
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
    return sorted(out)


# ---- includes ----------------------------------------------------------

def source_files(root, areas):
    out = []
    for area in areas:
        for d, _, files in os.walk(os.path.join(root, area)):
            out += [os.path.relpath(os.path.join(d, f), root)
                    for f in files if f.endswith((".c", ".h"))]
    return sorted(out)


def resolve(name, frm, files, by_base):
    """The project file a quoted #include names: beside the includer,
    relative to its folder's parent (agents/ style "role/x.h"), else the
    only file of that base name."""
    d = os.path.dirname(frm)
    for cand in (os.path.join(d, name), os.path.join(os.path.dirname(d), name)):
        cand = os.path.normpath(cand)
        if cand in files:
            return cand
    hits = by_base.get(os.path.basename(name), [])
    if len(hits) == 1:
        return hits[0]
    near = [h for h in hits if h.split("/")[0] == frm.split("/")[0]]
    return near[0] if len(near) == 1 else None


def include_graph(root, areas):
    files = set(source_files(root, areas))
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), []).append(f)
    edges, foreign = {}, []
    for f in sorted(files):
        text = open(os.path.join(root, f), errors="replace").read()
        for kind, name in INCLUDE.findall(text):
            if kind == "<":
                foreign.append((f, name))
                continue
            t = resolve(name, f, files, by_base)
            if t is not None and t != f:
                edges.setdefault(f, set()).add(t)
            elif t is None:
                foreign.append((f, name))
    return files, edges, foreign


def check_includes(root, areas):
    bad = []
    files, edges, foreign = include_graph(root, areas)
    for comp in sccs(files, edges):
        bad.append("include cycle: " + " ".join(comp))
    for f in sorted(files):
        if not f.startswith(tuple(p + "/" for p in PURE)):
            continue
        for t in sorted(edges.get(f, ())):
            if t.startswith("daemon/"):
                bad.append(f"pure layer includes a daemon header: {f} -> {t}")
        for g, name in foreign:
            if g == f and FOREIGN.match(name):
                bad.append(f"pure layer includes <{name}>: {f}")
    return bad


# ---- calls -------------------------------------------------------------

def symbols(obj):
    out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVWGS":
            defined.add(parts[2])
    return defined, undefined


def call_graph(objs):
    """objs: {source name: object path}. Returns (edges, undefined)."""
    owner, needs = {}, {}
    for name, obj in sorted(objs.items()):
        d, u = symbols(obj)
        needs[name] = u
        for s in d:
            owner.setdefault(s, name)
    edges = {}
    for name, u in needs.items():
        for s in u:
            t = owner.get(s)
            if t and t != name:
                edges.setdefault(name, set()).add(t)
    return edges, needs


def check_calls(objs):
    edges, needs = call_graph(objs)
    return ["call cycle: " + " ".join(c) for c in sccs(objs, edges)], \
        edges, needs


def folder(f):
    d = os.path.dirname(f)
    return d if d else "."


def compdb_objects(root, build):
    """Source (relative to root) -> object, for every file of AREAS that
    the build compiles into one of its libraries or programs."""
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    objs = {}
    for e in db:
        src = os.path.relpath(e["file"], root)
        if not src.startswith(tuple(a + "/" for a in AREAS)):
            continue
        args = shlex.split(e["command"])
        obj = args[args.index("-o") + 1]
        obj = os.path.join(e["directory"], obj)
        if os.path.exists(obj) and src not in objs:
            objs[src] = obj
    return objs


def needed_libs(exe):
    out = subprocess.run(["readelf", "-d", exe], capture_output=True,
                         text=True, check=True).stdout
    return re.findall(r"\(NEEDED\).*\[(.*)\]", out)


def check_project(root, build):
    bad = check_includes(root, AREAS)
    objs = compdb_objects(root, build)
    if not objs:
        return bad + ["no object files: build the project first"]
    cyc, edges, needs = check_calls(objs)
    bad += cyc
    fedges = {}
    for a, ts in edges.items():
        for b in ts:
            if folder(a) != folder(b):
                fedges.setdefault(folder(a), set()).add(folder(b))
    folders = set(folder(f) for f in objs)
    for comp in sccs(folders, fedges):
        why = [f"{a} -> {b}" for a in sorted(edges) for b in sorted(edges[a])
               if folder(a) in comp and folder(b) in comp
               and folder(a) != folder(b)]
        bad.append("folder cycle: " + " ".join(comp) + " (" +
                   ", ".join(why) + ")")
    for f, u in sorted(needs.items()):
        if f.startswith("daemon/netsim/"):
            for s in sorted(u):
                if re.match(r"(event_|evutil_|nl_|rtnl_|pcap_)", s):
                    bad.append(f"simulator calls {s}: {f}")
    ctl = os.path.join(build, "daemon", "reckonctl")
    if os.path.exists(ctl):
        for lib in needed_libs(ctl):
            if re.match(r"lib(nl|pcap)", lib):
                bad.append(f"reckonctl needs {lib}")
    else:
        bad.append("daemon/reckonctl not built")
    return bad


def main(argv):
    if len(argv) >= 2 and argv[0] == "--includes":
        bad = check_includes(argv[1], [""])
    elif argv and argv[0] == "--calls":
        bad = check_calls({os.path.basename(o)[:-2]: o for o in argv[1:]})[0]
    elif len(argv) == 2:
        bad = check_project(os.path.abspath(argv[0]), os.path.abspath(argv[1]))
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
