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
#endif
