// OpenSSL 3 headers used by BothamNetworkingNative (system libssl-dev).
#ifndef C_BOTHAM_OPENSSL_SHIM_H
#define C_BOTHAM_OPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#endif
