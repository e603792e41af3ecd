"""The GATT databases of the peer's two peripherals (Core v5.4 Vol 3 Part G §3), with their test controls.

Handles are deterministic: services are added in a fixed order, secondary services before the service that
includes them. Tests/Peer/README.md lists every handle; `peer.py --dump-gatt` prints them from this code.
"""

from __future__ import annotations

import asyncio
import logging
import struct

from bumble import att, gatt
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service

import advertisers as adv

logger = logging.getLogger('peer.gatt')

R = Characteristic.Properties
READABLE = att.Attribute.READABLE
WRITEABLE = att.Attribute.WRITEABLE
RW = READABLE | WRITEABLE


def custom(alpha_or_bravo: int, n: int) -> str:
    """Custom 128-bit UUID 0CBxnnnn-7E57-4C0D-A9E5-0123456789AB."""
    return f'0CB{alpha_or_bravo}{n:04X}-7E57-4C0D-A9E5-0123456789AB'


# ATT error codes (Core v5.4 Vol 3 Part F §3.4.1.1).
READ_NOT_PERMITTED = 0x02
WRITE_NOT_PERMITTED = 0x03
INSUFFICIENT_AUTHENTICATION = 0x05
INVALID_ATTRIBUTE_VALUE_LENGTH = 0x0D
APPLICATION_ERROR = 0x80

LONG_VALUE = bytes(i & 0xFF for i in range(512))
STATIC_READ_VALUE = b'Hello, OpenCoreBluetooth'
WRITABLE_INITIAL = bytes([0x00])
RELIABLE_INITIAL = b'reliable'
ALL_PROPS_INITIAL = bytes([0x01, 0x02, 0x03, 0x04])
READ_ONLY_VALUE = b'read-only'
SECONDARY_VALUE = b'secondary'
DYNAMIC_VALUE = b'dynamic'
TX_POWER_LEVEL = -8
BATTERY_ALPHA = 100
BATTERY_BRAVO = 85
HEART_RATE_PERIOD_S = 0.1
APPEARANCE_HEART_RATE_SENSOR = 0x0340
CCCD_NOTIFY = 0x0001

# Presentation Format (0x2904): utf8s (0x19), exponent 0, unit 0x2700 unitless, namespace 0x01 SIG, description 0.
PRESENTATION_UTF8 = struct.pack('<BbHBH', 0x19, 0, 0x2700, 0x01, 0x0000)
# Extended Properties (0x2900): bit 0 Reliable Write, bit 1 Writable Auxiliaries.
EXTENDED_RELIABLE_AND_AUXILIARIES = struct.pack('<H', 0x0003)


def install_permission_checks() -> None:
    """Make Bumble's server refuse reads of non-readable and writes of non-writable attributes
    with Read Not Permitted (0x02) / Write Not Permitted (0x03), as Core v5.4 Vol 3 Part F §3.2.5 requires."""
    read_value, write_value = att.Attribute.read_value, att.Attribute.write_value

    async def checked_read(self, bearer):
        if not self.permissions & att.Attribute.READABLE:
            raise att.ATT_Error(error_code=READ_NOT_PERMITTED, att_handle=self.handle)
        return await read_value(self, bearer)

    async def checked_write(self, bearer, value):
        if not self.permissions & att.Attribute.WRITEABLE:
            raise att.ATT_Error(error_code=WRITE_NOT_PERMITTED, att_handle=self.handle)
        return await write_value(self, bearer, value)

    att.Attribute.read_value = checked_read
    att.Attribute.write_value = checked_write


def fix_include_declarations(server) -> None:
    """Bumble packs a 128-bit included service UUID into 2 bytes; the declaration must then hold only the two
    handles (Core v5.4 Vol 3 Part G §3.2), so the client reads the UUID with a Read Request."""
    for attribute in server.attributes:
        if isinstance(attribute, gatt.IncludedServiceDeclaration):
            service = attribute.service
            uuid_bytes = service.uuid.to_bytes()
            value = struct.pack('<HH', service.handle, service.end_group_handle)
            attribute.value = value + uuid_bytes if len(uuid_bytes) == 2 else value


def failing(read_error: int | None, write_error: int | None) -> CharacteristicValue:
    def read(_connection):
        raise att.ATT_Error(error_code=read_error)

    def write(_connection, _value):
        raise att.ATT_Error(error_code=write_error)

    return CharacteristicValue(read=read if read_error else None, write=write if write_error else None)


