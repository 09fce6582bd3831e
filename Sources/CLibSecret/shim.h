#ifndef SWIFT_KEYRING_CLIBSECRET_SHIM_H
#define SWIFT_KEYRING_CLIBSECRET_SHIM_H

/* The D-Bus path calls (secret_service_create_item_dbus_path_sync and friends)
 * are what keep a store to few round trips; libsecret marks them unstable. */
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <gio/gio.h>

/* Everything here wraps what Swift cannot call or spell: C varargs, the
 * 32-slot SecretSchema tuple, GHashTable's untyped pointers, GVariant format
 * strings. Each function is named after what it wraps. */

#define SWIFT_KEYRING_BUS_NAME "org.freedesktop.secrets"
#define SWIFT_KEYRING_SERVICE_PATH "/org/freedesktop/secrets"
#define SWIFT_KEYRING_DEFAULT_COLLECTION_PATH "/org/freedesktop/secrets/aliases/default"

/* The schema of every item the library writes. DONT_MATCH_NAME: searches do not
 * add xdg:schema, so items written by secret-tool with our attributes are found. */
static inline const SecretSchema *swift_keyring_schema(void) {
    static const SecretSchema schema = {
        "org.swift-keyring.Record",
        SECRET_SCHEMA_DONT_MATCH_NAME,
        {
            { "tag", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "key", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "username", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "sync", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "background-access", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        },
    };
    return &schema;
}

/* g_hash_table_new_full: a string-to-string table that owns copies of both. */
static inline GHashTable *swift_keyring_attributes_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

/* g_hash_table_insert with copies, so Swift's temporary C strings may go away. */
static inline void swift_keyring_attributes_set(GHashTable *attributes, const char *name, const char *value) {
    g_hash_table_insert(attributes, g_strdup(name), g_strdup(value));
}

/* g_hash_table_lookup typed for string tables; NULL when the name is absent. */
static inline const char *swift_keyring_attributes_get(GHashTable *attributes, const char *name) {
    return (const char *)g_hash_table_lookup(attributes, name);
}

/* libsecret 0.20's SecretService constructor forces "g-bus-type" to the
 * session bus (and "g-flags" to none), which asserts in GDBusProxy when a
 * "g-connection" is given too. This subclass chains up, then puts back what
 * a proxy on our own connection needs: no bus type, and flags that neither
 * load properties nor subscribe to signals (a plain Swift program never runs
 * a GLib main loop, so signals would only pile up undelivered). */
static inline GObject *swift_keyring_service_constructor(GType type, guint count, GObjectConstructParam *parameters) {
    GObjectClass *parent = G_OBJECT_CLASS(g_type_class_peek(SECRET_TYPE_SERVICE));
    GObject *object = parent->constructor(type, count, parameters);
    g_object_set(object,
                 "g-bus-type", G_BUS_TYPE_NONE,
                 "g-flags", (GDBusProxyFlags)(G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES
                                              | G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS),
                 "g-name", SWIFT_KEYRING_BUS_NAME,
                 NULL);
    return object;
}

static inline void swift_keyring_service_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->constructor = swift_keyring_service_constructor;
}

/* G_DEFINE_TYPE cannot live in a header; this registers the subclass once. */
static inline GType swift_keyring_service_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GType registered = g_type_from_name("SwiftKeyringSecretService");
        if (registered == 0) {
            GTypeQuery query;
            g_type_query(SECRET_TYPE_SERVICE, &query);
            registered = g_type_register_static_simple(
                SECRET_TYPE_SERVICE, g_intern_static_string("SwiftKeyringSecretService"),
                query.class_size, swift_keyring_service_class_init, query.instance_size, NULL, (GTypeFlags)0);
        }
        g_once_init_leave(&type, registered);
    }
    return (GType)type;
}

/* g_initable_new (varargs) for a SecretService proxy on a connection we made,
 * rather than the process-wide session bus, with a session opened. */
