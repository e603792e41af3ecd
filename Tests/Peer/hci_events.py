"""Raw HCI event builders (Core v5.4 Vol 4 Part E §7.7), byte-exact, for the events the peer's controller adds."""

from __future__ import annotations

import struct

# H4 packet indicators (Core v5.4 Vol 4 Part A §2).
H4_COMMAND = 0x01
H4_ACL = 0x02
H4_EVENT = 0x04

# Event codes (Core v5.4 Vol 4 Part E §7.7).
EVT_DISCONNECTION_COMPLETE = 0x05
EVT_ENCRYPTION_CHANGE = 0x08
EVT_READ_REMOTE_VERSION_INFORMATION_COMPLETE = 0x0C
EVT_COMMAND_COMPLETE = 0x0E
EVT_COMMAND_STATUS = 0x0F
EVT_HARDWARE_ERROR = 0x10
EVT_NUMBER_OF_COMPLETED_PACKETS = 0x13
EVT_LE_META = 0x3E

# LE Meta subevent codes (Core v5.4 Vol 4 Part E §7.7.65).
LE_CONNECTION_COMPLETE = 0x01
LE_ADVERTISING_REPORT = 0x02
LE_DATA_LENGTH_CHANGE = 0x07
LE_READ_LOCAL_P256_PUBLIC_KEY_COMPLETE = 0x08
LE_ENHANCED_CONNECTION_COMPLETE = 0x0A
LE_PHY_UPDATE_COMPLETE = 0x0C
LE_EXTENDED_ADVERTISING_REPORT = 0x0D

# Status codes (Core v5.4 Vol 1 Part F §1.3).
SUCCESS = 0x00
UNKNOWN_HCI_COMMAND = 0x01
UNKNOWN_CONNECTION_IDENTIFIER = 0x02
COMMAND_DISALLOWED = 0x0C
INVALID_HCI_COMMAND_PARAMETERS = 0x12
CONNECTION_TIMEOUT = 0x08

# Legacy advertising report event types (Core v5.4 Vol 4 Part E §7.7.65.2).
ADV_IND = 0x00
ADV_DIRECT_IND = 0x01
ADV_SCAN_IND = 0x02
ADV_NONCONN_IND = 0x03
SCAN_RSP = 0x04

# Extended report event types for legacy PDUs (Core v5.4 Vol 4 Part E §7.7.65.13):
# bit0 connectable, bit1 scannable, bit2 directed, bit3 scan response, bit4 legacy.
EXT_EVENT_TYPE_FOR_LEGACY = {
    ADV_IND: 0x13,
    ADV_DIRECT_IND: 0x15,
    ADV_SCAN_IND: 0x12,
    ADV_NONCONN_IND: 0x10,
}
EXT_SCAN_RSP_TO_ADV_IND = 0x1B
EXT_SCAN_RSP_TO_ADV_SCAN_IND = 0x1A


def event(code: int, params: bytes) -> bytes:
    """An H4 event packet: 0x04, event code, parameter length, parameters."""
    return bytes([H4_EVENT, code, len(params)]) + params


def le_meta(subevent: int, params: bytes) -> bytes:
    """An H4 LE Meta event (0x3E) with its subevent code."""
    return event(EVT_LE_META, bytes([subevent]) + params)


def command_complete(opcode: int, return_parameters: bytes) -> bytes:
    """Command Complete (§7.7.14): Num_HCI_Command_Packets = 1, opcode, return parameters."""
    return event(EVT_COMMAND_COMPLETE, struct.pack('<BH', 1, opcode) + return_parameters)


def command_status(opcode: int, status: int) -> bytes:
    """Command Status (§7.7.15): status, Num_HCI_Command_Packets = 1, opcode."""
    return event(EVT_COMMAND_STATUS, struct.pack('<BBH', status, 1, opcode))


def hardware_error(code: int) -> bytes:
    """Hardware Error (§7.7.16): one hardware code byte."""
    return event(EVT_HARDWARE_ERROR, bytes([code & 0xFF]))


def read_remote_version_complete(handle: int, version: int, company: int, subversion: int) -> bytes:
    """Read Remote Version Information Complete (§7.7.12)."""
    return event(EVT_READ_REMOTE_VERSION_INFORMATION_COMPLETE,
                 struct.pack('<BHBHH', SUCCESS, handle, version, company, subversion))


def advertising_report(event_type: int, address_type: int, address: bytes, data: bytes, rssi: int) -> bytes:
    """LE Advertising Report (§7.7.65.2) with one report; address is 6 bytes little-endian."""
    params = struct.pack('<BBB', 1, event_type, address_type) + address + bytes([len(data)]) + data
    params += struct.pack('<b', rssi)
    return le_meta(LE_ADVERTISING_REPORT, params)


