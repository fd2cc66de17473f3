#!/usr/bin/env python3
"""png_pixels.py: decode 8-bit, non-interlaced RGB/RGBA PNG files (what
headless Chromium's --screenshot writes) with zlib only, and print for
each file the number of pixels that are not near-white; with two files,
also the number of pixels that differ between them.

usage: png_pixels.py A.png [B.png]
prints: nonwhite A  [nonwhite B  differing]
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, lace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or lace:
                sys.exit('%s: only 8-bit RGB/RGBA, not interlaced' % path)
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def pixels(img):
    w, h, bpp, rows = img
    for r in rows:
        for x in range(w):
            yield r[x * bpp:x * bpp + 3]


def nonwhite(img):
    return sum(1 for p in pixels(img) if min(p) < 245)


def main():
    imgs = [decode(p) for p in sys.argv[1:3]]
    out = [nonwhite(i) for i in imgs]
    if len(imgs) == 2:
        if imgs[0][:2] != imgs[1][:2]:
            sys.exit('images differ in size')
        out.append(sum(1 for p, q in zip(pixels(imgs[0]), pixels(imgs[1]))
                       if p != q))
    print(' '.join(str(v) for v in out))


if __name__ == '__main__':
    main()
