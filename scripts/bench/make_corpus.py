"""Builds the AD benchmark corpus: every advertising payload of the fixture captures plus 200,000 synthetic ones.

Usage: make_corpus.py CAPTURE_PAYLOADS OUT [--synthetic N]
CAPTURE_PAYLOADS is what `Benchmarks --write-ad-corpus` wrote. The synthetic payloads are deterministic (seed 1) and
unique (a counter in the manufacturer data), shaped like what a gateway hears: Flags, names, 16- and 128-bit UUID
lists, service data, manufacturer data, TX power; 90% fit a legacy PDU (31 bytes), 10% are extended (up to 254).
File format (both files): b"ADC1", u32 count, then per payload u16 length and the bytes, little-endian.
"""

import random
import struct
import sys

COMPANIES = [0x004C, 0x0006, 0x0075, 0x00E0, 0x0059, 0x0499, 0x0157, 0x02E5, 0xFFFF]
UUID16 = [0x180F, 0x180A, 0x180D, 0x1816, 0x181A, 0xFE9F, 0xFD6F, 0xFEAA, 0x1812, 0x181C]


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"ADC1":
        raise SystemExit(f"{path}: not an ADC1 corpus")
    (count,) = struct.unpack_from("<I", data, 4)
    offset, out = 8, []
    for _ in range(count):
        (length,) = struct.unpack_from("<H", data, offset)
        out.append(data[offset + 2: offset + 2 + length])
        offset += 2 + length
    return out


def write(path, payloads):
    with open(path, "wb") as f:
        f.write(b"ADC1" + struct.pack("<I", len(payloads)))
        for p in payloads:
            f.write(struct.pack("<H", len(p)) + p)


def structure(ad_type, value):
    return bytes([len(value) + 1, ad_type]) + value


def synthetic(rng, n):
    limit = 254 if rng.random() < 0.1 else 31
    parts = []
    if rng.random() < 0.9:
        parts.append(structure(0x01, bytes([0x06])))
    company = rng.choice(COMPANIES)
    counter = struct.pack("<I", n)
    extra = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))
    parts.append(structure(0xFF, struct.pack("<H", company) + counter + extra))
    if rng.random() < 0.5:
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -") for _ in range(rng.randrange(3, 14)))
        parts.append(structure(0x09 if rng.random() < 0.7 else 0x08, name.encode()))
    if rng.random() < 0.4:
        uuids = rng.sample(UUID16, rng.randrange(1, 4))
        parts.append(structure(0x03 if rng.random() < 0.8 else 0x02, b"".join(struct.pack("<H", u) for u in uuids)))
    if rng.random() < 0.15:
        parts.append(structure(0x07, bytes(rng.randrange(256) for _ in range(16))))
    if rng.random() < 0.3:
        parts.append(structure(0x16, struct.pack("<H", rng.choice(UUID16)) + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 10)))))
    if rng.random() < 0.3:
        parts.append(structure(0x0A, bytes([rng.randrange(256)])))
    payload = b""
    for part in parts:
        if len(payload) + len(part) <= limit:
            payload += part
    return payload


def main():
    args = sys.argv[1:]
    count = 200_000
    if "--synthetic" in args:
        i = args.index("--synthetic")
        count = int(args[i + 1])
        del args[i:i + 2]
    captured, out = read(args[0]), args[1]
    rng = random.Random(1)
    payloads = list(captured) + [synthetic(rng, n) for n in range(count)]
    write(out, payloads)
    print(f"corpus: {len(captured)} payloads from the captures + {count} synthetic = {len(payloads)}, "
          f"{sum(len(p) for p in payloads)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
