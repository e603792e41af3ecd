"""The peer's virtual controller and radio: Bumble's Controller and LocalLink with their measured faults corrected.

Each numbered fault of ../shared/notes/bumble-virtual-controller.md is fixed here, marked `Fault N`.
Every controller on the PeerLink must be a PeerController (they exchange LegacyAdvPdu, not Bumble's AdvInd).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import struct
import time

from bumble import crypto, hci, ll
from bumble.controller import Connection, Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink

import hci_events as ev

logger = logging.getLogger('peer.controller')

# OCB_PEER_TIMELINE=PATH: each host-facing controller appends a line "SECONDS NAME EVENT" (time.monotonic(), i.e.
# CLOCK_MONOTONIC, which a host process on the same machine reads too) when it takes an LE (Extended) Create
# Connection command from its host ("create"; any other command is "command OPCODE", hex; ACL data is "acl") and when it hands its host's writer a successful LE Connection Complete
# as central ("complete QUEUED", QUEUED the bytes the writer holds before it): Benchmarks --flood splits a connect's time into the host's part and the peer's with it.
TIMELINE_PATH = os.environ.get('OCB_PEER_TIMELINE')


def note_timeline(name: str, event: str) -> None:
    if TIMELINE_PATH:
        with open(TIMELINE_PATH, 'a') as timeline:
            timeline.write(f'{time.monotonic():.6f} {name} {event}\n')

# Default masks after HCI_Reset (Core v5.4 Vol 4 Part E §7.3.1 and §7.8.1).
DEFAULT_EVENT_MASK = 0x00001FFFFFFFFFFF
DEFAULT_LE_EVENT_MASK = 0x000000000000001F
# Events subject to Set Event Mask, bit = event code - 1 (Core v5.4 Vol 4 Part E §7.3.1).
MASKABLE_EVENTS = {0x05, 0x08, 0x0C, 0x10, 0x30, 0x3E}

# Legacy and extended advertising command families (Core v5.4 Vol 4 Part E §3.1.1): once one is used,
# the other is disallowed until HCI_Reset.
LEGACY_FAMILY = {0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x200D}
EXTENDED_FAMILY = set(range(0x2035, 0x2044)) | {0x204A}
EXTENDED_COMMANDS = [
    hci.HCI_LE_SET_ADVERTISING_SET_RANDOM_ADDRESS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND,
    hci.HCI_LE_READ_MAXIMUM_ADVERTISING_DATA_LENGTH_COMMAND,
    hci.HCI_LE_READ_NUMBER_OF_SUPPORTED_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_REMOVE_ADVERTISING_SET_COMMAND,
    hci.HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND,
    hci.HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND,
]

CONNECTABLE_LEGACY = {ev.ADV_IND, ev.ADV_DIRECT_IND}
SCANNABLE_LEGACY = {ev.ADV_IND, ev.ADV_SCAN_IND}


@dataclasses.dataclass
class LegacyAdvPdu(ll.AdvertisingPdu):
    """A legacy advertising event on the virtual radio: its PDU type, data, the advertiser's scan response
    (answered to active scanners only) and the RSSI receivers report for it."""
    advertiser_address: hci.Address
    pdu_type: int
    data: bytes
    scan_response_data: bytes
    rssi: int


@dataclasses.dataclass
class ExtendedAdvPdu(ll.AdvertisingPdu):
    """An extended (non-legacy) advertising event on the virtual radio: ADV_EXT_IND with its AUX_ADV_IND /
    AUX_CHAIN_IND data already joined (Core v5.4 Vol 6 Part B §2.3.4). event_properties are the advertising set's
    (Vol 4 Part E §7.8.53: bit 0 connectable, bit 1 scannable); tx_power is int8 dBm (0x7F: not available)."""
    advertiser_address: hci.Address
    event_properties: int
    sid: int
    data: bytes
    rssi: int
    tx_power: int


class PeerLink(LocalLink):
    """LocalLink that routes ACL data and LL control PDUs by the connection's own address (Fault 8)."""

    def _find_connection_owner(self, receiver: hci.Address, sender: hci.Address) -> Controller | None:
        for controller in self.controllers:
            for connection in controller.le_connections.values():
                if connection.self_address == receiver and connection.peer_address == sender:
                    return controller
        return None

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        if transport != PhysicalTransport.LE:
            return super().send_acl_data(sender_controller, destination_address, transport, data)
        # Fault 8: tag the data with the sender connection's own address, not the controller's random address.
        connection = sender_controller.le_connections.get(destination_address)
        if connection is None:
            return
        source = connection.self_address
        destination = self._find_connection_owner(destination_address, source)
        if destination is not None:
            asyncio.get_running_loop().call_soon(destination.on_link_acl_data, source, transport, data)

    def send_ll_control_pdu(self, sender_address, receiver_address, packet):
        destination = self._find_connection_owner(receiver_address, sender_address)
        if destination is not None:
            asyncio.get_running_loop().call_soon(destination.on_ll_control_pdu, sender_address, packet)


