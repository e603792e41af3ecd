// The Linux Bluetooth kernel ABI from libbluetooth-dev's headers: sockaddr_hci, sockaddr_l2, hci_filter, HCI ioctls and L2CAP socket options.
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
#endif
