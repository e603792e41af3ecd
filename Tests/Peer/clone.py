"""A clone of a recorded device: the GATT database `cbtool decode FILE --export-db OUT.json` wrote, as a Bumble GATT
server that keeps the recorded handles, advertised with the recorded advertising data (`peer.py --database OUT.json`).

What is served: every service, characteristic and descriptor of the file at its recorded handle, with its recorded
properties and last value (empty when the capture never showed one). Reads answer the value; writes are taken and
kept (what the original did with them is not in a capture). Characteristics that notify or indicate get Bumble's own
Client Characteristic Configuration at the recorded 0x2902 handle, so subscriptions work. Included services are not
served (Bumble numbers them itself). Handles are kept when the recorded ones fit (increasing, no collision); otherwise
the server keeps Bumble's numbering and says so on stderr.
"""

from __future__ import annotations

import json
import struct
import sys

from bumble import att
from bumble.core import UUID
from bumble.gatt import Characteristic, CharacteristicDeclaration, CharacteristicValue, Descriptor, Service

CCCD = 0x2902
FORMAT = 'opencorebluetooth-gatt-database'


class CloneError(ValueError):
    """The file is not a database `cbtool decode --export-db` wrote (the message says what is wrong and where)."""


def _uuid(text: str) -> UUID:
    # cbtool writes 16-bit UUIDs as 4 hex digits ("2A00") and 128-bit ones with dashes.
    return UUID.from_16_bits(int(text, 16)) if len(text) == 4 else UUID(text)


def _bytes(value) -> bytes:
    return bytes.fromhex(value) if isinstance(value, str) else b''


def load(path: str) -> dict:
    """The database file, checked for the fields the clone needs."""
    try:
        with open(path, encoding='utf-8') as file:
            database = json.load(file)
    except (OSError, ValueError) as error:
        raise CloneError(f'{path}: {error}') from error
    if not isinstance(database, dict) or database.get('format') != FORMAT or database.get('version') != 1:
        raise CloneError(f'{path}: not a {FORMAT} version 1 file (written by cbtool decode FILE --export-db OUT.json)')
    if not isinstance(database.get('services'), list) or not isinstance(database.get('peer'), dict):
        raise CloneError(f'{path}: "services" and "peer" are missing')
    return database


def _permissions(properties: int) -> int:
    permissions = 0
    if properties & 0x02:
        permissions |= att.Attribute.READABLE
    if properties & (0x04 | 0x08 | 0x40):
        permissions |= att.Attribute.WRITEABLE
    return permissions or att.Attribute.READABLE


def _value(initial: bytes):
    """A stored value: reads give it, writes replace it."""
    state = {'value': initial}

    def read(_connection):
        return state['value']

    def write(_connection, value):
        state['value'] = bytes(value)

    return CharacteristicValue(read=read, write=write)


def services(database: dict) -> tuple[list[Service], list[int]]:
    """The Bumble services of the file and, in the order Bumble will number their attributes, the recorded handles."""
    result, handles = [], []
    for entry in database['services']:
        characteristics = []
        service_handles = [int(entry['start'])]
        for item in entry.get('characteristics', []):
            properties = int(item['properties'])
            descriptors, cccd_handle = [], None
            for descriptor in item.get('descriptors', []):
                if str(descriptor['uuid']).upper() == f'{CCCD:04X}':
                    cccd_handle = int(descriptor['handle'])
                    continue
                descriptors.append((int(descriptor['handle']),
                                    Descriptor(_uuid(descriptor['uuid']), att.Attribute.READABLE | att.Attribute.WRITEABLE,
                                               _value(_bytes(descriptor.get('value'))))))
            value = _bytes(item.get('value'))
            if not value and str(item['uuid']).upper() == '2A00' and database['peer'].get('name'):
                value = str(database['peer']['name']).encode()  # Device Name never read: the advertised name
            characteristic = Characteristic(_uuid(item['uuid']), Characteristic.Properties(properties & 0xFF),
                                            _permissions(properties), _value(value),
                                            descriptors=[descriptor for _, descriptor in descriptors])
            characteristics.append(characteristic)
            service_handles += [int(item['handle']), int(item['valueHandle'])] + [handle for handle, _ in descriptors]
            if properties & 0x30:  # notify or indicate: Bumble adds the CCCD after the other descriptors
                last = max([int(item['valueHandle'])] + [handle for handle, _ in descriptors])
                service_handles.append(cccd_handle if cccd_handle is not None else last + 1)
        result.append(Service(_uuid(entry['uuid']), characteristics, primary=bool(entry.get('primary', True))))
        handles += service_handles
    return result, handles


def place(server, database: dict, handles: list[int]) -> bool:
    """Gives the server's attributes the recorded handles (declarations rewritten, group ends set); False, with a line
    on stderr, when they do not fit and Bumble's numbering stays."""
    attributes = server.attributes
    if len(attributes) != len(handles) or len(set(handles)) != len(handles) or min(handles, default=1) < 1 \
            or max(handles, default=1) > 0xFFFF:
        print(f'clone: the recorded handles do not fit ({len(handles)} for {len(attributes)} attributes); '
              'serving with consecutive handles', file=sys.stderr)
        return False
    for attribute, handle in zip(attributes, handles):
        attribute.handle = handle
    attributes.sort(key=lambda attribute: attribute.handle)
    ends = {int(entry['start']): int(entry['end']) for entry in database['services']}
    for index, attribute in enumerate(attributes):
        if isinstance(attribute, Service):
            attribute.end_group_handle = max(attribute.handle, ends.get(attribute.handle, attribute.handle))
        elif isinstance(attribute, CharacteristicDeclaration):
            characteristic = attribute.characteristic
            attribute.value_handle = characteristic.handle
            attribute.value = struct.pack('<BH', characteristic.properties, characteristic.handle) \
                + characteristic.uuid.to_pdu_bytes()
            # The characteristic ends before the next declaration or service (Vol 3 Part G §3.3).
            following = next((other.handle - 1 for other in attributes[index + 1:]
                              if isinstance(other, (Service, CharacteristicDeclaration))), 0xFFFF)
            service_end = max((service.end_group_handle for service in attributes
                               if isinstance(service, Service) and service.handle < attribute.handle), default=0xFFFF)
            attribute.end_group_handle = characteristic.end_group_handle = min(following, service_end)
    server.attributes_by_handle = {}
    return True


def advertising(database: dict) -> tuple[bytes, bytes, bool]:
    """The recorded advertising data, scan response and connectability (a name-only advertisement when none)."""
    recorded = database.get('advertising')
    if isinstance(recorded, dict):
        return _bytes(recorded.get('data')), _bytes(recorded.get('scanResponse')), bool(recorded.get('connectable', True))
    name = (database['peer'].get('name') or 'Clone').encode()[:29]
    return bytes([0x02, 0x01, 0x06, len(name) + 1, 0x09]) + name, b'', True
