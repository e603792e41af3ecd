// OpenSSL's libcrypto (libssl-dev) as the project sees it: the EVP digest interface (SHA-1 for name-based UUIDs) and,
// for the Security Manager, the EVP cipher, MAC and key interfaces.
#ifndef COCBCRYPTO_SHIM_H
#define COCBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#endif
