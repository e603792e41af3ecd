// The security level a kernel L2CAP socket asks for (BT_SECURITY).

/// BT_SECURITY level of a Linux L2CAP socket (BlueZ `lib/bluetooth.h`); the kernel pairs or encrypts the
/// link to reach it (Core v5.4 Vol 3 Part C §10.2 LE security mode 1 levels).
public enum L2CAPSecurityLevel: UInt8, Hashable, Sendable {
    /// BT_SECURITY_LOW (1): no encryption (LE security mode 1 level 1).
    case low = 1
    /// BT_SECURITY_MEDIUM (2): encryption with an unauthenticated key (level 2).
    case medium = 2
    /// BT_SECURITY_HIGH (3): encryption with an authenticated (MITM-protected) key (level 3).
    case high = 3
    /// BT_SECURITY_FIPS (4): authenticated LE Secure Connections with a 128-bit key (level 4).
    case fips = 4
}
