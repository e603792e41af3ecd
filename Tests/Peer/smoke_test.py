#!/usr/bin/env python3
"""Smoke test of the virtual peer: its process lifecycle (lifecycle_test.py), raw HCI checks of every corrected fault,
then a Bumble host as central.

Run: .venv/bin/python Tests/Peer/smoke_test.py  (exit 0 when everything passes; about 10 s).
"""

from __future__ import annotations

import asyncio
import json
import os
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import advertisers as adv  # noqa: E402
import databases as db  # noqa: E402
import lifecycle_test  # noqa: E402

FAILURES: list[str] = []


def check(condition: bool, what: str) -> None:
    print(('  ok   ' if condition else '  FAIL ') + what, flush=True)
    if not condition:
        FAILURES.append(what)


def addr_bytes(text: str) -> bytes:
    return bytes.fromhex(text.replace(':', ''))[::-1]


class RawHci:
    """A minimal H4 client: commands out, every event and ACL packet kept in order."""

    async def open(self, port: int) -> 'RawHci':
        self.reader, self.writer = await asyncio.open_connection('127.0.0.1', port)
        self.packets: asyncio.Queue[bytes] = asyncio.Queue()
        self.task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        buffer = b''
        while True:
            data = await self.reader.read(4096)
            if not data:
                return
            buffer += data
            while buffer:
                if buffer[0] == 0x04 and len(buffer) >= 3 and len(buffer) >= 3 + buffer[2]:
                    n = 3 + buffer[2]
                elif buffer[0] == 0x02 and len(buffer) >= 5 and len(buffer) >= 5 + struct.unpack_from('<H', buffer, 3)[0]:
                    n = 5 + struct.unpack_from('<H', buffer, 3)[0]
                else:
                    break
                await self.packets.put(buffer[:n])
                buffer = buffer[n:]

    def drain(self) -> list[bytes]:
        out = []
        while not self.packets.empty():
            out.append(self.packets.get_nowait())
        return out

    async def collect(self, seconds: float) -> list[bytes]:
        await asyncio.sleep(seconds)
        return self.drain()

    async def command(self, opcode: int, params: bytes = b'', timeout: float = 2.0) -> bytes:
        """Sends a command; returns its Command Complete return parameters or Command Status (status byte)."""
        self.writer.write(struct.pack('<BHB', 0x01, opcode, len(params)) + params)
        deadline = time.monotonic() + timeout
        skipped = []
        try:
            while True:
                packet = await asyncio.wait_for(self.packets.get(), max(0.01, deadline - time.monotonic()))
                if packet[0] == 0x04 and packet[1] == 0x0E and struct.unpack_from('<H', packet, 4)[0] == opcode:
                    return packet[6:]
                if packet[0] == 0x04 and packet[1] == 0x0F and struct.unpack_from('<H', packet, 5)[0] == opcode:
                    return packet[3:4]
                skipped.append(packet)
        finally:
            for packet in skipped:
                self.packets.put_nowait(packet)

    async def stop_scan(self) -> None:
        """LE Set Scan Enable off, then drops the reports the scan sent before the command was answered (command() put
        them back): on a loaded machine a few are in flight, and the next scan's collect must not count them."""
        await self.command(0x200C, bytes([0, 0]))
        self.drain()

    async def reset(self) -> int:
        """HCI_Reset, then Set Event Mask with LE Meta (bit 61), which the reset default leaves off."""
        status = (await self.command(0x0C03))[0]
        await self.command(0x0C01, (0x20001FFFFFFFFFFF).to_bytes(8, 'little'))
        return status

    async def wait_for(self, predicate, timeout: float = 2.0) -> bytes | None:
        deadline = time.monotonic() + timeout
        kept = []
        try:
            while time.monotonic() < deadline:
                try:
                    packet = await asyncio.wait_for(self.packets.get(), deadline - time.monotonic())
                except asyncio.TimeoutError:
                    return None
                if predicate(packet):
                    return packet
                kept.append(packet)
        finally:
            for packet in kept:
                self.packets.put_nowait(packet)
        return None

    def close(self) -> None:
        self.writer.close()
        self.task.cancel()


def le_meta(packet: bytes, subevent: int) -> bool:
    return packet[0] == 0x04 and packet[1] == 0x3E and packet[3] == subevent


