"""The `--security` peripheral "OCB Charlie": characteristics behind encryption and authentication, Bumble's SMP as the
responder (Secure Connections or legacy, or refusing), a resolvable private address that rotates on request.

Identity: random static CHARLIE_IDENTITY, IRK CHARLIE_IRK (distributed in pairing). It advertises from a resolvable
private address made with that IRK (Core v5.4 Vol 6 Part B §1.3.2.2); `rotate charlie` makes a new one.
"""

from __future__ import annotations

import asyncio
import logging
import struct

from bumble import att, gatt, hci, pairing
from bumble.crypto import aes_cmac
from bumble.device import AdvertisingType, Device, DeviceConfiguration
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.host import Host
from bumble.keys import MemoryKeyStore

import advertisers as adv
from peer_controller import PeerController

logger = logging.getLogger('peer.security')

R = gatt.Characteristic.Properties
READABLE = att.Attribute.READABLE
WRITEABLE = att.Attribute.WRITEABLE

CHARLIE_NAME = 'OCB Charlie'
CHARLIE_IDENTITY = 'C1:C3:00:00:00:01'  # random static identity address
CHARLIE_IRK = bytes.fromhex('0cb3000000000000000000000000a1a1')  # most significant octet first
CHARLIE_SERVICE_UUID = '0CB30001-7E57-4C0D-A9E5-0123456789AB'
ENCRYPTED_UUID = '0CB30002-7E57-4C0D-A9E5-0123456789AB'
AUTHENTICATED_UUID = '0CB30003-7E57-4C0D-A9E5-0123456789AB'
COUNTER_UUID = '0CB30004-7E57-4C0D-A9E5-0123456789AB'
OPEN_UUID = '0CB30005-7E57-4C0D-A9E5-0123456789AB'
SIGNED_UUID = '0CB30006-7E57-4C0D-A9E5-0123456789AB'
ENCRYPTED_VALUE = b'encrypted secret'
AUTHENTICATED_VALUE = b'authenticated secret'
OPEN_VALUE = b'open'
CHARLIE_INTERVAL_MS = 50
CHARLIE_RSSI = -48
COUNTER_PERIOD_S = 0.1

# Pairing modes of the `pairing MODE` control line: Just Works (sc, legacy), refusing, Passkey Entry with charlie
# showing PASSKEY (passkey, passkey-legacy), Numeric Comparison (numeric; charlie says yes and remembers the number).
MODES = ('sc', 'legacy', 'refuse', 'passkey', 'passkey-legacy', 'numeric', 'keyboard', 'keyboard-legacy')
PASSKEY = 123456
# Keys charlie gives and takes: LTK (legacy), IRK and identity, CSRK (Bumble's default leaves CSRKs out); taking the
# central's CSRK is what lets it verify the central's signed writes.
KEYS = (pairing.PairingDelegate.KeyDistribution.DISTRIBUTE_ENCRYPTION_KEY
        | pairing.PairingDelegate.KeyDistribution.DISTRIBUTE_IDENTITY_KEY
        | pairing.PairingDelegate.KeyDistribution.DISTRIBUTE_SIGNING_KEY)


class DisplayDelegate(pairing.PairingDelegate):
    """Charlie with a display: shows PASSKEY (Passkey Entry), or a number it accepts (Numeric Comparison)."""

    def __init__(self, app, io_capability):
        super().__init__(io_capability=io_capability, local_initiator_key_distribution=KEYS, local_responder_key_distribution=KEYS)
        self.app = app

    async def generate_passkey(self) -> int:
        return PASSKEY

    async def display_number(self, number: int, digits: int) -> None:
        self.app.last_number = number

    async def compare_numbers(self, number: int, digits: int) -> bool:
        self.app.last_number = number
        return True

    async def get_number(self) -> int | None:
        """Keyboard modes: the passkey the central shows, as the test types it (`type-passkey N`, at most 20 s)."""
        if self.app.typed_early is not None:  # typed before charlie asked (the central showed it first)
            value, self.app.typed_early = self.app.typed_early, None
            return value
        self.app.typed = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(self.app.typed, 20)
        except asyncio.TimeoutError:
            return None


