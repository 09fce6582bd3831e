#include "CLibSecretShims.h"

#include <errno.h>
#include <sys/inotify.h>
#include <unistd.h>

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
    /* An inotify descriptor on the daemon's keyring folder, or -1. Another
     * gnome-keyring of the same user (a second login with its own bus) may write
     * the files; this daemon then reloads them when next searched, and announces
     * nothing. So any event there counts as a change too. */
    int folder;
    gboolean folder_lost; /* the folder went away: nothing is trusted any more */
    GMutex folder_lock;   /* one reader drains and counts at a time (see _count) */
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
        g_atomic_int_inc(&watch->changes);
    } else if (g_strcmp0(sender, "org.freedesktop.DBus") == 0
               && g_strcmp0(g_dbus_message_get_member(message), "NameOwnerChanged") == 0
               && g_strcmp0(g_dbus_message_get_arg0(message), SWIFT_KEYRING_BUS_NAME) == 0) {
        /* A new daemon's signals come from another unique name, which this
         * watch does not count: from now on nothing it counted can be trusted. */
        g_atomic_int_set(&watch->daemon_gone, 1);
        g_atomic_int_inc(&watch->changes);
    }
    return message;
}

static void swift_keyring_change_watch_free(gpointer data) {
    SwiftKeyringChangeWatch *watch = (SwiftKeyringChangeWatch *)data;
    if (watch->folder >= 0)
        close(watch->folder);
    g_mutex_clear(&watch->folder_lock);
    g_free(watch->daemon);
    g_free(watch);
}

SwiftKeyringChangeWatch *swift_keyring_change_watch_new(GDBusConnection *connection, const gchar *daemon,
                                                        guint *filter) {
    SwiftKeyringChangeWatch *watch = g_new0(SwiftKeyringChangeWatch, 1);
    watch->daemon = g_strdup(daemon);
    watch->folder = -1;
    g_mutex_init(&watch->folder_lock);
    /* GDBus frees the watch once the filter is removed and no longer running. */
    *filter = g_dbus_connection_add_filter(connection, swift_keyring_change_watch_filter, watch,
                                           swift_keyring_change_watch_free);
    return watch;
}

gboolean swift_keyring_change_watch_add_folder(SwiftKeyringChangeWatch *watch, const gchar *path) {
    int folder = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (folder < 0)
        return FALSE;
    /* Every way a file there can change: written in place (as gnome-keyring
     * writes), created, removed or renamed; and the folder itself going. */
    const uint32_t events = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;
    if (inotify_add_watch(folder, path, events) < 0) {
        close(folder);
        return FALSE;
    }
    watch->folder = folder;
    return TRUE;
}

/* Reads every queued event; any at all is a change. Called with the lock held,
 * so a second reader that finds the queue empty waits until the first has
 * counted what it took, and never reads a count that misses it. */
static void swift_keyring_change_watch_drain(SwiftKeyringChangeWatch *watch) {
    union {
        struct inotify_event event;
        char bytes[4096];
    } buffer;
    gboolean changed = FALSE;
    for (;;) {
        ssize_t length = read(watch->folder, buffer.bytes, sizeof buffer.bytes);
        if (length < 0 && errno == EINTR)
            continue;
        if (length <= 0)
            break;
        changed = TRUE;
        for (ssize_t offset = 0; offset < length;) {
            const struct inotify_event *event = (const struct inotify_event *)(buffer.bytes + offset);
            if (event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
                watch->folder_lost = TRUE;
            offset += (ssize_t)(sizeof(struct inotify_event) + event->len);
        }
    }
    if (changed)
        g_atomic_int_inc(&watch->changes);
}

gboolean swift_keyring_change_watch_count(SwiftKeyringChangeWatch *watch, guint *changes) {
    gboolean watching_folder = watch->folder >= 0, folder_lost = FALSE;
    if (watching_folder) {
        g_mutex_lock(&watch->folder_lock);
        swift_keyring_change_watch_drain(watch);
        folder_lost = watch->folder_lost;
    }
    /* The count first: a filter that marks the daemon gone marks it before counting. */
    *changes = (guint)g_atomic_int_get(&watch->changes);
    if (watching_folder)
        g_mutex_unlock(&watch->folder_lock);
    return !folder_lost && !g_atomic_int_get(&watch->daemon_gone);
}