def legacy_reports(packets) -> list[tuple[int, bytes, bytes, int]]:
    """(event type, address bytes, data, rssi) of single-report LE Advertising Reports."""
    out = []
    for p in packets:
        if le_meta(p, 0x02):
            event_type, address = p[5], p[7:13]
            length = p[13]
            out.append((event_type, address, p[14:14 + length], struct.unpack_from('<b', p, 14 + length)[0]))
    return out


def extended_reports(packets) -> list[tuple[int, bytes, bytes, int]]:
    out = []
    for p in packets:
        if le_meta(p, 0x0D):
            event_type = struct.unpack_from('<H', p, 5)[0]
            address = p[8:14]
            rssi = struct.unpack_from('<b', p, 18)[0]
            length = p[28]
            out.append((event_type, address, p[29:29 + length], rssi))
    return out


def extended_report_fields(packet: bytes) -> dict:
    """The fields of a single-report LE Extended Advertising Report (§7.7.65.13)."""
    event_type = struct.unpack_from('<H', packet, 5)[0]
    length = packet[28]
    return {'event_type': event_type & 0x1F, 'data_status': (event_type >> 5) & 0x03, 'address': packet[8:14],
            'secondary_phy': packet[15], 'sid': packet[16], 'tx_power': struct.unpack_from('<b', packet, 17)[0],
            'rssi': struct.unpack_from('<b', packet, 18)[0], 'data': packet[29:29 + length]}


# Supported Commands bits of the extended commands the peer implements (Core v5.4 Vol 4 Part E §6.27):
# octet 36 bits 1-7 (LE Set Advertising Set Random Address ... LE Read Number of Supported Advertising Sets),
# octet 37 bits 0-1 (LE Remove/Clear Advertising Sets), 5 (LE Set Extended Scan Parameters),
# 6 (LE Set Extended Scan Enable), 7 (LE Extended Create Connection).
EXTENDED_COMMAND_BITS = [(36, bit) for bit in range(1, 8)] + [(37, 0), (37, 1), (37, 5), (37, 6), (37, 7)]


async def check_supported_commands(hci: 'RawHci', extended: bool) -> None:
    kind = 'extended' if extended else 'legacy-only'
    commands = await hci.command(0x1002)  # Read Local Supported Commands: status, 64 octets
    check(len(commands) == 65 and commands[0] == 0, f'{kind}: Read Local Supported Commands')
    bits = [bool(commands[1 + octet] >> bit & 1) for octet, bit in EXTENDED_COMMAND_BITS]
    check(bits == [extended] * len(bits), f'{kind}: extended command bits {"set" if extended else "clear"}, got {bits}')
    # Octet 26 bits 2-4: LE Set Scan Parameters, LE Set Scan Enable, LE Create Connection.
    check(all(commands[1 + 26] >> bit & 1 for bit in (2, 3, 4)), f'{kind}: legacy scan/create bits set')
    features = await hci.command(0x2003)  # LE Read Local Supported Features: status, 8 octets; bit 12 = LE Extended Advertising
    check(len(features) == 9 and bool(features[1 + 1] >> 4 & 1) == extended,
          f'{kind}: LE Extended Advertising feature bit {"set" if extended else "clear"}')


EXPECTED = {name: (addr_bytes(address), adv_data, scan_rsp, rssi, adv_type)
            for name, address, adv_type, adv_data, scan_rsp, _, rssi, _ in adv.ADVERTISERS}


