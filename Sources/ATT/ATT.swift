// The ATT module: every ATT PDU and the sans-I/O ATT bearer (Core v5.4 Vol 3 Part F).
import BluetoothCore
import L2CAP
