// The Linux Bluetooth kernel ABI from libbluetooth-dev's headers: sockaddr_hci, sockaddr_l2, hci_filter, HCI ioctls, L2CAP socket options and the monitor channel.
#ifndef CBLUEZ_SHIM_H
#define CBLUEZ_SHIM_H
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

/// HCIGETDEVLIST as a value (the macro is a function-like _IOR that Swift cannot import).
static inline unsigned long cbluez_hcigetdevlist(void) { return HCIGETDEVLIST; }
/// HCIGETDEVINFO as a value.
static inline unsigned long cbluez_hcigetdevinfo(void) { return HCIGETDEVINFO; }

#include <errno.h>
#include <string.h>
#include <stdint.h>
#include <sys/time.h>
#include <unistd.h>

// Small wrappers over the kernel ABI for what Swift cannot express (function-like macros, flexible
// arrays, sockaddr casts). Each returns what the system call returns (-1 with errno set on failure).

/// socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI).
static inline int cbluez_hci_socket(void) {
    return socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI);
}

/// Binds an HCI socket to controller `dev` (hciN) on `channel` (HCI_CHANNEL_RAW 0, HCI_CHANNEL_USER 1).
static inline int cbluez_hci_bind(int fd, uint16_t dev, uint16_t channel) {
    struct sockaddr_hci addr;
    memset(&addr, 0, sizeof(addr));
    addr.hci_family = AF_BLUETOOTH;
    addr.hci_dev = dev;
    addr.hci_channel = channel;
    return bind(fd, (struct sockaddr *)&addr, sizeof(addr));
}

/// Sets an HCI_CHANNEL_RAW socket's filter to pass every event and ACL packet (optlen 16: the struct with padding).
static inline int cbluez_hci_set_event_acl_filter(int fd) {
    struct hci_filter filter;
    memset(&filter, 0, sizeof(filter));
    filter.type_mask = (1u << HCI_EVENT_PKT) | (1u << HCI_ACLDATA_PKT);
    filter.event_mask[0] = 0xFFFFFFFFu;
    filter.event_mask[1] = 0xFFFFFFFFu;
    return setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, sizeof(filter));
}

/// HCIGETDEVLIST: fills `ids` and `options` with up to `max` (at most HCI_MAX_DEV) controllers; returns their number or -1.
static inline int cbluez_hci_dev_list(int fd, uint16_t *ids, uint32_t *options, int max) {
    struct { uint16_t dev_num; struct hci_dev_req dev_req[HCI_MAX_DEV]; } request;
    memset(&request, 0, sizeof(request));
    request.dev_num = HCI_MAX_DEV;
    if (ioctl(fd, HCIGETDEVLIST, (void *)&request) < 0) return -1;
    int count = request.dev_num < max ? request.dev_num : max;
    if (count > HCI_MAX_DEV) count = HCI_MAX_DEV;
    for (int i = 0; i < count; i++) { ids[i] = request.dev_req[i].dev_id; options[i] = request.dev_req[i].dev_opt; }
    return count;
}

/// HCIGETDEVINFO for controller `dev`.
static inline int cbluez_hci_dev_info(int fd, uint16_t dev, struct hci_dev_info *info) {
    memset(info, 0, sizeof(*info));
    info->dev_id = dev;
    return ioctl(fd, HCIGETDEVINFO, (void *)info);
}

/// socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_L2CAP).
static inline int cbluez_l2cap_socket(void) {
    return socket(AF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_L2CAP);
}

/// Fills a sockaddr_l2 for an LE fixed channel: `address` is 6 bytes, least significant first (bdaddr_t order);
/// `type` BDADDR_LE_PUBLIC 1 or BDADDR_LE_RANDOM 2; `cid` the fixed channel (4 = ATT).
static inline struct sockaddr_l2 cbluez_sockaddr_l2(const uint8_t *address, uint8_t type, uint16_t cid) {
    struct sockaddr_l2 addr;
    memset(&addr, 0, sizeof(addr));
    addr.l2_family = AF_BLUETOOTH;
    memcpy(&addr.l2_bdaddr, address, 6);
    addr.l2_cid = htobs(cid);
    addr.l2_bdaddr_type = type;
    return addr;
}