def install_mtu_limits(server) -> dict:
    """Makes the server's Exchange MTU answer (Core v5.4 Vol 3 Part F §3.4.2.2) depend on the client: the returned map,
    client address text → server Rx MTU, overrides the server's maximum for that client (control line `mtu`)."""
    limits: dict[str, int] = {}
    original = server.on_att_exchange_mtu_request

    def limited(bearer, request):
        address = str(getattr(bearer, 'peer_address', '')).split('/')[0]
        saved = server.max_mtu
        server.max_mtu = limits.get(address, saved)
        try:
            original(bearer, request)
        finally:
            server.max_mtu = saved

    server.on_att_exchange_mtu_request = limited
    return limits


def install_discovery_fault(server, app) -> None:
    """Alpha's control 07: while `app.break_discovery` is set, Read By Type Requests for «Characteristic» (0x2803)
    starting inside the Tx Power secondary service (0x0024-0x0026) get ATT_READ_BY_TYPE_RSP with Length 0, which
    no entry can have (Core v5.4 Vol 3 Part F §3.4.4.2): a malformed response in one service's discovery."""
    original = server.on_att_read_by_type_request

    def read_by_type(bearer, request):
        if (getattr(app, 'break_discovery', False) and request.attribute_type == gatt.GATT_CHARACTERISTIC_ATTRIBUTE_TYPE
                and 0x0024 <= request.starting_handle <= 0x0026):
            server.send_gatt_pdu(bearer, bytes([0x09, 0x00]))
            return None
        return original(bearer, request)

    server.on_att_read_by_type_request = read_by_type

    # Alpha's control 08: after it, Read Requests on the connection that wrote it are never answered (the client's
    # 30 s ATT transaction timeout is what ends them, Core v5.4 Vol 3 Part F §3.3.3); other connections are served.
    original_read = server.on_att_read_request

    def read(bearer, request):
        if getattr(bearer, 'connection', bearer) in getattr(app, 'stalled_connections', ()):
            return None
        return original_read(bearer, request)

    server.on_att_read_request = read


class PeripheralApp:
    """One peripheral's database plus the behaviour behind its control characteristics."""

    def __init__(self, device, name: str, scan_response_builder):
        self.device = device
        self.name = name
        self.scan_response_builder = scan_response_builder
        self.heart_rate_tasks: dict[int, asyncio.Task] = {}
        self.dynamic_service: Service | None = None
        self.service_changed: Characteristic | None = None
        # Connections whose Read Requests go unanswered (control 08).
        self.stalled_connections: set = set()

    # ------------------------------------------------------------------ common services
    def gap_service(self, appearance: int) -> Service:
        self.device_name = Characteristic(gatt.GATT_DEVICE_NAME_CHARACTERISTIC, R.READ, READABLE,
                                          self.name.encode())
        return Service(gatt.GATT_GENERIC_ACCESS_SERVICE, [
            self.device_name,
            Characteristic(gatt.GATT_APPEARANCE_CHARACTERISTIC, R.READ, READABLE, struct.pack('<H', appearance)),
        ])

    def gatt_service(self) -> Service:
        self.service_changed = Characteristic(gatt.GATT_SERVICE_CHANGED_CHARACTERISTIC, R.INDICATE, 0,
                                              bytes(4))
        return Service(gatt.GATT_GENERIC_ATTRIBUTE_SERVICE, [self.service_changed])

    def set_name(self, name: str) -> None:
        self.device_name.value = name.encode()
        self.device.scan_response_data = self.scan_response_builder(name)

    def disconnect_soon(self, connection) -> None:
        """Disconnect (Remote User Terminated, 0x13) once the Write Response is out."""
        async def run():
            await asyncio.sleep(0.02)
            try:
                await connection.disconnect(0x13)
            except Exception as error:
                logger.info('disconnect: %s', error)
        asyncio.get_running_loop().create_task(run())


