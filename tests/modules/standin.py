#!/usr/bin/env python3
"""Replace a module's images by solid-colour stand-ins of the same name, type and size.

    standin.py SRC_DIR DEST_DIR [--keep-all]

SRC_DIR is an unpacked module (buildFile or buildFile.xml, images/, saves).
For every file under SRC_DIR/images/ that the buildFile or one of the saves in
DEST_DIR refers to by name (every image with --keep-all), DEST_DIR/images/ gets a
stand-in: a PNG stays a PNG, a JPEG a JPEG, a GIF a GIF, an SVG an SVG, each with
the original's width and height and one grey colour, so that it compresses to
almost nothing. The art itself is never copied. Output is deterministic.

Sizes are read from the file headers (PNG IHDR, JPEG SOFn, GIF logical screen,
SVG root width/height/viewBox). A file that is none of these is reported and
skipped. Python 3 standard library only.
"""

import os
import re
import struct
import sys
import zipfile
import zlib

GREY = 0xC0


def image_kind(data):
    """The image type of a file's bytes: png, jpeg, gif, svg or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"<?xml") or head.startswith(b"<svg") or b"<svg" in head:
        return "svg"
    return None


def png_size(data):
    """Width and height from a PNG's IHDR chunk."""
    return struct.unpack(">II", data[16:24])


def jpeg_size(data):
    """Width and height from a JPEG's first SOFn marker."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 2 if marker != 0xFF else 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise ValueError("no SOF marker")


def gif_size(data):
    """Width and height from a GIF's logical screen descriptor."""
    return struct.unpack("<HH", data[6:10])


def svg_root(data):
    """The attributes of an SVG's root element, as a dict of raw strings."""
    text = data.decode("utf-8", "replace")
    m = re.search(r"<svg\b([^>]*)>", text, re.S)
    if not m:
        raise ValueError("no <svg> element")
    return dict(re.findall(r'([\w:-]+)\s*=\s*["\']([^"\']*)["\']', m.group(1)))


def png_standin(width, height):
    """A solid grey 8-bit greyscale PNG of the given size."""
    row = b"\x00" + bytes([GREY]) * width
    comp = zlib.compressobj(9)
    body = b"".join(comp.compress(row) for _ in range(height)) + comp.flush()

    def chunk(tag, payload):
        crc = zlib.crc32(tag + payload) & 0xFFFFFFFF
        return struct.pack(">I", len(payload)) + tag + payload + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body)
            + chunk(b"IEND", b""))


# Standard luminance Huffman tables (ITU T.81 K.3); mid-grey blocks need only
# DC category 0 ("00") and AC end-of-block ("1010").
DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_VALS = list(range(12))
AC_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
AC_VALS = bytes.fromhex(
    "01020300041105122131410613516107227114328191a1082342b1c11552d1f0"
    "2433627282090a161718191a25262728292a3435363738393a43444546474849"
    "4a535455565758595a636465666768696a737475767778797a83848586878889"
    "8a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5"
    "c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8"
    "f9fa")


