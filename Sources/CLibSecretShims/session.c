#include "CLibSecretShims.h"
#include <gcrypt.h>
#include <string.h>
#include <sys/random.h>

/* The Secret Service session of a store: the key exchange that encrypts secrets
 * on the bus (the spec's "dh-ietf1024-sha256-aes128-cbc-pkcs7"), and the
 * encoding and decoding of secrets with its key.
 *
 * libsecret does the same, with a private exponent as long as the 1024-bit
 * prime: two 1023-bit modular exponentiations, about 23 million instructions,
 * most of the time a short process such as `swift-keyring get` spends on the
 * CPU. Here the exponent has 256 bits. Against a discrete logarithm with an
 * exponent known to be short, the best attacks (Pollard's kangaroo) take about
 * 2^128 steps, more than the 1024-bit group itself withstands (about 2^80), so
 * the session is as strong as libsecret's and the exchange about four times
 * cheaper. The daemon's side is unchanged: each side picks its own exponent.
 *
 * The exponent lives in libgcrypt's secure memory; the shared value, the key
 * and a secret's bytes too, whenever the pool has room for them (a large
 * secret may not fit, and goes to ordinary memory). All are wiped when freed. */

#define SWIFT_KEYRING_SESSION_AES "dh-ietf1024-sha256-aes128-cbc-pkcs7"
#define SWIFT_KEYRING_EXPONENT_BITS 256
#define SWIFT_KEYRING_KEY_BYTES 16
#define SWIFT_KEYRING_BLOCK_BYTES 16

/* The second Oakley group, RFC 2409 section 6.2, generator 2: the group the spec names. */
static const guchar swift_keyring_group_1024_prime[128] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC9, 0x0F, 0xDA, 0xA2, 0x21, 0x68, 0xC2, 0x34,
    0xC4, 0xC6, 0x62, 0x8B, 0x80, 0xDC, 0x1C, 0xD1, 0x29, 0x02, 0x4E, 0x08, 0x8A, 0x67, 0xCC, 0x74,
    0x02, 0x0B, 0xBE, 0xA6, 0x3B, 0x13, 0x9B, 0x22, 0x51, 0x4A, 0x08, 0x79, 0x8E, 0x34, 0x04, 0xDD,
    0xEF, 0x95, 0x19, 0xB3, 0xCD, 0x3A, 0x43, 0x1B, 0x30, 0x2B, 0x0A, 0x6D, 0xF2, 0x5F, 0x14, 0x37,
    0x4F, 0xE1, 0x35, 0x6D, 0x6D, 0x51, 0xC2, 0x45, 0xE4, 0x85, 0xB5, 0x76, 0x62, 0x5E, 0x7E, 0xC6,
    0xF4, 0x4C, 0x42, 0xE9, 0xA6, 0x37, 0xED, 0x6B, 0x0B, 0xFF, 0x5C, 0xB6, 0xF4, 0x06, 0xB7, 0xED,
    0xEE, 0x38, 0x6B, 0xFB, 0x5A, 0x89, 0x9F, 0xA5, 0xAE, 0x9F, 0x24, 0x11, 0x7C, 0x4B, 0x1F, 0xE6,
    0x49, 0x28, 0x66, 0x51, 0xEC, 0xE6, 0x53, 0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

struct SwiftKeyringSession {
    gchar *path;
    /* NULL for a "plain" session, which a daemon without the key exchange gets
     * (as libsecret does); a swift_keyring_buffer_new buffer otherwise. */
    guchar *key;
};

/* A buffer for anything secret (the shared value, the key, a secret's bytes):
 * in libgcrypt's secure memory when its pool has room, else in ordinary memory,
 * since a secret may be far larger than the pool (the store takes 1 MiB). Its
 * length is kept just before it, so the free function, which GVariant and
 * SecretValue call with the pointer alone, can wipe it either way. */
#define SWIFT_KEYRING_BUFFER_HEADER 16

static guchar *swift_keyring_buffer_new(gsize length) {
    gsize total = SWIFT_KEYRING_BUFFER_HEADER + (length > 0 ? length : 1);
    guchar *block = gcry_malloc_secure(total);
    if (block == NULL)
        block = gcry_malloc(total);
    g_assert(block != NULL);
    memcpy(block, &length, sizeof length);
    return block + SWIFT_KEYRING_BUFFER_HEADER;
}

