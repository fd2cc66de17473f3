#!/usr/bin/env python3
# make_maps.py: how the shipped maps were drawn. Carves rooms and corridors
# out of solid wall on a character grid, places markers, checks that the
# floor is connected and writes NAME.map files in the format of
# docs/world.md. The .map files are the source of truth and may be edited
# by hand; this script only regenerates them: python3 make_maps.py DIR

import sys
class Canvas:
    def __init__(s, w, h):
        s.w, s.h = w, h
        s.g = [['#'] * w for _ in range(h)]
    def room(s, c0, r0, c1, r1, ch='.'):
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                s.g[r][c] = ch
    def wall(s, c0, r0, c1, r1):
        s.room(c0, r0, c1, r1, '#')
    def put(s, c, r, ch):
        assert s.g[r][c] != '#', (c, r, ch)
        s.g[r][c] = ch
    def text(s):
        return '\n'.join(''.join(row).rstrip() for row in s.g)
    def check(s):
        # connectivity of floor (4-neighbour)
        fl = [(c, r) for r in range(s.h) for c in range(s.w) if s.g[r][c] != '#']
        seen = {fl[0]}; st = [fl[0]]
        while st:
            c, r = st.pop()
            for dc, dr in ((1,0),(-1,0),(0,1),(0,-1)):
                n = (c+dc, r+dr)
                if 0 <= n[0] < s.w and 0 <= n[1] < s.h and s.g[n[1]][n[0]] != '#' and n not in seen:
                    seen.add(n); st.append(n)
        assert len(seen) == len(fl), ('disconnected', len(seen), len(fl), sorted(set(fl) - seen)[:5])

def dust():
    k = Canvas(72, 58)
    # T spawn (bottom left) and CT spawn (top right)
    k.room(3, 44, 14, 54)
    k.room(55, 3, 67, 12)
    # B site (top left) with boxes
    k.room(4, 3, 22, 15)
    k.wall(9, 7, 10, 8); k.wall(15, 10, 16, 11); k.wall(19, 5, 19, 6)
    # banana: T spawn up to B, with a kink (corner) and a narrow door
    k.room(7, 30, 10, 43)
    k.room(7, 27, 14, 30)        # kink right
    k.room(12, 18, 15, 27)
    k.room(12, 16, 13, 17, '+')  # door into B (2 wide)
    # mid: out of T spawn right, then north
    k.room(15, 46, 31, 49)
    k.room(28, 20, 32, 45)
    k.wall(30, 33, 30, 35)        # a pillar in mid
    # arch: mid top to A
    k.room(33, 21, 50, 24)
    k.room(50, 21, 51, 22, '+')   # arch door into A (2 wide)
    # connector: mid top north to the CT/B corridor
    k.room(29, 9, 32, 19)
    k.room(23, 8, 54, 11)         # B <-> CT corridor
    k.room(23, 12, 24, 12)
    # apartments: out of T spawn bottom right, east then north, balcony into A
    k.room(15, 52, 44, 55)
    k.room(41, 36, 44, 51)
    k.wall(41, 44, 42, 45)        # a corner inside apps
    k.room(45, 36, 48, 38)
    k.room(49, 36, 50, 37, '+')   # balcony door
    # A site (right middle) with boxes
    k.room(51, 19, 66, 40)
    k.wall(56, 26, 57, 27); k.wall(61, 31, 62, 33); k.wall(54, 35, 55, 35)
    # CT spawn down to A
    k.room(59, 13, 63, 18)
    # markers: spawns
    for c in range(5, 13, 2):
        for r in (46, 49, 52):
            k.put(c, r, 't')
    for c in range(57, 66, 2):
        for r in (5, 8):
            k.put(c, r, 'c')
    # bomb sites: plant zones
    for c in range(11, 16):
        for r in range(5, 9):
            if k.g[r][c] == '.':
                k.put(c, r, 'B')
    for c in range(57, 62):
        for r in range(28, 32):
            if k.g[r][c] == '.':
                k.put(c, r, 'A')
    # waypoints
    wp = {'1': (8, 41), '2': (8, 31), '3': (13, 24), '4': (13, 18),
          '5': (22, 47), '6': (30, 40), '7': (30, 27), '8': (38, 22), '9': (49, 22),
          'd': (30, 13), 'e': (27, 10), 'f': (20, 53), 'g': (42, 53), 'h': (43, 40),
          'i': (47, 37), 'j': (61, 16), 'k': (50, 10), 'm': (40, 10)}
    for ch, (c, r) in wp.items():
        k.put(c, r, ch)
    k.check()
    hdr = """# dust: a bomb-defusal map in the manner of CS:GO de_inferno (our own
# layout, not Valve's). Attackers (T) spawn bottom left, defenders (CT)
# top right. Three lanes: banana (west, to B, with a kink and a door),
# mid (centre, to A through the arch or to B through the connector) and
# apartments (south and east, to A through the balcony door).
reckon-map 1
name dust
mode defuse
cell 64
team 1 T
team 2 CT
spawn 1 t
spawn 2 c
objective A A
objective B B
waypoint banana_low 1
waypoint banana_mid 2
waypoint banana_kink 3
waypoint banana_door 4
waypoint mid_low 5
waypoint mid_pillar 6
waypoint mid_top 7
waypoint arch 8
waypoint arch_door 9
waypoint connector d
waypoint con_west e
waypoint apps_low f
waypoint apps_turn g
waypoint apps_up h
waypoint balcony i
waypoint ct_a j
waypoint ct_mid k
waypoint ct_b m
route T.B.banana banana_low banana_mid banana_kink banana_door
route T.A.mid mid_low mid_pillar mid_top arch arch_door
route T.B.mid mid_low mid_pillar mid_top connector con_west
route T.A.apps apps_low apps_turn apps_up balcony
route CT.A.short ct_a
route CT.B.long ct_mid ct_b
route CT.A.arch ct_mid connector mid_top arch
grid
"""
    return hdr + k.text() + "\nend\n"

