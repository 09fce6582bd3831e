#include "CLibSecretShims.h"

/* Unlock prompts, driven on our own connection rather than through libsecret's
 * secret_service_unlock_dbus_paths_sync: cancelling that one while its prompt
 * is open trips a GLib critical and can leave the call waiting for ever. The
 * Unlock call and Prompt.Prompt go through the store's usual bounded calls;
 * only the wait for Completed is here, cancellable at any moment. */

/* The "(ao)" argument of Service.Unlock (g_variant_new is varargs). */
GVariant *swift_keyring_object_paths_argument(const gchar *const *paths) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("ao"));
    for (; paths != NULL && *paths != NULL; paths++)
        if (g_variant_is_object_path(*paths))
            g_variant_builder_add(&builder, "o", *paths);
    return g_variant_new("(ao)", &builder);
}

/* The paths of an "ao" value (an unlock prompt's result), or the one path of an
 * "o" value (a CreateItem prompt's), as a strv the caller frees; empty for any other type. */
static gchar **swift_keyring_object_paths(GVariant *value) {
    if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE_OBJECT_PATH)) {
        gchar **paths = g_new0(gchar *, 2);
        paths[0] = g_variant_dup_string(value, NULL);
        return paths;
    }
    if (value == NULL || !g_variant_is_of_type(value, G_VARIANT_TYPE("ao")))
        return g_new0(gchar *, 1);
    return g_variant_dup_objv(value, NULL);
}

/* The "(aoo)" reply of Service.Unlock: the paths unlocked at once (a strv the
 * caller frees) and, in `prompt`, the prompt's path ("/" for none; the caller frees it). */
gchar **swift_keyring_unlock_reply(GVariant *reply, gchar **prompt) {
    gchar **unlocked;
    GVariant *paths;
    *prompt = g_strdup("/");
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(aoo)")))
        return g_new0(gchar *, 1);
    paths = g_variant_get_child_value(reply, 0);
    unlocked = swift_keyring_object_paths(paths);
    g_variant_unref(paths);
    g_free(*prompt);
    g_variant_get_child(reply, 1, "o", prompt);
    return unlocked;
}

/* A subscription to one prompt's Completed signal, in a main context of its
 * own, so the signal waits there (never in a loop nobody runs) until asked for. */
struct SwiftKeyringPromptWatch {
    GDBusConnection *connection;
    GMainContext *context;
    guint subscription;
    guint owner_subscription;
    gboolean completed;
    gboolean vanished;
    gboolean dismissed;
    GVariant *result;
    gboolean released;
    gboolean cancelled;
};

static void swift_keyring_prompt_completed(GDBusConnection *connection, const gchar *sender, const gchar *path,
                                           const gchar *interface_name, const gchar *signal,
                                           GVariant *parameters, gpointer data) {
    SwiftKeyringPromptWatch *watch = (SwiftKeyringPromptWatch *)data;
    (void)connection; (void)sender; (void)path; (void)interface_name; (void)signal;
    if (watch->completed || !g_variant_is_of_type(parameters, G_VARIANT_TYPE("(bv)")))
        return;
    watch->completed = TRUE;
    g_variant_get(parameters, "(bv)", &watch->dismissed, &watch->result);
}

/* NameOwnerChanged for org.freedesktop.secrets with no new owner: the daemon
 * that made the prompt is gone, and its Completed will never come. */
