#include "CNIOSSLDigest.h"

// BoringSSL's `SHA256` as swift-nio-ssl vendors it: every symbol carries the `CNIOBoringSSL_` prefix
// (CNIOBoringSSL_prefix_symbols.h). Its object is linked wherever NIOSSL is.
extern uint8_t *CNIOBoringSSL_SHA256(const uint8_t *data, size_t length, uint8_t out[32]);

void switchyard_niossl_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    CNIOBoringSSL_SHA256(data, length, digest);
}
