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
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

/* Copies the authentication tag of a finished AES-GCM encryption into `tag`. */
static inline int switchyard_gcm_get_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag) > 0;
}

/* Sets the expected authentication tag of an AES-GCM decryption; OpenSSL copies it. */
static inline int switchyard_gcm_set_tag(EVP_CIPHER_CTX *ctx, const unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, (void *)tag) > 0;
}

/*
 * Ciphers and digests fetched once (once per object file that uses them: the tables below have
 * internal linkage, so each keeps its own, a few pointers each). OpenSSL 3 resolves the legacy getters
 * (EVP_aes_256_gcm(), EVP_sha256() ...) by name again on every EVP_*Init: a lock, string compares
 * and a hash lookup per operation, which costs more than sealing or hashing a small message.
 * Returns NULL if the default provider lacks the algorithm (the caller reports it).
 */
enum switchyard_algorithm {
    SWITCHYARD_AES_128_GCM, SWITCHYARD_AES_256_GCM,
    SWITCHYARD_AES_128_CBC, SWITCHYARD_AES_192_CBC, SWITCHYARD_AES_256_CBC,
    SWITCHYARD_AES_128_ECB, SWITCHYARD_AES_192_ECB, SWITCHYARD_AES_256_ECB,
    SWITCHYARD_CIPHER_COUNT
};
enum switchyard_digest { SWITCHYARD_SHA256, SWITCHYARD_SHA1, SWITCHYARD_MD5, SWITCHYARD_SHA512, SWITCHYARD_DIGEST_COUNT };

/* Swift emits a header's file-scope static arrays nowhere, so the tables live in functions. */
static EVP_CIPHER **switchyard_cipher_table(void) {
    static EVP_CIPHER *table[SWITCHYARD_CIPHER_COUNT] = {NULL};
    return table;
}

static EVP_MD **switchyard_digest_table(void) {
    static EVP_MD *table[SWITCHYARD_DIGEST_COUNT] = {NULL};
    return table;
}

/* HMAC contexts with their digest chosen and no key: a call duplicates one and keys the copy. */
static EVP_MAC_CTX **switchyard_hmac_prototype_table(void) {
    static EVP_MAC_CTX *table[SWITCHYARD_DIGEST_COUNT] = {NULL};
    return table;
}

static const char *switchyard_cipher_name(int which) {
    switch (which) {
    case SWITCHYARD_AES_128_GCM: return "AES-128-GCM";
    case SWITCHYARD_AES_256_GCM: return "AES-256-GCM";
    case SWITCHYARD_AES_128_CBC: return "AES-128-CBC";
    case SWITCHYARD_AES_192_CBC: return "AES-192-CBC";
    case SWITCHYARD_AES_256_CBC: return "AES-256-CBC";
    case SWITCHYARD_AES_128_ECB: return "AES-128-ECB";
    case SWITCHYARD_AES_192_ECB: return "AES-192-ECB";
    default: return "AES-256-ECB";
    }
}

static const char *switchyard_digest_name(int which) {
    switch (which) {
    case SWITCHYARD_SHA256: return "SHA256";
    case SWITCHYARD_SHA1: return "SHA1";
    case SWITCHYARD_MD5: return "MD5";
    default: return "SHA512";
    }
}

static CRYPTO_ONCE switchyard_fetch_once = CRYPTO_ONCE_STATIC_INIT;

static void switchyard_fetch_algorithms(void) {
    /* A fetch that fails leaves an error; only those are dropped, never errors queued before. */
    ERR_set_mark();
    EVP_CIPHER **ciphers = switchyard_cipher_table();
    for (int index = 0; index < SWITCHYARD_CIPHER_COUNT; index++) {
        ciphers[index] = EVP_CIPHER_fetch(NULL, switchyard_cipher_name(index), NULL);
    }
    EVP_MD **digests = switchyard_digest_table();
    for (int index = 0; index < SWITCHYARD_DIGEST_COUNT; index++) {
        digests[index] = EVP_MD_fetch(NULL, switchyard_digest_name(index), NULL);
    }
    ERR_pop_to_mark();
}

/* A cipher fetched once; one not fetched (a provider loaded later, say) is resolved by name on each
 * use, as OpenSSL's own getters (EVP_aes_256_gcm() ...) do: EVP_get_cipherbyname returns the same
 * objects. */
static inline const EVP_CIPHER *switchyard_cipher(enum switchyard_algorithm which) {
    if (CRYPTO_THREAD_run_once(&switchyard_fetch_once, switchyard_fetch_algorithms)
        && switchyard_cipher_table()[which] != NULL) {
        return switchyard_cipher_table()[which];
    }
    return EVP_get_cipherbyname(switchyard_cipher_name(which));
}