static void swift_keyring_buffer_free(gpointer bytes) {
    if (bytes == NULL)
        return;
    guchar *block = (guchar *)bytes - SWIFT_KEYRING_BUFFER_HEADER;
    gsize length = 0;
    memcpy(&length, block, sizeof length);
    /* Through a volatile pointer, so the wipe is not dropped as a dead store. */
    volatile guchar *cursor = block;
    for (gsize i = 0; i < SWIFT_KEYRING_BUFFER_HEADER + length; i++)
        cursor[i] = 0;
    gcry_free(block);
}

static gboolean swift_keyring_session_failed(GError **error, const gchar *message) {
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_FAILED, message);
    return FALSE;
}

/* HKDF-SHA256 (RFC 5869) with no salt (32 zero bytes) and no info, 16 bytes out:
 * the spec's key from the shared value. */
static gboolean swift_keyring_session_derive(const guchar *shared, gsize n_shared, guchar *key) {
    guchar salt[32] = { 0 };
    gcry_md_hd_t extract = NULL, expand = NULL;
    gboolean ok = FALSE;
    if (gcry_md_open(&extract, GCRY_MD_SHA256, GCRY_MD_FLAG_HMAC | GCRY_MD_FLAG_SECURE) != 0)
        return FALSE;
    if (gcry_md_setkey(extract, salt, sizeof salt) != 0)
        goto done;
    gcry_md_write(extract, shared, n_shared);
    if (gcry_md_open(&expand, GCRY_MD_SHA256, GCRY_MD_FLAG_HMAC | GCRY_MD_FLAG_SECURE) != 0)
        goto done;
    if (gcry_md_setkey(expand, gcry_md_read(extract, GCRY_MD_SHA256), 32) != 0)
        goto done;
    gcry_md_putc(expand, 1);
    memcpy(key, gcry_md_read(expand, GCRY_MD_SHA256), SWIFT_KEYRING_KEY_BYTES);
    ok = TRUE;
done:
    if (expand != NULL)
        gcry_md_close(expand);
    gcry_md_close(extract);
    return ok;
}

/* The key from the daemon's public value and our exponent; FALSE when the
 * daemon's value is not in the group's range 2..p-2. */
static gboolean swift_keyring_session_agree(gcry_mpi_t prime, gcry_mpi_t exponent, GVariant *peer_bytes,
                                            guchar *key) {
    gsize n_peer = 0;
    const guchar *peer_data = g_variant_get_fixed_array(peer_bytes, &n_peer, 1);
    gcry_mpi_t peer = NULL;
    if (n_peer == 0 || gcry_mpi_scan(&peer, GCRYMPI_FMT_USG, peer_data, n_peer, NULL) != 0)
        return FALSE;
    gcry_mpi_t upper = gcry_mpi_new(1024);
    gcry_mpi_sub_ui(upper, prime, 1);
    gboolean in_range = gcry_mpi_cmp_ui(peer, 1) > 0 && gcry_mpi_cmp(peer, upper) < 0;
    gcry_mpi_release(upper);
    if (!in_range) {
        gcry_mpi_release(peer);
        return FALSE;
    }
    gcry_mpi_t shared = gcry_mpi_snew(1024);
    gcry_mpi_powm(shared, peer, exponent, prime);
    gcry_mpi_release(peer);
    /* The shared value as big-endian bytes, zero-padded to the prime's 128. */
    const gsize n_prime = sizeof swift_keyring_group_1024_prime;
    guchar *bytes = swift_keyring_buffer_new(n_prime);
    gsize written = 0;
    gboolean ok = gcry_mpi_print(GCRYMPI_FMT_USG, bytes, n_prime, &written, shared) == 0;
    gcry_mpi_release(shared);
    if (ok && written < n_prime) {
        memmove(bytes + (n_prime - written), bytes, written);
        memset(bytes, 0, n_prime - written);
    }
    ok = ok && swift_keyring_session_derive(bytes, n_prime, key);
    swift_keyring_buffer_free(bytes);
    return ok;
}

/* A fresh private exponent of 256 bits, greater than 1, in secure memory.
 *
 * Its bytes come from the kernel's random generator (getrandom), the source
 * libgcrypt seeds its own from: the first strong random number a process asks
 * of libgcrypt sets up its pool first, which took 2.6 ms of a `swift-keyring
 * get` (ltrace), longer than the rest of the key exchange. gcry_mpi_scan of a
 * buffer in secure memory makes a secure number. Should getrandom fail (a
 * kernel without it), libgcrypt's own strong generator is used. */
