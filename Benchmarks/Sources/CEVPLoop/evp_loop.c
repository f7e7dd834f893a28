#include "evp_loop.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <stdlib.h>

long switchyard_evp_gcm_seal_loop(const unsigned char *key, const unsigned char *message, size_t length, long count) {
    /* The best a plain C loop does: the cipher fetched once, and cipher, key and 12-byte nonce (GCM's
     * default length) set in one call. */
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    unsigned char *out = malloc(length + 16);
    unsigned char nonce[12], tag[16], aad[16] = {0};
    if (out == NULL || cipher == NULL) {
        free(out);
        EVP_CIPHER_free(cipher);
        return -1;
    }
    long done = 0;
    for (long i = 0; i < count; i++) {
        int written = 0, final_written = 0;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int ok = ctx != NULL && RAND_bytes(nonce, sizeof nonce) == 1
            && EVP_EncryptInit_ex(ctx, cipher, NULL, key, nonce) == 1
            && EVP_EncryptUpdate(ctx, NULL, &written, aad, sizeof aad) == 1
            && EVP_EncryptUpdate(ctx, out, &written, message, (int)length) == 1
            && EVP_EncryptFinal_ex(ctx, out + written, &final_written) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, sizeof tag, tag) == 1;
        EVP_CIPHER_CTX_free(ctx);
        if (!ok) break;
        done++;
    }
    free(out);
    EVP_CIPHER_free(cipher);
    return done == count ? done : -1;
}

long switchyard_evp_hmac_loop(const unsigned char *key, const unsigned char *message, size_t length, long count) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return -1;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    unsigned char out[32];
    long done = 0;
    for (long i = 0; i < count; i++) {
        size_t written = 0;
        EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
        int ok = ctx != NULL && EVP_MAC_init(ctx, key, 32, params) == 1
            && EVP_MAC_update(ctx, message, length) == 1
            && EVP_MAC_final(ctx, out, &written, sizeof out) == 1;
        EVP_MAC_CTX_free(ctx);
        if (!ok) break;
        done++;
    }
    EVP_MAC_free(mac);
    return done == count ? done : -1;
}

long switchyard_evp_rand_loop(long count) {
    unsigned char nonce[12];
    for (long i = 0; i < count; i++) {
        if (RAND_bytes(nonce, sizeof nonce) != 1) return -1;
    }
    return count;
}
