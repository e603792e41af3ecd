"""A GATT peripheral for the kernel VM test: Bumble on a Linux HCI user channel (hci-socket:N), advertising.

Runs inside the scripts/vm/run guest with Debian's python (AF_BLUETOOTH) from the Bumble venv:
    $OCB_VM_PYTHON Tests/KernelVM/att_peer.py [--controller 1] [--address C0:FF:EE:00:00:01]
The controller must be down (hciconfig hciN down). Prints "READY <address> random" once advertising
(connectable ADV_IND, legacy commands, name "ocb-vm-peer"), then logs connections; runs until killed.
The GATT database holds the Battery Service (0x180F) with Battery Level (0x2A19) = 0x64, readable, and a test
service (0xFFF0) whose characteristic 0xFFF1 (read: 0x00) makes the peer disconnect the writer (reason 0x15, Power Off),
0xFFF2 (read, notify) notifies a counter byte every 200 ms to subscribers, 0xFFF3 (read, write) keeps what is written,
0xFFF4 (read) needs encryption (b"secret"; Insufficient Encryption until the central pairs), and 0xFFF5 has only
Authenticated Signed Writes (a plain Write Command sets it; signed ones are not verified here). Bumble's SMP answers
pairing (Just Works, bonding, keys kept in memory); each pairing prints "peer: paired <address>".
It goes on advertising while connected. With --rotate S it advertises from resolvable private addresses of its IRK
(--address is its identity, distributed when the central asks for it), a new one every S seconds.
"""

import argparse
import asyncio
import sys

