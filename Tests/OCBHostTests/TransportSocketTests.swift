// Tests of the Linux HCI socket transport, device enumeration, the transport spec parser and the error wording.

import Dispatch
import Glibc
import OCBHCI
import Testing
@testable import OCBHost

/// True on a kernel without Bluetooth (this development machine and CI), where socket(AF_BLUETOOTH) gives EAFNOSUPPORT.
let kernelHasNoBluetooth: Bool = {
    let fd = socket(31, Int32(SOCK_RAW.rawValue), 1)
    if fd >= 0 { Glibc.close(fd); return false }
    return errno == EAFNOSUPPORT
}()

@Suite struct TransportSocketTests {
    @Test(.enabled(if: kernelHasNoBluetooth, "this kernel has Bluetooth"), arguments: [HCISocketTransport.Channel.raw, .user])
    func hciSocketWithoutKernelBluetoothSaysSo(channel: HCISocketTransport.Channel) {
        let transport = HCISocketTransport(controller: 0, channel: channel)
        #expect(throws: HCITransportError.noBluetoothSupport) {
            try transport.open(queue: DispatchQueue(label: "t"), onPacket: { _ in }, onClose: { _ in })
        }
        #expect(throws: HCITransportError.notOpen) { try transport.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])) }
        transport.close()
        #expect("\(HCITransportError.noBluetoothSupport)".hasPrefix("this kernel has no Bluetooth support"))
    }

    @Test(.enabled(if: kernelHasNoBluetooth, "this kernel has Bluetooth"))
    func deviceListWithoutKernelBluetoothSaysSo() {
        #expect(throws: HCITransportError.noBluetoothSupport) { try HCIDeviceList.devices() }
    }

    @Test func errnoMappingAndAdvice() {
        #expect(HCITransportError(errno: EAFNOSUPPORT, operation: "x") == .noBluetoothSupport)
        #expect(HCITransportError(errno: EPERM, operation: "bind hci0 (user channel)") == .permissionDenied(operation: "bind hci0 (user channel)"))
        #expect(HCITransportError(errno: EACCES, operation: "y") == .permissionDenied(operation: "y"))
        #expect(HCITransportError(errno: EBUSY, operation: "z", controller: "hci0") == .busy(controller: "hci0"))
        #expect(HCITransportError(errno: ENODEV, operation: "z", controller: "hci7") == .noSuchController("hci7"))
        #expect("\(HCITransportError.permissionDenied(operation: "bind hci0 (raw channel)"))".contains("needs CAP_NET_RAW (raw) or CAP_NET_ADMIN (user channel)"))
        #expect("\(HCITransportError.busy(controller: "hci0"))".contains("the controller is up or owned by bluetoothd: power it off first"))
        #expect("\(HCITransportError.noSuchController("hci7"))" == "no such controller: hci7")
        #expect("\(HCITransportError.system(operation: "open /dev/x", errno: ENOENT))" == "open /dev/x failed: No such file or directory (errno 2)")
    }

    @Test func transportSpecParses() throws {
        #expect(try TransportSpec("hci0") == .hciSocket(controller: 0, channel: .raw))
        #expect(try TransportSpec("user:hci12") == .hciSocket(controller: 12, channel: .user))
        #expect(try TransportSpec("tcp:localhost:9000") == .tcp(host: "localhost", port: 9000))
        #expect(try TransportSpec("tcp:[::1]:1234") == .tcp(host: "::1", port: 1234))
        #expect(try TransportSpec("serial:/dev/ttyUSB0") == .serial(path: "/dev/ttyUSB0", baudRate: 115_200))
        #expect(try TransportSpec("serial:/dev/ttyACM0@1000000") == .serial(path: "/dev/ttyACM0", baudRate: 1_000_000))
        for text in ["hci0", "user:hci3", "tcp:10.0.0.2:7", "tcp:[::1]:1234", "serial:/dev/ttyS1@9600"] {
            #expect(try TransportSpec(text).description == text)
        }
        #expect(try TransportSpec("user:hci1").makeTransport() is HCISocketTransport)
        #expect(try TransportSpec("tcp:h:1").makeTransport() is H4StreamTransport)
    }

    @Test(arguments: ["", "hci", "hcix", "hci-1", "hci+1", "hci70000", "usb:1", "user:", "tcp:host", "tcp::9", "tcp:h:0",
                      "tcp:h:65536", "tcp:h:x", "serial:", "serial:@9600", "serial:/dev/tty@", "serial:/dev/tty@-5"])
    func transportSpecRejects(text: String) {
        do {
            _ = try TransportSpec(text)
            Issue.record("\"\(text)\" was accepted")
        } catch {
            guard case let .invalidSpecification(message) = error else { Issue.record("wrong error \(error)"); return }
            #expect(message.hasPrefix("invalid transport \"\(text)\": "))
            #expect(!message.contains("\n"))
        }
    }
}