def extended_advertising_report(event_type: int, address_type: int, address: bytes, data: bytes, rssi: int,
                                legacy: bool, sid: int | None = None, tx_power: int = 0x7F) -> bytes:
    """LE Extended Advertising Report (§7.7.65.13) with one complete report (data status 0b00).

    Legacy PDUs: secondary PHY 0 (none), SID 0xFF (none); extended ones: secondary PHY LE 1M, SID `sid` (default 0).
    tx_power is int8 dBm, 0x7F (127) = not available."""
    return extended_advertising_reports(event_type, address_type, address, data, rssi, legacy, sid, tx_power)[0]


# Most Data bytes one LE Extended Advertising Report can carry: 255 parameter octets − subevent code (1) −
# Num_Reports (1) − the report's fixed fields (24) = 229 (Core v5.4 Vol 4 Part E §7.7.65.13).
MAX_EXTENDED_REPORT_DATA = 229
DATA_STATUS_INCOMPLETE_MORE = 0b01  # Event_Type bits 5-6: incomplete, more data to come


def extended_advertising_reports(event_type: int, address_type: int, address: bytes, data: bytes, rssi: int,
                                 legacy: bool, sid: int | None = None, tx_power: int = 0x7F,
                                 fragment: int = MAX_EXTENDED_REPORT_DATA) -> list[bytes]:
    """The LE Extended Advertising Reports (§7.7.65.13) a controller sends for one advertising event: data longer
    than `fragment` bytes is split over several reports, each but the last with data status 0b01 (incomplete,
    more to come), the last with 0b00 (complete); the other fields repeat."""
    primary_phy = 0x01
    secondary_phy = 0x00 if legacy else 0x01
    sid = 0xFF if legacy else (0x00 if sid is None else sid)
    chunks = [data[i:i + fragment] for i in range(0, len(data), fragment)] or [b'']
    packets = []
    for index, chunk in enumerate(chunks):
        status = DATA_STATUS_INCOMPLETE_MORE if index < len(chunks) - 1 else 0b00
        params = struct.pack('<BHB', 1, event_type | (status << 5), address_type) + address
        params += struct.pack('<BBBbbHB', primary_phy, secondary_phy, sid, tx_power, rssi, 0, 0x00)
        params += bytes(6) + bytes([len(chunk)]) + chunk
        packets.append(le_meta(LE_EXTENDED_ADVERTISING_REPORT, params))
    return packets


def connection_complete(status: int, handle: int, role: int, peer_type: int, peer: bytes, interval: int,
                        latency: int, timeout: int, accuracy: int) -> bytes:
    """LE Connection Complete (§7.7.65.1)."""
    params = struct.pack('<BHBB', status, handle, role, peer_type) + peer
    params += struct.pack('<HHHB', interval, latency, timeout, accuracy)
    return le_meta(LE_CONNECTION_COMPLETE, params)


def enhanced_connection_complete(status: int, handle: int, role: int, peer_type: int, peer: bytes,
                                 interval: int, latency: int, timeout: int, accuracy: int) -> bytes:
    """LE Enhanced Connection Complete [v1] (§7.7.65.10); both resolvable private addresses all zero."""
    params = struct.pack('<BHBB', status, handle, role, peer_type) + peer + bytes(12)
    params += struct.pack('<HHHB', interval, latency, timeout, accuracy)
    return le_meta(LE_ENHANCED_CONNECTION_COMPLETE, params)


def data_length_change(handle: int, tx_octets: int, tx_time: int, rx_octets: int, rx_time: int) -> bytes:
    """LE Data Length Change (§7.7.65.7)."""
    return le_meta(LE_DATA_LENGTH_CHANGE, struct.pack('<HHHHH', handle, tx_octets, tx_time, rx_octets, rx_time))


def phy_update_complete(status: int, handle: int, tx_phy: int, rx_phy: int) -> bytes:
    """LE PHY Update Complete (§7.7.65.12)."""
    return le_meta(LE_PHY_UPDATE_COMPLETE, struct.pack('<BHBB', status, handle, tx_phy, rx_phy))


def p256_public_key_complete(key: bytes) -> bytes:
    """LE Read Local P-256 Public Key Complete (§7.7.65.8): status and the 64-byte key (X then Y, little-endian)."""
    return le_meta(LE_READ_LOCAL_P256_PUBLIC_KEY_COMPLETE, bytes([SUCCESS]) + key)


def acl_fragments(handle: int, pdu: bytes, size: int) -> list[bytes]:
    """H4 ACL packets carrying one L2CAP PDU in fragments of at most `size` bytes.

    First fragment PB = 0b10 (first automatically flushable), the rest PB = 0b01 (continuing), BC = 0b00
    (Core v5.4 Vol 4 Part E §5.4.2).
    """
    packets = []
    offset = 0
    first = True
    while first or offset < len(pdu):
        chunk = pdu[offset:offset + size]
        pb = 0b10 if first else 0b01
        header = struct.pack('<HH', (handle & 0x0FFF) | (pb << 12), len(chunk))
        packets.append(bytes([H4_ACL]) + header + chunk)
        offset += len(chunk)
        first = False
    return packets
