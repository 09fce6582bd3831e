#include "CLibSecretShims.h"

/* Reading many items' attributes: calls in flight at once, at most this many,
 * so a long list waits about one round trip per window rather than per item
 * and stays far below the bus's limit on pending replies. */
#define SWIFT_KEYRING_ATTRIBUTES_WINDOW 32

typedef struct {
    GDBusConnection *connection;
    const gchar *destination;
    const gchar *const *paths;
    guint count;
    guint next;
    guint pending;
    gint timeout_ms;
    GCancellable *cancellable;
    GHashTable **tables;
    GError *error;
} SwiftKeyringAttributesBatch;

typedef struct {
    SwiftKeyringAttributesBatch *batch;
    guint index;
} SwiftKeyringAttributesCall;

static void swift_keyring_attributes_batch_send(SwiftKeyringAttributesBatch *batch);

static void swift_keyring_attributes_batch_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringAttributesCall *call = (SwiftKeyringAttributesCall *)data;
    SwiftKeyringAttributesBatch *batch = call->batch;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        batch->tables[call->index] = swift_keyring_attributes_property_reply(reply, &error);
        g_variant_unref(reply);
    }
    if (error == NULL) {
    } else if (swift_keyring_error_is_vanished_object(error) || batch->error != NULL) {
        g_error_free(error);
    } else {
        batch->error = error;
    }
    batch->pending--;
    g_free(call);
    swift_keyring_attributes_batch_send(batch);
}

static void swift_keyring_attributes_batch_send(SwiftKeyringAttributesBatch *batch) {
    while (batch->error == NULL && batch->next < batch->count && batch->pending < SWIFT_KEYRING_ATTRIBUTES_WINDOW) {
        SwiftKeyringAttributesCall *call = g_new0(SwiftKeyringAttributesCall, 1);
        call->batch = batch;
        call->index = batch->next++;
        batch->pending++;
        g_dbus_connection_call(batch->connection, batch->destination, batch->paths[call->index],
                               "org.freedesktop.DBus.Properties", "Get",
                               g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
                               G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, batch->timeout_ms,
                               batch->cancellable, swift_keyring_attributes_batch_done, call);
    }
}

/* The Attributes of every item in `paths`, into `tables` (count entries, owned
 * by the caller; NULL for an item that vanished meanwhile). Returns FALSE and
 * sets `error` at the first other failure, attributes of another type included. The replies are dispatched in a
 * main context of this call's own, so it is safe from any thread. */
gboolean swift_keyring_read_attributes(GDBusConnection *connection, const gchar *destination,
        const gchar *const *paths, guint count,
        gint timeout_ms, GCancellable *cancellable,
        GHashTable **tables, GError **error) {
    SwiftKeyringAttributesBatch batch = { connection, destination, paths, count, 0, 0, timeout_ms, cancellable, tables, NULL };
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    swift_keyring_attributes_batch_send(&batch);
    while (batch.pending > 0)
        g_main_context_iteration(context, TRUE);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    if (batch.error != NULL) {
        g_propagate_error(error, batch.error);
        return FALSE;
    }
    return TRUE;
}
