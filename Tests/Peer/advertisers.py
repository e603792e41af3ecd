"""Every value the peer's peripherals and beacons advertise, as constants tests assert (Core v5.4 Vol 3 Part C §11, CSS Part A)."""

from __future__ import annotations

import struct
import uuid as uuidlib

# AD types (Assigned Numbers §2.3).
AD_FLAGS = 0x01
AD_INCOMPLETE_16 = 0x02
AD_COMPLETE_16 = 0x03
AD_INCOMPLETE_128 = 0x06
AD_COMPLETE_128 = 0x07
AD_SHORTENED_NAME = 0x08
AD_COMPLETE_NAME = 0x09
AD_TX_POWER = 0x0A
AD_SERVICE_DATA_16 = 0x16
AD_MANUFACTURER = 0xFF

FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED = 0x06
COMPANY_TEST = 0xFFFF  # "reserved for internal use / testing" company identifier
COMPANY_APPLE = 0x004C


def ad(ad_type: int, payload: bytes) -> bytes:
    """One AD structure: length (type + payload), type, payload."""
    return bytes([len(payload) + 1, ad_type]) + payload


def uuid128_le(text: str) -> bytes:
    """A 128-bit UUID in the little-endian order it has on air."""
    return uuidlib.UUID(text).bytes[::-1]


# ----------------------------------------------------------------------------- custom UUIDs
ALPHA_SERVICE_UUID = '0CB10001-7E57-4C0D-A9E5-0123456789AB'
BRAVO_SERVICE_UUID = '0CB20001-7E57-4C0D-A9E5-0123456789AB'