class RefusingDelegate(pairing.PairingDelegate):
    """Refuses every Pairing Request: Bumble answers Pairing Failed, Pairing Not Supported (Vol 3 Part H §3.5.5)."""

    async def accept(self) -> bool:
        return False


def refuse_pairing(device: Device) -> None:
    """Makes `device` refuse pairing (used for alpha, whose 0x000C needs authentication: its ATT error reaches the app)."""
    device.pairing_config_factory = lambda _connection: pairing.PairingConfig(delegate=RefusingDelegate())


class CharlieApp:
    """The secure peripheral's database, pairing mode and address."""

    def __init__(self, device: Device, controller: PeerController):
        self.device = device
        self.controller = controller
        self.mode = 'sc'
        # The number charlie showed last (Passkey Entry or Numeric Comparison), for the `last-number` control line.
        self.last_number: int | None = None
        # Keyboard modes: the passkey being typed (`type-passkey N` resolves it).
        self.typed: asyncio.Future | None = None
        self.typed_early: int | None = None
        self.counter_tasks: dict[int, asyncio.Task] = {}
        self.counter = 0
        self.address = device.random_address
        # Links encrypted with an authenticated (MITM) key, by connection handle.
        self.mitm_links: set[int] = set()
        # The CSRK each central gave in pairing (as sent, least significant octet first), by its address; the last
        # SignCounter accepted from it; what became of each signed write (`signed-log`, at most 64 entries).
        self.csrks: dict[str, bytes] = {}
        self.sign_counters: dict[str, int] = {}
        self.signed_log: list[str] = []
        device.pairing_config_factory = self._pairing_config
        device.on('connection', self._on_connection)

    def _pairing_config(self, _connection) -> pairing.PairingConfig:
        if self.mode == 'refuse':
            return pairing.PairingConfig(delegate=RefusingDelegate())
        identity = pairing.PairingConfig.AddressType.RANDOM
        if self.mode in ('passkey', 'passkey-legacy'):
            return pairing.PairingConfig(sc=self.mode == 'passkey', mitm=True, bonding=True, identity_address_type=identity,
                                         delegate=DisplayDelegate(self, pairing.PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY))
        if self.mode in ('keyboard', 'keyboard-legacy'):
            return pairing.PairingConfig(sc=self.mode == 'keyboard', mitm=True, bonding=True, identity_address_type=identity,
                                         delegate=DisplayDelegate(self, pairing.PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY))
        if self.mode == 'numeric':
            return pairing.PairingConfig(sc=True, mitm=True, bonding=True, identity_address_type=identity,
                                         delegate=DisplayDelegate(self, pairing.PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT))
        return pairing.PairingConfig(sc=self.mode == 'sc', mitm=False, bonding=True,
                                     identity_address_type=pairing.PairingConfig.AddressType.RANDOM,
                                     delegate=pairing.PairingDelegate(local_initiator_key_distribution=KEYS,
                                                                      local_responder_key_distribution=KEYS))

    def services(self) -> list[Service]:
        self.signed_characteristic = Characteristic(SIGNED_UUID, R.READ | R.AUTHENTICATED_SIGNED_WRITES, READABLE | WRITEABLE,
                                                    b'unsigned')
        self.counter_characteristic = Characteristic(
            COUNTER_UUID, R.READ | R.NOTIFY, READABLE | att.Attribute.READ_REQUIRES_ENCRYPTION, bytes(4))
        return [Service(CHARLIE_SERVICE_UUID, [
            Characteristic(ENCRYPTED_UUID, R.READ | R.WRITE,
                           READABLE | WRITEABLE | att.Attribute.READ_REQUIRES_ENCRYPTION
                           | att.Attribute.WRITE_REQUIRES_ENCRYPTION, ENCRYPTED_VALUE),
            # Bumble marks every paired link authenticated, Just Works too; this one needs an authenticated
            # (MITM) key, as Core v5.4 Vol 3 Part C §10.3.1 means it: checked here (_read_authenticated).
            Characteristic(AUTHENTICATED_UUID, R.READ, READABLE, CharacteristicValue(read=self._read_authenticated)),
            self.counter_characteristic,
            Characteristic(OPEN_UUID, R.READ, READABLE, OPEN_VALUE),
            self.signed_characteristic,
        ])]

    def _read_authenticated(self, connection) -> bytes:
        """Insufficient Authentication (0x05) unless the link is encrypted with a key made with MITM protection."""
        if not connection.encryption or connection.handle not in self.mitm_links:
            raise att.ATT_Error(error_code=0x05)
        return AUTHENTICATED_VALUE

    def _on_connection(self, connection) -> None:
        def paired(keys) -> None:
            if any(key is not None and key.authenticated for key in (keys.ltk, keys.ltk_central, keys.ltk_peripheral)):
                self.mitm_links.add(connection.handle)
            if keys.csrk is not None:
                central = str(connection.peer_address).split('/')[0]
                self.csrks[central] = bytes(keys.csrk.value)
                self.sign_counters.pop(central, None)

        connection.on('pairing', paired)
        connection.on('disconnection', lambda _reason: self.mitm_links.discard(connection.handle))

    def on_signed_write(self, bearer, pdu) -> None:
        """Bumble's server leaves Signed Write Commands (0xD2) alone: verified here (Core v5.4 Vol 3 Part H §2.4.5,
        Vol 3 Part C §10.4.2) with the central's CSRK: the MAC is the 64 most significant bits of AES-CMAC over
        (PDU up to the signature || SignCounter) taken as one number sent least significant octet first, and the
        SignCounter must grow. A write that fails is ignored, as the specification says."""
        connection = getattr(bearer, 'connection', bearer)
        central = str(connection.peer_address).split('/')[0]
        data = bytes(pdu.attribute_value)
        if len(data) < 12 or central not in self.csrks:
            return self._log_signed('no-key')
        value, signature = data[:-12], data[-12:]
        counter = int.from_bytes(signature[:4], 'little')
        message = bytes([0xD2]) + pdu.attribute_handle.to_bytes(2, 'little') + value + signature[:4]
        expected = aes_cmac(message[::-1], self.csrks[central][::-1])[:8][::-1]
        if signature[4:] != expected:
            return self._log_signed(f'{counter}:bad-mac')
        if central in self.sign_counters and counter <= self.sign_counters[central]:
            return self._log_signed(f'{counter}:replayed')
        if pdu.attribute_handle != self.signed_characteristic.handle:
            return self._log_signed(f'{counter}:wrong-handle')
        self.sign_counters[central] = counter
        self.signed_characteristic.value = value
        self._log_signed(f'{counter}:ok')

    def _log_signed(self, entry: str) -> None:
        self.signed_log = (self.signed_log + [entry])[-64:]

    def protect_counter_cccd(self) -> None:
        """The counter's CCCD needs encryption to be written (Vol 3 Part G §3.3.3.3 lets a server ask that)."""
        for attribute in self.device.gatt_server.attributes:
            if (attribute.type == gatt.GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR
                    and self.counter_characteristic.handle < attribute.handle <= self.counter_characteristic.end_group_handle):
                attribute.permissions |= att.Attribute.WRITE_REQUIRES_ENCRYPTION
        self.counter_characteristic.on('subscription', self._on_subscription)

    def _on_subscription(self, connection, notify_enabled: bool, _indicate_enabled: bool) -> None:
        task = self.counter_tasks.pop(connection.handle, None)
        if task:
            task.cancel()
        if notify_enabled:
            self.counter_tasks[connection.handle] = asyncio.get_running_loop().create_task(self._tick(connection))

    async def _tick(self, connection) -> None:
        try:
            while True:
                await asyncio.sleep(COUNTER_PERIOD_S)
                self.counter += 1
                await self.device.notify_subscriber(connection, self.counter_characteristic,
                                                    struct.pack('<I', self.counter))
        except (asyncio.CancelledError, Exception) as error:  # the link ended
            logger.info('counter: %r', error)

    async def rotate(self) -> str:
        """A new resolvable private address from the IRK; advertising goes on from it."""
        await self.device.stop_advertising()
        address = hci.Address.generate_private_address(CHARLIE_IRK[::-1])
        await self.device.send_command(hci.HCI_LE_Set_Random_Address_Command(random_address=address))
        self.device.random_address = address
        self.address = address
        await self.start_advertising()
        return str(address).split('/')[0]

    async def start_advertising(self) -> None:
        await self.device.start_advertising(advertising_type=AdvertisingType(adv.ADV_TYPE_IND), own_address_type=1,
                                            auto_restart=True, advertising_data=advertising_data(),
                                            scan_response_data=b'')

    async def forget(self) -> None:
        """Drops every key (the peer "removed pairing information": a reconnect's encryption fails, PIN or Key Missing)."""
        self.device.keystore = MemoryKeyStore()
        self.csrks.clear()
        self.sign_counters.clear()

    async def request_security(self) -> int:
        """Sends a Security Request (Vol 3 Part H §3.6.7) on every link; the count."""
        count = 0
        for connection in list(self.device.connections.values()):
            connection.request_pairing()
            count += 1
        return count


