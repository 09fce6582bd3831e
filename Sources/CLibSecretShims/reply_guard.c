#include "CLibSecretShims.h"
#include <pthread.h>
#include <string.h>

/* Replies taken only from the connection each call went to.
 *
 * GDBus hands a reply to whichever call has its reply serial, whoever sent it, and
 * any program on a session bus may send a connection method returns nobody asked
 * for (a stock dbus-daemon session policy lets it). Another program of the bus
 * that answers our calls' serials first could so play the Secret Service: name
 * itself the daemon in the greeting's reply, then be sent our searches, our
 * secrets and an unlock password. This filter records each call as it leaves
 * (its serial and destination) and drops every incoming reply or error that
 * answers no call of ours, or comes from anyone but the destination: the bus
 * itself writes a message's sender, so it cannot be forged. Calls go to the bus
 * (org.freedesktop.DBus) or to a unique name the bus gave (SecretServiceClient
 * asks the bus who owns org.freedesktop.secrets first); a call to a well-known
 * name (the probe's Ping, the portal) takes its reply from anyone, which is all
 * a probe's answer is worth. An error from the bus itself answers any call: the
 * bus replies for a destination that left or never was (NoReply, ServiceUnknown),
 * and without those a call to a daemon that died would wait out its timeout. The real reply, which comes after a forged one, is
 * then the one GDBus hands over. GDBus runs filters on its worker thread: an
 * outgoing call is seen before it is written, so before its reply can arrive. */

#define SWIFT_KEYRING_GUARDED_CALLS 1024

typedef struct {
    guint32 serial; /* 0: a free slot */
    gchar *destination;
} SwiftKeyringGuardedCall;

typedef struct {
    pthread_mutex_t lock;
    /* A ring: a call that is never answered is overwritten 1,024 calls later,
     * and its late reply, if any, dropped. */
    SwiftKeyringGuardedCall calls[SWIFT_KEYRING_GUARDED_CALLS];
    guint next;
} SwiftKeyringReplyGuard;

static SwiftKeyringGuardedCall *swift_keyring_guard_find(SwiftKeyringReplyGuard *guard, guint32 serial) {
    for (guint i = 0; i < SWIFT_KEYRING_GUARDED_CALLS; i++) {
        if (guard->calls[i].serial == serial)
            return &guard->calls[i];
    }
    return NULL;
}

static gboolean swift_keyring_guard_accepts(SwiftKeyringReplyGuard *guard, GDBusMessage *reply) {
    guint32 serial = g_dbus_message_get_reply_serial(reply);
    const gchar *sender = g_dbus_message_get_sender(reply);
    gboolean from_bus_error = g_dbus_message_get_message_type(reply) == G_DBUS_MESSAGE_TYPE_ERROR
        && g_strcmp0(sender, "org.freedesktop.DBus") == 0;
    gboolean accepted = FALSE;
    pthread_mutex_lock(&guard->lock);
    SwiftKeyringGuardedCall *call = serial != 0 ? swift_keyring_guard_find(guard, serial) : NULL;
    if (call != NULL) {
        const gchar *destination = call->destination;
        gboolean named_exactly = destination[0] == ':' || strcmp(destination, "org.freedesktop.DBus") == 0;
        accepted = !named_exactly || g_strcmp0(sender, destination) == 0 || from_bus_error;
        if (accepted) {
            g_free(call->destination);
            call->destination = NULL;
            call->serial = 0;
        }
    }
    pthread_mutex_unlock(&guard->lock);
    return accepted;
}

static void swift_keyring_guard_record(SwiftKeyringReplyGuard *guard, GDBusMessage *call) {
    if ((g_dbus_message_get_flags(call) & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED) != 0)
        return;
    const gchar *destination = g_dbus_message_get_destination(call);
    pthread_mutex_lock(&guard->lock);
    SwiftKeyringGuardedCall *slot = &guard->calls[guard->next];
    guard->next = (guard->next + 1) % SWIFT_KEYRING_GUARDED_CALLS;
    g_free(slot->destination);
    slot->serial = g_dbus_message_get_serial(call);
    slot->destination = g_strdup(destination != NULL ? destination : "");
    pthread_mutex_unlock(&guard->lock);
}

static GDBusMessage *swift_keyring_reply_guard_filter(GDBusConnection *connection, GDBusMessage *message,
                                                      gboolean incoming, gpointer data) {
    (void)connection;
    SwiftKeyringReplyGuard *guard = (SwiftKeyringReplyGuard *)data;
    GDBusMessageType type = g_dbus_message_get_message_type(message);
    if (!incoming) {
        if (type == G_DBUS_MESSAGE_TYPE_METHOD_CALL)
            swift_keyring_guard_record(guard, message);
        return message;
    }
    if (type != G_DBUS_MESSAGE_TYPE_METHOD_RETURN && type != G_DBUS_MESSAGE_TYPE_ERROR)
        return message;
    if (swift_keyring_guard_accepts(guard, message))
        return message;
    g_object_unref(message);
    return NULL;
}

static void swift_keyring_reply_guard_free(gpointer data) {
    SwiftKeyringReplyGuard *guard = (SwiftKeyringReplyGuard *)data;
    for (guint i = 0; i < SWIFT_KEYRING_GUARDED_CALLS; i++)
        g_free(guard->calls[i].destination);
    pthread_mutex_destroy(&guard->lock);
    g_free(guard);
}

void swift_keyring_reply_guard_install(GDBusConnection *connection) {
    SwiftKeyringReplyGuard *guard = g_malloc0_n(1, sizeof(SwiftKeyringReplyGuard));
    pthread_mutex_init(&guard->lock, NULL);
    /* GDBus frees the guard with the connection. */
    g_dbus_connection_add_filter(connection, swift_keyring_reply_guard_filter, guard, swift_keyring_reply_guard_free);
}