static gcry_mpi_t swift_keyring_session_exponent(void) {
    const gsize n_bytes = SWIFT_KEYRING_EXPONENT_BITS / 8;
    guchar *bytes = swift_keyring_buffer_new(n_bytes);
    gcry_mpi_t exponent = NULL;
    do {
        gcry_mpi_release(exponent);
        exponent = NULL;
        if (getrandom(bytes, n_bytes, 0) == (gssize)n_bytes) {
            gcry_mpi_scan(&exponent, GCRYMPI_FMT_USG, bytes, n_bytes, NULL);
        } else {
            exponent = gcry_mpi_snew(SWIFT_KEYRING_EXPONENT_BITS);
            gcry_mpi_randomize(exponent, SWIFT_KEYRING_EXPONENT_BITS, GCRY_STRONG_RANDOM);
        }
    } while (exponent == NULL || gcry_mpi_cmp_ui(exponent, 1) <= 0);
    swift_keyring_buffer_free(bytes);
    return exponent;
}

/* The arguments of OpenSession ("(sv)"). */
static GVariant *swift_keyring_session_arguments(const gchar *algorithm, GVariant *input) {
    return g_variant_new("(sv)", algorithm, input);
}

/* A session being opened: OpenSession is on its way, its reply is awaited in a
 * main context of this opening's own, so the caller can make other calls (the
 * search) while the daemon answers, and any thread can wait for it. */
struct SwiftKeyringSessionOpening {
    GDBusConnection *connection;
    gchar *destination;
    gint timeout_ms;
    GMainContext *context;
    GCancellable *cancellable;
    gcry_mpi_t prime;
    gcry_mpi_t exponent;
    gboolean done;
    GVariant *reply;
    GError *error;
};

static void swift_keyring_session_opening_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringSessionOpening *opening = data;
    opening->reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &opening->error);
    opening->done = TRUE;
}

SwiftKeyringSessionOpening *swift_keyring_session_start(GDBusConnection *connection, const gchar *daemon_name,
                                                        gint timeout_ms) {
    SwiftKeyringSessionOpening *opening = g_new0(SwiftKeyringSessionOpening, 1);
    opening->connection = g_object_ref(connection);
    opening->destination = g_strdup(daemon_name != NULL ? daemon_name : SWIFT_KEYRING_BUS_NAME);
    opening->timeout_ms = timeout_ms;
    opening->context = g_main_context_new();
    opening->cancellable = g_cancellable_new();
    gcry_mpi_t base = gcry_mpi_set_ui(NULL, 2);
    gcry_mpi_scan(&opening->prime, GCRYMPI_FMT_USG, swift_keyring_group_1024_prime,
                  sizeof swift_keyring_group_1024_prime, NULL);
    opening->exponent = swift_keyring_session_exponent();
    gcry_mpi_t public_value = gcry_mpi_new(1024);
    gcry_mpi_powm(public_value, base, opening->exponent, opening->prime);
    guchar *public_bytes = NULL;
    gsize n_public = 0;
    gcry_mpi_aprint(GCRYMPI_FMT_USG, &public_bytes, &n_public, public_value);
    gcry_mpi_release(public_value);
    gcry_mpi_release(base);
    GVariant *input = g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, public_bytes, n_public, 1);
    gcry_free(public_bytes);

    g_main_context_push_thread_default(opening->context);
    g_dbus_connection_call(connection, opening->destination, SWIFT_KEYRING_SERVICE_PATH,
                           "org.freedesktop.Secret.Service", "OpenSession",
                           swift_keyring_session_arguments(SWIFT_KEYRING_SESSION_AES, input), G_VARIANT_TYPE("(vo)"),
                           G_DBUS_CALL_FLAGS_NONE, timeout_ms, opening->cancellable,
                           swift_keyring_session_opening_done, opening);
    g_main_context_pop_thread_default(opening->context);
    return opening;
}

static void swift_keyring_session_opening_cancel(GCancellable *cancellable, gpointer data) {
    (void)cancellable;
    g_cancellable_cancel(G_CANCELLABLE(data));
}

/* Waits for OpenSession's reply, `cancellable` cutting the wait short. */
static void swift_keyring_session_opening_wait(SwiftKeyringSessionOpening *opening, GCancellable *cancellable) {
    gulong handler = cancellable != NULL
        ? g_cancellable_connect(cancellable, G_CALLBACK(swift_keyring_session_opening_cancel),
                                opening->cancellable, NULL)
        : 0;
    g_main_context_push_thread_default(opening->context);
    while (!opening->done)
        g_main_context_iteration(opening->context, TRUE);
    g_main_context_pop_thread_default(opening->context);
    if (handler != 0)
        g_cancellable_disconnect(cancellable, handler);
}