static void swift_keyring_prompt_owner_changed(GDBusConnection *connection, const gchar *sender, const gchar *path,
                                               const gchar *interface_name, const gchar *signal,
                                               GVariant *parameters, gpointer data) {
    SwiftKeyringPromptWatch *watch = (SwiftKeyringPromptWatch *)data;
    const gchar *name, *old_owner, *new_owner;
    (void)connection; (void)sender; (void)path; (void)interface_name; (void)signal;
    if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(sss)")))
        return;
    g_variant_get(parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
    if (g_strcmp0(name, SWIFT_KEYRING_BUS_NAME) == 0 && new_owner[0] == '\0')
        watch->vanished = TRUE;
}

static void swift_keyring_prompt_released(gpointer data) {
    ((SwiftKeyringPromptWatch *)data)->released = TRUE;
}

/* Subscribes to Completed on `prompt_path`, sent by `daemon` (the unique name of
 * the daemon that made the prompt; any sender when NULL, on a connection without
 * a bus). Call before Prompt.Prompt, on the same connection, so the bus has the
 * match rule before the prompt can end. */
SwiftKeyringPromptWatch *swift_keyring_prompt_watch_new(GDBusConnection *connection, const gchar *daemon,
                                                        const gchar *prompt_path) {
    SwiftKeyringPromptWatch *watch = g_new0(SwiftKeyringPromptWatch, 1);
    watch->connection = g_object_ref(connection);
    watch->context = g_main_context_new();
    g_main_context_push_thread_default(watch->context);
    /* The daemon's unique name as the sender: any program on the bus can emit a
     * Completed on a prompt's path, and one did end a pending unlock prompt in
     * 0.1 s, the record then reported absent. */
    watch->subscription = g_dbus_connection_signal_subscribe(
        connection, daemon, "org.freedesktop.Secret.Prompt", "Completed", prompt_path, NULL,
        G_DBUS_SIGNAL_FLAGS_NONE, swift_keyring_prompt_completed, watch, swift_keyring_prompt_released);
    /* A daemon that dies with the prompt open (KeePassXC has been seen to) would
     * otherwise leave the wait to the prompt's long bound. */
    watch->owner_subscription = g_dbus_connection_signal_subscribe(
        connection, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
        SWIFT_KEYRING_BUS_NAME, G_DBUS_SIGNAL_FLAGS_NONE, swift_keyring_prompt_owner_changed, watch, NULL);
    g_main_context_pop_thread_default(watch->context);
    return watch;
}

static gboolean swift_keyring_prompt_watch_cancelled(GCancellable *cancellable, gpointer data) {
    (void)cancellable;
    ((SwiftKeyringPromptWatch *)data)->cancelled = TRUE;
    return G_SOURCE_REMOVE;
}

/* Waits for Completed until `cancellable` is cancelled (by the prompt's deadline
 * or a cancelled task), then returns FALSE with G_IO_ERROR_CANCELLED, or until
 * the daemon leaves the bus, then FALSE with G_DBUS_ERROR_NAME_HAS_NO_OWNER. */
gboolean swift_keyring_prompt_watch_wait(SwiftKeyringPromptWatch *watch, GCancellable *cancellable, GError **error) {
    GSource *source = g_cancellable_source_new(cancellable);
    g_source_set_callback(source, G_SOURCE_FUNC(swift_keyring_prompt_watch_cancelled), watch, NULL);
    g_source_attach(source, watch->context);
    g_main_context_push_thread_default(watch->context);
    while (!watch->completed && !watch->cancelled && !watch->vanished)
        g_main_context_iteration(watch->context, TRUE);
    g_main_context_pop_thread_default(watch->context);
    g_source_destroy(source);
    g_source_unref(source);
    if (watch->completed)
        return TRUE;
    if (watch->vanished) {
        g_set_error_literal(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER,
                            "the Secret Service daemon left the bus while its prompt was open");
        return FALSE;
    }
    g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the wait for the prompt was cancelled");
    return FALSE;
}

gboolean swift_keyring_prompt_watch_dismissed(const SwiftKeyringPromptWatch *watch) {
    return watch->dismissed;
}

/* The paths the completed prompt gave (those it unlocked, or the item it
 * created), as a strv the caller frees. */
gchar **swift_keyring_prompt_watch_paths(const SwiftKeyringPromptWatch *watch) {
    return swift_keyring_object_paths(watch->result);
}

/* Unsubscribes and frees, after GLib let go of the subscription's data: until
 * then a signal already queued in the context may still be delivered to it. */
void swift_keyring_prompt_watch_free(SwiftKeyringPromptWatch *watch) {
    g_main_context_push_thread_default(watch->context);
    g_dbus_connection_signal_unsubscribe(watch->connection, watch->owner_subscription);
    g_dbus_connection_signal_unsubscribe(watch->connection, watch->subscription);
    while (!watch->released)
        g_main_context_iteration(watch->context, TRUE);
    while (g_main_context_iteration(watch->context, FALSE))
        ;
    g_main_context_pop_thread_default(watch->context);
    g_main_context_unref(watch->context);
    if (watch->result != NULL)
        g_variant_unref(watch->result);
    g_object_unref(watch->connection);
    g_free(watch);
}
