/*
 * COpenSSL: the OpenSSL 3 headers SwitchyardCrypto uses, plus small helpers for the places where
 * OpenSSL offers only macros or OSSL_PARAM arrays, which Swift cannot call conveniently.
 *
 * Every helper returns 1 on success and 0 on failure (the OpenSSL convention); on failure the
 * OpenSSL error queue says why. Every helper frees what it allocates on every path.
 */
#ifndef SWITCHYARD_COPENSSL_SHIM_H
#define SWITCHYARD_COPENSSL_SHIM_H

#include <stddef.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

/* Sets the IV (nonce) length of an AES-GCM context; call after choosing the cipher, before the key. */
static inline int switchyard_gcm_set_iv_length(EVP_CIPHER_CTX *ctx, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, length, NULL) > 0;
}

/* Copies the authentication tag of a finished AES-GCM encryption into `tag`. */
static inline int switchyard_gcm_get_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag) > 0;
}

/* Sets the expected authentication tag of an AES-GCM decryption; OpenSSL copies it. */
static inline int switchyard_gcm_set_tag(EVP_CIPHER_CTX *ctx, const unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, (void *)tag) > 0;
}

/* The HMAC algorithm, fetched once per process (fetching costs a lock and a lookup per call). */
static CRYPTO_ONCE switchyard_hmac_once = CRYPTO_ONCE_STATIC_INIT;
static EVP_MAC *switchyard_hmac_algorithm = NULL;

static void switchyard_fetch_hmac(void) {
    switchyard_hmac_algorithm = EVP_MAC_fetch(NULL, "HMAC", NULL);
}

static inline EVP_MAC *switchyard_hmac_mac(void) {
    if (!CRYPTO_THREAD_run_once(&switchyard_hmac_once, switchyard_fetch_hmac)) {
        return NULL;
    }
    return switchyard_hmac_algorithm;
}

/*
 * One-shot HMAC over EVP_MAC. `digest_name` is an OpenSSL digest name such as "SHA256", "SHA1" or
 * "MD5". A zero-length key or message is allowed (a NULL pointer is accepted for a zero length).
 * Writes at most `out_capacity` bytes to `out` and the MAC length to `out_length`.
 */
static inline int switchyard_hmac(const char *digest_name,
                                  const unsigned char *key, size_t key_length,
                                  const unsigned char *message, size_t message_length,
                                  unsigned char *out, size_t out_capacity, size_t *out_length) {
    unsigned char empty[1] = {0};
    EVP_MAC *mac = switchyard_hmac_mac();
    if (mac == NULL) {
        return 0;
    }
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    if (ctx == NULL) {
        return 0;
    }
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest_name, 0);
    params[1] = OSSL_PARAM_construct_end();
    /* HMAC needs a non-NULL key pointer even for an empty key, or it reports "no key set". */
    int ok = EVP_MAC_init(ctx, key_length > 0 ? key : empty, key_length, params) == 1
        && (message_length == 0 || EVP_MAC_update(ctx, message, message_length) == 1)
        && EVP_MAC_final(ctx, out, out_length, out_capacity) == 1;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

/*
 * HKDF-SHA256 (RFC 5869, extract then expand) over EVP_KDF "HKDF". An empty salt means the RFC's
 * default (HashLen zero bytes); an empty info means no info. Writes exactly `out_length` bytes.
 */
static inline int switchyard_hkdf_sha256(const unsigned char *key, size_t key_length,
                                         const unsigned char *salt, size_t salt_length,
                                         const unsigned char *info, size_t info_length,
                                         unsigned char *out, size_t out_length) {
    unsigned char empty[1] = {0};
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, OSSL_KDF_NAME_HKDF, NULL);
    if (kdf == NULL) {
        return 0;
    }
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    if (ctx == NULL) {
        EVP_KDF_free(kdf);
        return 0;
    }
    OSSL_PARAM params[5];
    size_t count = 0;
    params[count++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    /* The key parameter must point somewhere even when empty, or OpenSSL reports a missing key. */
    params[count++] = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_KEY, (void *)(key_length > 0 ? key : empty), key_length);
    if (salt_length > 0) {
        params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_length);
    }
    if (info_length > 0) {
        params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_length);
    }
    params[count] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, out_length, params) == 1;
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok;
}

#endif /* SWITCHYARD_COPENSSL_SHIM_H */