static inline SecretService *swift_keyring_service_new(GDBusConnection *connection,
                                                       GCancellable *cancellable,
                                                       GError **error) {
    return (SecretService *)g_initable_new(
        swift_keyring_service_get_type(), cancellable, error,
        "g-connection", connection,
        "g-object-path", SWIFT_KEYRING_SERVICE_PATH,
        "g-interface-name", "org.freedesktop.Secret.Service",
        "flags", SECRET_SERVICE_OPEN_SESSION,
        NULL);
}

/* A string table as a floating "a{ss}" GVariant (g_variant_builder_add is varargs). */
static inline GVariant *swift_keyring_attributes_variant(GHashTable *attributes) {
    GVariantBuilder builder;
    GHashTableIter iter;
    gpointer name, value;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{ss}"));
    g_hash_table_iter_init(&iter, attributes);
    while (g_hash_table_iter_next(&iter, &name, &value))
        g_variant_builder_add(&builder, "{ss}", (const char *)name, (const char *)value);
    return g_variant_builder_end(&builder);
}

/* The properties table of CreateItem: label and attributes as GVariants
 * (g_variant_new is varargs). */
static inline GHashTable *swift_keyring_item_properties_new(const char *label, GHashTable *attributes) {
    GHashTable *properties = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_variant_unref);
    g_hash_table_insert(properties, (gpointer)"org.freedesktop.Secret.Item.Label",
                        g_variant_ref_sink(g_variant_new_string(label)));
    g_hash_table_insert(properties, (gpointer)"org.freedesktop.Secret.Item.Attributes",
                        g_variant_ref_sink(swift_keyring_attributes_variant(attributes)));
    return properties;
}

/* The arguments of Item.SetSecret ("((oayays))"): the value encoded for the
 * session `service` opened, as libsecret's own calls send it. */
static inline GVariant *swift_keyring_set_secret_argument(SecretService *service, SecretValue *value) {
    GVariant *secret = g_variant_ref_sink(secret_service_encode_dbus_secret(service, value));
    GVariant *arguments = g_variant_new("(@(oayays))", secret);
    g_variant_unref(secret);
    return arguments;
}

/* The arguments of Properties.Set for an item's Label ("(ssv)"). */
static inline GVariant *swift_keyring_set_label_argument(const char *label) {
    return g_variant_new("(ssv)", "org.freedesktop.Secret.Item", "Label", g_variant_new_string(label));
}

/* The arguments of Properties.Set for an item's Attributes ("(ssv)"). */
static inline GVariant *swift_keyring_set_attributes_argument(GHashTable *attributes) {
    return g_variant_new("(ssv)", "org.freedesktop.Secret.Item", "Attributes", swift_keyring_attributes_variant(attributes));
}

/* The single string argument of a bus method such as NameHasOwner ("(s)"). */
static inline GVariant *swift_keyring_string_argument(const char *value) {
    return g_variant_new("(s)", value);
}

/* The boolean of a "(b)" reply. */
static inline gboolean swift_keyring_boolean_reply(GVariant *reply) {
    gboolean value = FALSE;
    g_variant_get(reply, "(b)", &value);
    return value;
}

/* Whether the "(as)" reply of ListActivatableNames holds `name`. */
static inline gboolean swift_keyring_names_reply_contains(GVariant *reply, const char *name) {
    GVariant *names = g_variant_get_child_value(reply, 0);
    gsize count = 0;
    const gchar **strings = g_variant_get_strv(names, &count);
    gboolean found = FALSE;
    for (gsize index = 0; index < count && !found; index++)
        found = g_strcmp0(strings[index], name) == 0;
    g_free(strings);
    g_variant_unref(names);
    return found;
}

/* The "(v)" reply of Properties.Get, read as a boolean. */
static inline gboolean swift_keyring_boolean_property_reply(GVariant *reply) {
    GVariant *value = NULL;
    gboolean result = FALSE;
    g_variant_get(reply, "(v)", &value);
    if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN))
        result = g_variant_get_boolean(value);
    if (value != NULL)
        g_variant_unref(value);
    return result;
}

/* The "(v)" reply of Properties.Get for an item's Attributes ("a{ss}"), as a
 * string table the caller owns; an empty table when the reply holds no such dictionary. */