void swift_keyring_session_opening_free(SwiftKeyringSessionOpening *opening) {
    if (opening == NULL)
        return;
    if (!opening->done) {
        /* The callback still holds `opening`: it must have run before the memory goes. */
        g_cancellable_cancel(opening->cancellable);
        swift_keyring_session_opening_wait(opening, NULL);
    }
    if (opening->reply != NULL)
        g_variant_unref(opening->reply);
    g_clear_error(&opening->error);
    gcry_mpi_release(opening->exponent);
    gcry_mpi_release(opening->prime);
    g_object_unref(opening->cancellable);
    g_main_context_unref(opening->context);
    g_free(opening->destination);
    g_object_unref(opening->connection);
    g_free(opening);
}

SwiftKeyringSession *swift_keyring_session_finish(SwiftKeyringSessionOpening *opening, GCancellable *cancellable,
                                                  GError **error) {
    swift_keyring_session_opening_wait(opening, cancellable);
    SwiftKeyringSession *session = NULL;
    if (opening->reply != NULL) {
        GVariant *output = NULL;
        gchar *path = NULL;
        g_variant_get(opening->reply, "(vo)", &output, &path);
        guchar *key = swift_keyring_buffer_new(SWIFT_KEYRING_KEY_BYTES);
        if (g_variant_is_of_type(output, G_VARIANT_TYPE_BYTESTRING)
            && swift_keyring_session_agree(opening->prime, opening->exponent, output, key)) {
            session = g_new0(SwiftKeyringSession, 1);
            session->path = path;
            session->key = key;
        } else {
            swift_keyring_buffer_free(key);
            g_free(path);
            swift_keyring_session_failed(error, "the Secret Service's answer to the session's key exchange is not valid");
        }
        g_variant_unref(output);
    } else if (g_error_matches(opening->error, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED)) {
        /* A daemon without the key exchange: a plain session, as libsecret falls back to. */
        GVariant *reply = g_dbus_connection_call_sync(
            opening->connection, opening->destination, SWIFT_KEYRING_SERVICE_PATH, "org.freedesktop.Secret.Service",
            "OpenSession", swift_keyring_session_arguments("plain", g_variant_new_string("")),
            G_VARIANT_TYPE("(vo)"), G_DBUS_CALL_FLAGS_NONE, opening->timeout_ms, cancellable, error);
        if (reply != NULL) {
            session = g_new0(SwiftKeyringSession, 1);
            g_variant_get(reply, "(vo)", NULL, &session->path);
            g_variant_unref(reply);
        }
    } else {
        g_propagate_error(error, g_steal_pointer(&opening->error));
    }
    swift_keyring_session_opening_free(opening);
    return session;
}

void swift_keyring_session_free(SwiftKeyringSession *session) {
    if (session == NULL)
        return;
    swift_keyring_buffer_free(session->key);
    g_free(session->path);
    g_free(session);
}

/* AES-128-CBC in secure memory under the session's key, starting from `iv`;
 * NULL when libgcrypt refuses. gcry_cipher_close takes NULL. */
static gcry_cipher_hd_t swift_keyring_session_cipher(const SwiftKeyringSession *session, const guchar *iv,
                                                     gsize n_iv) {
    gcry_cipher_hd_t cipher = NULL;
    if (gcry_cipher_open(&cipher, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_SECURE) != 0)
        return NULL;
    if (gcry_cipher_setkey(cipher, session->key, SWIFT_KEYRING_KEY_BYTES) != 0
        || gcry_cipher_setiv(cipher, iv, n_iv) != 0) {
        gcry_cipher_close(cipher);
        return NULL;
    }
    return cipher;
}