async def raw_scanning(port_legacy: int, port_extended: int) -> None:
    print('legacy controller: active, passive and duplicate-filtered scanning')
    hci = await RawHci().open(port_legacy)
    check((await hci.reset()) == 0, 'HCI_Reset succeeds')
    await check_supported_commands(hci, extended=False)
    check((await hci.command(0x200B, bytes([1, 0x10, 0, 0x10, 0, 0, 0])))[0] == 0, 'LE Set Scan Parameters (active)')
    await hci.command(0x200C, bytes([1, 0]))
    packets = await hci.collect(0.5)
    await hci.stop_scan()
    reports = legacy_reports(packets)
    check(not any(le_meta(p, 0x0D) for p in packets), 'legacy scan gets no LE Extended Advertising Report (fault 1)')
    check(addr_bytes(adv.EXTENDED_ADDRESS) not in {r[1] for r in reports}, 'legacy scan does not see extended advertising')
    for name, (address, adv_data, scan_rsp, rssi, adv_type) in EXPECTED.items():
        mine = [r for r in reports if r[1] == address]
        types = {r[0] for r in mine}
        if adv_type == adv.ADV_TYPE_IND:
            check(types == {0x00, 0x04}, f'{name}: ADV_IND and SCAN_RSP reports, got {types}')
            check(all(r[2] == adv_data for r in mine if r[0] == 0), f'{name}: advertising data exact')
            check(any(r[2] == scan_rsp for r in mine if r[0] == 4), f'{name}: real scan response data (fault 2)')
        else:
            check(types == {0x03}, f'{name}: ADV_NONCONN_IND only, got {types} (faults 2, 3)')
            check(all(r[2] == adv_data for r in mine), f'{name}: advertising data exact')
        check(all(r[3] == rssi for r in mine), f'{name}: RSSI {rssi}')
    check((await hci.command(0x200B, bytes([0, 0x10, 0, 0x10, 0, 0, 0])))[0] == 0, 'LE Set Scan Parameters (passive)')
    await hci.command(0x200C, bytes([1, 0]))
    reports = legacy_reports(await hci.collect(0.4))
    await hci.stop_scan()
    check(reports and not any(r[0] == 0x04 for r in reports), 'passive scan: reports but no SCAN_RSP (fault 2)')
    await hci.command(0x200B, bytes([1, 0x10, 0, 0x10, 0, 0, 0]))
    await hci.command(0x200C, bytes([1, 1]))
    reports = legacy_reports(await hci.collect(0.4))
    await hci.stop_scan()
    keys = [(r[0], r[1]) for r in reports]
    check(len(keys) == len(set(keys)) == 6, f'duplicate filtering: each report once, got {len(keys)} (fault 2)')
    check((await hci.command(0x2041, bytes([0, 0, 1, 1, 0x10, 0, 0x10, 0])))[0] == 0x01,
          'legacy-only controller: extended scan command is Unknown HCI Command')
    hci.close()

    print('extended controller: extended scanning with legacy PDUs')
    hci = await RawHci().open(port_extended)
    await hci.reset()
    await check_supported_commands(hci, extended=True)
    check((await hci.command(0x2001, (0xFFFFF).to_bytes(8, 'little')))[0] == 0, 'LE Set Event Mask')
    check((await hci.command(0x2041, bytes([0, 0, 1, 1, 0x10, 0, 0x10, 0])))[0] == 0,
          'LE Set Extended Scan Parameters (active)')
    await hci.command(0x2042, bytes([1, 0, 0, 0, 0, 0]))
    packets = await hci.collect(0.5)
    await hci.command(0x2042, bytes([0, 0, 0, 0, 0, 0]))
    reports = extended_reports(packets)
    check(not any(le_meta(p, 0x02) for p in packets), 'extended scan gets only LE Extended Advertising Reports')
    chain = [f for f in (extended_report_fields(p) for p in packets if le_meta(p, 0x0D))
             if f['address'] == addr_bytes(adv.EXTENDED_ADDRESS)][:2]
    check([(f['data_status'], len(f['data'])) for f in chain] == [(1, 229), (0, 42)],
          f'extended beacon: a chain of 229 bytes (status 01) then 42 (status 00), got '
          f'{[(f["data_status"], len(f["data"])) for f in chain]}')
    check(b''.join(f['data'] for f in chain) == adv.EXTENDED_ADV_DATA, 'extended beacon: the chain joins to its data')
    check(all((f['event_type'], f['secondary_phy'], f['sid'], f['tx_power'], f['rssi'])
              == (0x00, 0x01, adv.EXTENDED_SID, adv.EXTENDED_TX_POWER, adv.EXTENDED_RSSI) for f in chain),
          'extended beacon: non-connectable non-legacy, LE 1M secondary PHY, SID, TX power, RSSI')
    for name, (address, adv_data, scan_rsp, rssi, adv_type) in EXPECTED.items():
        types = {r[0] for r in reports if r[1] == address}
        want = {0x13, 0x1B} if adv_type == adv.ADV_TYPE_IND else {0x10}
        check(types == want, f'{name}: extended event types {sorted(types)} == {sorted(want)}')
        if scan_rsp:
            check(any(r[0] == 0x1B and r[2] == scan_rsp for r in reports if r[1] == address),
                  f'{name}: extended scan response data')
    check((await hci.command(0x200B, bytes([1, 0x10, 0, 0x10, 0, 0, 0])))[0] == 0x0C,
          'legacy command after extended ones: Command Disallowed')
    print('unmodelled commands (fault 7)')
    check((await hci.command(0x2032, struct.pack('<HBBBH', 0x0040, 0, 2, 2, 0)))[0] == 0x02,
          'LE Set PHY on unknown handle: Command Status 0x02')
    check((await hci.command(0x0C44)) == bytes([0, 0]), 'Read Inquiry Mode: Command Complete')
    check((await hci.command(0xFC99))[0] == 0x01, 'vendor opcode 0xFC99: Unknown HCI Command')
    # FIPS-197 C.1: key 00..0f, plaintext 00112233..ff -> 69c4e0d8..c55a; HCI carries them least significant first.
    key = bytes(range(16))[::-1]
    plaintext = bytes.fromhex('00112233445566778899aabbccddeeff')[::-1]
    result = await hci.command(0x2017, key + plaintext)
    check(result == bytes([0]) + bytes.fromhex('69c4e0d86a7b0430d8cdb78070b4c55a')[::-1], 'LE Encrypt (FIPS-197 C.1)')
    hci.close()


