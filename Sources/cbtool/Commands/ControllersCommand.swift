// `cbtool controllers`: the Linux HCI controllers, their addresses and whether they are up.

import OCBToolKit
import OCBHost

/// `cbtool controllers`: one line (or JSON object) per controller, from the kernel's device list.
enum ControllersCommand {
    static func run(_ invocation: Invocation, output: OutputSink) throws(ToolError) {
        let devices: [HCIDeviceInfo]
        do {
            devices = try HCIDeviceList.devices()
        } catch .noBluetoothSupport {
            // No transport advice: `controllers` lists the kernel's controllers only and takes no --transport.
            throw .failure("no Bluetooth controllers: this kernel has no Bluetooth support "
                           + "(socket(AF_BLUETOOTH) gives EAFNOSUPPORT; load the bluetooth modules)")
        } catch {
            throw ToolError.transport(error, spec: "hci")
        }
        if devices.isEmpty {
            output.note("no controllers (the kernel has Bluetooth support but no controller is attached)")
        }
        for device in devices {
            output.emit("\(device.name) \(device.address) \(device.isUp ? "up" : "down")",
                        json: ["type": "controller", "name": .string(device.name), "index": .integer(device.index),
                               "address": .string(device.address.description), "up": .bool(device.isUp), "bus": .integer(device.bus)])
        }
    }
}
