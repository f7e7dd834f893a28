#ifndef C_NIOSSL_DIGEST_H
#define C_NIOSSL_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/// Writes the SHA-256 digest of `length` bytes at `data` into the 32 bytes at `digest`.
///
/// It calls the SHA-256 of the BoringSSL that swift-nio-ssl compiles into every program that uses
/// NIOSSL (and so AsyncHTTPClient): the pinning digest of the AsyncHTTPClient transport needs no
/// system library and no second copy of BoringSSL.
void switchyard_niossl_sha256(const uint8_t *data, size_t length, uint8_t digest[32]);

#endif
