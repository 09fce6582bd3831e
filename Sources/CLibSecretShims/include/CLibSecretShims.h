#ifndef SWIFT_KEYRING_CLIBSECRETSHIMS_H
#define SWIFT_KEYRING_CLIBSECRETSHIMS_H

/* The libsecret and GIO glue of the Secret Service store: what Swift cannot
 * call or spell (C varargs, the 32-slot SecretSchema tuple, GHashTable's untyped
 * pointers, GVariant format strings, G_CALLBACK casts, a connection filter).
 * Calls in flight and the prompt wait are Swift's (CallsInFlight, PromptWatch).
 * Every symbol has the swift_keyring_ prefix; each .c file beside this header
 * holds one idea. */

/* The D-Bus path calls (secret_service_create_item_dbus_path_sync and friends)
 * are what keep a store to few round trips; libsecret marks them unstable. */
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <gio/gio.h>
/* The Secret portal's call passes a pipe's write end in a descriptor list (SecretPortal.swift). */
#include <gio/gunixfdlist.h>
#include <glib-unix.h>

#define SWIFT_KEYRING_BUS_NAME "org.freedesktop.secrets"
#define SWIFT_KEYRING_SERVICE_PATH "/org/freedesktop/secrets"
#define SWIFT_KEYRING_DEFAULT_COLLECTION_PATH "/org/freedesktop/secrets/aliases/default"

/* schema.c: the schema of every item the library writes. */
const SecretSchema *swift_keyring_schema(void);

/* attributes.c: string-to-string attribute tables, and one as an "a{ss}" GVariant. */
GHashTable *swift_keyring_attributes_new(void);
void swift_keyring_attributes_set(GHashTable *attributes, const char *name, const char *value);
const char *swift_keyring_attributes_get(GHashTable *attributes, const char *name);
GVariant *swift_keyring_attributes_variant(GHashTable *attributes);

/* item_write.c: reading what an item holds now, before changing it in place (never Properties.Set: see ItemReplacement.swift). */
gboolean swift_keyring_read_label_and_attributes(GDBusConnection *connection, const gchar *destination, const gchar *path, gint timeout_ms,
                                                 GCancellable *cancellable, gchar **label, GHashTable **attributes,
                                                 GError **error);

/* service.c: the first call on a new connection: see service.c for why it must come first. */
gboolean swift_keyring_service_greet(GDBusConnection *connection, gint timeout_ms, GCancellable *cancellable,
                                     gchar **daemon, GError **error);

/* variants.c: the replies read with GVariant format strings, and D-Bus error names. */
gboolean swift_keyring_boolean_property_reply(GVariant *reply, const gchar *what, gboolean *value, GError **error);
GHashTable *swift_keyring_attributes_property_reply(GVariant *reply, GError **error);
GHashTable *swift_keyring_attributes_from_variant(GVariant *value);
gboolean swift_keyring_error_is_vanished_object(const GError *error);
GVariant *swift_keyring_get_secrets_argument(const gchar *transfer_path, const gchar *path);
GVariant *swift_keyring_secret_from_reply(GVariant *reply, const gchar *path, GError **error);

/* g_cancellable_connect with a handler of the "cancelled" signal's own type: G_CALLBACK
 * is a cast Swift cannot spell. Calls `handler` at once when `cancellable` already is. */
typedef void (*SwiftKeyringCancelledHandler)(GCancellable *cancellable, gpointer data);
static inline gulong swift_keyring_cancellable_connect(GCancellable *cancellable, SwiftKeyringCancelledHandler handler,
                                                       gpointer data) {
    return g_cancellable_connect(cancellable, G_CALLBACK(handler), data, NULL);
}

/* change_watch.c: counting the signals the daemon sends (and a change of the
 * daemon), in a connection filter, so a store knows when what it remembers of
 * items may be out of date (the keyring folder's changes are FolderWatch's).
 * Remove the filter with g_dbus_connection_remove_filter; GDBus then frees the watch. */
typedef struct SwiftKeyringChangeWatch SwiftKeyringChangeWatch;
SwiftKeyringChangeWatch *swift_keyring_change_watch_new(GDBusConnection *connection, const gchar *daemon,
                                                        guint *filter);
gboolean swift_keyring_change_watch_count(SwiftKeyringChangeWatch *watch, guint *changes);

/* version.c: the version of the libsecret headers we were built with. */
int swift_keyring_libsecret_major(void);
int swift_keyring_libsecret_minor(void);
int swift_keyring_libsecret_micro(void);

#endif
