#ifndef SWIFT_KEYRING_CLIBSECRETSHIMS_H
#define SWIFT_KEYRING_CLIBSECRETSHIMS_H

/* The libsecret and GIO glue of the Secret Service store: what Swift cannot
 * call or spell (GHashTable's untyped pointers, GVariants of nested types,
 * G_CALLBACK casts, a connection filter).
 * Calls in flight and the prompt wait are Swift's (CallsInFlight, PromptWatch).
 * Every symbol has the swift_keyring_ prefix; each .c file beside this header
 * holds one idea. */

/* The declarations of libsecret and GIO this package uses (CLibSecret): nothing
 * here may run before swift_keyring_libsecret_load succeeded. No variadic GLib
 * function is called (they cannot be loaded through a typed pointer): the
 * fixed-argument ones build and read every GVariant. */
#if __has_include("CLibSecret.h")
#include "CLibSecret.h"
#else
/* Outside the package: Benchmarks/Compare/libsecret-bench.c, libsecret's own C for
 * comparison, is built with schema.c against the real headers (pkg-config libsecret-1). */
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <gio/gio.h>
#endif

#define SWIFT_KEYRING_BUS_NAME "org.freedesktop.secrets"
#define SWIFT_KEYRING_SERVICE_PATH "/org/freedesktop/secrets"
#define SWIFT_KEYRING_DEFAULT_COLLECTION_PATH "/org/freedesktop/secrets/aliases/default"

/* attributes.c: string-to-string attribute tables, and one as an "a{ss}" GVariant. */
GHashTable *swift_keyring_attributes_new(void);
void swift_keyring_attributes_set(GHashTable *attributes, const char *name, const char *value);
const char *swift_keyring_attributes_get(GHashTable *attributes, const char *name);
GVariant *swift_keyring_attributes_variant(GHashTable *attributes);

/* schema.c: the schema of every item the library writes, as libsecret's password calls
 * take it (the store itself talks D-Bus and needs none; libsecret-bench.c uses it). */
const SecretSchema *swift_keyring_schema(void);

/* error_message.c: g_set_error without its varargs (which cannot be loaded through a
 * typed pointer): formats with vsnprintf, then calls g_set_error_literal. For the C
 * files here; Swift sets errors with g_set_error_literal. */
void swift_keyring_set_error(GError **error, GQuark domain, gint code, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* item_write.c: reading what an item holds now, before changing it in place (never Properties.Set: see ItemReplacement.swift). */
gboolean swift_keyring_read_label_and_attributes(GDBusConnection *connection, const gchar *destination, const gchar *path, gint timeout_ms,
                                                 GCancellable *cancellable, gchar **label, GHashTable **attributes,
                                                 GError **error);

/* reply_guard.c: a connection filter that drops every reply or error answering no
 * call of ours, or sent by anyone but the connection the call went to. Installed on
 * every connection before its first call after Hello. */
void swift_keyring_reply_guard_install(GDBusConnection *connection);

/* service.c: the first call to the daemon on a new connection: see service.c for why it must come first. */
gboolean swift_keyring_service_greet(GDBusConnection *connection, const gchar *daemon, gint timeout_ms,
                                     GCancellable *cancellable, GError **error);

/* variants.c: the replies read and the arguments built, and D-Bus error names. */
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
    return g_cancellable_connect(cancellable, (GCallback)handler, data, NULL);
}

/* change_watch.c: counting the signals the daemon sends (and a change of the
 * daemon), in a connection filter, so a store knows when what it remembers of
 * items may be out of date (the keyring folder's changes are FolderWatch's).
 * Remove the filter with g_dbus_connection_remove_filter; GDBus then frees the watch. */
typedef struct SwiftKeyringChangeWatch SwiftKeyringChangeWatch;
SwiftKeyringChangeWatch *swift_keyring_change_watch_new(GDBusConnection *connection, const gchar *daemon,
                                                        guint *filter);
gboolean swift_keyring_change_watch_count(SwiftKeyringChangeWatch *watch, guint *changes);

/* version.c: the libsecret version CLibSecret's declarations were checked against. */
int swift_keyring_libsecret_major(void);
int swift_keyring_libsecret_minor(void);
int swift_keyring_libsecret_micro(void);

#endif