from bumble.core import AdvertisingData
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address
from bumble.crypto import aes_cmac
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--controller", type=int, default=1)
    parser.add_argument("--address", default="C0:FF:EE:00:00:01")
    parser.add_argument("--rotate", type=float, default=0,
                        help="advertise from resolvable private addresses of the device's IRK (--address is then its "
                             "identity), a new one every ROTATE seconds; prints 'peer: address RPA' for each")
    arguments = parser.parse_args()

    async with await open_transport(f"hci-socket:{arguments.controller}") as (source, sink):
        address = Address(arguments.address, Address.RANDOM_DEVICE_ADDRESS)
        device = Device.with_hci("ocb-vm-peer", address, source, sink)
        device.add_service(Service("180F", [
            Characteristic("2A19", Characteristic.Properties.READ, Characteristic.READABLE, bytes([0x64])),
        ]))

        def disconnect_writer(connection, value) -> None:
            print(f"peer: disconnect requested by {connection.peer_address}", flush=True)
            # Reason 0x15 (Remote Device Terminated Connection due to Power Off), so the central can tell the reason it
            # reports from the default 0x13.
            asyncio.get_running_loop().create_task(connection.disconnect(reason=0x15))

        stored = [bytes([0x00])]

        def keep(connection, value) -> None:
            stored[0] = bytes(value)
            print(f"peer: FFF3 written {stored[0].hex()}", flush=True)

        # Authenticated Signed Writes only: a Signed Write Command verified with the central's CSRK (Core v5.4 Vol 3
        # Part H §2.4.5; Bumble's server leaves them alone), or a plain Write Command on an encrypted link, sets it.
        signed = Characteristic("FFF5", Characteristic.Properties.READ | Characteristic.Properties.AUTHENTICATED_SIGNED_WRITES,
                                Characteristic.READABLE | Characteristic.WRITEABLE, bytes([0x00]))
        csrks: dict[str, bytes] = {}

        def on_signed_write(bearer, pdu) -> None:
            connection = getattr(bearer, 'connection', bearer)
            central = str(connection.peer_address).split('/')[0]
            data = bytes(pdu.attribute_value)
            if len(data) < 12 or central not in csrks:
                return print("peer: signed write without a key", flush=True)
            value, signature = data[:-12], data[-12:]
            message = bytes([0xD2]) + pdu.attribute_handle.to_bytes(2, 'little') + value + signature[:4]
            if signature[4:] != aes_cmac(message[::-1], csrks[central][::-1])[:8][::-1]:
                return print("peer: signed write with a bad MAC", flush=True)
            signed.value = value
            print(f"peer: signed write ok, counter {int.from_bytes(signature[:4], 'little')}", flush=True)

        device.gatt_server.on_att_signed_write_command = on_signed_write
        keys = (PairingDelegate.KeyDistribution.DISTRIBUTE_ENCRYPTION_KEY | PairingDelegate.KeyDistribution.DISTRIBUTE_IDENTITY_KEY
                | PairingDelegate.KeyDistribution.DISTRIBUTE_SIGNING_KEY)
        device.pairing_config_factory = lambda _connection: PairingConfig(
            delegate=PairingDelegate(local_initiator_key_distribution=keys, local_responder_key_distribution=keys))

        counter = Characteristic("FFF2", Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
                                 Characteristic.READABLE, bytes([0x00]))
        device.add_service(Service("FFF0", [
            Characteristic("FFF1",
                           Characteristic.Properties.READ | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                           Characteristic.READABLE | Characteristic.WRITEABLE,
                           CharacteristicValue(read=lambda connection: bytes([0x00]), write=disconnect_writer)),
            counter,
            Characteristic("FFF3", Characteristic.Properties.READ | Characteristic.Properties.WRITE,
                           Characteristic.READABLE | Characteristic.WRITEABLE,
                           CharacteristicValue(read=lambda connection: stored[0], write=keep)),
            Characteristic("FFF4", Characteristic.Properties.READ,
                           Characteristic.READABLE | Characteristic.READ_REQUIRES_ENCRYPTION, b"secret"),
            signed,
        ]))

        async def notify_forever() -> None:
            count = 0
            while True:
                await asyncio.sleep(0.2)
                count = (count + 1) % 256
                try:
                    await device.notify_subscribers(counter, bytes([count]))
                except Exception as error:  # a link that went away meanwhile
                    print(f"peer: notify failed: {error}", flush=True)
        device.advertising_data = bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, b"ocb-vm-peer"),
        ]))
        async def advertise_again() -> None:
            # Go on advertising while connected, as many peripherals do: btvirt has no supervision timeout, so a link
            # whose central was powered off stays up here forever, and a peer that only advertises when free would
            # never be found again (../shared/notes/kernel-in-a-vm.md).
            try:
                if not device.is_advertising:
                    await device.start_advertising(auto_restart=True)
            except Exception as error:  # the controller may refuse advertising while connected
                print(f"peer: cannot advertise while connected: {error}", flush=True)

        def on_connection(connection) -> None:
            print(f"peer: connected {connection.peer_address}", flush=True)
            connection.on("disconnection", lambda reason: print(f"peer: disconnected reason 0x{reason:02X}", flush=True))
            def paired(keys) -> None:
                if keys.csrk is not None:
                    csrks[str(connection.peer_address).split('/')[0]] = bytes(keys.csrk.value)
                print(f"peer: paired {connection.peer_address}", flush=True)
            connection.on("pairing", paired)
            connection.on("pairing_failure", lambda reason: print(f"peer: pairing failed 0x{reason:02X}", flush=True))
            asyncio.get_running_loop().create_task(advertise_again())

        device.on("connection", on_connection)
        await device.power_on()

        async def use_private_address() -> str:
            from bumble.hci import HCI_LE_Set_Random_Address_Command
            rpa = Address.generate_private_address(device.irk)
            await device.send_command(HCI_LE_Set_Random_Address_Command(random_address=rpa))
            device.random_address = rpa
            text = str(rpa).split('/')[0]
            print(f"peer: address {text}", flush=True)
            return text

        async def rotate_forever() -> None:
            while True:
                await asyncio.sleep(arguments.rotate)
                try:
                    await device.stop_advertising()
                    await use_private_address()
                    await device.start_advertising(auto_restart=True)
                except Exception as error:
                    print(f"peer: rotation failed: {error}", flush=True)

        ready = arguments.address
        if arguments.rotate > 0:
            device.irk = bytes.fromhex("a1a10000000000000000000000000bc0")  # little-endian, as Bumble keeps it
            ready = await use_private_address()
            asyncio.get_running_loop().create_task(rotate_forever())
        await device.start_advertising(auto_restart=True)
        asyncio.get_running_loop().create_task(notify_forever())
        print(f"READY {ready} random", flush=True)
        await asyncio.get_running_loop().create_future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
