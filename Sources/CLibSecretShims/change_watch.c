#include "CLibSecretShims.h"

/* Counting what the daemon announces, so that a store can tell whether
 * anything changed since it remembered an item's path and attributes.
 *
 * A connection filter rather than a signal subscription: GDBus runs filters on
 * its worker thread, for every message, in the order the messages arrive, and
 * hands a method's reply to its caller only after the filter has seen that
 * reply. So once a reply is in the caller's hands, every signal the daemon sent
 * before it has been counted. A subscription's callbacks would instead wait for
 * a main loop that a plain Swift program never runs. */
struct SwiftKeyringChangeWatch {
    gchar *daemon;   /* the daemon's unique bus name: its signals are the ones counted */
    gint changes;    /* signals seen from the daemon; read and written atomically */
    gint daemon_gone; /* set when org.freedesktop.secrets changed owner; atomic */
};

static GDBusMessage *swift_keyring_change_watch_filter(GDBusConnection *connection, GDBusMessage *message,
                                                       gboolean incoming, gpointer data) {
    (void)connection;
    SwiftKeyringChangeWatch *watch = (SwiftKeyringChangeWatch *)data;
    if (!incoming || g_dbus_message_get_message_type(message) != G_DBUS_MESSAGE_TYPE_SIGNAL)
        return message;
    const gchar *sender = g_dbus_message_get_sender(message);
    if (g_strcmp0(sender, watch->daemon) == 0) {
        /* Any signal at all, not only ItemCreated, ItemDeleted and ItemChanged:
         * counting one too many only costs a search. */
        __atomic_fetch_add(&watch->changes, 1, __ATOMIC_SEQ_CST);
    } else if (g_strcmp0(sender, "org.freedesktop.DBus") == 0
               && g_strcmp0(g_dbus_message_get_member(message), "NameOwnerChanged") == 0
               && g_strcmp0(g_dbus_message_get_arg0(message), SWIFT_KEYRING_BUS_NAME) == 0) {
        /* A new daemon's signals come from another unique name, which this
         * watch does not count: from now on nothing it counted can be trusted. */
        __atomic_store_n(&watch->daemon_gone, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&watch->changes, 1, __ATOMIC_SEQ_CST);
    }
    return message;
}

static void swift_keyring_change_watch_free(gpointer data) {
    SwiftKeyringChangeWatch *watch = (SwiftKeyringChangeWatch *)data;
    g_free(watch->daemon);
    g_free(watch);
}

SwiftKeyringChangeWatch *swift_keyring_change_watch_new(GDBusConnection *connection, const gchar *daemon,
                                                        guint *filter) {
    SwiftKeyringChangeWatch *watch = g_malloc0_n(1, sizeof(SwiftKeyringChangeWatch));
    watch->daemon = g_strdup(daemon);
    /* GDBus frees the watch once the filter is removed and no longer running. */
    *filter = g_dbus_connection_add_filter(connection, swift_keyring_change_watch_filter, watch,
                                           swift_keyring_change_watch_free);
    return watch;
}

gboolean swift_keyring_change_watch_count(SwiftKeyringChangeWatch *watch, guint *changes) {
    /* The count first: a filter that marks the daemon gone marks it before counting. */
    *changes = (guint)__atomic_load_n(&watch->changes, __ATOMIC_SEQ_CST);
    return !__atomic_load_n(&watch->daemon_gone, __ATOMIC_SEQ_CST);
}
