#include "CBothamNativeShims.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <pthread.h>
#include <string.h>
#include <openssl/x509.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

int botham_has_epoll(void) { return 1; }

int botham_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int botham_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &event);
}

int botham_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event buffer[64];
    if (max > 64) max = 64;
    int count = epoll_wait(epfd, buffer, max, timeout_ms);
    for (int i = 0; i < count; i++) {
        fds[i] = buffer[i].data.fd;
        events[i] = buffer[i].events;
    }
    return count;
}

int botham_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

#else

int botham_has_epoll(void) { return 0; }
int botham_epoll_create(void) { errno = ENOSYS; return -1; }
int botham_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    (void)epfd; (void)op; (void)fd; (void)events;
    errno = ENOSYS;
    return -1;
}
int botham_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeout_ms) {
    (void)epfd; (void)fds; (void)events; (void)max; (void)timeout_ms;
    errno = ENOSYS;
    return -1;
}
int botham_eventfd(void) { errno = ENOSYS; return -1; }

#endif

long botham_ssl_set_sni(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }

long botham_ssl_ctx_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

void botham_ssl_ctx_forbid_compression_and_renegotiation(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
}

int botham_ssl_cipher_allowed_for_http2(const SSL *ssl) {
    if (SSL_version(ssl) > TLS1_2_VERSION) return 1;
    const SSL_CIPHER *cipher = SSL_get_current_cipher(ssl);
    if (cipher == NULL || !SSL_CIPHER_is_aead(cipher)) return 0;
    int kx = SSL_CIPHER_get_kx_nid(cipher);
    return kx == NID_kx_ecdhe || kx == NID_kx_dhe;
}

int botham_ssl_verified_chain_count(const SSL *ssl) {
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    if (chain == NULL) return 0;
    return sk_X509_num(chain);
}

int botham_ssl_verified_chain_spki_sha256(const SSL *ssl, int index, unsigned char *out) {
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    if (chain == NULL || index < 0 || index >= sk_X509_num(chain)) return 0;
    X509 *cert = sk_X509_value(chain, index);
    if (cert == NULL) return 0;
    unsigned char *der = NULL;
    int length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &der);
    if (length <= 0 || der == NULL) return 0;
    unsigned int digestLength = 0;
    int ok = EVP_Digest(der, (size_t)length, out, &digestLength, EVP_sha256(), NULL);
    OPENSSL_free(der);
    return ok == 1 && digestLength == 32 ? 1 : 0;
}

int botham_ssl_ctx_add_pem_roots(SSL_CTX *ctx, const void *pem, int length) {
    BIO *bio = BIO_new_mem_buf(pem, length);
    if (bio == NULL) return -1;
    X509_STORE *store = SSL_CTX_get_cert_store(ctx);
    int added = 0;
    for (;;) {
        X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (cert == NULL) break;
        if (X509_STORE_add_cert(store, cert) == 1) added++;
        X509_free(cert);
    }
    ERR_clear_error();
    BIO_free(bio);
    return added;
}

static int botham_pem_password(char *buffer, int size, int rwflag, void *userdata) {
    (void)rwflag;
    if (userdata == NULL) return -1;  // no password given: fail instead of prompting on the terminal
    size_t length = strlen((const char *)userdata);
    if (length > (size_t)size) return -1;
    memcpy(buffer, userdata, length);
    return (int)length;
}

int botham_ssl_ctx_use_pem_identity(
    SSL_CTX *ctx, const void *chain, int chainLength, const void *key, int keyLength, const char *password) {
    BIO *bio = BIO_new_mem_buf(chain, chainLength);
    if (bio == NULL) return BOTHAM_IDENTITY_NO_CERTIFICATE;
    X509 *leaf = PEM_read_bio_X509(bio, NULL, botham_pem_password, NULL);
    if (leaf == NULL || SSL_CTX_use_certificate(ctx, leaf) != 1) {
        X509_free(leaf);
        BIO_free(bio);
        return BOTHAM_IDENTITY_NO_CERTIFICATE;
    }
    X509_free(leaf);
    for (;;) {
        X509 *intermediate = PEM_read_bio_X509(bio, NULL, botham_pem_password, NULL);
        if (intermediate == NULL) break;
        if (SSL_CTX_add0_chain_cert(ctx, intermediate) != 1) {  // takes the reference on success
            X509_free(intermediate);
            BIO_free(bio);
            return BOTHAM_IDENTITY_BAD_CHAIN;
        }
    }
    BIO_free(bio);
    // The end of the PEM data queues "no start line"; any other error is a certificate that did not parse, which
    // must not be dropped silently (the server would then refuse an incomplete chain for a reason hard to see).
    unsigned long end = ERR_peek_last_error();
    if (end != 0 && !(ERR_GET_LIB(end) == ERR_LIB_PEM && ERR_GET_REASON(end) == PEM_R_NO_START_LINE)) {
        ERR_clear_error();
        return BOTHAM_IDENTITY_BAD_CHAIN;
    }
    ERR_clear_error();
    bio = BIO_new_mem_buf(key, keyLength);
    if (bio == NULL) return BOTHAM_IDENTITY_BAD_KEY;
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, botham_pem_password, (void *)password);
    BIO_free(bio);
    if (pkey == NULL) return BOTHAM_IDENTITY_BAD_KEY;
    int used = SSL_CTX_use_PrivateKey(ctx, pkey);
    EVP_PKEY_free(pkey);
    if (used != 1 || SSL_CTX_check_private_key(ctx) != 1) return BOTHAM_IDENTITY_KEY_MISMATCH;
    return BOTHAM_IDENTITY_OK;
}

