#ifndef SWITCHYARD_EVP_LOOP_H
#define SWITCHYARD_EVP_LOOP_H

#include <stddef.h>

/*
 * The baseline for the `crypto` benchmark scenario: plain OpenSSL EVP loops in C doing the same
 * one-shot work per message as Switchyard's API — a fresh context per message, a random nonce per
 * sealed message — with no Swift in between. Each returns the number of messages processed, or -1.
 */

/* Seals `count` messages of `length` bytes with AES-256-GCM (random 12-byte nonce, 16-byte tag, 16 bytes of AAD). */
long switchyard_evp_gcm_seal_loop(const unsigned char *key, const unsigned char *message, size_t length, long count);

/* HMAC-SHA256 of `count` messages of `length` bytes with a 32-byte key. */
long switchyard_evp_hmac_loop(const unsigned char *key, const unsigned char *message, size_t length, long count);

/* Draws `count` 12-byte nonces with RAND_bytes. */
long switchyard_evp_rand_loop(long count);

#endif
