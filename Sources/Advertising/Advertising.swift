// The Advertising module: AD structures (Core Specification Supplement Part A) parsed into typed values.
import BluetoothCore
