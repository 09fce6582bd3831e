/* Every libgcrypt function this package calls but gcry_control, each named once: its return
 * type, its parameters as <gcrypt.h> declares them, and the same parameters as arguments.
 *
 * libgcrypt is loaded (dlopen) when crypto is first needed, not linked. library_loading.c
 * makes, from this list, a pointer filled by dlsym and a stub of the real name that calls
 * through it, so Swift calls gcry_cipher_open as it would call the linked library. The
 * stubs are compiled after <gcrypt.h>, so a line that does not match it fails the build.
 *
 * To call a function not listed yet: add one line here, copying the prototype from
 * <gcrypt.h> (SWIFT_KEYRING_GCRY_PROCEDURE when it returns void). Variadic functions
 * cannot be listed: gcry_control is called only from gcrypt_setup.c, with fixed
 * arguments, through a pointer of its own. No include guard: read once for each use. */

SWIFT_KEYRING_GCRY_FUNCTION(const char *, gcry_check_version, (const char *req_version), (req_version))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_authenticate,
    (gcry_cipher_hd_t hd, const void *abuf, size_t abuflen),
    (hd, abuf, abuflen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_checktag,
    (gcry_cipher_hd_t hd, const void *intag, size_t taglen),
    (hd, intag, taglen))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_cipher_close, (gcry_cipher_hd_t h), (h))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_decrypt,
    (gcry_cipher_hd_t h, void *out, size_t outsize, const void *in, size_t inlen),
    (h, out, outsize, in, inlen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_encrypt,
    (gcry_cipher_hd_t h, void *out, size_t outsize, const void *in, size_t inlen),
    (h, out, outsize, in, inlen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_gettag,
    (gcry_cipher_hd_t hd, void *outtag, size_t taglen),
    (hd, outtag, taglen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_open,
    (gcry_cipher_hd_t *handle, int algo, int mode, unsigned int flags),
    (handle, algo, mode, flags))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_setiv,
    (gcry_cipher_hd_t hd, const void *iv, size_t ivlen),
    (hd, iv, ivlen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_cipher_setkey,
    (gcry_cipher_hd_t hd, const void *key, size_t keylen),
    (hd, key, keylen))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_create_nonce, (void *buffer, size_t length), (buffer, length))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_free, (void *a), (a))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_kdf_close, (gcry_kdf_hd_t h), (h))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_kdf_compute,
    (gcry_kdf_hd_t h, const gcry_kdf_thread_ops_t *ops),
    (h, ops))
SWIFT_KEYRING_GCRY_FUNCTION(gpg_error_t, gcry_kdf_derive,
    (const void *passphrase, size_t passphraselen, int algo, int subalgo, const void *salt, size_t saltlen,
     unsigned long iterations, size_t keysize, void *keybuffer),
    (passphrase, passphraselen, algo, subalgo, salt, saltlen, iterations, keysize, keybuffer))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_kdf_final,
    (gcry_kdf_hd_t h, size_t resultlen, void *result),
    (h, resultlen, result))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_kdf_open,
    (gcry_kdf_hd_t *hd, int algo, int subalgo, const unsigned long *param, unsigned int paramlen,
     const void *passphrase, size_t passphraselen, const void *salt, size_t saltlen, const void *key,
     size_t keylen, const void *ad, size_t adlen),
    (hd, algo, subalgo, param, paramlen, passphrase, passphraselen, salt, saltlen, key, keylen, ad,
     adlen))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_mac_close, (gcry_mac_hd_t h), (h))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mac_ctl,
    (gcry_mac_hd_t h, int cmd, void *buffer, size_t buflen),
    (h, cmd, buffer, buflen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mac_open,
    (gcry_mac_hd_t *handle, int algo, unsigned int flags, gcry_ctx_t ctx),
    (handle, algo, flags, ctx))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mac_read,
    (gcry_mac_hd_t hd, void *buffer, size_t *buflen),
    (hd, buffer, buflen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mac_setkey,
    (gcry_mac_hd_t hd, const void *key, size_t keylen),
    (hd, key, keylen))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mac_write,
    (gcry_mac_hd_t hd, const void *buffer, size_t length),
    (hd, buffer, length))
SWIFT_KEYRING_GCRY_FUNCTION(void *, gcry_malloc, (size_t n), (n))
SWIFT_KEYRING_GCRY_FUNCTION(void *, gcry_malloc_secure, (size_t n), (n))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_md_hash_buffer,
    (int algo, void *digest, const void *buffer, size_t length),
    (algo, digest, buffer, length))
SWIFT_KEYRING_GCRY_FUNCTION(int, gcry_mpi_cmp, (const gcry_mpi_t u, const gcry_mpi_t v), (u, v))
SWIFT_KEYRING_GCRY_FUNCTION(int, gcry_mpi_cmp_ui, (const gcry_mpi_t u, unsigned long v), (u, v))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_mpi_t, gcry_mpi_new, (unsigned int nbits), (nbits))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_mpi_powm,
    (gcry_mpi_t w, const gcry_mpi_t b, const gcry_mpi_t e, const gcry_mpi_t m),
    (w, b, e, m))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mpi_print,
    (enum gcry_mpi_format format, unsigned char *buffer, size_t buflen, size_t *nwritten, const gcry_mpi_t a),
    (format, buffer, buflen, nwritten, a))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_mpi_randomize,
    (gcry_mpi_t w, unsigned int nbits, enum gcry_random_level level),
    (w, nbits, level))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_mpi_release, (gcry_mpi_t a), (a))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_error_t, gcry_mpi_scan,
    (gcry_mpi_t *ret_mpi, enum gcry_mpi_format format, const void *buffer, size_t buflen, size_t *nscanned),
    (ret_mpi, format, buffer, buflen, nscanned))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_mpi_t, gcry_mpi_set_ui, (gcry_mpi_t w, unsigned long u), (w, u))
SWIFT_KEYRING_GCRY_FUNCTION(gcry_mpi_t, gcry_mpi_snew, (unsigned int nbits), (nbits))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_mpi_sub_ui, (gcry_mpi_t w, gcry_mpi_t u, unsigned long v), (w, u, v))
SWIFT_KEYRING_GCRY_PROCEDURE(gcry_randomize,
    (void *buffer, size_t length, enum gcry_random_level level),
    (buffer, length, level))
SWIFT_KEYRING_GCRY_FUNCTION(const char *, gcry_strerror, (gcry_error_t err), (err))
