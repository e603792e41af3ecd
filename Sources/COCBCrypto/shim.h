// OpenSSL's libcrypto (libssl-dev) as the project sees it: the EVP digest interface (SHA-1 for name-based UUIDs), and
// for the Security Manager AES-128, AES-CMAC and P-256 ECDH, each wrapped in one call below (libcrypto does the work).
#ifndef COCBCRYPTO_SHIM_H
#define COCBCRYPTO_SHIM_H
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <stdint.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/bn.h>
#include <openssl/obj_mac.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <pthread.h>

/// libcrypto without its atexit cleanup (OPENSSL_INIT_NO_ATEXIT): a process that exits while another thread still
/// hashes or encrypts (a discovery's SHA-1, a pairing's AES) must not have libcrypto torn down under that thread (it
/// crashed cbtool at exit). Run once, before every use (pthread_once).
static pthread_once_t ocb_crypto_once = PTHREAD_ONCE_INIT;
static inline void ocb_crypto_init_once(void) { OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL); }
static inline void ocb_crypto_init(void) { pthread_once(&ocb_crypto_once, ocb_crypto_init_once); }

/// The SHA-1 implementation, fetched from the default provider once (OpenSSL 3's explicit fetch, EVP_MD_fetch):
/// `EVP_sha1()` handed to a digest call makes libcrypto fetch it again by name and properties on every call, under
/// locks: about 2,000 instructions a digest, a sixth of a new peripheral's identifier. NULL if the fetch failed.
static pthread_once_t ocb_sha1_once = PTHREAD_ONCE_INIT;
static EVP_MD *ocb_sha1_fetched = NULL;
static inline void ocb_sha1_fetch_once(void) {
    ocb_crypto_init();
    ocb_sha1_fetched = EVP_MD_fetch(NULL, "SHA1", NULL);
}

/// Starts libcrypto and fetches SHA-1 now (once per process), so the first peripheral's identifier does not pay for
/// it (about 5 million instructions, a millisecond or two, on the delegate queue at the first discovery).
static inline void ocb_sha1_prepare(void) { pthread_once(&ocb_sha1_once, ocb_sha1_fetch_once); }

/// SHA-1 of `count` bytes into `out` (20 bytes) with EVP_Digest and the implementation fetched once; 1 on success.
static inline int ocb_sha1(const uint8_t *message, size_t count, uint8_t out[20]) {
    pthread_once(&ocb_sha1_once, ocb_sha1_fetch_once);
    if (ocb_sha1_fetched == NULL) return 0;
    unsigned int length = 0;
    return EVP_Digest(message, count, out, &length, ocb_sha1_fetched, NULL) == 1 && length == 20;
}

/// AES-128 of one 16-byte block (ECB, no padding), the SMP security function e (Core v5.4 Vol 3 Part H §2.2.1).
/// Bytes in the cipher's order (most significant first). Returns 1 on success.
static inline int ocb_aes128_block(const uint8_t key[16], const uint8_t in[16], uint8_t out[16]) {
    ocb_crypto_init();
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int ok = 0, length = 0, final = 0;
    if (EVP_EncryptInit_ex(ctx, EVP_aes_128_ecb(), NULL, key, NULL) == 1 && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
        && EVP_EncryptUpdate(ctx, out, &length, in, 16) == 1 && EVP_EncryptFinal_ex(ctx, out + length, &final) == 1) {
        ok = (length + final) == 16;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/// AES-CMAC (RFC 4493) of `count` bytes with a 128-bit key, through EVP_MAC "CMAC" with AES-128-CBC. Returns 1 on success.
static inline int ocb_aes_cmac(const uint8_t key[16], const uint8_t *message, size_t count, uint8_t out[16]) {
    ocb_crypto_init();
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    if (mac == NULL) return 0;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    int ok = 0;
    if (ctx != NULL) {
        char cipher[] = "AES-128-CBC";
        OSSL_PARAM params[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0), OSSL_PARAM_construct_end() };
        size_t written = 0;
        static const uint8_t empty = 0;
        if (EVP_MAC_init(ctx, key, 16, params) == 1 && EVP_MAC_update(ctx, count ? message : &empty, count) == 1
            && EVP_MAC_final(ctx, out, &written, 16) == 1) {
            ok = written == 16;
        }
        EVP_MAC_CTX_free(ctx);
    }
    EVP_MAC_free(mac);
    return ok;
}

/// A new P-256 key pair (Core v5.4 Vol 3 Part H §2.3.5.6.1): private scalar and public X, Y, 32 bytes each, most
/// significant first. Returns 1 on success.
static inline int ocb_p256_generate(uint8_t private_key[32], uint8_t x[32], uint8_t y[32]) {
    ocb_crypto_init();
    EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    if (key == NULL) return 0;
    int ok = 0;
    BIGNUM *bx = BN_new(), *by = BN_new();
    if (bx != NULL && by != NULL && EC_KEY_generate_key(key) == 1
        && EC_POINT_get_affine_coordinates(EC_KEY_get0_group(key), EC_KEY_get0_public_key(key), bx, by, NULL) == 1
        && BN_bn2binpad(EC_KEY_get0_private_key(key), private_key, 32) == 32
        && BN_bn2binpad(bx, x, 32) == 32 && BN_bn2binpad(by, y, 32) == 32) {
        ok = 1;
    }
    BN_free(bx);
    BN_free(by);
    EC_KEY_free(key);
    return ok;
}

/// The P-256 Diffie-Hellman key (the DHKey, X coordinate of d·Q, 32 bytes most significant first) of a private scalar
/// and a peer's public X, Y. Returns 1 on success, 0 when the peer's point is not on the curve (OpenSSL checks it when
/// the coordinates are set) or the scalar is invalid, -1 when libcrypto fails.
static inline int ocb_p256_dh(const uint8_t private_key[32], const uint8_t x[32], const uint8_t y[32], uint8_t out[32]) {
    ocb_crypto_init();
    EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    if (key == NULL) return -1;
    const EC_GROUP *group = EC_KEY_get0_group(key);
    int result = 0;
    BIGNUM *d = BN_bin2bn(private_key, 32, NULL), *bx = BN_bin2bn(x, 32, NULL), *by = BN_bin2bn(y, 32, NULL);
    EC_POINT *peer = EC_POINT_new(group);
    if (d == NULL || bx == NULL || by == NULL || peer == NULL) {
        result = -1;
    } else if (EC_KEY_set_private_key(key, d) == 1 && EC_POINT_set_affine_coordinates(group, peer, bx, by, NULL) == 1
               && EC_POINT_is_on_curve(group, peer, NULL) == 1 && ECDH_compute_key(out, 32, peer, key, NULL) == 32) {
        result = 1;
    }
    ERR_clear_error();
    EC_POINT_free(peer);
    BN_free(d);
    BN_free(bx);
    BN_free(by);
    EC_KEY_free(key);
    return result;
}
#endif
