"""Times the Python AD parsers on a corpus: bluetooth-data-tools' parse_advertisement_data_bytes (typed fields, as
Home Assistant uses it) and Bumble's AdvertisingData.from_bytes. Prints one line per parser: `NAME NS_PER_AD CHECKSUM`.

Usage: peers.py CORPUS [PASSES]   (the best of PASSES passes, default 5)
"""

import sys
import time

from bluetooth_data_tools import parse_advertisement_data_bytes
from bumble.core import AdvertisingData

from make_corpus import read


def best(passes, body):
    times = []
    result = 0
    for _ in range(passes):
        start = time.perf_counter_ns()
        result = body()
        times.append(time.perf_counter_ns() - start)
    return min(times), result


def main():
    payloads = read(sys.argv[1])
    passes = int(sys.argv[2]) if len(sys.argv) > 2 else 5

    def bdt():
        total = 0
        for p in payloads:
            name, uuids, service_data, manufacturer, tx = parse_advertisement_data_bytes(p)
            total += len(uuids) + len(service_data) + len(manufacturer) + (1 if name else 0) + (1 if tx is not None else 0)
        return total

    def bumble():
        total = 0
        for p in payloads:
            total += len(AdvertisingData.from_bytes(p).ad_structures)
        return total

    for name, body in (("bluetooth-data-tools", bdt), ("bumble", bumble)):
        elapsed, checksum = best(passes, body)
        print(f"{name} {elapsed / len(payloads):.1f} {checksum}", flush=True)


if __name__ == "__main__":
    main()
