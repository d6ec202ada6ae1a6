#!/usr/bin/env python3
"""Checks an SVG the way a host would see it: parse it as XML, render it to PNG with a real
renderer (rsvg-convert, Debian librsvg2-bin), and report where the chart's line colours landed.

    python3 Tests/tools/svg_check.py FILE.svg

prints one JSON object:

    {"root": "svg", "width": 640, "height": 320, "texts": ["$103,500.75", ...],
     "colours": {"#16c784": {"count": n, "columns": [[x, y_min, y_max], ...]},
                 "#ea3943": {...}}}

``texts`` are the text contents of every <text> element, as the XML parser read them (entities
decoded). A pixel counts for a colour when each RGB channel is within 40 of it and it is at least
half opaque. Exit status 1 with a message on stderr when the SVG is not well-formed XML or the
renderer fails. Python standard library plus rsvg-convert; the Swift, C and Python suites all
use it, so the three check the same thing.
"""

import json
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
import zlib
from pathlib import Path

LINE_COLOURS = ("#16c784", "#ea3943")
TOLERANCE = 40
SVG_NS = "{http://www.w3.org/2000/svg}"


def decode_png(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB/RGBA non-interlaced PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}")
    channels = 4 if colour_type == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(bytes(line) if channels == 4 else
                    b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3)))
        previous = line
    return width, height, rows


def check(svg_path):
    text = Path(svg_path).read_bytes()
    root = ElementTree.fromstring(text)  # raises on malformed XML
    texts = ["".join(element.itertext()) for element in root.iter(SVG_NS + "text")]
    with tempfile.TemporaryDirectory() as folder:
        png = Path(folder) / "chart.png"
        subprocess.run(["rsvg-convert", "-f", "png", "-o", str(png), str(svg_path)], check=True,
                       capture_output=True)
        width, height, rows = decode_png(png.read_bytes())
    colours = {}
    for colour in LINE_COLOURS:
        target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        columns, count = {}, 0
        for y, row in enumerate(rows):
            for x in range(width):
                r, g, b, a = row[4 * x:4 * x + 4]
                if a >= 128 and abs(r - target[0]) <= TOLERANCE and abs(g - target[1]) <= TOLERANCE \
                        and abs(b - target[2]) <= TOLERANCE:
                    count += 1
                    low, high = columns.get(x, (y, y))
                    columns[x] = (min(low, y), max(high, y))
        colours[colour] = {"count": count,
                           "columns": [[x, low, high] for x, (low, high) in sorted(columns.items())]}
    return {"root": root.tag.replace(SVG_NS, ""), "width": width, "height": height,
            "texts": texts, "colours": colours}


def main():
    if len(sys.argv) != 2:
        print("usage: svg_check.py FILE.svg", file=sys.stderr)
        return 2
    try:
        report = check(sys.argv[1])
    except ElementTree.ParseError as error:
        print(f"svg_check: not well-formed XML: {error}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as error:
        print(f"svg_check: rsvg-convert failed: {error.stderr.decode(errors='replace')}", file=sys.stderr)
        return 1
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