GVariant *swift_keyring_session_encode(const SwiftKeyringSession *session, SecretValue *value) {
    gsize n_secret = 0;
    const gchar *secret = secret_value_get(value, &n_secret);
    const gchar *content_type = secret_value_get_content_type(value);
    if (session->key == NULL) {
        return g_variant_new("(o@ay@ays)", session->path,
                             g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, "", 0, 1),
                             g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, secret, n_secret, 1), content_type);
    }
    /* PKCS#7: one to sixteen bytes of padding, each holding the count. */
    gsize padding = SWIFT_KEYRING_BLOCK_BYTES - (n_secret % SWIFT_KEYRING_BLOCK_BYTES);
    gsize n_padded = n_secret + padding;
    guchar *padded = swift_keyring_buffer_new(n_padded);
    memcpy(padded, secret, n_secret);
    memset(padded + n_secret, (int)padding, padding);
    guchar iv[SWIFT_KEYRING_BLOCK_BYTES];
    gcry_create_nonce(iv, sizeof iv);
    gcry_cipher_hd_t cipher = swift_keyring_session_cipher(session, iv, sizeof iv);
    gboolean ok = cipher != NULL && gcry_cipher_encrypt(cipher, padded, n_padded, NULL, 0) == 0;
    gcry_cipher_close(cipher);
    g_assert(ok); /* AES-128-CBC on whole blocks cannot fail once libgcrypt is up */
    return g_variant_new("(o@ay@ays)", session->path,
                         g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, iv, sizeof iv, 1),
                         g_variant_new_from_data(G_VARIANT_TYPE_BYTESTRING, padded, n_padded, TRUE,
                                                 swift_keyring_buffer_free, padded),
                         content_type);
}

/* The secret in a "(oayays)" value, decrypted; NULL with `error` set when it cannot be. */
static SecretValue *swift_keyring_session_decode(const SwiftKeyringSession *session, GVariant *secret,
                                                 GError **error) {
    GVariant *parameters = NULL, *value = NULL;
    const gchar *content_type = NULL;
    g_variant_get(secret, "(o@ay@ay&s)", NULL, &parameters, &value, &content_type);
    gsize n_parameters = 0, n_value = 0;
    const guchar *iv = g_variant_get_fixed_array(parameters, &n_parameters, 1);
    const guchar *data = g_variant_get_fixed_array(value, &n_value, 1);
    SecretValue *result = NULL;
    guchar *plain = swift_keyring_buffer_new(n_value);
    if (session->key == NULL) {
        memcpy(plain, data, n_value);
        result = secret_value_new_full((gchar *)plain, n_value, content_type, swift_keyring_buffer_free);
    } else if (n_parameters == SWIFT_KEYRING_BLOCK_BYTES && n_value > 0 && n_value % SWIFT_KEYRING_BLOCK_BYTES == 0) {
        gcry_cipher_hd_t cipher = swift_keyring_session_cipher(session, iv, n_parameters);
        gboolean ok = cipher != NULL && gcry_cipher_decrypt(cipher, plain, n_value, data, n_value) == 0;
        gcry_cipher_close(cipher);
        /* The padding must be 1..16 bytes, each holding the count. */
        guchar padding = ok ? plain[n_value - 1] : 0;
        ok = ok && padding >= 1 && padding <= SWIFT_KEYRING_BLOCK_BYTES;
        for (gsize i = 0; ok && i < padding; i++)
            ok = plain[n_value - 1 - i] == padding;
        if (ok) {
            memset(plain + n_value - padding, 0, padding);
            result = secret_value_new_full((gchar *)plain, n_value - padding, content_type,
                                           swift_keyring_buffer_free);
        }
    }
    if (result == NULL) {
        swift_keyring_buffer_free(plain);
        swift_keyring_session_failed(error, "the Secret Service sent a secret this session cannot decrypt");
    }
    g_variant_unref(parameters);
    g_variant_unref(value);
    return result;
}

/* GetSecrets' reply for one path: the secret there, NULL when the daemon left
 * the item out (gone, or locked) or on `error` (a reply of another type). */
SecretValue *swift_keyring_session_secret_from_reply(const SwiftKeyringSession *session, GVariant *reply,
                                                     const gchar *path, GError **error) {
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(a{o(oayays)})"))) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                    "the Secret Service answered GetSecrets with type %s, not (a{o(oayays)})",
                    g_variant_get_type_string(reply));
        return NULL;
    }
    GVariant *secrets = g_variant_get_child_value(reply, 0);
    GVariant *secret = g_variant_lookup_value(secrets, path, NULL);
    g_variant_unref(secrets);
    if (secret == NULL)
        return NULL;
    if (!g_variant_is_of_type(secret, G_VARIANT_TYPE("(oayays)"))) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                    "the Secret Service sent a secret of type %s, not (oayays)", g_variant_get_type_string(secret));
        g_variant_unref(secret);
        return NULL;
    }
    SecretValue *value = swift_keyring_session_decode(session, secret, error);
    g_variant_unref(secret);
    return value;
}

GVariant *swift_keyring_session_get_secrets_argument(const SwiftKeyringSession *session, const gchar *path) {
    const gchar *paths[] = { path, NULL };
    return g_variant_new("(^aoo)", paths, session->path);
}
