#include "CBothamNativeShims.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
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

int botham_inflate_init2(z_stream *stream, int windowBits) { return inflateInit2(stream, windowBits); }

static _Thread_local const void *botham_loop_of_this_thread = NULL;

void botham_set_current_loop(const void *loop) { botham_loop_of_this_thread = loop; }

const void *botham_current_loop(void) { return botham_loop_of_this_thread; }
