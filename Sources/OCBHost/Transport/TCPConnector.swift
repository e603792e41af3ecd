// Opens a TCP client connection with a deadline, for H4 over TCP (e.g. an emulator or a Bumble controller).

@_implementationOnly import COCBBlueZ
import Glibc

/// Resolves `host` and connects to `port`, trying each address, with a bounded non-blocking connect.
enum TCPConnector {
    /// Returns a connected stream socket (non-blocking, TCP_NODELAY). Throws ``HCITransportError/addressLookup(host:message:)``,
    /// ``HCITransportError/timedOut(operation:)`` or the mapped connect error (ECONNREFUSED as ``HCITransportError/system(operation:errno:)``).
    static func connect(host: String, port: UInt16, timeoutMilliseconds: Int32 = 5_000) throws(HCITransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw .addressLookup(host: host, message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        let operation = "connect to tcp:\(host):\(port)"
        var lastError = HCITransportError.addressLookup(host: host, message: "no address")
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            let descriptor = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                                    info.ai_protocol)
            guard descriptor >= 0 else { lastError = HCITransportError(errno: errno, operation: operation); continue }
            if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) != 0 {
                let code = errno
                guard code == EINPROGRESS else {
                    lastError = HCITransportError(errno: code, operation: operation)
                    Glibc.close(descriptor)
                    continue
                }
                var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&pollDescriptor, 1, timeoutMilliseconds)
                let pending = ready > 0 ? socketError(descriptor) : (ready == 0 ? ETIMEDOUT : errno)
                guard pending == 0 else {
                    lastError = HCITransportError(errno: pending, operation: operation)
                    Glibc.close(descriptor)
                    continue
                }
            }
            var one: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return descriptor
        }
        throw lastError
    }

    /// SO_ERROR of a socket whose connect finished.
    static func socketError(_ descriptor: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }
}
