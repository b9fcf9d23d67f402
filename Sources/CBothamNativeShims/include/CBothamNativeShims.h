// Small C helpers for BothamNetworkingNative: wrappers for things Swift cannot import (macros, packed structs).
#ifndef C_BOTHAM_NATIVE_SHIMS_H
#define C_BOTHAM_NATIVE_SHIMS_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>
#include <zlib.h>

// ---- Readiness polling (epoll on Linux; the functions return -1 with errno ENOSYS elsewhere). ----

#define BOTHAM_POLL_IN 0x001u
#define BOTHAM_POLL_OUT 0x004u
#define BOTHAM_POLL_ERR 0x008u
#define BOTHAM_POLL_HUP 0x010u

/// Whether this build has epoll and eventfd.
int botham_has_epoll(void);
/// epoll_create1(EPOLL_CLOEXEC).
int botham_epoll_create(void);
/// Adds (op 1), modifies (op 3) or deletes (op 2) `fd` with `events`; the event's data is the fd.
int botham_epoll_ctl(int epfd, int op, int fd, uint32_t events);
/// Waits for events; writes up to `max` fds and their event masks. Returns the count, or -1.
int botham_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeout_ms);
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
int botham_eventfd(void);

// ---- Which event loop runs on this thread. ----

/// Marks the calling thread as running `loop` (an opaque pointer), or no loop with NULL.
void botham_set_current_loop(const void *loop);
/// The loop the calling thread runs, or NULL.
const void *botham_current_loop(void);

// ---- OpenSSL macros and stack helpers. ----

/// SSL_set_tlsext_host_name (a macro).
long botham_ssl_set_sni(SSL *ssl, const char *name);
/// SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) (a macro).
long botham_ssl_ctx_set_min_tls12(SSL_CTX *ctx);
/// SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION) (macros), as RFC 9113 §9.2.1 asks.
void botham_ssl_ctx_forbid_compression_and_renegotiation(SSL_CTX *ctx);
/// Whether the session runs TLS 1.2 with a cipher suite RFC 9113 §9.2.2 does not block for HTTP/2: an AEAD cipher
/// with an ephemeral key exchange (ECDHE or DHE). 1 when allowed (or the version is above TLS 1.2), 0 when not.
int botham_ssl_cipher_allowed_for_http2(const SSL *ssl);
/// The number of certificates in the verified chain (0 when there is none).
int botham_ssl_verified_chain_count(const SSL *ssl);
/// SHA-256 of the DER SubjectPublicKeyInfo of certificate `index` in the verified chain into `out` (32 bytes).
/// Returns 1 on success, 0 on failure.
int botham_ssl_verified_chain_spki_sha256(const SSL *ssl, int index, unsigned char *out);
/// Adds every certificate in the PEM bytes to the context's trust store. Returns the number added, or -1.
int botham_ssl_ctx_add_pem_roots(SSL_CTX *ctx, const void *pem, int length);

// ---- zlib macros. ----

/// inflateInit2(stream, windowBits) (a macro).
int botham_inflate_init2(z_stream *stream, int windowBits);

#endif
