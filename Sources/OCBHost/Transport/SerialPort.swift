// Opens and configures a serial device (or pty) for H4: raw mode, 8N1, a baud rate, RTS/CTS flow control.

import Glibc

/// termios set-up of a serial line for the UART transport (Core v5.4 Vol 4 Part A §1: 8 data bits,
/// no parity, 1 stop bit, RTS/CTS hardware flow control).
enum SerialPort {
    /// Baud rates termios can set on Linux, bits/s to speed_t.
    static let baudRates: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 500_000: speed_t(B500000),
        576_000: speed_t(B576000), 921_600: speed_t(B921600), 1_000_000: speed_t(B1000000), 1_152_000: speed_t(B1152000),
        1_500_000: speed_t(B1500000), 2_000_000: speed_t(B2000000), 2_500_000: speed_t(B2500000),
        3_000_000: speed_t(B3000000), 3_500_000: speed_t(B3500000), 4_000_000: speed_t(B4000000),
    ]

    /// CRTSCTS (0x80000000 in asm-generic termbits.h), which Swift does not import.
    static let hardwareFlowControl: tcflag_t = 0x8000_0000

    /// Opens `path` non-blocking and configures it. Throws ``HCITransportError/unsupportedBaudRate(_:)`` or
    /// the mapped error of open/tcgetattr/tcsetattr (ENOTTY when `path` is not a terminal).
    static func open(path: String, baudRate: Int, flowControl: Bool) throws(HCITransportError) -> Int32 {
        guard let speed = baudRates[baudRate] else { throw .unsupportedBaudRate(baudRate) }
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw HCITransportError(errno: errno, operation: "open \(path)") }
        do {
            try configure(descriptor, speed: speed, flowControl: flowControl, path: path)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Raw mode, `speed` in and out, CS8 without parity and with one stop bit, receiver on, modem lines ignored.
    static func configure(_ descriptor: Int32, speed: speed_t, flowControl: Bool, path: String) throws(HCITransportError) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw HCITransportError(errno: errno, operation: "tcgetattr \(path)") }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        settings.c_cflag &= ~(tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CSIZE))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        if flowControl { settings.c_cflag |= hardwareFlowControl } else { settings.c_cflag &= ~hardwareFlowControl }
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else { throw HCITransportError(errno: errno, operation: "tcsetattr \(path)") }
        _ = tcflush(descriptor, TCIOFLUSH)
    }
}