/* A digest fetched once, or else resolved by name on each use. */
static inline const EVP_MD *switchyard_digest(enum switchyard_digest which) {
    if (CRYPTO_THREAD_run_once(&switchyard_fetch_once, switchyard_fetch_algorithms)
        && switchyard_digest_table()[which] != NULL) {
        return switchyard_digest_table()[which];
    }
    return EVP_get_digestbyname(switchyard_digest_name(which));
}

/* The HMAC algorithm, fetched once per process (fetching costs a lock and a lookup per call). */
static CRYPTO_ONCE switchyard_hmac_once = CRYPTO_ONCE_STATIC_INIT;
static EVP_MAC *switchyard_hmac_algorithm = NULL;

static void switchyard_fetch_hmac(void) {
    switchyard_hmac_algorithm = EVP_MAC_fetch(NULL, "HMAC", NULL);
}

static EVP_MAC *switchyard_hmac_mac(void) {
    if (!CRYPTO_THREAD_run_once(&switchyard_hmac_once, switchyard_fetch_hmac)) {
        return NULL;
    }
    return switchyard_hmac_algorithm;
}

static CRYPTO_ONCE switchyard_hmac_prototypes_once = CRYPTO_ONCE_STATIC_INIT;

static void switchyard_make_hmac_prototypes(void) {
    EVP_MAC *mac = switchyard_hmac_mac();
    if (mac == NULL) {
        return;
    }
    /* A digest the provider lacks gets no prototype (its HMAC is set up per call); its error is dropped. */
    ERR_set_mark();
    EVP_MAC_CTX **prototypes = switchyard_hmac_prototype_table();
    for (int index = 0; index < SWITCHYARD_DIGEST_COUNT; index++) {
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
        if (ctx == NULL) {
            continue;
        }
        OSSL_PARAM params[2];
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)switchyard_digest_name(index), 0);
        params[1] = OSSL_PARAM_construct_end();
        if (EVP_MAC_CTX_set_params(ctx, params) != 1) {
            EVP_MAC_CTX_free(ctx);
            ctx = NULL;
        }
        prototypes[index] = ctx;
    }
    ERR_pop_to_mark();
}

/* A new HMAC context for `digest_name` with its digest chosen: a copy of the prototype when there is one. */
static inline EVP_MAC_CTX *switchyard_hmac_context(const char *digest_name, int *needs_digest) {
    *needs_digest = 1;
    if (CRYPTO_THREAD_run_once(&switchyard_hmac_prototypes_once, switchyard_make_hmac_prototypes)) {
        EVP_MAC_CTX **prototypes = switchyard_hmac_prototype_table();
        for (int index = 0; index < SWITCHYARD_DIGEST_COUNT; index++) {
            if (prototypes[index] != NULL && strcmp(digest_name, switchyard_digest_name(index)) == 0) {
                EVP_MAC_CTX *copy = EVP_MAC_CTX_dup(prototypes[index]);
                if (copy != NULL) {
                    *needs_digest = 0;
                    return copy;
                }
            }
        }
    }
    EVP_MAC *mac = switchyard_hmac_mac();
    return mac == NULL ? NULL : EVP_MAC_CTX_new(mac);
}

/*
 * An HMAC context keyed with `key` for `digest_name`, kept by the caller for
 * switchyard_hmac_keyed; NULL when OpenSSL fails. Free it with EVP_MAC_CTX_free.
 */
static inline EVP_MAC_CTX *switchyard_hmac_keyed_new(const char *digest_name,
                                                     const unsigned char *key, size_t key_length) {
    unsigned char empty[1] = {0};
    int needs_digest = 1;
    EVP_MAC_CTX *ctx = switchyard_hmac_context(digest_name, &needs_digest);
    if (ctx == NULL) {
        return NULL;
    }
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest_name, 0);
    params[1] = OSSL_PARAM_construct_end();
    /* HMAC needs a non-NULL key pointer even for an empty key, or it reports "no key set". */
    if (EVP_MAC_init(ctx, key_length > 0 ? key : empty, key_length, needs_digest ? params : NULL) != 1) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/*
 * One HMAC with a context from switchyard_hmac_keyed_new: EVP_MAC_init without a key keeps the
 * context's key and digest and starts the computation over, whatever the context did before.
 */
static inline int switchyard_hmac_keyed(EVP_MAC_CTX *ctx,
                                        const unsigned char *message, size_t message_length,
                                        unsigned char *out, size_t out_capacity, size_t *out_length) {
    return EVP_MAC_init(ctx, NULL, 0, NULL) == 1
        && (message_length == 0 || EVP_MAC_update(ctx, message, message_length) == 1)
        && EVP_MAC_final(ctx, out, out_length, out_capacity) == 1;
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
