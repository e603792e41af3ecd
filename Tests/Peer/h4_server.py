"""A one-client-at-a-time H4-over-TCP server in front of one PeerController; the controller resets when the client leaves."""

from __future__ import annotations

import asyncio
import logging

from bumble.transport.common import PacketParser

logger = logging.getLogger('peer.h4')


class _ClientSink:
    """Packets from the controller, written to the TCP client as raw H4."""

    def __init__(self, writer: asyncio.StreamWriter):
        self.writer = writer

    def on_packet(self, packet: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(packet)


class H4Server:
    """Serves `controller` on 127.0.0.1:`port` (0 picks a free port).

    A client that connects while another is still connected (or being torn down) waits in a queue until the
    previous one has left and the controller has been reset, then is served; one still waiting after
    `WAIT_SECONDS` is closed (the first keeps the controller). When the client leaves (EOF, reset, or a malformed H4 stream), the controller drops its links,
    stops scanning and advertising and forgets a pending connection, as if the host had sent HCI_Reset.
    """

    WAIT_SECONDS = 5.0

    def __init__(self, controller, port: int = 0):
        self.controller = controller
        self.requested_port = port
        self.port = 0
        self.server: asyncio.AbstractServer | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.idle = asyncio.Condition()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._on_client, '127.0.0.1', self.requested_port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async with self.idle:
            try:
                await asyncio.wait_for(self.idle.wait_for(lambda: self.writer is None), self.WAIT_SECONDS)
            except asyncio.TimeoutError:
                logger.warning('[%s] second client refused', self.controller.name)
                writer.close()
                return
            self.writer = writer
        await self._serve(reader, writer)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sink = _ClientSink(writer)
        self.controller.host = sink
        parser = PacketParser(self.controller)
        logger.info('[%s] host connected', self.controller.name)
        try:
            while True:
                data = await reader.read(4096)
                if not data:
                    break
                parser.feed_data(data)
                await writer.drain()
        except asyncio.CancelledError:
            pass
        except (ConnectionResetError, BrokenPipeError) as error:  # a host that left abruptly: an ordinary end
            logger.info('[%s] host reset the connection: %s', self.controller.name, error)
        except Exception as error:  # malformed H4 or another socket failure ends this client
            logger.warning('[%s] client error: %s', self.controller.name, error)
        finally:
            logger.info('[%s] host left; resetting controller', self.controller.name)
            if self.controller.host is sink:
                self.controller.host = None
            self.controller.reset_for_new_host()
            writer.close()
            async with self.idle:
                self.writer = None
                self.idle.notify_all()

    def drop_client(self) -> bool:
        """Close the current client's connection (the host sees end of file). False when none is connected."""
        if self.writer is None:
            return False
        self.writer.close()
        return True

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        if self.writer is not None:
            self.writer.close()
