#include "CLibSecretShims.h"

/* libsecret 0.20's SecretService constructor forces "g-bus-type" to the
 * session bus, "g-flags" to none and "g-name" to the well-known name, which
 * asserts in GDBusProxy when a "g-connection" is given too. This subclass
 * chains up, then puts back what a proxy on our own connection needs: no bus
 * type, flags that neither load properties nor subscribe to signals (a plain
 * Swift program never runs a GLib main loop, so signals would only pile up
 * undelivered), and the name it was given: the unique name of the daemon
 * that holds our session. A proxy on a unique name sends nothing when it is
 * made (no StartServiceByName or GetNameOwner to track a well-known name's
 * owner). */
static GObject *swift_keyring_service_constructor(GType type, guint count, GObjectConstructParam *parameters) {
    const gchar *name = SWIFT_KEYRING_BUS_NAME;
    for (guint index = 0; index < count; index++) {
        if (g_strcmp0(parameters[index].pspec->name, "g-name") == 0
            && g_value_get_string(parameters[index].value) != NULL) {
            name = g_value_get_string(parameters[index].value);
        }
    }
    GDBusProxyFlags flags = G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES | G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS;
#if GLIB_CHECK_VERSION(2, 72, 0)
    /* Nor the AddMatch for the name's NameOwnerChanged: nothing here reads the
     * proxy's name owner, and the store watches the daemon itself. */
    flags |= G_DBUS_PROXY_FLAGS_NO_MATCH_RULE;
#endif
    gchar *kept = g_strdup(name);
    GObjectClass *parent = G_OBJECT_CLASS(g_type_class_peek(SECRET_TYPE_SERVICE));
    GObject *object = parent->constructor(type, count, parameters);
    g_object_set(object,
                 "g-bus-type", G_BUS_TYPE_NONE,
                 "g-flags", flags,
                 "g-name", kept,
                 NULL);
    g_free(kept);
    return object;
}

static void swift_keyring_service_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->constructor = swift_keyring_service_constructor;
}

/* The subclass, registered once per process on first use. Its class and
 * instance sizes are the parent's: it adds no fields, only a constructor. */
static GType swift_keyring_service_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GTypeQuery query;
        g_type_query(SECRET_TYPE_SERVICE, &query);
        GType registered = g_type_register_static_simple(
            SECRET_TYPE_SERVICE, g_intern_static_string("SwiftKeyringSecretService"),
            query.class_size, swift_keyring_service_class_init, query.instance_size, NULL, (GTypeFlags)0);
        g_once_init_leave(&type, registered);
    }
    return (GType)type;
}

/* g_initable_new (varargs) for a SecretService proxy on a connection we made,
 * rather than the process-wide session bus, for searches, sent to `name` (the
 * well-known name when NULL). It opens no session: the store opens its own
 * (SecretTransfer.swift). */
SecretService *swift_keyring_service_new(GDBusConnection *connection, const gchar *name, GCancellable *cancellable,
                                         GError **error) {
    return (SecretService *)g_initable_new(
        swift_keyring_service_get_type(), cancellable, error,
        "g-connection", connection,
        "g-name", name != NULL ? name : SWIFT_KEYRING_BUS_NAME,
        "g-object-path", SWIFT_KEYRING_SERVICE_PATH,
        "g-interface-name", "org.freedesktop.Secret.Service",
        "flags", SECRET_SERVICE_NONE,
        NULL);
}

/* The first call a new connection makes to the daemon: a read of the Service's
 * Collections property, whose reply names the daemon (its sender). Nothing else
 * may come first. gnome-keyring 42 makes its record of a client in an idle
 * callback that a message filter queues for each incoming message, and its
 * OpenSession, SearchItems, item and collection handlers look that record up.
 * Under many new connections at once a handler can run before the record
 * exists; it then fails without setting an error, and on OpenSession or a
 * property read the daemon aborts on the NULL reply (gnome-keyring issues 190,
 * 194, 195; Debian bug 1147303): eight processes opening with OpenSession
 * killed it within seconds. The Service's own properties are read through the
 * daemon's internal session, never the client's record, so this call is safe
 * whenever it runs, and the calls after it find the record made. libsecret is
 * safe the same way: its first call is a GetAll of these properties. The stress
 * tests (ConcurrentClientsTests) prove it; keep this call first. Sets `*daemon`
 * to the reply's sender (NULL on a connection without a bus); FALSE with
 * `error` set when the call failed. */
gboolean swift_keyring_service_greet(GDBusConnection *connection, gint timeout_ms, GCancellable *cancellable,
                                     gchar **daemon, GError **error) {
    GDBusMessage *call = g_dbus_message_new_method_call(SWIFT_KEYRING_BUS_NAME, SWIFT_KEYRING_SERVICE_PATH,
                                                        "org.freedesktop.DBus.Properties", "Get");
    g_dbus_message_set_body(call, g_variant_new("(ss)", "org.freedesktop.Secret.Service", "Collections"));
    GDBusMessage *reply = g_dbus_connection_send_message_with_reply_sync(
        connection, call, G_DBUS_SEND_MESSAGE_FLAGS_NONE, timeout_ms, NULL, cancellable, error);
    g_object_unref(call);
    if (reply == NULL)
        return FALSE;
    gboolean ok = !g_dbus_message_to_gerror(reply, error);
    if (ok)
        *daemon = g_strdup(g_dbus_message_get_sender(reply));
    g_object_unref(reply);
    return ok;
}
