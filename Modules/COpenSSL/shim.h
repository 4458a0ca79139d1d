// OpenSSL's TLS (Debian libssl-dev), which fresh-mock serves `--tls` with: the library libcurl
// uses on the client side, so the tests' TLS costs no TLS library of its own to build.
#include <openssl/ssl.h>
#include <openssl/err.h>