def arena():
    # Quake III style: two main rooms joined by two crossing corridors
    # and a south corridor; about 1440 x 2688 units (q3dm1 is ~1400x2700)
    k = Canvas(30, 56)
    k.room(2, 2, 27, 17)     # north hall
    k.wall(12, 8, 17, 11)    # central pillar block
    k.room(2, 34, 27, 47)    # south hall
    k.wall(8, 39, 9, 42); k.wall(20, 39, 21, 42)
    k.room(5, 18, 7, 33)     # west corridor
    k.room(22, 18, 24, 33)   # east corridor
    k.room(8, 24, 21, 26)    # crossing corridor
    k.room(13, 18, 15, 33)   # centre corridor (crosses the crossing one)
    k.room(2, 48, 4, 53)     # south corridor
    k.room(2, 51, 27, 53)
    k.room(25, 48, 27, 53)
    for c, r in ((4, 4), (25, 4), (4, 15), (25, 15), (4, 36), (25, 36), (10, 45), (19, 45), (14, 52)):
        k.put(c, r, 's')
    k.put(6, 25, 'h'); k.put(23, 25, 'h'); k.put(14, 44, 'h'); k.put(14, 5, 'h')
    k.put(14, 25, 'M')               # mega health at the crossing
    k.put(3, 10, 'a'); k.put(26, 40, 'a')   # combat armor
    k.put(8, 52, 'r'); k.put(21, 52, 'r')   # shards (small armor)
    k.put(20, 4, 'w'); k.put(9, 37, 'w')    # weapons
    k.put(14, 30, 'x'); k.put(5, 14, 'x'); k.put(24, 21, 'x')  # ammo
    wps = {'1': (9, 5), '2': (20, 14), '3': (6, 28), '4': (23, 20), '5': (14, 20), '6': (6, 40), '7': (23, 45), '8': (14, 52)}
    for ch, (c, r) in wps.items():
        k.put(c, r, ch)
    k.check()
    hdr = """# arena: a Quake III style deathmatch level in the spirit of q3dm1 (our
# own layout): a north and a south hall joined by west, centre and east
# corridors that cross an east-west corridor, plus a south corridor.
# Health, mega health, armor, armor shards, weapons and ammo respawn.
reckon-map 1
name arena
mode deathmatch
cell 48
spawn 0 s
item health 25 35 h
item health 100 35 M
item armor 50 25 a
item armor 5 25 r
item weapon 40 5 w
item ammo 50 40 x
waypoint nw 1
waypoint ne 2
waypoint west 3
waypoint east 4
waypoint centre 5
waypoint sw 6
waypoint se 7
waypoint south 8
grid
"""
    return hdr + k.text() + "\nend\n"

def field():
    k = Canvas(66, 42)
    k.room(1, 1, 64, 40)
    import random
    rnd = random.Random(7)
    blocks = []
    while len(blocks) < 34:
        w, h = rnd.choice([(1, 3), (3, 1), (2, 2), (1, 2), (2, 1), (4, 1), (1, 4)])
        c, r = rnd.randint(9, 56 - w), rnd.randint(3, 38 - h)
        if any(abs(c - c2) < w2 + 3 and abs(r - r2) < h2 + 3 for c2, r2, w2, h2 in blocks):
            continue
        blocks.append((c, r, w, h))
        k.wall(c, r, c + w - 1, r + h - 1)
    for r in range(8, 34, 5):
        k.put(3, r, 'l'); k.put(62, r, 'r')
    hills = {'x': (22, 12), 'y': (33, 21), 'z': (44, 30)}
    for ch, (c, r) in hills.items():
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if k.g[r+dr][c+dc] == '.':
                    k.put(c+dc, r+dr, ch)
    k.check()
    hdr = """# field: an open 2-D team battlefield (for EKB and the Interest Scheme):
# two teams spawn on opposite edges of an open field with scattered
# cover blocks and fight over three rally points in between.
reckon-map 1
name field
mode teams
cell 64
team 1 red
team 2 blue
spawn 1 l
spawn 2 r
objective north x
objective centre y
objective south z
grid
"""
    return hdr + k.text() + "\nend\n"