int botham_ssl_ctx_use_pkcs12_identity(SSL_CTX *ctx, const void *data, int length, const char *password) {
    BIO *bio = BIO_new_mem_buf(data, length);
    if (bio == NULL) return BOTHAM_IDENTITY_NOT_PKCS12;
    PKCS12 *archive = d2i_PKCS12_bio(bio, NULL);
    BIO_free(bio);
    if (archive == NULL) return BOTHAM_IDENTITY_NOT_PKCS12;
    if (PKCS12_mac_present(archive) && PKCS12_verify_mac(archive, password, -1) != 1) {
        // An empty password may have been a missing one when the archive was made: PKCS#12 tells them apart.
        if (password != NULL && password[0] == 0 && PKCS12_verify_mac(archive, NULL, 0) == 1) {
            password = NULL;
        } else {
            PKCS12_free(archive);
            return BOTHAM_IDENTITY_WRONG_PASSWORD;
        }
    }
    EVP_PKEY *pkey = NULL;
    X509 *cert = NULL;
    STACK_OF(X509) *cas = NULL;
    int parsed = PKCS12_parse(archive, password, &pkey, &cert, &cas);
    PKCS12_free(archive);
    int result = BOTHAM_IDENTITY_OK;
    if (parsed != 1 || pkey == NULL || cert == NULL) {
        result = BOTHAM_IDENTITY_BAD_PKCS12;
    } else if (SSL_CTX_use_certificate(ctx, cert) != 1) {
        result = BOTHAM_IDENTITY_NO_CERTIFICATE;
    } else if (SSL_CTX_use_PrivateKey(ctx, pkey) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
        result = BOTHAM_IDENTITY_KEY_MISMATCH;
    } else {
        for (int index = 0; cas != NULL && index < sk_X509_num(cas); index++) {
            if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(cas, index)) != 1) {
                result = BOTHAM_IDENTITY_BAD_CHAIN;
                break;
            }
        }
    }
    EVP_PKEY_free(pkey);
    X509_free(cert);
    sk_X509_pop_free(cas, X509_free);
    return result;
}

static int botham_requested_index = -1;
static int botham_owner_index = -1;
static pthread_once_t botham_indexes_once = PTHREAD_ONCE_INIT;

static void botham_make_indexes(void) {
    botham_requested_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
    botham_owner_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

static int botham_note_certificate_request(SSL *ssl, void *arg) {
    (void)arg;
    // Called in client mode when a CertificateRequest arrives; 1 lets the handshake go on with whatever is set.
    SSL_set_ex_data(ssl, botham_requested_index, (void *)1);
    return 1;
}

void botham_ssl_ctx_track_certificate_request(SSL_CTX *ctx) {
    pthread_once(&botham_indexes_once, botham_make_indexes);
    SSL_CTX_set_cert_cb(ctx, botham_note_certificate_request, NULL);
}

int botham_ssl_certificate_was_requested(const SSL *ssl) {
    pthread_once(&botham_indexes_once, botham_make_indexes);
    return SSL_get_ex_data(ssl, botham_requested_index) != NULL ? 1 : 0;
}

void botham_ssl_ctx_enable_client_sessions(SSL_CTX *ctx, int (*callback)(SSL *, SSL_SESSION *)) {
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_sess_set_new_cb(ctx, callback);
}

void botham_ssl_set_owner(SSL *ssl, void *owner) {
    pthread_once(&botham_indexes_once, botham_make_indexes);
    SSL_set_ex_data(ssl, botham_owner_index, owner);
}

void *botham_ssl_get_owner(const SSL *ssl) {
    pthread_once(&botham_indexes_once, botham_make_indexes);
    return SSL_get_ex_data(ssl, botham_owner_index);
}

int botham_ssl_peek_received_alert(void) {
    unsigned long code = ERR_peek_error();
    if (code == 0 || ERR_GET_LIB(code) != ERR_LIB_SSL) return -1;
    int reason = ERR_GET_REASON(code);
    if (reason < SSL_AD_REASON_OFFSET || reason > SSL_AD_REASON_OFFSET + 255) return -1;
    return reason - SSL_AD_REASON_OFFSET;
}

int botham_inflate_init2(z_stream *stream, int windowBits) { return inflateInit2(stream, windowBits); }

static _Thread_local const void *botham_loop_of_this_thread = NULL;

void botham_set_current_loop(const void *loop) { botham_loop_of_this_thread = loop; }

const void *botham_current_loop(void) { return botham_loop_of_this_thread; }
