#include "CLibSecretShims.h"

/* Sets `error` to say that `what` came back as `value`'s type instead of `expected`. */
static void swift_keyring_wrong_type(GError **error, const gchar *what, GVariant *value, const gchar *expected) {
    swift_keyring_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                            "the Secret Service sent %s of type %s, not %s", what,
                            value != NULL ? g_variant_get_type_string(value) : "()", expected);
}

/* The value inside a "(v)" reply (the caller's), NULL for a reply of any other type. */
static GVariant *swift_keyring_variant_in_reply(GVariant *reply) {
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)")))
        return NULL;
    GVariant *boxed = g_variant_get_child_value(reply, 0);
    GVariant *inner = g_variant_get_variant(boxed);
    g_variant_unref(boxed);
    return inner;
}

/* The "(v)" reply of Properties.Get, read as a boolean into `value`; FALSE with
 * `error` set when it holds anything else (a "Locked" sent as a string must not
 * read as unlocked). */
gboolean swift_keyring_boolean_property_reply(GVariant *reply, const gchar *what, gboolean *value, GError **error) {
    GVariant *inner = swift_keyring_variant_in_reply(reply);
    gboolean ok = inner != NULL && g_variant_is_of_type(inner, G_VARIANT_TYPE_BOOLEAN);
    if (ok)
        *value = g_variant_get_boolean(inner);
    else
        swift_keyring_wrong_type(error, what, inner != NULL ? inner : reply, "b");
    if (inner != NULL)
        g_variant_unref(inner);
    return ok;
}

/* The "(v)" reply of Properties.Get for an item's Attributes ("a{ss}"), as a
 * string table the caller owns; NULL with `error` set when the reply holds
 * anything else: an item whose attributes cannot be read is no item we can
 * tell apart from ours, and must not pass for a foreign one. */
GHashTable *swift_keyring_attributes_property_reply(GVariant *reply, GError **error) {
    GVariant *value = swift_keyring_variant_in_reply(reply);
    GHashTable *attributes = NULL;
    if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}")))
        attributes = swift_keyring_attributes_from_variant(value);
    else
        swift_keyring_wrong_type(error, "an item's attributes", value != NULL ? value : reply, "a{ss}");
    if (value != NULL)
        g_variant_unref(value);
    return attributes;
}

/* An "a{ss}" value as a string table the caller owns; an empty table for NULL or any other type. */
GHashTable *swift_keyring_attributes_from_variant(GVariant *value) {
    GHashTable *attributes = swift_keyring_attributes_new();
    if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}"))) {
        GVariantIter iter;
        GVariant *entry;
        g_variant_iter_init(&iter, value);
        while ((entry = g_variant_iter_next_value(&iter)) != NULL) {
            GVariant *name = g_variant_get_child_value(entry, 0);
            GVariant *text = g_variant_get_child_value(entry, 1);
            swift_keyring_attributes_set(attributes, g_variant_get_string(name, NULL), g_variant_get_string(text, NULL));
            g_variant_unref(text);
            g_variant_unref(name);
            g_variant_unref(entry);
        }
    }
    return attributes;
}

/* Whether `error` says the object is gone: an item deleted between a search
 * and a read. gnome-keyring answers UnknownMethod for a path with no object;
 * KeePassXC (through Qt D-Bus) answers UnknownInterface ("Interface
 * org.freedesktop.Secret.Item was not found in object ..."). */
gboolean swift_keyring_error_is_vanished_object(const GError *error) {
    gchar *name;
    gboolean vanished;
    if (error == NULL || !g_dbus_error_is_remote_error(error))
        return FALSE;
    name = g_dbus_error_get_remote_error(error);
    vanished = g_strcmp0(name, "org.freedesktop.DBus.Error.UnknownMethod") == 0
        || g_strcmp0(name, "org.freedesktop.DBus.Error.UnknownObject") == 0
        || g_strcmp0(name, "org.freedesktop.DBus.Error.UnknownInterface") == 0
        || g_strcmp0(name, "org.freedesktop.Secret.Error.NoSuchObject") == 0;
    g_free(name);
    return vanished;
}

/* The arguments of Service.GetSecrets for one item ("(aoo)"), for the transfer at `transfer_path`. */
GVariant *swift_keyring_get_secrets_argument(const gchar *transfer_path, const gchar *path) {
    const gchar *paths[] = { path, NULL };
    GVariant *arguments[] = { g_variant_new_objv(paths, -1), g_variant_new_object_path(transfer_path) };
    return g_variant_new_tuple(arguments, 2);
}

/* GetSecrets' reply for one path: the "(oayays)" secret there (the caller's), NULL when
 * the daemon left the item out (gone, or locked) or on `error` (a reply of another type). */
GVariant *swift_keyring_secret_from_reply(GVariant *reply, const gchar *path, GError **error) {
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(a{o(oayays)})"))) {
        swift_keyring_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                                "the Secret Service answered GetSecrets with type %s, not (a{o(oayays)})",
                                g_variant_get_type_string(reply));
        return NULL;
    }
    GVariant *secrets = g_variant_get_child_value(reply, 0);
    GVariant *secret = g_variant_lookup_value(secrets, path, NULL);
    g_variant_unref(secrets);
    if (secret != NULL && !g_variant_is_of_type(secret, G_VARIANT_TYPE("(oayays)"))) {
        swift_keyring_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_SIGNATURE,
                                "the Secret Service sent a secret of type %s, not (oayays)",
                                g_variant_get_type_string(secret));
        g_variant_unref(secret);
        return NULL;
    }
    return secret;
}