class AlphaApp(PeripheralApp):
    """Peripheral A: every GATT feature (see README.md, "OCB Alpha")."""

    def __init__(self, device):
        super().__init__(device, adv.ALPHA_NAME, lambda name: (
            adv.ad(adv.AD_COMPLETE_NAME, name.encode()) + adv.ad(adv.AD_COMPLETE_128,
                                                                 adv.uuid128_le(adv.ALPHA_SERVICE_UUID))))

    def services(self) -> list[Service]:
        device_information = Service(gatt.GATT_DEVICE_INFORMATION_SERVICE, [
            Characteristic(gatt.GATT_MANUFACTURER_NAME_STRING_CHARACTERISTIC, R.READ, READABLE,
                           b'OpenCoreBluetooth'),
            Characteristic(gatt.GATT_MODEL_NUMBER_STRING_CHARACTERISTIC, R.READ, READABLE, b'Peer-A'),
            Characteristic(gatt.GATT_SERIAL_NUMBER_STRING_CHARACTERISTIC, R.READ, READABLE, b'0CB-0001'),
            Characteristic(gatt.GATT_FIRMWARE_REVISION_STRING_CHARACTERISTIC, R.READ, READABLE, b'1.0.0'),
            Characteristic(gatt.GATT_SOFTWARE_REVISION_STRING_CHARACTERISTIC, R.READ, READABLE, b'1.0'),
        ])
        self.battery_level = Characteristic(gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, R.READ | R.NOTIFY, READABLE,
                                            bytes([BATTERY_ALPHA]))
        battery = Service(gatt.GATT_BATTERY_SERVICE, [self.battery_level])
        self.heart_rate_measurement = Characteristic(gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC, R.NOTIFY, 0)
        self.heart_rate_measurement.on('subscription', self._on_heart_rate_subscription)
        heart_rate = Service(gatt.GATT_HEART_RATE_SERVICE, [
            self.heart_rate_measurement,
            Characteristic(gatt.GATT_BODY_SENSOR_LOCATION_CHARACTERISTIC, R.READ, READABLE, bytes([0x01])),
            Characteristic(gatt.GATT_HEART_RATE_CONTROL_POINT_CHARACTERISTIC, R.WRITE, WRITEABLE,
                           CharacteristicValue(write=self._heart_rate_control_point)),
        ])
        secondary_128 = Service(custom(1, 0x0100), [
            Characteristic(custom(1, 0x0101), R.READ, READABLE, SECONDARY_VALUE),
        ], primary=False)
        secondary_tx_power = Service(gatt.GATT_TX_POWER_SERVICE, [
            Characteristic(gatt.GATT_TX_POWER_LEVEL_CHARACTERISTIC, R.READ, READABLE,
                           struct.pack('<b', TX_POWER_LEVEL)),
        ], primary=False)
        self.writable = Characteristic(custom(1, 0x0004), R.READ | R.WRITE | R.WRITE_WITHOUT_RESPONSE, RW,
                                       WRITABLE_INITIAL, [Descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR,
                                                                     READABLE, b'Writable value')])
        self.reliable_description = Descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, RW,
                                               b'Reliable write target')
        self.reliable = Characteristic(custom(1, 0x0005), R.READ | R.WRITE | R.EXTENDED_PROPERTIES, RW,
                                       RELIABLE_INITIAL, [
                                           Descriptor(gatt.GATT_CHARACTERISTIC_EXTENDED_PROPERTIES_DESCRIPTOR,
                                                      READABLE, EXTENDED_RELIABLE_AND_AUXILIARIES),
                                           self.reliable_description])
        self.all_properties = Characteristic(custom(1, 0x0006), R(0xFF), RW, ALL_PROPS_INITIAL, [
            Descriptor(gatt.GATT_CHARACTERISTIC_EXTENDED_PROPERTIES_DESCRIPTOR, READABLE,
                       EXTENDED_RELIABLE_AND_AUXILIARIES),
            Descriptor(gatt.GATT_SERVER_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, RW, bytes(2)),
            Descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, READABLE, b'All properties'),
        ])
        self.notify_burst = Characteristic(custom(1, 0x0007), R.NOTIFY, 0)
        self.indicate_burst = Characteristic(custom(1, 0x0008), R.INDICATE, 0)
        test_service = Service(adv.ALPHA_SERVICE_UUID, [
            Characteristic(custom(1, 0x0002), R.READ, READABLE, STATIC_READ_VALUE, [
                Descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, READABLE, b'Static read value'),
                Descriptor(gatt.GATT_CHARACTERISTIC_PRESENTATION_FORMAT_DESCRIPTOR, READABLE,
                           PRESENTATION_UTF8),
            ]),
            Characteristic(custom(1, 0x0003), R.READ, READABLE, LONG_VALUE),
            self.writable,
            self.reliable,
            self.all_properties,
            self.notify_burst,
            self.indicate_burst,
            Characteristic(custom(1, 0x0009), R.WRITE | R.WRITE_WITHOUT_RESPONSE, WRITEABLE,
                           CharacteristicValue(write=self._burst_control)),
            Characteristic(custom(1, 0x000A), R.WRITE, WRITEABLE, b''),  # write-only: read gives 0x02
            Characteristic(custom(1, 0x000B), R.READ, READABLE, READ_ONLY_VALUE),  # write gives 0x03
            Characteristic(custom(1, 0x000C), R.READ | R.WRITE,
                           att.Attribute.READ_REQUIRES_AUTHENTICATION | att.Attribute.WRITE_REQUIRES_AUTHENTICATION
                           | RW, b'secret'),
            Characteristic(custom(1, 0x000D), R.READ | R.WRITE, RW, failing(APPLICATION_ERROR, APPLICATION_ERROR)),
            Characteristic(custom(1, 0x000E), R.WRITE | R.WRITE_WITHOUT_RESPONSE, WRITEABLE,
                           CharacteristicValue(write=self._peer_control)),
        ], included_services=[secondary_128, secondary_tx_power])
        return [self.gap_service(APPEARANCE_HEART_RATE_SENSOR), self.gatt_service(), device_information, battery,
                heart_rate, secondary_128, secondary_tx_power, test_service]

    # ------------------------------------------------------------------ behaviour
    def _heart_rate_control_point(self, _connection, value: bytes) -> None:
        if value != bytes([0x01]):  # 0x01 = Reset Energy Expended; anything else: Control Point Not Supported
            raise att.ATT_Error(error_code=APPLICATION_ERROR)

    def _on_heart_rate_subscription(self, connection, notify_enabled: bool, _indicate_enabled: bool) -> None:
        handle = connection.handle
        task = self.heart_rate_tasks.pop(handle, None)
        if task:
            task.cancel()
        if notify_enabled:
            self.heart_rate_tasks[handle] = asyncio.get_running_loop().create_task(self._tick_heart_rate(connection))

    async def _tick_heart_rate(self, connection) -> None:
        tick = 0
        try:
            while connection.handle in self.device.connections:
                # Flags 0x00 (UINT8 bpm, no contact/energy/RR), bpm = 60 + tick % 60.
                await self.device.notify_subscriber(connection, self.heart_rate_measurement,
                                                    bytes([0x00, 60 + tick % 60]))
                tick += 1
                await asyncio.sleep(HEART_RATE_PERIOD_S)
        except asyncio.CancelledError:
            pass
        except Exception as error:
            logger.info('heart rate ticker ended: %s', error)

    def _burst_control(self, connection, value: bytes) -> None:
        if len(value) != 3 or value[0] not in (0x01, 0x02):
            raise att.ATT_Error(error_code=INVALID_ATTRIBUTE_VALUE_LENGTH if len(value) != 3 else APPLICATION_ERROR)
        kind = value[0]
        count = struct.unpack_from('<H', value, 1)[0]

        async def run():
            await asyncio.sleep(0)
            for i in range(count):
                payload = struct.pack('<HH', i, count)
                try:
                    if kind == 0x01:
                        await self.device.notify_subscriber(connection, self.notify_burst, payload)
                    else:
                        await self.device.indicate_subscriber(connection, self.indicate_burst, payload)
                except Exception as error:
                    logger.info('burst ended at %d: %s', i, error)
                    return
        asyncio.get_running_loop().create_task(run())

    def _dynamic(self) -> Service:
        return Service(custom(1, 0x0200), [Characteristic(custom(1, 0x0201), R.READ, READABLE, DYNAMIC_VALUE)])

    def toggle_dynamic_service(self) -> tuple[int, int]:
        """Add the dynamic service at the end of the database, or remove it; returns its handle range."""
        server = self.device.gatt_server
        if self.dynamic_service is None:
            self.dynamic_service = self._dynamic()
            server.add_service(self.dynamic_service)
            return self.dynamic_service.handle, self.dynamic_service.end_group_handle
        start, end = self.dynamic_service.handle, self.dynamic_service.end_group_handle
        server.attributes = [a for a in server.attributes if a.handle < start]
        server.services.remove(self.dynamic_service)
        server.attributes_by_handle.clear()
        self.dynamic_service = None
        return start, end

    async def indicate_service_changed(self, start: int, end: int, connection=None) -> None:
        """Indicates Service Changed (start, end) to `connection`, or to every subscriber when None. Bumble keeps the
        subscriptions of links that ended (keyed by bearer), so a broadcast can reach the same host twice."""
        value = struct.pack('<HH', start, end)
        if connection is not None:
            await self.device.indicate_subscriber(connection, self.service_changed, value)
        else:
            await self.device.indicate_subscribers(self.service_changed, value)

    def restore(self) -> None:
        self.break_discovery = False
        self.stalled_connections.clear()
        self.writable.value = WRITABLE_INITIAL
        self.reliable.value = RELIABLE_INITIAL
        self.reliable_description.value = b'Reliable write target'
        self.all_properties.value = ALL_PROPS_INITIAL
        self.set_name(adv.ALPHA_NAME)
        if self.dynamic_service is not None:
            self.toggle_dynamic_service()

    def _peer_control(self, connection, value: bytes) -> None:
        if not value:
            raise att.ATT_Error(error_code=INVALID_ATTRIBUTE_VALUE_LENGTH)
        op = value[0]
        loop = asyncio.get_running_loop()
        if op == 0x01:
            self.disconnect_soon(connection)
        elif op == 0x02:
            start, end = self.toggle_dynamic_service()
            loop.create_task(self.indicate_service_changed(start, end, connection))
        elif op == 0x04:
            self.set_name(value[1:].decode('utf-8', 'replace'))
        elif op == 0x05:
            async def update():
                try:
                    await asyncio.wait_for(connection.update_parameters(30, 50, 0, 4000, use_l2cap=True), 5)
                except Exception as error:
                    logger.info('parameter update: %s', error)
            loop.create_task(update())
        elif op == 0x06:
            self.restore()
        elif op == 0x07:
            self.break_discovery = True
        elif op == 0x08:
            self.stalled_connections.add(connection)
        else:
            raise att.ATT_Error(error_code=APPLICATION_ERROR)


