#include "CLibSecretShims.h"

/* An item's Label and Attributes from one Properties.GetAll call, the label
 * and table the caller's. Both are NULL, with no error, when the item vanished
 * (deleted since the search that found it). */
gboolean swift_keyring_read_label_and_attributes(GDBusConnection *connection, const gchar *destination,
        const gchar *path, gint timeout_ms,
        GCancellable *cancellable, gchar **label, GHashTable **attributes, GError **error) {
    GError *failure = NULL;
    GVariant *interface = g_variant_new_string("org.freedesktop.Secret.Item");
    GVariant *reply = g_dbus_connection_call_sync(connection, destination, path,
                                                  "org.freedesktop.DBus.Properties", "GetAll",
                                                  g_variant_new_tuple(&interface, 1),
                                                  G_VARIANT_TYPE("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, timeout_ms,
                                                  cancellable, &failure);
    *label = NULL;
    *attributes = NULL;
    if (reply == NULL) {
        if (swift_keyring_error_is_vanished_object(failure)) {
            g_error_free(failure);
            return TRUE;
        }
        g_propagate_error(error, failure);
        return FALSE;
    }
    GVariant *properties = g_variant_get_child_value(reply, 0);
    GVariant *text = g_variant_lookup_value(properties, "Label", G_VARIANT_TYPE_STRING);
    GVariant *table = g_variant_lookup_value(properties, "Attributes", G_VARIANT_TYPE("a{ss}"));
    gboolean ok = table != NULL;
    if (ok) {
        *label = g_strdup(text != NULL ? g_variant_get_string(text, NULL) : "");
        *attributes = swift_keyring_attributes_from_variant(table);
    } else {
        /* Missing, or of another type: not readable, which is no proof that the item is foreign. */
        swift_keyring_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                                "the Secret Service sent no attributes of type a{ss} for %s", path);
    }
    if (table != NULL)
        g_variant_unref(table);
    if (text != NULL)
        g_variant_unref(text);
    g_variant_unref(properties);
    g_variant_unref(reply);
    return ok;
}
