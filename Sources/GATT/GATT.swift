// The GATT module: client procedures of Core v5.4 Vol 3 Part G §4 as sans-I/O state machines, and the attribute cache.
import BluetoothCore
import ATT
