// The CoreBluetooth module: Apple's central-role API (CBCentralManager, CBPeripheral, ...) over the OpenCoreBluetooth host.
import Foundation
import Host
