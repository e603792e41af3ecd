// The kernel's management packets: commands as bytes, events from bytes recorded in the project's VM (btmon's view).

import OCBHost
import Testing

@Suite struct ManagementPacketTests {
    @Test func startAndStopDiscoveryAreTheBytesBtmonDecodes() {
        // btmon: "MGMT Command: Start Discovery (0x0023) plen 1 ... Address types: 0x06 LE Public, LE Random".
        #expect(ManagementCommand.startDiscovery(index: 0).bytes == [0x23, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06])
        #expect(ManagementCommand.stopDiscovery(index: 1).bytes == [0x24, 0x00, 0x01, 0x00, 0x01, 0x00, 0x06])
        #expect(ManagementCommand.readControllerInformation(index: 0).bytes == [0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test func eventsReadFromTheKernelInTheVM() throws {
        // Start Discovery answered Busy while bluetoothd discovered: Command Complete, opcode 0x0023, status 0x0A, 0x06.
        #expect(try ManagementEvent(bytes: [0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x23, 0x00, 0x0A, 0x06])
                == ManagementEvent(index: 0, kind: .commandComplete(.startDiscovery, .busy, returnParameters: [0x06])))
        // The same command from a process without CAP_NET_ADMIN: Command Status 0x14 Permission Denied.
        #expect(try ManagementEvent(bytes: [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x23, 0x00, 0x14])
                == ManagementEvent(index: 0, kind: .commandStatus(.startDiscovery, .permissionDenied)))
        // hci0 powered off (settings 0x00000200: Low Energy only), then on (0x00000201).
        let off = try ManagementEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x02, 0x00, 0x00])
        #expect(off.kind == .newSettings(0x0000_0200))
        let on = try ManagementEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01, 0x02, 0x00, 0x00])
        #expect(on.kind == .newSettings(0x0000_0201))
        #expect(on.index == 0)
        // Discovering 0x06 enabled, then disabled when the kernel's 10.24 s round ended.
        #expect(try ManagementEvent(bytes: [0x13, 0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x01]).kind == .discovering(addressTypes: 0x06, isDiscovering: true))
        #expect(try ManagementEvent(bytes: [0x13, 0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00]).kind == .discovering(addressTypes: 0x06, isDiscovering: false))
        // Index Removed for hci1 when btvirt ended.
        #expect(try ManagementEvent(bytes: [0x05, 0x00, 0x01, 0x00, 0x00, 0x00]) == ManagementEvent(index: 1, kind: .indexRemoved))
        // Device Found (0x0012) is not decoded here: its code is kept.
        #expect(try ManagementEvent(bytes: [0x12, 0x00, 0x00, 0x00, 0x00, 0x00]).kind == .other(code: 0x0012))
    }

    @Test func shortEventsNameTheEventTheFieldAndTheOffset() {
        #expect(throws: ManagementEventError(code: nil, field: "header", cause: .init(offset: 4, needed: 2, available: 1))) {
            try ManagementEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x04])
        }
        // The declared length runs past the read.
        #expect(throws: ManagementEventError(code: 0x0006, field: "parameters", cause: .init(offset: 6, needed: 4, available: 2))) {
            try ManagementEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01, 0x02])
        }
        // The length fits the read but is too short for New Settings' four bytes.
        #expect(throws: ManagementEventError(code: 0x0006, field: "parameters", cause: .init(offset: 6, needed: 4, available: 2))) {
            try ManagementEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x02])
        }
        let error = ManagementEventError(code: 0x0013, field: "parameters", cause: .init(offset: 7, needed: 1, available: 0))
        #expect(error.description == "malformed management event 0x13: parameters: short read at offset 7: needed 1 byte(s), 0 available")
    }

    @Test func statusNamesAreMgmtApiTxts() {
        #expect(ManagementStatus(rawValue: 0x0A) == .busy)
        #expect(ManagementStatus(rawValue: 0x14) == .permissionDenied)
        #expect(ManagementStatus(rawValue: 0x0F).description == "Not Powered (0x0F)")
        #expect(ManagementStatus(rawValue: 0x15) == .other(0x15))
        #expect(ManagementStatus(rawValue: 0x15).description == "unknown status (0x15)")
        #expect(ManagementStatus.rejected.rawValue == 0x0B)
        #expect(HostError.managementCommandFailed(.startDiscovery, .rfkilled).description
                == "management command Start Discovery (0x0023) failed: RFKilled (0x12)")
    }

    @Test func capabilitiesFromProcStatus() {
        // Root's set on this kernel (41 capabilities), then `setpriv --inh-caps=+net_raw --ambient-caps=+net_raw` as nobody.
        let root = ProcessCapabilities.parse(status: "Name:\tcbtool\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n")
        #expect(root?.has(ProcessCapabilities.netRaw) == true)
        #expect(root?.has(ProcessCapabilities.netAdmin) == true)
        let netRaw = ProcessCapabilities.parse(status: "CapEff:\t0000000000002000\n")
        #expect(netRaw?.has(ProcessCapabilities.netRaw) == true)
        #expect(netRaw?.has(ProcessCapabilities.netAdmin) == false)
        #expect(ProcessCapabilities.parse(status: "CapEff:\t0000000000000000\n")?.has(13) == false)
        #expect(ProcessCapabilities.parse(status: "CapPrm:\t0000000000002000\n") == nil)
        #expect(ProcessCapabilities.parse(status: "CapEff:\tzz\n") == nil)
        #expect(ProcessCapabilities.parse(status: "CapEff:\t00000000000000000\n") == nil, "17 digits")
        #expect(ProcessCapabilities(effective: .max).has(64) == false)
    }
}