def fix_legacy_key_lookup(device: Device) -> None:
    """Corrects a fault of Bumble's peripheral (0.0.236): after legacy pairing it keeps the LTK it distributed as
    `ltk_central` and, asked for a key as the peripheral, answers with `ltk_peripheral` (the central's, empty when the
    central distributed none), so a central re-encrypting with the distributed LTK, EDIV and Rand (Core v5.4 Vol 3
    Part H §2.4.4.1) meets a MIC failure. The corrected lookup answers with the key this side distributed when EDIV and
    Rand match it."""
    original = device.get_long_term_key

    async def get_long_term_key(connection_handle: int, rand: bytes, ediv: int):
        connection = device.lookup_connection(connection_handle)
        if connection is not None and (session_key := device.smp_manager.get_long_term_key(connection, rand, ediv)):
            return session_key  # a pairing on this link: its key first, as Bumble does
        if connection is not None and device.keystore is not None:
            keys = await device.keystore.get(str(connection.peer_address))
            distributed = keys.ltk_central if keys is not None and keys.ltk is None else None
            if distributed is not None and distributed.ediv == ediv and distributed.rand == rand:
                return distributed.value
        return await original(connection_handle, rand, ediv)

    device.get_long_term_key = get_long_term_key
    device.host.long_term_key_provider = get_long_term_key  # the host took the bound method at init


