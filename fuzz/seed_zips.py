"""Hostile zips for the saved_game fuzz target, written by hand: two savedGame entries,
many entries, records sharing bytes, a size that lies, a CRC that does not match.
    python3 seed_zips.py CORPUS   (CORPUS holds a savedGame seed)"""
import struct
import sys
import zlib

out = sys.argv[1]
game = open(out + "/savedGame", "rb").read()[:20000]


def deflate(b):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(b) + c.flush()


def zip_of(entries, directory):
    """entries: (name, method, data, size, crc); directory: (name, index of its entry)."""
    body, offsets = b"", []
    for name, method, data, size, crc in entries:
        offsets.append(len(body))
        n = name.encode()
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc,
                            len(data), size, len(n), 0) + n + data
    cd = b""
    for name, i in directory:
        _, method, data, size, crc = entries[i]
        n = name.encode()
        cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc,
                          len(data), size, len(n), 0, 0, 0, 0, 0, offsets[i]) + n
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(directory), len(directory),
                      len(cd), len(body), 0)
    return body + cd + end


def stored(name, b, crc=None):
    return (name, 0, b, len(b), zlib.crc32(b) if crc is None else crc)


def deflated(name, b, size=None):
    return (name, 8, deflate(b), len(b) if size is None else size, zlib.crc32(b))


def plain(entries):
    return zip_of(entries, [(e[0], i) for i, e in enumerate(entries)])


seeds = {
    "zip-two-saved-games": plain([stored("savedGame", b"!VCSK5a"), stored("savedGame", game)]),
    "zip-many-entries": plain([stored("images/%d.png" % i, b"\x89PNG") for i in range(300)]
                              + [deflated("savedGame", game)]),
    "zip-shared-bytes": zip_of([deflated("savedGame", b"\0" * (1 << 20))],
                               [("s%d" % i, 0) for i in range(40)]),
    "zip-lying-size": plain([deflated("savedGame", game, size=100)]),
    "zip-bad-crc": plain([stored("savedGame", game, crc=zlib.crc32(game) ^ 1)]),
}
for name, data in seeds.items():
    with open(out + "/" + name, "wb") as f:
        f.write(data)
