#!/usr/bin/env python3
"""The project's virtual Bluetooth LE peer: host-facing controllers (H4 over TCP), two peripherals, two beacons.

Usage: peer.py [--controllers N] [--legacy-only INDEX ...] [--extended-beacon] [--database FILE ...] [--dump-gatt] [-v]

Prints one line `READY {json}` on stdout when every controller listens. When stdin is a pipe, socket or terminal it
then answers stdin control lines with `OK ...` or `ERR ...` (see Tests/Peer/README.md) and exits when stdin closes;
any other stdin (/dev/null, a regular file) is ignored. Always exits at once and with status 0 on SIGTERM or SIGINT,
and when the parent process changes (the parent died).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import stat
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bumble import hci  # noqa: E402
from bumble.device import AdvertisingType, Device, DeviceConfiguration  # noqa: E402
from bumble.host import Host  # noqa: E402

import advertisers as adv  # noqa: E402
import clone  # noqa: E402
import databases  # noqa: E402
import security  # noqa: E402
from h4_server import H4Server  # noqa: E402
from peer_controller import PeerController, PeerLink  # noqa: E402

logger = logging.getLogger('peer')


def host_public_address(index: int) -> str:
    """BD_ADDR of host-facing controller `index`: 0C:B0:00:00:00:<index+1>."""
    return f'0C:B0:00:00:00:{index + 1:02X}'


async def make_advertiser(link: PeerLink, name: str, address: str, adv_type: int, adv_data: bytes,
                          scan_rsp: bytes, interval_ms: int, rssi: int):
    controller = PeerController(f'peer-{name}', link, public_address=None, extended=False, rssi=rssi)
    config = DeviceConfiguration()
    config.name = name
    config.address = hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS)
    config.gap_service_enabled = False
    config.gatt_service_enabled = False
    config.advertising_interval_min = interval_ms
    config.advertising_interval_max = interval_ms
    device = Device(config=config, host=Host(controller, controller))
    app = None
    if name == 'alpha':
        app = databases.AlphaApp(device)
    elif name == 'bravo':
        app = databases.BravoApp(device)
    if app is not None:
        device.add_services(app.services())
        databases.fix_include_declarations(device.gatt_server)
        if name == 'alpha':
            databases.install_discovery_fault(device.gatt_server, app)
            security.refuse_pairing(device)  # its 0x000C needs authentication: the app gets 0x05 after a refused pairing
        app.mtu_limits = databases.install_mtu_limits(device.gatt_server)
    await device.power_on()
    await device.start_advertising(advertising_type=AdvertisingType(adv_type), own_address_type=1,
                                   auto_restart=adv_type == adv.ADV_TYPE_IND, advertising_data=adv_data,
                                   scan_response_data=scan_rsp)
    return controller, device, app


async def make_clone(link: PeerLink, path: str) -> tuple[Device, dict]:
    """The `--database FILE` peripheral: the recorded device's database at its recorded handles, advertising its recorded
    data from its recorded address (clone.py)."""
    database = clone.load(path)
    peer = database['peer']
    address = str(peer.get('address', 'C1:C1:00:00:00:01'))
    public = peer.get('addressType') == 'public'
    adv_data, scan_rsp, connectable = clone.advertising(database)
    controller = PeerController(f'peer-clone-{address}', link, public_address=address if public else None, extended=False,
                                rssi=-50)
    config = DeviceConfiguration()
    config.name = peer.get('name') or 'Clone'
    config.address = hci.Address(address, hci.Address.PUBLIC_DEVICE_ADDRESS if public else hci.Address.RANDOM_DEVICE_ADDRESS)
    config.gap_service_enabled = False
    config.gatt_service_enabled = False
    config.advertising_interval_min = config.advertising_interval_max = 50
    device = Device(config=config, host=Host(controller, controller))
    services, handles = clone.services(database)
    device.add_services(services)
    placed = clone.place(device.gatt_server, database, handles)
    await device.power_on()
    adv_type = adv.ADV_TYPE_IND if connectable else adv.ADV_TYPE_NONCONN_IND
    await device.start_advertising(advertising_type=AdvertisingType(adv_type), own_address_type=0 if public else 1,
                                   auto_restart=connectable, advertising_data=adv_data, scan_response_data=scan_rsp)
    return device, {'name': config.name, 'address': address, 'addressType': 'public' if public else 'random',
                    'role': 'clone', 'connectable': connectable, 'rssi': -50, 'advertisingData': adv_data.hex(),
                    'scanResponseData': scan_rsp.hex(), 'intervalMs': 50, 'database': path, 'recordedHandles': placed}


def make_extended_beacon(link: PeerLink) -> dict:
    """The `--extended-beacon` advertiser: extended advertising only (no host), data over two reports."""
    controller = PeerController(f'peer-{adv.EXTENDED_NAME}', link, public_address=None, rssi=adv.EXTENDED_RSSI)
    controller.start_extended_advertising(hci.Address(adv.EXTENDED_ADDRESS, hci.Address.RANDOM_DEVICE_ADDRESS),
                                          adv.EXTENDED_ADV_DATA, adv.EXTENDED_INTERVAL_MS / 1000, adv.EXTENDED_SID,
                                          adv.EXTENDED_TX_POWER)
    return {'name': adv.EXTENDED_NAME, 'address': adv.EXTENDED_ADDRESS, 'addressType': 'random', 'role': 'beacon',
            'connectable': False, 'rssi': adv.EXTENDED_RSSI, 'advertisingData': adv.EXTENDED_ADV_DATA.hex(),
            'scanResponseData': '', 'intervalMs': adv.EXTENDED_INTERVAL_MS, 'extendedAdvertising': True,
            'sid': adv.EXTENDED_SID, 'txPower': adv.EXTENDED_TX_POWER}


def stdin_is_a_control_channel() -> bool:
    """True when stdin is a pipe, a socket or a terminal: something that can send control lines and close.
    /dev/null, a regular file or a closed descriptor are at end of file from the start: not a reason to quit."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(0))