def jpeg_standin(width, height):
    """A mid-grey baseline greyscale JPEG (JFIF) of the given size."""
    def seg(marker, payload):
        return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload

    out = bytearray(b"\xff\xd8")
    out += seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    out += seg(0xDB, b"\x00" + bytes([1] * 64))
    out += seg(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
    out += seg(0xC4, b"\x00" + bytes(DC_BITS) + bytes(DC_VALS))
    out += seg(0xC4, b"\x10" + bytes(AC_BITS) + AC_VALS)
    out += seg(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    blocks = ((width + 7) // 8) * ((height + 7) // 8)
    # 6 bits a block; 4 blocks make the 3 bytes 28 a2 8a (no 0xFF to stuff).
    whole, rest = divmod(blocks, 4)
    scan = bytearray(b"\x28\xa2\x8a" * whole)
    if rest:
        bits = "001010" * rest
        bits += "1" * (-len(bits) % 8)
        tail = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        scan += tail.replace(b"\xff", b"\xff\x00")
    out += scan + b"\xff\xd9"
    return bytes(out)


def lzw_gif(pixels_count, min_code=2):
    """LZW-compress `pixels_count` pixels of colour index 0 as GIF image data."""
    clear, eoi = 1 << min_code, (1 << min_code) + 1
    next_code = eoi + 1
    size = min_code + 1
    out_bits = 0
    nbits = 0
    data = bytearray()

    def emit(code, size):
        nonlocal out_bits, nbits
        out_bits |= code << nbits
        nbits += size
        while nbits >= 8:
            data.append(out_bits & 0xFF)
            out_bits >>= 8
            nbits -= 8

    emit(clear, size)
    run = 1  # length of the current run string of index 0
    remaining = pixels_count
    # Strings of zeros: table maps run length -> code.
    runs = {1: 0}
    remaining -= 1
    while remaining > 0:
        if run + 1 in runs:
            run += 1
            remaining -= 1
            continue
        emit(runs[run], size)
        if next_code < 4095:
            runs[run + 1] = next_code
            next_code += 1
            if next_code > (1 << size) and size < 12:
                size += 1
        else:
            emit(clear, size)
            runs = {1: 0}
            next_code = eoi + 1
            size = min_code + 1
        run = 1
        remaining -= 1
    emit(runs[run], size)
    emit(eoi, size)
    if nbits:
        data.append(out_bits & 0xFF)
    blocks = bytearray()
    for i in range(0, len(data), 255):
        part = data[i:i + 255]
        blocks += bytes([len(part)]) + part
    return bytes([min_code]) + bytes(blocks) + b"\x00"


def gif_standin(width, height):
    """A solid grey GIF89a of the given size."""
    palette = bytes([GREY, GREY, GREY]) + bytes(9)
    head = b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF1, 0, 0) + palette
    desc = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0)
    return head + desc + lzw_gif(width * height) + b";"


def svg_standin(attrs):
    """A solid grey SVG keeping the root's width, height and viewBox."""
    keep = []
    for name in ("width", "height", "viewBox"):
        if name in attrs:
            keep.append('%s="%s"' % (name, attrs[name]))
    return ('<svg xmlns="http://www.w3.org/2000/svg" %s>'
            '<rect x="-100000" y="-100000" width="200000" height="200000" '
            'fill="#c0c0c0"/></svg>\n' % " ".join(keep)).encode()


def standin(data):
    """(kind, size description, stand-in bytes) for an image's bytes."""
    kind = image_kind(data)
    if kind == "png":
        w, h = png_size(data)
        return kind, "%dx%d" % (w, h), png_standin(w, h)
    if kind == "jpeg":
        w, h = jpeg_size(data)
        return kind, "%dx%d" % (w, h), jpeg_standin(w, h)
    if kind == "gif":
        w, h = gif_size(data)
        return kind, "%dx%d" % (w, h), gif_standin(w, h)
    if kind == "svg":
        attrs = svg_root(data)
        size = "%sx%s" % (attrs.get("width", "?"), attrs.get("height", "?"))
        return kind, size, svg_standin(attrs)
    return None, None, None


def decode_save_text(path):
    """The decoded savedGame text of a .vsav (obfuscated '!VCSK' hex or plain)."""
    try:
        with zipfile.ZipFile(path) as z:
            raw = z.read("savedGame")
    except (zipfile.BadZipFile, KeyError, OSError):
        return ""
    if raw.startswith(b"!VCSK"):
        body = raw[5:].decode("ascii", "replace").strip()
        key = int(body[:2], 16)
        return bytes(int(body[i:i + 2], 16) ^ key
                     for i in range(2, len(body) - 1, 2)).decode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def referenced_text(src, dest):
    """buildFile text plus the decoded text of the saves in DEST (to find image names)."""
    parts = []
    for name in ("buildFile.xml", "buildFile"):
        p = os.path.join(src, name)
        if os.path.exists(p):
            with open(p, encoding="utf-8", errors="replace") as f:
                parts.append(f.read())
    for name in sorted(os.listdir(dest)):
        if name.lower().endswith(".vsav"):
            parts.append(decode_save_text(os.path.join(dest, name)))
    return "\n".join(parts)


def main(argv):
    """Write the stand-ins; print one line per image."""
    args = [a for a in argv[1:] if not a.startswith("--")]
    keep_all = "--keep-all" in argv
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    src, dest = args
    text = referenced_text(src, dest)
    img_src = os.path.join(src, "images")
    count = 0
    for root, _dirs, files in sorted(os.walk(img_src)):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(root, name), img_src)
            if not keep_all and name not in text:
                continue
            with open(os.path.join(root, name), "rb") as f:
                data = f.read()
            try:
                kind, size, out = standin(data)
            except (ValueError, struct.error) as e:
                print("skip %s: unreadable header (%s)" % (rel, e))
                continue
            if kind is None:
                print("skip %s: not an image VASSAL reads" % rel)
                continue
            target = os.path.join(dest, "images", rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(out)
            count += 1
            print("%s %s %s %d -> %d bytes" % (rel, kind, size, len(data), len(out)))
    print("%d stand-ins written" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
