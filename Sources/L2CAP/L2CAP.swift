// The L2CAP module: recombination, fragmentation, fixed channels and LE signaling (Core v5.4 Vol 3 Part A).
import BluetoothCore
import HCI