static inline GHashTable *swift_keyring_attributes_property_reply(GVariant *reply) {
    GHashTable *attributes = swift_keyring_attributes_new();
    GVariant *value = NULL;
    g_variant_get(reply, "(v)", &value);
    if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}"))) {
        GVariantIter iter;
        const gchar *name, *text;
        g_variant_iter_init(&iter, value);
        while (g_variant_iter_next(&iter, "{&s&s}", &name, &text))
            swift_keyring_attributes_set(attributes, name, text);
    }
    if (value != NULL)
        g_variant_unref(value);
    return attributes;
}

/* Whether `error` says the object is gone: an item deleted between a search
 * and a read. gnome-keyring answers UnknownMethod for a path with no object. */
static inline gboolean swift_keyring_error_is_vanished_object(const GError *error) {
    gchar *name;
    gboolean vanished;
    if (error == NULL || !g_dbus_error_is_remote_error(error))
        return FALSE;
    name = g_dbus_error_get_remote_error(error);
    vanished = g_strcmp0(name, "org.freedesktop.DBus.Error.UnknownMethod") == 0
        || g_strcmp0(name, "org.freedesktop.DBus.Error.UnknownObject") == 0
        || g_strcmp0(name, "org.freedesktop.Secret.Error.NoSuchObject") == 0;
    g_free(name);
    return vanished;
}

/* An item's Label and Attributes from one Properties.GetAll call, the label
 * and table the caller's. Both are NULL, with no error, when the item vanished
 * (deleted since the search that found it). */
static inline gboolean swift_keyring_read_label_and_attributes(GDBusConnection *connection, const gchar *path,
                                                               gint timeout_ms, GCancellable *cancellable,
                                                               gchar **label, GHashTable **attributes, GError **error) {
    GError *failure = NULL;
    GVariant *reply = g_dbus_connection_call_sync(connection, SWIFT_KEYRING_BUS_NAME, path,
                                                  "org.freedesktop.DBus.Properties", "GetAll",
                                                  g_variant_new("(s)", "org.freedesktop.Secret.Item"),
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
    *label = g_strdup(text != NULL ? g_variant_get_string(text, NULL) : "");
    *attributes = swift_keyring_attributes_new();
    if (table != NULL) {
        GVariantIter iter;
        const gchar *name, *value;
        g_variant_iter_init(&iter, table);
        while (g_variant_iter_next(&iter, "{&s&s}", &name, &value))
            swift_keyring_attributes_set(*attributes, name, value);
        g_variant_unref(table);
    }
    if (text != NULL)
        g_variant_unref(text);
    g_variant_unref(properties);
    g_variant_unref(reply);
    return TRUE;
}

/* Reading many items' attributes: calls in flight at once, at most this many,
 * so a long list waits about one round trip per window rather than per item
 * and stays far below the bus's limit on pending replies. */
#define SWIFT_KEYRING_ATTRIBUTES_WINDOW 32

typedef struct {
    GDBusConnection *connection;
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

static inline void swift_keyring_attributes_batch_send(SwiftKeyringAttributesBatch *batch);

static inline void swift_keyring_attributes_batch_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringAttributesCall *call = (SwiftKeyringAttributesCall *)data;
    SwiftKeyringAttributesBatch *batch = call->batch;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        batch->tables[call->index] = swift_keyring_attributes_property_reply(reply);
        g_variant_unref(reply);
    } else if (swift_keyring_error_is_vanished_object(error) || batch->error != NULL) {
        g_error_free(error);
    } else {
        batch->error = error;
    }
    batch->pending--;
    g_free(call);
    swift_keyring_attributes_batch_send(batch);
}

static inline void swift_keyring_attributes_batch_send(SwiftKeyringAttributesBatch *batch) {
    while (batch->error == NULL && batch->next < batch->count && batch->pending < SWIFT_KEYRING_ATTRIBUTES_WINDOW) {
        SwiftKeyringAttributesCall *call = g_new0(SwiftKeyringAttributesCall, 1);
        call->batch = batch;
        call->index = batch->next++;
        batch->pending++;
        g_dbus_connection_call(batch->connection, SWIFT_KEYRING_BUS_NAME, batch->paths[call->index],
                               "org.freedesktop.DBus.Properties", "Get",
                               g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
                               G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, batch->timeout_ms,
                               batch->cancellable, swift_keyring_attributes_batch_done, call);
    }
}