def dump_gatt(devices) -> None:
    for name, device in devices.items():
        print(f'## {name}')
        for attribute in device.gatt_server.attributes:
            print(f'0x{attribute.handle:04X} {attribute}')


class Peer:
    def __init__(self, args):
        self.args = args
        self.link = PeerLink()
        self.controllers: list[PeerController] = []
        self.servers: list[H4Server] = []
        self.devices: dict[str, Device] = {}
        self.apps: dict[str, databases.PeripheralApp] = {}
        self.done = asyncio.Event()
        self.charlie: security.CharlieApp | None = None

    async def start(self) -> dict:
        databases.install_permission_checks()
        for index in range(self.args.controllers):
            controller = PeerController(f'host{index}', self.link, public_address=host_public_address(index),
                                        extended=index not in self.args.legacy_only)
            server = H4Server(controller)
            await server.start()
            self.controllers.append(controller)
            self.servers.append(server)
        peers = []
        for name, address, adv_type, adv_data, scan_rsp, interval, rssi, role in adv.ADVERTISERS:
            _, device, app = await make_advertiser(self.link, name, address, adv_type, adv_data, scan_rsp,
                                                   interval, rssi)
            self.devices[name] = device
            if app is not None:
                self.apps[name] = app
            peers.append({'name': name, 'address': address, 'addressType': 'random', 'role': role,
                          'connectable': adv_type == adv.ADV_TYPE_IND, 'rssi': rssi,
                          'advertisingData': adv_data.hex(), 'scanResponseData': scan_rsp.hex(),
                          'intervalMs': interval})
        if self.args.extended_beacon:
            peers.append(make_extended_beacon(self.link))
        if self.args.security:
            self.charlie, entry = await security.make_charlie(self.link)
            self.devices['charlie'] = self.charlie.device
            peers.append(entry)
        for path in self.args.database:
            device, entry = await make_clone(self.link, path)
            self.devices[f'clone-{entry["address"]}'] = device
            peers.append(entry)
        return {
            'controllers': [{'index': i, 'port': s.port, 'host': '127.0.0.1',
                             'publicAddress': host_public_address(i), 'extended': c.extended}
                            for i, (c, s) in enumerate(zip(self.controllers, self.servers))],
            'peers': peers,
            'pid': os.getpid(),
        }

    def _controllers_for(self, words: list[str]) -> list[PeerController]:
        if not words:
            return self.controllers
        return [self.controllers[int(words[0])]]

    async def handle(self, line: str) -> str:
        words = line.split()
        if not words:
            return 'ERR empty'
        cmd, rest = words[0].lower(), words[1:]
        try:
            if cmd == 'ping':
                return 'OK ping'
            if cmd == 'mute':
                opcode = int(rest[0], 0)
                for controller in self._controllers_for(rest[1:]):
                    controller.muted.add(opcode)
                return f'OK mute 0x{opcode:04X}'
            if cmd == 'refuse':
                opcode, status = int(rest[0], 0), int(rest[1], 0)
                for controller in self._controllers_for(rest[2:]):
                    if status == 0:
                        controller.refused.pop(opcode, None)
                    else:
                        controller.refused[opcode] = status
                return f'OK refuse 0x{opcode:04X} 0x{status:02X}'
            if cmd == 'unmute':
                if rest and rest[0] != 'all':
                    opcode = int(rest[0], 0)
                    for controller in self._controllers_for(rest[1:]):
                        controller.muted.discard(opcode)
                    return f'OK unmute 0x{opcode:04X}'
                for controller in self._controllers_for(rest[1:]):
                    controller.muted.clear()
                return 'OK unmute all'
            if cmd == 'hwerror':
                code = int(rest[0], 0) if rest else 0x01
                for controller in self._controllers_for(rest[1:]):
                    controller.hardware_error(code)
                return f'OK hwerror 0x{code:02X}'
            if cmd == 'flood':
                count = int(rest[0], 0)
                controller = self._controllers_for(rest[1:2])[0]
                seconds = await controller.flood(count)
                return f'OK flood {count} {seconds:.3f}'
            if cmd == 'drop':
                index = int(rest[0]) if rest else 0
                dropped = self.servers[index].drop_client()
                return f'OK drop {index}' if dropped else f'ERR drop {index}: no client'
            if cmd == 'mtu':
                # mtu N [CONTROLLER]: alpha and bravo answer Exchange MTU with N to that host controller's connections
                # (0: their maximum again); other controllers are not affected.
                mtu = int(rest[0], 0)
                index = int(rest[1]) if len(rest) > 1 else 0
                if mtu != 0 and not 23 <= mtu <= 517:
                    return f'ERR mtu {mtu}: 23...517 or 0'
                for app in self.apps.values():
                    if mtu == 0:
                        app.mtu_limits.pop(host_public_address(index), None)
                    else:
                        app.mtu_limits[host_public_address(index)] = mtu
                return f'OK mtu {mtu} {index}'
            if cmd == 'restore':
                for app in self.apps.values():
                    if isinstance(app, databases.AlphaApp):
                        app.restore()
                return 'OK restore'
            if cmd == 'service-changed':
                app = self.apps['alpha']
                start, end = app.toggle_dynamic_service()
                await app.indicate_service_changed(start, end)
                return f'OK service-changed 0x{start:04X} 0x{end:04X}'
            if cmd == 'disconnect':
                name = rest[0]
                device = self.devices[name]
                for connection in list(device.connections.values()):
                    await connection.disconnect(0x13)
                return f'OK disconnect {name}'
            if cmd in ('pairing', 'rotate', 'forget', 'security-request', 'last-number', 'signed-log', 'type-passkey'):
                if self.charlie is None:
                    return f'ERR {cmd}: no secure peripheral (start the peer with --security)'
                if cmd == 'pairing':
                    if rest[0] not in security.MODES:
                        return f'ERR pairing {rest[0]}: one of {" ".join(security.MODES)}'
                    self.charlie.mode = rest[0]
                    return f'OK pairing {rest[0]}'
                if cmd == 'rotate':
                    return f'OK rotate {await self.charlie.rotate()}'
                if cmd == 'type-passkey':
                    if self.charlie.typed is None or self.charlie.typed.done():
                        self.charlie.typed_early = int(rest[0])  # charlie takes it when it asks
                    else:
                        self.charlie.typed.set_result(int(rest[0]))
                    return f'OK type-passkey {int(rest[0]):06d}'
                if cmd == 'signed-log':
                    return 'OK signed-log ' + (' '.join(self.charlie.signed_log) or 'none')
                if cmd == 'last-number':
                    number = self.charlie.last_number
                    return 'OK last-number none' if number is None else f'OK last-number {number:06d}'
                if cmd == 'forget':
                    await self.charlie.forget()
                    return 'OK forget'
                return f'OK security-request {await self.charlie.request_security()}'
            if cmd == 'quit':
                self.done.set()
                return 'OK quit'
        except (IndexError, ValueError, KeyError) as error:
            return f'ERR {cmd}: {error!r}'
        return f'ERR unknown command {cmd}'

    def read_stdin(self, loop: asyncio.AbstractEventLoop) -> None:
        """Reads control lines on a daemon thread (a blocking read works on pipes, sockets and terminals alike,
        and leaves a shared terminal's flags alone); each line is handled on the loop, EOF ends the peer."""
        def run() -> None:
            try:
                for raw in sys.stdin.buffer:
                    line = raw.decode('utf-8', 'replace').strip()
                    future = asyncio.run_coroutine_threadsafe(self.reply(line), loop)
                    future.result()
            except (OSError, ValueError, RuntimeError, asyncio.CancelledError) as error:
                logger.info('stdin: %s', error)
                return
            logger.info('stdin closed; exiting')
            loop.call_soon_threadsafe(self.done.set)

        threading.Thread(target=run, name='peer-stdin', daemon=True).start()

    async def reply(self, line: str) -> None:
        try:
            answer = await self.handle(line)
        except Exception as error:  # a control must never end the peer
            answer = f'ERR {line}: {error!r}'
        print(answer, flush=True)

    def stop(self, why: str) -> None:
        logger.info('%s; exiting', why)
        self.done.set()

    async def watch_parent(self) -> None:
        parent = os.getppid()
        while os.getppid() == parent:
            await asyncio.sleep(0.2)
        logger.info('parent changed; exiting')
        self.done.set()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--controllers', type=int, default=1, help='host-facing controllers (default 1)')
    parser.add_argument('--legacy-only', type=int, action='append', default=[],
                        help='index of a host-facing controller without LE extended advertising (repeatable)')
    parser.add_argument('--extended-beacon', action='store_true',
                        help='add a non-connectable extended advertiser whose 271 bytes of data need two reports')
    parser.add_argument('--database', action='append', default=[], metavar='FILE',
                        help='also serve the device `cbtool decode CAPTURE --export-db FILE` exported (repeatable)')
    parser.add_argument('--security', action='store_true',
                        help='add "OCB Charlie": characteristics needing encryption, Bumble SMP, a rotating private address')
    parser.add_argument('--dump-gatt', action='store_true', help='print the GATT databases and exit')
    parser.add_argument('--no-stdin', action='store_true',
                        help='ignore stdin even when it is a pipe: no control lines, no exit on its end of file')
    parser.add_argument('-v', '--verbose', action='count', default=0)
    args = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
                        format='%(asctime)s %(name)s %(levelname)s %(message)s')

    peer = Peer(args)
    try:
        ready = await peer.start()
    except clone.CloneError as error:
        print(f'peer: cannot serve the database: {error}', file=sys.stderr, flush=True)
        os._exit(2)
    if args.dump_gatt:
        dump_gatt(peer.devices)
        return
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        # Installed even when the shell started us with SIGINT ignored (`scripts/peer &` in a script).
        loop.add_signal_handler(signum, peer.stop, signal.Signals(signum).name)
    print('READY ' + json.dumps(ready, separators=(',', ':')), flush=True)
    watcher = asyncio.create_task(peer.watch_parent())
    if args.no_stdin:
        logger.info('--no-stdin: control lines ignored')
    elif stdin_is_a_control_channel():
        peer.read_stdin(loop)
    else:
        logger.info('stdin is not a pipe or terminal: control lines ignored; SIGTERM or SIGINT stops the peer')
    await peer.done.wait()
    watcher.cancel()
    for server in peer.servers:
        server.close()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    sys.stdout.flush()
    # No interpreter shutdown: Bumble's tasks and the blocked stdin thread would only delay the exit.
    os._exit(0)