def loop():
    k = Canvas(40, 30)
    k.room(2, 2, 37, 27)
    k.wall(8, 8, 31, 21)          # central block the loop goes around
    k.room(14, 12, 25, 17)        # a hollow room inside it
    k.room(19, 8, 20, 11, '+')    # door into the room from the north
    k.wall(2, 14, 5, 15)          # walls that break sight lines
    k.wall(34, 14, 37, 15)
    k.wall(18, 2, 19, 5)
    k.wall(20, 24, 21, 27)
    k.wall(12, 22, 13, 24)
    k.wall(27, 5, 28, 7)
    wps = {'a': (4, 4), 'b': (15, 4), 'c': (24, 4), 'd': (35, 4), 'e': (35, 25), 'f': (24, 25), 'g': (16, 25), 'h': (4, 25)}
    for ch, (c, r) in wps.items():
        k.put(c, r, ch)
    k.put(19, 14, 'p'); k.put(20, 15, 'p'); k.put(17, 16, 'p')
    k.check()
    hdr = """# loop: for HSM/DHSM. A non-reactive bot (entity 0, team 1) runs a
# fixed waypoint loop around a central block; pursuers (team 2) start
# in the room inside the block and hunt it, shooting when they see it.
reckon-map 1
name loop
mode loop
cell 64
team 1 runner
team 2 pursuer
spawn 1 a
spawn 2 p
waypoint w1 a
waypoint w2 b
waypoint w3 c
waypoint w4 d
waypoint w5 e
waypoint w6 f
waypoint w7 g
waypoint w8 h
route loop loop w1 w2 w3 w4 w5 w6 w7 w8
grid
"""
    return hdr + k.text() + "\nend\n"


def loop2():
    # two rooms joined by two corridors: the loop is a figure of eight
    k = Canvas(46, 26)
    k.room(2, 2, 17, 23)          # west room
    k.room(28, 2, 43, 23)         # east room
    k.room(18, 5, 27, 7)          # north corridor
    k.room(18, 18, 27, 20)        # south corridor
    k.wall(8, 9, 11, 16)          # pillar blocks in the rooms
    k.wall(34, 9, 37, 16)
    k.wall(22, 10, 23, 15)        # a block between the corridors (solid)
    wps = {'a': (5, 5), 'b': (14, 6), 'c': (31, 19), 'd': (40, 20), 'e': (40, 5), 'f': (31, 6), 'g': (14, 19), 'h': (5, 20)}
    for ch, (c, r) in wps.items():
        k.put(c, r, ch)
    k.put(5, 12, 'p'); k.put(40, 12, 'p')
    k.check()
    hdr = """# loop2: a second DHSM environment. Two rooms with a pillar each,
# joined by a north and a south corridor; the non-reactive bot runs a
# figure of eight through both corridors. Pursuers start beside the
# pillars.
reckon-map 1
name loop2
mode loop
cell 64
team 1 runner
team 2 pursuer
spawn 1 a
spawn 2 p
waypoint w1 a
waypoint w2 b
waypoint w3 c
waypoint w4 d
waypoint w5 e
waypoint w6 f
waypoint w7 g
waypoint w8 h
route loop loop w1 w2 w3 w4 w5 w6 w7 w8
grid
"""
    return hdr + k.text() + "\nend\n"

def loop3():
    # an open hall with a grid of pillars: sight lines open and close
    k = Canvas(36, 30)
    k.room(2, 2, 33, 27)
    for c in range(7, 30, 6):
        for r in range(7, 25, 6):
            k.wall(c, r, c + 1, r + 1)
    wps = {'a': (4, 4), 'b': (31, 4), 'c': (31, 16), 'd': (16, 16), 'e': (16, 25), 'f': (4, 25)}
    for ch, (c, r) in wps.items():
        k.put(c, r, ch)
    k.put(22, 10, 'p'); k.put(10, 20, 'p')
    k.check()
    hdr = """# loop3: a third DHSM environment. An open hall with a grid of
# pillars; the non-reactive bot runs a six-waypoint circuit that cuts
# through the middle, so pursuers see it often but briefly.
reckon-map 1
name loop3
mode loop
cell 64
team 1 runner
team 2 pursuer
spawn 1 a
spawn 2 p
waypoint w1 a
waypoint w2 b
waypoint w3 c
waypoint w4 d
waypoint w5 e
waypoint w6 f
route loop loop w1 w2 w3 w4 w5 w6
grid
"""
    return hdr + k.text() + "\nend\n"

out = sys.argv[1]
for name, fn in (('dust', dust), ('arena', arena), ('field', field), ('loop', loop), ('loop2', loop2), ('loop3', loop3)):
    open(f'{out}/{name}.map', 'w').write(fn())
    print(name, 'ok')