/* The Attributes of every item in `paths`, into `tables` (count entries, owned
 * by the caller; NULL for an item that vanished meanwhile). Returns FALSE and
 * sets `error` at the first other failure. The replies are dispatched in a
 * main context of this call's own, so it is safe from any thread. */
static inline gboolean swift_keyring_read_attributes(GDBusConnection *connection, const gchar *const *paths, guint count,
                                                     gint timeout_ms, GCancellable *cancellable,
                                                     GHashTable **tables, GError **error) {
    SwiftKeyringAttributesBatch batch = { connection, paths, count, 0, 0, timeout_ms, cancellable, tables, NULL };
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

/* Reading one item: its attributes and its secret, both calls in flight at once. */
typedef struct {
    guint pending;
    GHashTable *attributes;
    SecretValue *value;
    GError *error;
} SwiftKeyringItemRead;

static inline void swift_keyring_item_read_keep_error(SwiftKeyringItemRead *read, GError *error) {
    if (error == NULL)
        return;
    if (read->error == NULL && !swift_keyring_error_is_vanished_object(error))
        read->error = error;
    else
        g_error_free(error);
}

static inline void swift_keyring_item_read_attributes_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringItemRead *read = (SwiftKeyringItemRead *)data;
    GError *error = NULL;
    GVariant *reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
    if (reply != NULL) {
        read->attributes = swift_keyring_attributes_property_reply(reply);
        g_variant_unref(reply);
    }
    swift_keyring_item_read_keep_error(read, error);
    read->pending--;
}

static inline void swift_keyring_item_read_secret_done(GObject *source, GAsyncResult *result, gpointer data) {
    SwiftKeyringItemRead *read = (SwiftKeyringItemRead *)data;
    GError *error = NULL;
    read->value = secret_service_get_secret_for_dbus_path_finish(SECRET_SERVICE(source), result, &error);
    swift_keyring_item_read_keep_error(read, error);
    read->pending--;
}

/* The attributes and secret of the item at `path`, asked for together so the
 * read waits one round trip, not two. Both outputs are the caller's; both are
 * NULL, with no error, when the item vanished meanwhile. The replies are
 * dispatched in a main context of this call's own, so it is safe from any thread. */
static inline gboolean swift_keyring_read_item(SecretService *service, const gchar *path, gint timeout_ms,
                                               GCancellable *cancellable, GHashTable **attributes,
                                               SecretValue **value, GError **error) {
    SwiftKeyringItemRead read = { 2, NULL, NULL, NULL };
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    g_dbus_connection_call(g_dbus_proxy_get_connection(G_DBUS_PROXY(service)), SWIFT_KEYRING_BUS_NAME, path,
                           "org.freedesktop.DBus.Properties", "Get",
                           g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
                           G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, cancellable,
                           swift_keyring_item_read_attributes_done, &read);
    secret_service_get_secret_for_dbus_path(service, path, cancellable, swift_keyring_item_read_secret_done, &read);
    while (read.pending > 0)
        g_main_context_iteration(context, TRUE);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    if (read.error != NULL) {
        if (read.attributes != NULL)
            g_hash_table_unref(read.attributes);
        if (read.value != NULL)
            secret_value_unref(read.value);
        g_propagate_error(error, read.error);
        return FALSE;
    }
    *attributes = read.attributes;
    *value = read.value;
    return TRUE;
}

/* The arguments of Properties.Get ("(ss)"). */
static inline GVariant *swift_keyring_property_argument(const char *interface_name, const char *property) {
    return g_variant_new("(ss)", interface_name, property);
}

/* The version of the libsecret headers we were built with. */
static inline int swift_keyring_libsecret_major(void) { return SECRET_MAJOR_VERSION; }
static inline int swift_keyring_libsecret_minor(void) { return SECRET_MINOR_VERSION; }
static inline int swift_keyring_libsecret_micro(void) { return SECRET_MICRO_VERSION; }

#endif