/// bind() of an L2CAP socket to a local adapter address (all zero: any adapter).
static inline int cbluez_l2cap_bind(int fd, const uint8_t *address, uint8_t type, uint16_t cid) {
    struct sockaddr_l2 addr = cbluez_sockaddr_l2(address, type, cid);
    return bind(fd, (struct sockaddr *)&addr, sizeof(addr));
}

/// connect() of an L2CAP socket to a peer; on a non-blocking socket -1 with errno EINPROGRESS means "wait for writable".
static inline int cbluez_l2cap_connect(int fd, const uint8_t *address, uint8_t type, uint16_t cid) {
    struct sockaddr_l2 addr = cbluez_sockaddr_l2(address, type, cid);
    return connect(fd, (struct sockaddr *)&addr, sizeof(addr));
}

/// setsockopt(SOL_BLUETOOTH, BT_SECURITY) with `level` (1 low, 2 medium, 3 high, 4 FIPS).
static inline int cbluez_set_security(int fd, uint8_t level) {
    struct bt_security security;
    memset(&security, 0, sizeof(security));
    security.level = level;
    return setsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, sizeof(security));
}

/// getsockopt(SOL_BLUETOOTH, BT_SECURITY): the link's security level (1...4) and, once connected and encrypted, its
/// encryption key size in octets (0 otherwise).
static inline int cbluez_get_security(int fd, uint8_t *level, uint8_t *key_size) {
    struct bt_security security;
    socklen_t length = sizeof(security);
    memset(&security, 0, sizeof(security));
    if (getsockopt(fd, SOL_BLUETOOTH, BT_SECURITY, &security, &length) < 0) return -1;
    *level = security.level;
    *key_size = security.key_size;
    return 0;
}

/// getsockopt(SOL_L2CAP, L2CAP_CONNINFO): the HCI connection handle of a connected L2CAP socket.
static inline int cbluez_l2cap_connection_handle(int fd, uint16_t *handle) {
    struct l2cap_conninfo info;
    socklen_t length = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (getsockopt(fd, SOL_L2CAP, L2CAP_CONNINFO, &info, &length) < 0) return -1;
    *handle = info.hci_handle;
    return 0;
}

/// getsockopt(SOL_SOCKET, SO_ERROR): the pending error of a socket (0 if none), or -1.
static inline int cbluez_socket_error(int fd) {
    int value = 0;
    socklen_t length = sizeof(value);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) < 0) return -1;
    return value;
}

/// Opens the HCI monitor channel (what btmon reads): an HCI socket bound to HCI_DEV_NONE on HCI_CHANNEL_MONITOR (2),
/// with SO_TIMESTAMP on so each datagram carries the kernel's receive time. Needs CAP_NET_RAW. Returns the descriptor,
/// or -1 with errno set (EAFNOSUPPORT without Bluetooth, EPERM without the capability); nothing stays open on failure.
static inline int cbluez_hci_monitor_open(void) {
    int fd = cbluez_hci_socket();
    if (fd < 0) return -1;
    int on = 1;
    if (cbluez_hci_bind(fd, HCI_DEV_NONE, HCI_CHANNEL_MONITOR) < 0 || setsockopt(fd, SOL_SOCKET, SO_TIMESTAMP, &on, sizeof(on)) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// recvmsg() of one datagram into `buffer` (up to `capacity` bytes). `*microseconds` gets the SO_TIMESTAMP receive
/// time in microseconds since 1970-01-01 UTC, or 0 when the datagram carried none. Returns the datagram's length
/// (MSG_TRUNC: may exceed `capacity` when it was cut), or -1 with errno set.
static inline ssize_t cbluez_recv_timestamped(int fd, void *buffer, size_t capacity, int64_t *microseconds) {
    struct iovec vector = { .iov_base = buffer, .iov_len = capacity };
    union { char bytes[CMSG_SPACE(sizeof(struct timeval))]; struct cmsghdr align; } control;
    struct msghdr message;
    memset(&message, 0, sizeof(message));
    memset(&control, 0, sizeof(control));
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof(control.bytes);
    *microseconds = 0;
    ssize_t count = recvmsg(fd, &message, MSG_TRUNC);
    if (count < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMP
            && header->cmsg_len >= CMSG_LEN(sizeof(struct timeval))) {
            struct timeval time;
            memcpy(&time, CMSG_DATA(header), sizeof(time));
            *microseconds = (int64_t)time.tv_sec * 1000000 + (int64_t)time.tv_usec;
        }
    }
    return count;
}
#endif
