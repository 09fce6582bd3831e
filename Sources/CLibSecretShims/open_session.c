#include "CLibSecretShims.h"

/* OpenSession, sent at once and answered later: the call that opens the encrypted
 * transfer of secrets on the bus (the spec's "dh-ietf1024-sha256-aes128-cbc-pkcs7").
 * The key exchange and the ciphers are Swift's (SecretTransfer, on KeyringCrypto);
 * what stays here is the call in flight in a main context of its own, which Swift
 * cannot wait on cheaply. */

#define SWIFT_KEYRING_TRANSFER_ALGORITHM "dh-ietf1024-sha256-aes128-cbc-pkcs7"

/* The arguments of OpenSession ("(sv)"). */
static GVariant *swift_keyring_open_session_arguments(const gchar *algorithm, GVariant *input) {
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
                                                        gint timeout_ms, const guchar *public_value,
                                                        gsize n_public_value) {
    SwiftKeyringSessionOpening *opening = g_new0(SwiftKeyringSessionOpening, 1);
    opening->connection = g_object_ref(connection);
    opening->destination = g_strdup(daemon_name != NULL ? daemon_name : SWIFT_KEYRING_BUS_NAME);
    opening->timeout_ms = timeout_ms;
    opening->context = g_main_context_new();
    opening->cancellable = g_cancellable_new();
    GVariant *input = g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, public_value, n_public_value, 1);

    g_main_context_push_thread_default(opening->context);
    g_dbus_connection_call(connection, opening->destination, SWIFT_KEYRING_SERVICE_PATH,
                           "org.freedesktop.Secret.Service", "OpenSession",
                           swift_keyring_open_session_arguments(SWIFT_KEYRING_TRANSFER_ALGORITHM, input), G_VARIANT_TYPE("(vo)"),
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
    g_object_unref(opening->cancellable);
    g_main_context_unref(opening->context);
    g_free(opening->destination);
    g_object_unref(opening->connection);
    g_free(opening);
}

GVariant *swift_keyring_session_finish(SwiftKeyringSessionOpening *opening, GCancellable *cancellable,
                                       gboolean *plain, GError **error) {
    swift_keyring_session_opening_wait(opening, cancellable);
    GVariant *reply = NULL;
    *plain = FALSE;
    if (opening->reply != NULL) {
        reply = g_steal_pointer(&opening->reply);
    } else if (g_error_matches(opening->error, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED)) {
        /* A daemon without the key exchange: a plain transfer, as libsecret falls back to. */
        *plain = TRUE;
        reply = g_dbus_connection_call_sync(
            opening->connection, opening->destination, SWIFT_KEYRING_SERVICE_PATH, "org.freedesktop.Secret.Service",
            "OpenSession", swift_keyring_open_session_arguments("plain", g_variant_new_string("")),
            G_VARIANT_TYPE("(vo)"), G_DBUS_CALL_FLAGS_NONE, opening->timeout_ms, cancellable, error);
    } else {
        g_propagate_error(error, g_steal_pointer(&opening->error));
    }
    swift_keyring_session_opening_free(opening);
    return reply;
}