async def raw_connection(port: int) -> None:
    print('raw connection with own address public (fault 8), 27-byte fragments (fault 9)')
    hci = await RawHci().open(port)
    await hci.reset()
    await hci.command(0x2001, (0xFFFFF).to_bytes(8, 'little'))
    alpha = addr_bytes(adv.ALPHA_ADDRESS)
    create = struct.pack('<HHBB', 0x10, 0x10, 0, 1) + alpha + struct.pack('<BHHHHHH', 0, 24, 40, 0, 400, 0, 0)
    check((await hci.command(0x200D, create))[0] == 0, 'LE Create Connection: Command Status success')
    check((await hci.command(0x2041, bytes([0, 0, 1, 1, 0x10, 0, 0x10, 0])))[0] == 0x0C,
          'extended command after legacy ones: Command Disallowed')
    done = await hci.wait_for(lambda p: le_meta(p, 0x0A) or le_meta(p, 0x01), 2)
    check(done is not None and done[4] == 0, 'LE Enhanced Connection Complete, success (event mask enables it)')
    handle = struct.unpack_from('<H', done, 5)[0] if done else 0
    # Exchange MTU 517, then Read Request for the 512-byte value.
    hci.writer.write(bytes([0x02]) + struct.pack('<HHHH', handle, 7, 3, 4) + bytes([0x02]) + struct.pack('<H', 517))
    mtu_rsp = await hci.wait_for(lambda p: p[0] == 0x02 and p[9] == 0x03, 2)
    check(mtu_rsp is not None, 'Exchange MTU Response arrives')
    hci.writer.write(bytes([0x02]) + struct.pack('<HHHH', handle, 7, 3, 4) + bytes([0x0A]) + struct.pack('<H', 0x002F))
    fragments = []
    first = await hci.wait_for(lambda p: p[0] == 0x02 and len(p) > 9 and p[9] == 0x0B, 2)
    if first:
        fragments.append(first)
        length = struct.unpack_from('<H', first, 5)[0]
        total = 4 + length
        got = len(first) - 5
        while got < total:
            more = await hci.wait_for(lambda p: p[0] == 0x02, 2)
            if more is None:
                break
            fragments.append(more)
            got += len(more) - 5
    flags = [struct.unpack_from('<H', f, 1)[0] >> 12 for f in fragments]
    sizes = [struct.unpack_from('<H', f, 3)[0] for f in fragments]
    payload = b''.join(f[5:] for f in fragments)
    check(len(fragments) > 1 and flags[0] == 0b10 and all(f == 0b01 for f in flags[1:]),
          f'PB flags 0b10 then 0b01 over {len(fragments)} fragments')
    check(all(s <= 27 for s in sizes) and all(s == 27 for s in sizes[:-1]), f'fragments of 27 bytes, got {sizes}')
    check(payload[4:] == bytes([0x0B]) + db.LONG_VALUE, 'Read Response holds the 512-byte value i & 0xFF')
    check((await hci.command(0x2022, struct.pack('<HHH', handle, 251, 2120))) == struct.pack('<BH', 0, handle),
          'LE Set Data Length: Command Complete')
    check(await hci.wait_for(lambda p: le_meta(p, 0x07), 1) is not None, 'LE Data Length Change')
    check((await hci.command(0x1405, struct.pack('<H', handle)))[:3] == struct.pack('<BH', 0, handle), 'Read RSSI')
    def answers(packet, opcode):
        return (packet[0] == 0x04 and ((packet[1] == 0x0E and struct.unpack_from('<H', packet, 4)[0] == opcode)
                                       or (packet[1] == 0x0F and struct.unpack_from('<H', packet, 5)[0] == opcode)))
    check(await hci.wait_for(lambda p: answers(p, 0x2022) or answers(p, 0x1405), 0.3) is None,
          'exactly one Command Complete per command (no second answer to LE Set Data Length or Read RSSI)')
    check((await hci.command(0x2032, struct.pack('<HBBBH', handle, 0, 2, 2, 0)))[0] == 0, 'LE Set PHY: status')
    check(await hci.wait_for(lambda p: le_meta(p, 0x0C), 1) is not None, 'LE PHY Update Complete')
    check((await hci.command(0x041D, struct.pack('<H', handle)))[0] == 0, 'Read Remote Version: status')
    check(await hci.wait_for(lambda p: p[0] == 0x04 and p[1] == 0x0C, 1) is not None,
          'Read Remote Version Information Complete')

    print('HCI_Reset drops the link (fault 5); cancel (fault 6); non-connectable refused (fault 4)')
    await hci.reset()
    await hci.command(0x2001, (0x1F).to_bytes(8, 'little'))
    nobody = addr_bytes('C1:00:00:00:00:99')
    create_nobody = struct.pack('<HHBB', 0x10, 0x10, 0, 1) + nobody + create[12:]
    check((await hci.command(0x200D, create_nobody))[0] == 0, 'LE Create Connection to nobody: pending')
    check((await hci.command(0x200E)) == bytes([0]), 'LE Create Connection Cancel: Command Complete success')
    cancelled = await hci.wait_for(lambda p: le_meta(p, 0x01), 1)
    check(cancelled is not None and cancelled[4] == 0x02, 'LE Connection Complete status 0x02 after cancel')
    beacon = addr_bytes(adv.IBEACON_ADDRESS)
    check((await hci.command(0x200D, struct.pack('<HHBB', 0x10, 0x10, 0, 1) + beacon + create[12:]))[0] == 0,
          'LE Create Connection to the iBeacon: pending')
    check(await hci.wait_for(lambda p: le_meta(p, 0x01), 0.4) is None, 'no connection to a non-connectable beacon')
    await hci.command(0x200E)
    await hci.wait_for(lambda p: le_meta(p, 0x01), 1)
    check((await hci.command(0x200D, create))[0] == 0, 'LE Create Connection to alpha again after reset/cancel')
    again = await hci.wait_for(lambda p: le_meta(p, 0x01), 2)
    check(again is not None and again[4] == 0, 'connected again (LE Connection Complete, mask 0x1F)')
    hci.close()


