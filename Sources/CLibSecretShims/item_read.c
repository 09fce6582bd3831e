#include "CLibSecretShims.h"

/* Reading one item: its attributes and its secret, both calls in flight at once. */
typedef struct {
    const gchar *path;
    guint pending;
    GHashTable *attributes;
    GVariant *secret;
    GError *error;
} SwiftKeyringItemRead;

static void swift_keyring_item_read_keep_error(SwiftKeyringItemRead *read, GError *error) {
    if (error == NULL)
        return;
    if (read->error == NULL && !swift_keyring_error_is_vanished_object(error))
        read->error = error;
    else
        g_error_free(error);
}

static void swift_keyring_item_read_attributes_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringItemRead *read = (SwiftKeyringItemRead *)data;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        read->attributes = swift_keyring_attributes_property_reply(reply, &error);
        g_variant_unref(reply);
    }
    swift_keyring_item_read_keep_error(read, error);
    read->pending--;
}

static void swift_keyring_item_read_secret_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringItemRead *read = (SwiftKeyringItemRead *)data;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        read->secret = swift_keyring_secret_from_reply(reply, read->path, &error);
        g_variant_unref(reply);
    }
    swift_keyring_item_read_keep_error(read, error);
    read->pending--;
}

/* The attributes and secret (its "(oayays)" as sent, for `transfer_path`) of the item at `path`, asked for together so the
 * read waits one round trip, not two. Both outputs are the caller's; both are
 * NULL, with no error, when the item vanished meanwhile. The replies are
 * dispatched in a main context of this call's own, so it is safe from any thread. */
gboolean swift_keyring_read_item(GDBusConnection *connection, const gchar *destination, const gchar *transfer_path,
        const gchar *path, gint timeout_ms, GCancellable *cancellable, GHashTable **attributes,
        GVariant **secret, GError **error) {
    SwiftKeyringItemRead read = { path, 2, NULL, NULL, NULL };
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    g_dbus_connection_call(connection, destination, path,
                           "org.freedesktop.DBus.Properties", "Get",
                           g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
                           G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, cancellable,
                           swift_keyring_item_read_attributes_done, &read);
    g_dbus_connection_call(connection, destination, SWIFT_KEYRING_SERVICE_PATH,
                           "org.freedesktop.Secret.Service", "GetSecrets",
                           swift_keyring_get_secrets_argument(transfer_path, path),
                           G_VARIANT_TYPE("(a{o(oayays)})"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, cancellable,
                           swift_keyring_item_read_secret_done, &read);
    while (read.pending > 0)
        g_main_context_iteration(context, TRUE);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    if (read.error != NULL) {
        if (read.attributes != NULL)
            g_hash_table_unref(read.attributes);
        if (read.secret != NULL)
            g_variant_unref(read.secret);
        g_propagate_error(error, read.error);
        return FALSE;
    }
    *attributes = read.attributes;
    *secret = read.secret;
    return TRUE;
}