def advertising_data() -> bytes:
    return (adv.ad(adv.AD_FLAGS, bytes([adv.FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
            + adv.ad(adv.AD_COMPLETE_NAME, CHARLIE_NAME.encode())
            + adv.ad(adv.AD_COMPLETE_128, adv.uuid128_le(CHARLIE_SERVICE_UUID)))


async def make_charlie(link) -> tuple[CharlieApp, dict]:
    """Starts the secure peripheral on `link`; its READY entry."""
    controller = PeerController('peer-charlie', link, public_address=None, extended=False, rssi=CHARLIE_RSSI)
    config = DeviceConfiguration()
    config.name = CHARLIE_NAME
    config.address = hci.Address(CHARLIE_IDENTITY, hci.Address.RANDOM_DEVICE_ADDRESS)
    config.gap_service_enabled = False
    config.gatt_service_enabled = False
    config.advertising_interval_min = config.advertising_interval_max = CHARLIE_INTERVAL_MS
    config.irk = CHARLIE_IRK[::-1]  # Bumble keeps keys little-endian
    device = Device(config=config, host=Host(controller, controller))
    device.keystore = MemoryKeyStore()
    fix_legacy_key_lookup(device)
    app = CharlieApp(device, controller)
    device.add_services(app.services())
    app.protect_counter_cccd()
    device.gatt_server.on_att_signed_write_command = app.on_signed_write
    await device.power_on()
    rpa = hci.Address.generate_private_address(config.irk)
    await device.send_command(hci.HCI_LE_Set_Random_Address_Command(random_address=rpa))
    device.random_address = rpa
    app.address = rpa
    await app.start_advertising()
    entry = {'name': 'charlie', 'address': str(rpa).split('/')[0], 'addressType': 'random', 'role': 'secure',
             'identityAddress': CHARLIE_IDENTITY, 'irk': CHARLIE_IRK.hex(), 'connectable': True, 'rssi': CHARLIE_RSSI,
             'advertisingData': advertising_data().hex(), 'scanResponseData': '', 'intervalMs': CHARLIE_INTERVAL_MS}
    return app, entry