async def bumble_central(port: int) -> None:
    from bumble.device import Device
    from bumble.hci import Address, OwnAddressType
    from bumble.transport import open_transport

    print('Bumble host as central (own address random)')
    async with await open_transport(f'tcp-client:127.0.0.1:{port}') as (source, sink):
        device = Device.with_hci('central', Address('F0:F1:F2:F3:F4:F5'), source, sink)
        await device.power_on()
        seen = {}
        device.on('advertisement', lambda a: seen.setdefault(str(a.address), a))
        await device.start_scanning(active=True)
        await asyncio.sleep(0.4)
        await device.stop_scanning()
        check({adv.ALPHA_ADDRESS, adv.BRAVO_ADDRESS, adv.IBEACON_ADDRESS, adv.EDDYSTONE_ADDRESS}
              <= {k.split('/')[0] for k in seen}, 'Bumble central sees all four advertisers')

        target = Address(adv.ALPHA_ADDRESS, Address.RANDOM_DEVICE_ADDRESS)
        connection = await asyncio.wait_for(device.connect(target, own_address_type=OwnAddressType.RANDOM), 3)
        from bumble.device import Peer
        peer = Peer(connection)
        await peer.request_mtu(247)
        await peer.discover_all()
        services = {str(s.uuid): s for s in peer.services}
        check(len(peer.services) == 6, f'6 primary services discovered, got {len(peer.services)}')
        test = next((s for s in peer.services if s.uuid.to_hex_str('-').upper() == adv.ALPHA_SERVICE_UUID), None)
        check(test is not None and test.handle == 0x0027 and test.end_group_handle == 0x004E,
              'test service at 0x0027-0x004E')
        # Bumble's client cannot parse a 4-byte include declaration, so read them directly.
        check(await peer.read_value(0x0028) == struct.pack('<HH', 0x0021, 0x0023),
              'include of the 128-bit secondary service: handles only (0x0021-0x0023)')
        check(await peer.read_value(0x0029) == struct.pack('<HHH', 0x0024, 0x0026, 0x1804),
              'include of the Tx Power secondary service: handles and UUID 0x1804')
        long_value = await peer.read_value(0x002F)
        check(long_value == db.LONG_VALUE, 'read long: the 512-byte value')
        await peer.write_value(0x0031, b'\x11\x22\x33', with_response=True)
        check(await peer.read_value(0x0031) == b'\x11\x22\x33', 'write then read back')
        for handle, code in ((0x0046, 0x02), (0x004A, 0x05), (0x004C, 0x80)):
            try:
                await peer.read_value(handle)
                check(False, f'read 0x{handle:04X} fails with 0x{code:02X}')
            except Exception as error:
                check(getattr(error, 'error_code', None) == code, f'read 0x{handle:04X} fails with 0x{code:02X}')
        try:
            await peer.write_value(0x0048, b'x', with_response=True)
            check(False, 'write 0x0048 fails with 0x03')
        except Exception as error:
            check(getattr(error, 'error_code', None) == 0x03, 'write 0x0048 fails with 0x03')

        received = []
        done = asyncio.Event()

        def on_notify(value):
            received.append(struct.unpack('<HH', value))
            if len(received) == 50:
                done.set()
        characteristics = await peer.discover_characteristics(uuids=[db.custom(1, 7)])
        burst = characteristics[0] if characteristics else None
        if burst:
            await peer.subscribe(burst, on_notify)
            await peer.write_value(0x0044, bytes([0x01]) + struct.pack('<H', 50), with_response=True)
            try:
                await asyncio.wait_for(done.wait(), 3)
            except asyncio.TimeoutError:
                pass
        check(received == [(i, 50) for i in range(50)], f'50 notifications in order, got {len(received)}')

        indications = []
        indicate = (await peer.discover_characteristics(uuids=[db.custom(1, 8)]) or [None])[0]
        if indicate:
            await peer.subscribe(indicate, lambda v: indications.append(struct.unpack('<HH', v)), prefer_notify=False)
            await peer.write_value(0x0044, bytes([0x02]) + struct.pack('<H', 5), with_response=True)
            await asyncio.sleep(0.5)
        check(indications == [(i, 5) for i in range(5)], f'5 indications in order, got {indications}')
        changed = []
        service_changed = (await peer.discover_characteristics(uuids=['2A05']) or [None])[0]
        if service_changed:
            await peer.subscribe(service_changed, lambda v: changed.append(struct.unpack('<HH', v)), prefer_notify=False)
            await peer.write_value(0x004E, bytes([0x02]), with_response=True)
            await asyncio.sleep(0.3)
        check(changed == [(0x004F, 0x0051)], f'Service Changed indication 0x004F-0x0051, got {changed}')
        check(await peer.read_value(0x0051) == db.DYNAMIC_VALUE, 'dynamic service readable at 0x0051')

        disconnected = asyncio.get_running_loop().create_future()
        connection.on('disconnection', lambda reason: disconnected.set_result(reason))
        await peer.write_value(0x004E, bytes([0x01]), with_response=True)
        reason = await asyncio.wait_for(disconnected, 2)
        check(reason == 0x13, f'peripheral disconnects on control 0x01 with 0x13, got {reason}')
        connection = await asyncio.wait_for(device.connect(target, own_address_type=OwnAddressType.RANDOM), 3)
        peer = Peer(connection)
        check(await peer.read_value(0x0003) == adv.ALPHA_NAME.encode(), 'reconnected; GAP Device Name read')
        await connection.disconnect()


async def main() -> int:
    started = time.monotonic()
    lifecycle_test.run(check)
    process = subprocess.Popen([sys.executable, os.path.join(HERE, 'peer.py'), '--controllers', '3',
                                '--legacy-only', '1', '--extended-beacon'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        check(line.startswith('READY '), f'READY line within {time.monotonic() - started:.2f} s')
        ready = json.loads(line[len('READY '):])
        ports = [c['port'] for c in ready['controllers']]
        await raw_scanning(ports[1], ports[0])
        await raw_connection(ports[2])
        await bumble_central(ports[0])
    finally:
        process.stdin.close()
        try:
            process.wait(3)
        except subprocess.TimeoutExpired:
            process.kill()
    print(f'{len(FAILURES)} failure(s) in {time.monotonic() - started:.1f} s')
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