class PeerController(Controller):
    """A Bumble Controller that behaves like a real one where the stack can see it (Faults 1-7 and 9)."""

    def __init__(self, name: str, link: PeerLink, public_address: str | None = None, extended: bool = True,
                 rssi: int = -50):
        super().__init__(name, link=link, public_address=public_address)
        self.extended = extended
        self.rssi = rssi
        self.muted: set[int] = set()
        self.refused: dict[int, int] = {}  # opcode -> status answered instead of running the command
        self.supported_commands = set(Controller.supported_commands)
        if extended:
            self.supported_commands.update(EXTENDED_COMMANDS)
        else:
            self.le_features = Controller.le_features & ~(
                hci.LeFeatureMask.LE_EXTENDED_ADVERTISING | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING)
        self.supported_max_tx_octets = 251
        self.supported_max_tx_time = 2120
        self.supported_max_rx_octets = 251
        self.supported_max_rx_time = 2120
        self.extended_advertiser: asyncio.TimerHandle | asyncio.Handle | None = None
        self._reset_state()

    # ------------------------------------------------------------------ state
    def _reset_state(self) -> None:
        """Everything HCI_Reset clears (Core v5.4 Vol 4 Part E §7.3.2), without telling the host."""
        for connection in list(self.le_connections.values()):
            # The remote side sees the link time out (0x08); this host gets nothing, its state is gone.
            connection.send_ll_control_pdu(ll.TerminateInd(ev.CONNECTION_TIMEOUT))
        self.le_connections.clear()
        self.pending_le_connection = None
        self.le_scan_enable = False
        self.le_scan_type = 0
        self.le_scan_interval = 0x10
        self.le_scan_window = 0x10
        self.filter_duplicates = False
        self.reported: set[tuple] = set()
        self.family: str | None = None
        self.le_legacy_advertiser.stop()
        self.le_legacy_advertiser.advertising_type = 0
        self.le_legacy_advertiser.advertising_interval_min = 0x0800
        self.le_legacy_advertiser.advertising_data = b''
        self.le_legacy_advertiser.scan_response_data = b''
        for advertising_set in self.advertising_sets.values():
            advertising_set.stop()
        self.advertising_sets.clear()
        if getattr(self, 'extended_advertiser', None) is not None:
            self.extended_advertiser.cancel()
            self.extended_advertiser = None
        self._random_address = hci.Address('00:00:00:00:00:00')
        self.event_mask = DEFAULT_EVENT_MASK
        self.le_event_mask = DEFAULT_LE_EVENT_MASK

    def reset_for_new_host(self) -> None:
        """Called when the H4 client leaves: drop links, stop scanning and advertising, clear pending connects."""
        self._reset_state()

    # ------------------------------------------------------------------ output to the host
    def send_raw(self, packet: bytes) -> None:
        """Send one H4 packet to the host, applying the event masks as a real controller does."""
        if packet[0] == ev.H4_EVENT:
            code = packet[1]
            self._note_answer(packet)
            if code in MASKABLE_EVENTS and not (self.event_mask >> (code - 1)) & 1:
                return
            if code == ev.EVT_LE_META and not (self.le_event_mask >> (packet[3] - 1)) & 1:
                return
        if self.host:
            asyncio.get_running_loop().call_soon(self.host.on_packet, packet)

    def send_hci_packet(self, packet: hci.HCI_Packet) -> None:
        self.send_raw(bytes(packet))

    def on_link_acl_data(self, sender_address, transport, data) -> None:
        # Fault 9: fragment controller-to-host ACL to the advertised LE ACL buffer size (27 bytes).
        connection = self.le_connections.get(sender_address)
        if connection is None:
            return
        for fragment in ev.acl_fragments(connection.handle, data, self.le_acl_data_packet_length):
            self.send_raw(fragment)

    # ------------------------------------------------------------------ commands
    def on_packet(self, packet: bytes) -> None:
        if packet and packet[0] == ev.H4_COMMAND:
            opcode = struct.unpack_from('<H', packet, 1)[0] if len(packet) >= 3 else 0
            note_timeline(self.name, 'create' if opcode in (0x200D, 0x2043) else f'command {opcode:04X}')
            if opcode in self.muted:
                logger.info('[%s] muted command 0x%04X dropped', self.name, opcode)
                return
            try:
                command = hci.HCI_Command.from_bytes(packet)
            except Exception:  # malformed parameters: answer like a controller would
                self.send_raw(ev.command_complete(opcode, bytes([ev.INVALID_HCI_COMMAND_PARAMETERS])))
                return
            if opcode in self.refused:
                logger.info('[%s] refused command 0x%04X with 0x%02X', self.name, opcode, self.refused[opcode])
                self._reply_status(command, self.refused[opcode])
                return
            self.on_hci_command_packet(command)
            return
        if packet and packet[0] == 0x02:
            note_timeline(self.name, 'acl')
        try:
            super().on_packet(packet)
        except Exception:
            logger.exception('[%s] bad packet from host', self.name)

    def _reply_status(self, command: hci.HCI_Command, status: int) -> None:
        if isinstance(command, hci.HCI_AsyncCommand):
            self.send_raw(ev.command_status(command.op_code, status))
        else:
            self.send_raw(ev.command_complete(command.op_code, bytes([status])))

    def on_hci_command_packet(self, command: hci.HCI_Command) -> None:
        opcode = command.op_code
        if not self.extended and opcode in EXTENDED_FAMILY:
            self._reply_status(command, ev.UNKNOWN_HCI_COMMAND)
            return
        family = 'legacy' if opcode in LEGACY_FAMILY else 'extended' if opcode in EXTENDED_FAMILY else None
        if family is not None:
            if self.family is not None and self.family != family:
                self._reply_status(command, ev.COMMAND_DISALLOWED)
                return
            self.family = family
        handler = getattr(self, f'on_{command.name.lower()}', None)
        if handler is None:
            # Fault 7: an unmodelled command gets Unknown HCI Command, never silence.
            self._reply_status(command, ev.UNKNOWN_HCI_COMMAND)
            return
        self._answering, self._answered = opcode, False
        try:
            result = handler(command)
        except Exception:
            logger.exception('[%s] handler failed for %s', self.name, command.name)
            if not self._answered:
                self._reply_status(command, ev.UNKNOWN_HCI_COMMAND)
            return
        finally:
            self._answering = None
        if self._answered:
            return  # the handler sent its own Command Complete or Command Status: exactly one answer per command
        if isinstance(command, hci.HCI_SyncCommand):
            if result is None:
                self._reply_status(command, ev.UNKNOWN_HCI_COMMAND)
            else:
                self.send_hci_packet(hci.HCI_Command_Complete_Event(
                    num_hci_command_packets=1, command_opcode=opcode, return_parameters=result))
        elif result is not None:
            self.send_raw(ev.command_status(opcode, int(result.status)))

    # Fault 5: HCI_Reset really resets.
    def _note_answer(self, packet: bytes) -> None:
        """Marks the command being handled as answered when `packet` is its Command Complete (opcode at bytes 4-5)
        or Command Status (opcode at bytes 5-6), Core v5.4 Vol 4 Part E §7.7.14-15."""
        answering = getattr(self, '_answering', None)
        if answering is None or len(packet) < 7:
            return
        if packet[1] == ev.EVT_COMMAND_COMPLETE and int.from_bytes(packet[4:6], 'little') == answering:
            self._answered = True
        elif packet[1] == ev.EVT_COMMAND_STATUS and int.from_bytes(packet[5:7], 'little') == answering:
            self._answered = True

    def on_hci_reset_command(self, _command):
        self._reset_state()
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_le_set_scan_enable_command(self, command):
        enable = bool(command.le_scan_enable)
        if enable and not self.le_scan_enable:
            self.reported.clear()
        self.le_scan_enable = enable
        self.filter_duplicates = bool(command.filter_duplicates)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        if self.le_scan_enable:
            return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
        self.le_scan_own_address_type = command.own_address_type
        self.le_scanning_filter_policy = command.scanning_filter_policy
        self.le_scan_type = command.scan_types[0] if command.scan_types else 0
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_le_set_extended_scan_enable_command(self, command):
        enable = bool(command.enable)
        if enable and not self.le_scan_enable:
            self.reported.clear()
        self.le_scan_enable = enable
        self.filter_duplicates = bool(command.filter_duplicates)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    # Fault 6: Create Connection Cancel cancels, with LE (Enhanced) Connection Complete status 0x02.
    def on_hci_le_create_connection_cancel_command(self, _command):
        pending = self.pending_le_connection
        if pending is None:
            return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
        self.pending_le_connection = None
        loop = asyncio.get_running_loop()
        # Command Complete goes out first (queued by the caller right after this returns).
        loop.call_soon(self._send_connection_complete, ev.UNKNOWN_CONNECTION_IDENTIFIER, 0, 0,
                       pending.peer_address_type, pending.peer_address, 0, 0, 0, 0)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def _send_connection_complete(self, status, handle, role, peer_type, peer, interval, latency, timeout,
                                  accuracy) -> None:
        """LE Enhanced Connection Complete when unmasked, else LE Connection Complete (§7.7.65.10)."""
        peer_bytes = bytes(peer) if isinstance(peer, hci.Address) else peer
        if (self.le_event_mask >> (ev.LE_ENHANCED_CONNECTION_COMPLETE - 1)) & 1:
            self.send_raw(ev.enhanced_connection_complete(status, handle, role, peer_type, peer_bytes, interval,
                                                          latency, timeout, accuracy))
        else:
            self.send_raw(ev.connection_complete(status, handle, role, peer_type, peer_bytes, interval, latency,
                                                 timeout, accuracy))

    def on_hci_disconnect_command(self, command):
        # The local host hears 0x16 (Connection Terminated By Local Host); the remote hears the given reason
        # (Core v5.4 Vol 4 Part E §7.1.6 and §7.7.5).
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(ev.command_status(command.op_code, ev.UNKNOWN_CONNECTION_IDENTIFIER))
            return None
        self.send_raw(ev.command_status(command.op_code, ev.SUCCESS))
        connection.send_ll_control_pdu(ll.TerminateInd(command.reason))
        self.on_le_disconnected(connection, 0x16)
        return None

    # Fault 7: commands answered with their real events.
    def on_hci_le_set_phy_command(self, command):
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(ev.command_status(command.op_code, ev.UNKNOWN_CONNECTION_IDENTIFIER))
            return None
        self.send_raw(ev.command_status(command.op_code, ev.SUCCESS))
        tx = 2 if (command.tx_phys & 0x02) and not (command.all_phys & 0x01) else 1
        rx = 2 if (command.rx_phys & 0x02) and not (command.all_phys & 0x02) else 1
        self.send_raw(ev.phy_update_complete(ev.SUCCESS, connection.handle, tx, rx))
        return None

    def on_hci_read_remote_version_information_command(self, command):
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(ev.command_status(command.op_code, ev.UNKNOWN_CONNECTION_IDENTIFIER))
            return None
        self.send_raw(ev.command_status(command.op_code, ev.SUCCESS))
        self.send_raw(ev.read_remote_version_complete(connection.handle, self.lmp_version,
                                                      self.manufacturer_company_identifier, self.lmp_subversion))
        return None

    def on_hci_le_set_data_length_command(self, command):
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self.send_raw(ev.command_complete(command.op_code, struct.pack(
                '<BH', ev.UNKNOWN_CONNECTION_IDENTIFIER, command.connection_handle)))
            return None
        self.send_raw(ev.command_complete(command.op_code, struct.pack('<BH', ev.SUCCESS, connection.handle)))
        tx_octets = max(27, min(command.tx_octets, self.supported_max_tx_octets))
        tx_time = max(328, min(command.tx_time, self.supported_max_tx_time))
        self.send_raw(ev.data_length_change(connection.handle, tx_octets, tx_time, tx_octets, tx_time))
        return None

    def on_hci_le_encrypt_command(self, command):
        params = command.parameters
        key, plaintext = params[0:16], params[16:32]
        # HCI carries key, plaintext and result least significant octet first, as bumble's e() expects.
        encrypted = crypto.e(key, plaintext)
        self.send_raw(ev.command_complete(command.op_code, bytes([ev.SUCCESS]) + encrypted))
        return None

    def on_hci_read_transmit_power_level_command(self, command):
        handle = struct.unpack_from('<H', command.parameters, 0)[0]
        status = ev.SUCCESS if self.find_le_connection_by_handle(handle) else ev.UNKNOWN_CONNECTION_IDENTIFIER
        self.send_raw(ev.command_complete(command.op_code, struct.pack('<BHb', status, handle, 0)))
        return None

    def on_hci_read_rssi_command(self, command):
        """Read RSSI (Core v5.4 Vol 4 Part E §7.5.4): Status, Handle, RSSI (int8 dBm) — the RSSI the remote
        controller of the link advertises with (alpha −45, bravo −60)."""
        handle = struct.unpack_from('<H', command.parameters, 0)[0]
        connection = self.find_le_connection_by_handle(handle)
        if connection is None:
            self.send_raw(ev.command_complete(command.op_code, struct.pack('<BHb', ev.UNKNOWN_CONNECTION_IDENTIFIER, handle, 0)))
            return None
        remote = self.link._find_connection_owner(connection.peer_address, connection.self_address)
        rssi = max(-127, min(20, getattr(remote, 'rssi', self.rssi)))
        self.send_raw(ev.command_complete(command.op_code, struct.pack('<BHb', ev.SUCCESS, handle, rssi)))
        return None

    def on_hci_le_read_channel_map_command(self, command):
        handle = struct.unpack_from('<H', command.parameters, 0)[0]
        status = ev.SUCCESS if self.find_le_connection_by_handle(handle) else ev.UNKNOWN_CONNECTION_IDENTIFIER
        self.send_raw(ev.command_complete(command.op_code, struct.pack('<BH', status, handle) +
                                          (0x1FFFFFFFFF).to_bytes(5, 'little')))
        return None

    def on_hci_le_read_local_p_256_public_key_command(self, command):
        self.send_raw(ev.command_status(command.op_code, ev.SUCCESS))
        key = crypto.EccKey.generate()
        self.send_raw(ev.p256_public_key_complete(key.x[::-1] + key.y[::-1]))
        return None

    def on_hci_read_inquiry_mode_command(self, command):
        self.send_raw(ev.command_complete(command.op_code, bytes([ev.SUCCESS, 0x00])))
        return None

    # ------------------------------------------------------------------ advertising (Fault 3)
    def _legacy_advertiser_tick(self) -> None:
        advertiser = self.le_legacy_advertiser
        if not advertiser.enabled:
            return
        pdu_type = {0x00: ev.ADV_IND, 0x01: ev.ADV_DIRECT_IND, 0x02: ev.ADV_SCAN_IND, 0x03: ev.ADV_NONCONN_IND,
                    0x04: ev.ADV_DIRECT_IND}.get(advertiser.advertising_type, ev.ADV_IND)
        data = b'' if pdu_type == ev.ADV_DIRECT_IND else bytes(advertiser.advertising_data)
        scan_response = bytes(advertiser.scan_response_data) if pdu_type in SCANNABLE_LEGACY else b''
        self.send_advertising_pdu(LegacyAdvPdu(advertiser.address, pdu_type, data, scan_response, self.rssi))
        interval = max(advertiser.advertising_interval_min, 0x0020) * 0.000625  # 0.625 ms units
        advertiser.timer_handle = asyncio.get_running_loop().call_later(interval, self._legacy_advertiser_tick)

    def on_hci_le_set_advertising_enable_command(self, command):
        advertiser = self.le_legacy_advertiser
        if command.advertising_enable:
            advertiser.stop()
            advertiser.enabled = True
            advertiser.timer_handle = asyncio.get_running_loop().call_soon(self._legacy_advertiser_tick)
        else:
            advertiser.stop()
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def start_extended_advertising(self, address: hci.Address, data: bytes, interval_s: float, sid: int,
                                   tx_power: int) -> None:
        """Advertise `data` as a non-connectable, non-scannable extended advertising set (event properties 0x0000,
        Vol 4 Part E §7.8.53) from random address `address`, every `interval_s` seconds, until HCI_Reset.
        Set up by the peer, not by HCI commands: the peer's advertisers have no host."""
        self.random_address = address

        def tick() -> None:
            self.send_advertising_pdu(ExtendedAdvPdu(address, 0x0000, sid, data, self.rssi, tx_power))
            self.extended_advertiser = asyncio.get_running_loop().call_later(interval_s, tick)

        self.extended_advertiser = asyncio.get_running_loop().call_soon(tick)

    # ------------------------------------------------------------------ scanning (Faults 1 and 2)
    def on_ll_advertising_pdu(self, packet) -> None:
        match packet:
            case ll.ConnectInd():
                self.on_le_connect_ind(packet)
            case LegacyAdvPdu():
                self._on_legacy_pdu(packet)
            case ExtendedAdvPdu():
                self._on_extended_pdu(packet)
            case ll.AdvExtInd():
                # Bumble's own advertising sets (a host driving a host-facing controller's extended advertising):
                # connectable and scannable unknown, reported as non-connectable with the controller's RSSI.
                self._on_extended_pdu(ExtendedAdvPdu(packet.advertiser_address, 0x0000, packet.sid,
                                                     bytes(packet.data), -50, 0x7F))

    def _report(self, key: tuple, *packets: bytes) -> None:
        """Sends the reports of one advertising event (several when its data is fragmented), unless duplicate
        filtering already let `key` through since the scan was enabled."""
        if self.filter_duplicates:
            if key in self.reported:
                return
            self.reported.add(key)
        for packet in packets:
            self.send_raw(packet)

    def _on_legacy_pdu(self, pdu: LegacyAdvPdu) -> None:
        address = pdu.advertiser_address
        if self.le_scan_enable:
            address_bytes = bytes(address)
            address_type = address.address_type
            active = self.le_scan_type == 1 and pdu.pdu_type in SCANNABLE_LEGACY
            if self.family == 'extended':
                self._report((address, 'adv'), ev.extended_advertising_report(
                    ev.EXT_EVENT_TYPE_FOR_LEGACY[pdu.pdu_type], address_type, address_bytes, pdu.data, pdu.rssi,
                    legacy=True))
                if active:
                    rsp_type = (ev.EXT_SCAN_RSP_TO_ADV_IND if pdu.pdu_type == ev.ADV_IND
                                else ev.EXT_SCAN_RSP_TO_ADV_SCAN_IND)
                    self._report((address, 'rsp'), ev.extended_advertising_report(
                        rsp_type, address_type, address_bytes, pdu.scan_response_data, pdu.rssi, legacy=True))
            else:
                self._report((address, 'adv'), ev.advertising_report(
                    pdu.pdu_type, address_type, address_bytes, pdu.data, pdu.rssi))
                if active:
                    self._report((address, 'rsp'), ev.advertising_report(
                        ev.SCAN_RSP, address_type, address_bytes, pdu.scan_response_data, pdu.rssi))
        # Fault 4: only connectable advertising events can be answered with CONNECT_IND.
        pending = self.pending_le_connection
        if pending is not None and pending.peer_address == address and pdu.pdu_type in CONNECTABLE_LEGACY:
            self.create_le_connection(address)

    def _on_extended_pdu(self, pdu: ExtendedAdvPdu) -> None:
        # Extended (non-legacy) advertising is invisible to legacy scanning (Vol 6 Part B §4.4.2.1: a legacy
        # scanner does not follow ADV_EXT_IND). Data over 229 bytes comes as a chain of reports (§7.7.65.13).
        address = pdu.advertiser_address
        if self.le_scan_enable and self.family == 'extended':
            self._report((address, 'adv'), *ev.extended_advertising_reports(
                pdu.event_properties & 0x0007, address.address_type, bytes(address), pdu.data, pdu.rssi,
                legacy=False, sid=pdu.sid, tx_power=pdu.tx_power))
        # Fault 4: only connectable advertising can be answered (AUX_CONNECT_REQ, Vol 6 Part B §2.3.2.1).
        pending = self.pending_le_connection
        if pending is not None and pending.peer_address == address and pdu.event_properties & 0x0001:
            self.create_le_connection(address)

    # ------------------------------------------------------------------ connections
    def create_le_connection(self, peer_address: hci.Address) -> None:
        pending = self.pending_le_connection
        if pending is None or self.le_connections.get(peer_address):
            return
        self_address = self.public_address if pending.own_address_type in (0, 2) else self.random_address
        if isinstance(pending, hci.HCI_LE_Extended_Create_Connection_Command):
            interval = pending.connection_interval_mins[0]
            latency = pending.max_latencies[0]
            timeout = pending.supervision_timeouts[0]
        else:
            interval = pending.connection_interval_min
            latency = pending.max_latency
            timeout = pending.supervision_timeout
        connection = Connection(controller=self, handle=self.allocate_connection_handle(), role=hci.Role.CENTRAL,
                                self_address=self_address, peer_address=peer_address, link=self.link,
                                transport=PhysicalTransport.LE,
                                link_type=hci.HCI_Connection_Complete_Event.LinkType.ACL)
        self.le_connections[peer_address] = connection
        self.pending_le_connection = None
        self.send_advertising_pdu(ll.ConnectInd(initiator_address=self_address, advertiser_address=peer_address,
                                                interval=interval, latency=latency, timeout=timeout))
        self._send_connection_complete(ev.SUCCESS, connection.handle, 0x00, peer_address.address_type,
                                       peer_address, interval, latency, timeout, 0)
        # Noted when the event reaches the host's writer (after send_raw's call_soon), with the bytes its writer
        # still holds ahead of it: a flood's reports the peer has not handed to the kernel yet.
        asyncio.get_running_loop().call_soon(self._note_complete)

    def _note_complete(self) -> None:
        writer = getattr(self.host, 'writer', None)
        transport = getattr(writer, 'transport', None)
        queued = transport.get_write_buffer_size() if transport is not None else 0
        note_timeline(self.name, f'complete {queued}')

    def on_le_connect_ind(self, packet: ll.ConnectInd) -> None:
        advertiser = self.le_legacy_advertiser
        if not (advertiser.enabled and advertiser.address == packet.advertiser_address):
            return
        # Fault 4: a non-connectable advertiser ignores CONNECT_IND.
        if advertiser.advertising_type not in (0x00, 0x01, 0x04):
            return
        peer = packet.initiator_address
        connection = Connection(controller=self, handle=self.allocate_connection_handle(),
                                role=hci.Role.PERIPHERAL, self_address=packet.advertiser_address,
                                peer_address=peer, link=self.link, transport=PhysicalTransport.LE,
                                link_type=hci.HCI_Connection_Complete_Event.LinkType.ACL)
        self.le_connections[peer] = connection
        advertiser.stop()
        self._send_connection_complete(ev.SUCCESS, connection.handle, 0x01, peer.address_type, peer,
                                       packet.interval, packet.latency, packet.timeout, 0)

    # ------------------------------------------------------------------ test controls
    FLOOD_BATCH = 256

    async def flood(self, count: int) -> float:
        """Send `count` advertising reports from distinct advertisers straight to the scanning host, as fast as the
        host reads them (TCP flow control), and return the seconds it took.

        Advertiser i (0-based) is random static address D0:00:ii:ii:ii:ii (i in the low four bytes), ADV_NONCONN_IND,
        RSSI -70 dBm, data Flags 0x06 + Manufacturer Specific Data company 0xFFFF with i as 4 bytes little-endian:
        an LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2) to a legacy scan, an LE Extended Advertising
        Report with the legacy bit (event type 0x10, §7.7.65.13) to an extended one. Raises ValueError when the host
        is not scanning or not connected."""
        sink = self.host
        writer = getattr(sink, 'writer', None)
        if not self.le_scan_enable or writer is None:
            raise ValueError('the host is not scanning')
        extended = self.family == 'extended'
        # The reports are built before the clock starts (the seconds returned are the sending alone), so that what the
        # peer sends at is what TCP lets through, not what Python builds per report: while the loop below only copies
        # bytes, the radio's other work (a connection being set up, ATT) runs between batches at its own pace instead
        # of one step per built batch.
        chunks = []
        for number, base in enumerate(range(0, count, self.FLOOD_BATCH)):
            if number % 16 == 15:
                await asyncio.sleep(0)  # the radio's other work goes on while the flood is built, too
            chunk = bytearray()
            for index in range(base, min(count, base + self.FLOOD_BATCH)):
                tail = index.to_bytes(4, 'little')
                address = tail + bytes([0x00, 0xD0])
                data = bytes([0x02, 0x01, 0x06, 0x07, 0xFF, 0xFF, 0xFF]) + tail
                if extended:
                    chunk += ev.extended_advertising_report(0x10, 0x01, address, data, -70, legacy=True)
                else:
                    chunk += ev.advertising_report(0x03, 0x01, address, data, -70)
            chunks.append(bytes(chunk))
        loop = asyncio.get_running_loop()
        start = loop.time()
        for chunk in chunks:
            if writer.is_closing():
                raise ValueError('the host left during the flood')
            writer.write(chunk)
            await writer.drain()
            await asyncio.sleep(0)  # the other work of the radio (a connection, ACL) goes on between batches, as on air
        return loop.time() - start

    def hardware_error(self, code: int) -> None:
        """Send a Hardware Error event (Core v5.4 Vol 4 Part E §7.7.16), as a failing controller would."""
        self.send_raw(ev.hardware_error(code))
