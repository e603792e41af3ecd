// The Host module: transports, controller bring-up, scanning and connections; the only layer that touches sockets, threads and clocks.
import BluetoothCore
import CBlueZ
