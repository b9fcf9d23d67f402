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

// ---- Client identities (mutual TLS), client session cache, alerts. ----

/// What loading a client identity into a context found wrong (BOTHAM_IDENTITY_OK: nothing, it is loaded).
#define BOTHAM_IDENTITY_OK 0
/// No certificate in the PEM data, or it could not be used.
#define BOTHAM_IDENTITY_NO_CERTIFICATE 1
/// No private key in the PEM data (or a wrong or missing password for an encrypted one).
#define BOTHAM_IDENTITY_BAD_KEY 2
/// The private key does not belong to the certificate.
#define BOTHAM_IDENTITY_KEY_MISMATCH 3
/// An intermediate certificate could not be added to the chain.
#define BOTHAM_IDENTITY_BAD_CHAIN 4
/// The data is not a PKCS#12 archive.
#define BOTHAM_IDENTITY_NOT_PKCS12 5
/// The PKCS#12 password is wrong.
#define BOTHAM_IDENTITY_WRONG_PASSWORD 6
/// The PKCS#12 archive could not be decoded with the password, or holds no certificate or no key.
#define BOTHAM_IDENTITY_BAD_PKCS12 7
/// Loads a PEM certificate chain (leaf first, then intermediates) and a PEM private key, encrypted with `password`
/// when it is not NULL, into `ctx`, and checks the key matches. Never prompts for a password. Returns a
/// BOTHAM_IDENTITY_* value; OpenSSL's error queue keeps the details.
int botham_ssl_ctx_use_pem_identity(
    SSL_CTX *ctx, const void *chain, int chainLength, const void *key, int keyLength, const char *password);
/// Loads a PKCS#12 archive (certificate, key, chain) decrypted with `password` into `ctx`. Returns a
/// BOTHAM_IDENTITY_* value.
int botham_ssl_ctx_use_pkcs12_identity(SSL_CTX *ctx, const void *data, int length, const char *password);
/// Makes `ctx` remember, per connection, whether the server asked for a client certificate (a CertificateRequest
/// arrived); read with botham_ssl_certificate_was_requested.
void botham_ssl_ctx_track_certificate_request(SSL_CTX *ctx);
/// Whether the server asked this connection for a client certificate (1) or not (0).
int botham_ssl_certificate_was_requested(const SSL *ssl);
/// Client session cache with no internal store (SSL_CTX_set_session_cache_mode, a macro): every new session is
/// handed to `callback` (return 1 to keep the reference, 0 to let OpenSSL free it).
void botham_ssl_ctx_enable_client_sessions(SSL_CTX *ctx, int (*callback)(SSL *, SSL_SESSION *));
/// Attaches `owner` (an opaque pointer, not retained) to the connection, for the session callback.
void botham_ssl_set_owner(SSL *ssl, void *owner);
/// The pointer botham_ssl_set_owner attached, or NULL.
void *botham_ssl_get_owner(const SSL *ssl);
/// The TLS alert the peer sent that failed the last operation, read from the front of OpenSSL's error queue
/// without removing it: the alert number (0...255), or -1 when the failure was not a received alert.
int botham_ssl_peek_received_alert(void);

// ---- zlib macros. ----

/// inflateInit2(stream, windowBits) (a macro).
int botham_inflate_init2(z_stream *stream, int windowBits);

#endif