# ----------------------------------------------------------------------------- peripheral A ("OCB Alpha")
ALPHA_ADDRESS = 'C1:A0:00:00:00:01'  # random static
ALPHA_NAME = 'OCB Alpha'
ALPHA_SHORT_NAME = 'Alpha'
ALPHA_TX_POWER = -8  # dBm
ALPHA_RSSI = -45  # dBm, what scanners report
ALPHA_INTERVAL_MS = 50
ALPHA_SERVICE_UUIDS_16 = [0x180D, 0x180F]
ALPHA_SERVICE_DATA_16 = (0x180F, bytes([0x64]))  # Battery service, level 100 %
ALPHA_MANUFACTURER = (COMPANY_TEST, bytes([0x0C, 0xB1, 0x01]))
ALPHA_ADV_DATA = (
    ad(AD_FLAGS, bytes([FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
    + ad(AD_COMPLETE_16, b''.join(struct.pack('<H', u) for u in ALPHA_SERVICE_UUIDS_16))
    + ad(AD_SHORTENED_NAME, ALPHA_SHORT_NAME.encode())
    + ad(AD_TX_POWER, struct.pack('<b', ALPHA_TX_POWER))
    + ad(AD_SERVICE_DATA_16, struct.pack('<H', ALPHA_SERVICE_DATA_16[0]) + ALPHA_SERVICE_DATA_16[1])
    + ad(AD_MANUFACTURER, struct.pack('<H', ALPHA_MANUFACTURER[0]) + ALPHA_MANUFACTURER[1])
)
ALPHA_SCAN_RSP_DATA = (
    ad(AD_COMPLETE_NAME, ALPHA_NAME.encode())
    + ad(AD_COMPLETE_128, uuid128_le(ALPHA_SERVICE_UUID))
)

# ----------------------------------------------------------------------------- peripheral B ("OCB Bravo")
BRAVO_ADDRESS = 'C1:B0:00:00:00:02'  # random static
BRAVO_NAME = 'OCB Bravo'
BRAVO_SHORT_NAME = 'Bravo'
BRAVO_TX_POWER = 0  # dBm
BRAVO_RSSI = -60
BRAVO_INTERVAL_MS = 50
BRAVO_SERVICE_UUIDS_16 = [0x180A, 0x180F]
BRAVO_SERVICE_DATA_16 = (0x180A, bytes([0x01, 0x02]))
BRAVO_MANUFACTURER = (COMPANY_TEST, bytes([0x0C, 0xB2, 0x02, 0xB0]))
BRAVO_ADV_DATA = (
    ad(AD_FLAGS, bytes([FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
    + ad(AD_INCOMPLETE_128, uuid128_le(BRAVO_SERVICE_UUID))
    + ad(AD_TX_POWER, struct.pack('<b', BRAVO_TX_POWER))
    + ad(AD_SHORTENED_NAME, BRAVO_SHORT_NAME.encode())
)
BRAVO_SCAN_RSP_DATA = (
    ad(AD_COMPLETE_NAME, BRAVO_NAME.encode())
    + ad(AD_INCOMPLETE_16, b''.join(struct.pack('<H', u) for u in BRAVO_SERVICE_UUIDS_16))
    + ad(AD_MANUFACTURER, struct.pack('<H', BRAVO_MANUFACTURER[0]) + BRAVO_MANUFACTURER[1])
    + ad(AD_SERVICE_DATA_16, struct.pack('<H', BRAVO_SERVICE_DATA_16[0]) + BRAVO_SERVICE_DATA_16[1])
)

# ----------------------------------------------------------------------------- iBeacon (ADV_NONCONN_IND)
IBEACON_ADDRESS = 'C1:1B:EA:C0:00:03'  # random static
IBEACON_UUID = 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0'
IBEACON_MAJOR = 0x0102  # big-endian on air
IBEACON_MINOR = 0x0304  # big-endian on air
IBEACON_MEASURED_POWER = -59  # dBm at 1 m
IBEACON_RSSI = -70
IBEACON_INTERVAL_MS = 100
IBEACON_ADV_DATA = (
    ad(AD_FLAGS, bytes([FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
    + ad(AD_MANUFACTURER, struct.pack('<H', COMPANY_APPLE) + bytes([0x02, 0x15])
         + uuidlib.UUID(IBEACON_UUID).bytes + struct.pack('>HHb', IBEACON_MAJOR, IBEACON_MINOR,
                                                          IBEACON_MEASURED_POWER))
)

# ----------------------------------------------------------------------------- Eddystone-URL (ADV_NONCONN_IND)
EDDYSTONE_ADDRESS = 'C1:ED:D7:00:00:04'  # random static
EDDYSTONE_UUID_16 = 0xFEAA
EDDYSTONE_FRAME_URL = 0x10
EDDYSTONE_TX_POWER_0M = -21  # dBm at 0 m
EDDYSTONE_URL = 'https://example.com'  # scheme 0x03 "https://", "example", 0x07 ".com"
EDDYSTONE_RSSI = -75
EDDYSTONE_INTERVAL_MS = 100
EDDYSTONE_SERVICE_DATA = (struct.pack('<H', EDDYSTONE_UUID_16) + bytes([EDDYSTONE_FRAME_URL])
                          + struct.pack('<b', EDDYSTONE_TX_POWER_0M) + bytes([0x03]) + b'example' + bytes([0x07]))
EDDYSTONE_ADV_DATA = (
    ad(AD_FLAGS, bytes([FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
    + ad(AD_COMPLETE_16, struct.pack('<H', EDDYSTONE_UUID_16))
    + ad(AD_SERVICE_DATA_16, EDDYSTONE_SERVICE_DATA)
)

# ----------------------------------------------------------------------------- extended beacon (peer.py --extended-beacon)
# A non-connectable, non-scannable extended advertising set (event properties 0x0000, Vol 4 Part E §7.8.53) whose
# 271 bytes of data do not fit one LE Extended Advertising Report: scanners get 229 + 42 bytes (data status 0b01,
# then 0b00). Invisible to legacy scanning.
EXTENDED_NAME = 'extended'
EXTENDED_ADDRESS = 'C1:E7:00:00:00:05'  # random static
EXTENDED_LOCAL_NAME = 'OCB Extended'
EXTENDED_RSSI = -55
EXTENDED_TX_POWER = -4  # dBm, the report's TX_Power field
EXTENDED_SID = 5
EXTENDED_INTERVAL_MS = 100
EXTENDED_MANUFACTURER = (COMPANY_TEST, bytes(i & 0xFF for i in range(250)))  # 00 01 02 ... F9
EXTENDED_ADV_DATA = (
    ad(AD_FLAGS, bytes([FLAGS_LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED]))
    + ad(AD_COMPLETE_NAME, EXTENDED_LOCAL_NAME.encode())
    + ad(AD_MANUFACTURER, struct.pack('<H', EXTENDED_MANUFACTURER[0]) + EXTENDED_MANUFACTURER[1])
)
assert len(EXTENDED_ADV_DATA) == 271

# Legacy advertising types (Core v5.4 Vol 4 Part E §7.8.5).
ADV_TYPE_IND = 0x00
ADV_TYPE_NONCONN_IND = 0x03

# name, address, legacy advertising type, advertising data, scan response data, interval (ms), RSSI, role
ADVERTISERS = [
    ('alpha', ALPHA_ADDRESS, ADV_TYPE_IND, ALPHA_ADV_DATA, ALPHA_SCAN_RSP_DATA, ALPHA_INTERVAL_MS, ALPHA_RSSI,
     'peripheral'),
    ('bravo', BRAVO_ADDRESS, ADV_TYPE_IND, BRAVO_ADV_DATA, BRAVO_SCAN_RSP_DATA, BRAVO_INTERVAL_MS, BRAVO_RSSI,
     'peripheral'),
    ('ibeacon', IBEACON_ADDRESS, ADV_TYPE_NONCONN_IND, IBEACON_ADV_DATA, b'', IBEACON_INTERVAL_MS, IBEACON_RSSI,
     'beacon'),
    ('eddystone', EDDYSTONE_ADDRESS, ADV_TYPE_NONCONN_IND, EDDYSTONE_ADV_DATA, b'', EDDYSTONE_INTERVAL_MS,
     EDDYSTONE_RSSI, 'beacon'),
]

for _entry in ADVERTISERS:
    assert len(_entry[3]) <= 31 and len(_entry[4]) <= 31, _entry[0]
