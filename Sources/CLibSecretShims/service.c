#include "CLibSecretShims.h"

/* The first call a new connection makes to the daemon: a read of the Service's
 * Collections property. Nothing else may come first. gnome-keyring 42 makes its record of a client in an idle
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
 * tests (ConcurrentClientsTests) prove it; keep this call first. It goes to
 * `daemon`, the unique name the bus says owns org.freedesktop.secrets (or the
 * well-known name on a connection without a bus), and its reply is taken only
 * from there (reply_guard.c); FALSE with `error` set when the call failed. */
gboolean swift_keyring_service_greet(GDBusConnection *connection, const gchar *daemon, gint timeout_ms,
                                     GCancellable *cancellable, GError **error) {
    GDBusMessage *call = g_dbus_message_new_method_call(daemon, SWIFT_KEYRING_SERVICE_PATH,
                                                        "org.freedesktop.DBus.Properties", "Get");
    GVariant *arguments[] = { g_variant_new_string("org.freedesktop.Secret.Service"),
                              g_variant_new_string("Collections") };
    g_dbus_message_set_body(call, g_variant_new_tuple(arguments, 2));
    GDBusMessage *reply = g_dbus_connection_send_message_with_reply_sync(
        connection, call, G_DBUS_SEND_MESSAGE_FLAGS_NONE, timeout_ms, NULL, cancellable, error);
    g_object_unref(call);
    if (reply == NULL)
        return FALSE;
    gboolean ok = !g_dbus_message_to_gerror(reply, error);
    g_object_unref(reply);
    return ok;
}