class BravoApp(PeripheralApp):
    """Peripheral B: a small database (see README.md, "OCB Bravo")."""

    def __init__(self, device):
        super().__init__(device, adv.BRAVO_NAME, lambda name: adv.ad(adv.AD_COMPLETE_NAME, name.encode())
                         + adv.BRAVO_SCAN_RSP_DATA[len(adv.ad(adv.AD_COMPLETE_NAME, adv.BRAVO_NAME.encode())):])

    def services(self) -> list[Service]:
        return [
            self.gap_service(0x0000),
            self.gatt_service(),
            Service(gatt.GATT_BATTERY_SERVICE, [
                Characteristic(gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, R.READ | R.NOTIFY, READABLE,
                               bytes([BATTERY_BRAVO]))]),
            Service(gatt.GATT_DEVICE_INFORMATION_SERVICE, [
                Characteristic(gatt.GATT_MANUFACTURER_NAME_STRING_CHARACTERISTIC, R.READ, READABLE,
                               b'OpenCoreBluetooth'),
                Characteristic(gatt.GATT_MODEL_NUMBER_STRING_CHARACTERISTIC, R.READ, READABLE, b'Peer-B')]),
            Service(adv.BRAVO_SERVICE_UUID, [
                Characteristic(custom(2, 0x0002), R.READ | R.WRITE, RW, b'Bravo'),
                Characteristic(custom(2, 0x000E), R.WRITE | R.WRITE_WITHOUT_RESPONSE, WRITEABLE,
                               CharacteristicValue(write=self._peer_control)),
            ]),
        ]

    def _peer_control(self, connection, value: bytes) -> None:
        if value[:1] == bytes([0x01]):
            self.disconnect_soon(connection)
        elif value[:1] == bytes([0x04]):
            self.set_name(value[1:].decode('utf-8', 'replace'))
        else:
            raise att.ATT_Error(error_code=APPLICATION_ERROR)
