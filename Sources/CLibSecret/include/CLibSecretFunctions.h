/* Every libsecret, GIO, GObject and GLib function this package calls, each named once:
 * the library that defines it, its return type, its parameters as the real headers
 * declare them, and the same parameters as arguments.
 *
 * Nothing links these libraries. CLibSecret.h declares each function from this list;
 * library_loading.c makes, from the same list, a pointer filled by dlsym when the Secret
 * Service store first opens, and a stub of the real name that calls through it. So code
 * calling g_free or secret_service_get_sync reads as it would against the real headers.
 *
 * To call a function not listed yet: add one line here, in its library's group, copying
 * the prototype from the real header (SWIFT_KEYRING_PROCEDURE when it returns void),
 * then run Scripts/check-vendored-declarations.sh, which compiles this list against the
 * real headers. Variadic functions cannot be listed: use their fixed-argument
 * equivalents (g_variant_new_tuple, g_set_error_literal, g_variant_get_child_value...).
 *
 * The library is one of LIBSECRET (libsecret-1.so.0), GIO (libgio-2.0.so.0), GOBJECT
 * (libgobject-2.0.so.0) and GLIB (libglib-2.0.so.0). No include guard: it is read once
 * for each use, with SWIFT_KEYRING_FUNCTION and SWIFT_KEYRING_PROCEDURE defined. */

SWIFT_KEYRING_FUNCTION(LIBSECRET, GQuark, secret_error_get_quark, (void), ())
SWIFT_KEYRING_FUNCTION(LIBSECRET, GHashTable *, secret_item_get_attributes, (SecretItem *self), (self))
SWIFT_KEYRING_FUNCTION(LIBSECRET, SecretValue *, secret_item_get_secret, (SecretItem *self), (self))
SWIFT_KEYRING_FUNCTION(LIBSECRET, SecretService *, secret_service_get_sync,
    (SecretServiceFlags flags, GCancellable *cancellable, GError **error),
    (flags, cancellable, error))
SWIFT_KEYRING_FUNCTION(LIBSECRET, GList *, secret_service_search_sync,
    (SecretService *service, const SecretSchema *schema, GHashTable *attributes, SecretSearchFlags flags,
     GCancellable *cancellable, GError **error),
    (service, schema, attributes, flags, cancellable, error))
SWIFT_KEYRING_FUNCTION(LIBSECRET, const gchar *, secret_value_get, (SecretValue *value, gsize *length), (value, length))
SWIFT_KEYRING_PROCEDURE(LIBSECRET, secret_value_unref, (gpointer value), (value))
SWIFT_KEYRING_PROCEDURE(GIO, g_cancellable_cancel, (GCancellable *cancellable), (cancellable))
SWIFT_KEYRING_FUNCTION(GIO, gulong, g_cancellable_connect,
    (GCancellable *cancellable, GCallback callback, gpointer data, GDestroyNotify data_destroy_func),
    (cancellable, callback, data, data_destroy_func))
SWIFT_KEYRING_PROCEDURE(GIO, g_cancellable_disconnect,
    (GCancellable *cancellable, gulong handler_id),
    (cancellable, handler_id))
SWIFT_KEYRING_FUNCTION(GIO, gboolean, g_cancellable_is_cancelled, (GCancellable *cancellable), (cancellable))
SWIFT_KEYRING_FUNCTION(GIO, GCancellable *, g_cancellable_new, (void), ())
SWIFT_KEYRING_FUNCTION(GIO, guint, g_dbus_connection_add_filter,
    (GDBusConnection *connection, GDBusMessageFilterFunction filter_function, gpointer user_data,
     GDestroyNotify user_data_free_func),
    (connection, filter_function, user_data, user_data_free_func))
SWIFT_KEYRING_PROCEDURE(GIO, g_dbus_connection_call,
    (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path,
     const gchar *interface_name, const gchar *method_name, GVariant *parameters,
     const GVariantType *reply_type, GDBusCallFlags flags, gint timeout_msec, GCancellable *cancellable,
     GAsyncReadyCallback callback, gpointer user_data),
    (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags,
     timeout_msec, cancellable, callback, user_data))
SWIFT_KEYRING_FUNCTION(GIO, GVariant *, g_dbus_connection_call_finish,
    (GDBusConnection *connection, GAsyncResult *res, GError **error),
    (connection, res, error))
SWIFT_KEYRING_FUNCTION(GIO, GVariant *, g_dbus_connection_call_sync,
    (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path,
     const gchar *interface_name, const gchar *method_name, GVariant *parameters,
     const GVariantType *reply_type, GDBusCallFlags flags, gint timeout_msec, GCancellable *cancellable,
     GError **error),
    (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags,
     timeout_msec, cancellable, error))
SWIFT_KEYRING_FUNCTION(GIO, GVariant *, g_dbus_connection_call_with_unix_fd_list_sync,
    (GDBusConnection *connection, const gchar *bus_name, const gchar *object_path,
     const gchar *interface_name, const gchar *method_name, GVariant *parameters,
     const GVariantType *reply_type, GDBusCallFlags flags, gint timeout_msec, GUnixFDList *fd_list,
     GUnixFDList **out_fd_list, GCancellable *cancellable, GError **error),
    (connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags,
     timeout_msec, fd_list, out_fd_list, cancellable, error))
SWIFT_KEYRING_PROCEDURE(GIO, g_dbus_connection_close,
    (GDBusConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback,
     gpointer user_data),
    (connection, cancellable, callback, user_data))
SWIFT_KEYRING_FUNCTION(GIO, GDBusConnection *, g_dbus_connection_new_for_address_sync,
    (const gchar *address, GDBusConnectionFlags flags, GDBusAuthObserver *observer,
     GCancellable *cancellable, GError **error),
    (address, flags, observer, cancellable, error))
SWIFT_KEYRING_FUNCTION(GIO, const gchar *, g_dbus_connection_get_unique_name,
    (GDBusConnection *connection),
    (connection))
SWIFT_KEYRING_PROCEDURE(GIO, g_dbus_connection_remove_filter,
    (GDBusConnection *connection, guint filter_id),
    (connection, filter_id))
SWIFT_KEYRING_FUNCTION(GIO, GDBusMessage *, g_dbus_connection_send_message_with_reply_sync,
    (GDBusConnection *connection, GDBusMessage *message, GDBusSendMessageFlags flags, gint timeout_msec,
     volatile guint32 *out_serial, GCancellable *cancellable, GError **error),
    (connection, message, flags, timeout_msec, out_serial, cancellable, error))
SWIFT_KEYRING_FUNCTION(GIO, guint, g_dbus_connection_signal_subscribe,
    (GDBusConnection *connection, const gchar *sender, const gchar *interface_name, const gchar *member,
     const gchar *object_path, const gchar *arg0, GDBusSignalFlags flags, GDBusSignalCallback callback,
     gpointer user_data, GDestroyNotify user_data_free_func),
    (connection, sender, interface_name, member, object_path, arg0, flags, callback, user_data, user_data_free_func))
SWIFT_KEYRING_PROCEDURE(GIO, g_dbus_connection_signal_unsubscribe,
    (GDBusConnection *connection, guint subscription_id),
    (connection, subscription_id))
SWIFT_KEYRING_FUNCTION(GIO, gchar *, g_dbus_error_get_remote_error, (const GError *error), (error))
SWIFT_KEYRING_FUNCTION(GIO, gboolean, g_dbus_error_is_remote_error, (const GError *error), (error))
SWIFT_KEYRING_FUNCTION(GIO, GQuark, g_dbus_error_quark, (void), ())
SWIFT_KEYRING_FUNCTION(GIO, gboolean, g_dbus_error_strip_remote_error, (GError *error), (error))
SWIFT_KEYRING_FUNCTION(GIO, const gchar *, g_dbus_message_get_arg0, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, const gchar *, g_dbus_message_get_member, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, const gchar *, g_dbus_message_get_destination, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, GDBusMessageFlags, g_dbus_message_get_flags, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, GDBusMessageType, g_dbus_message_get_message_type, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, guint32, g_dbus_message_get_reply_serial, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, const gchar *, g_dbus_message_get_sender, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, guint32, g_dbus_message_get_serial, (GDBusMessage *message), (message))
SWIFT_KEYRING_FUNCTION(GIO, GDBusMessage *, g_dbus_message_new_method_call,
    (const gchar *name, const gchar *path, const gchar *interface_, const gchar *method),
    (name, path, interface_, method))
SWIFT_KEYRING_PROCEDURE(GIO, g_dbus_message_set_body, (GDBusMessage *message, GVariant *body), (message, body))
SWIFT_KEYRING_FUNCTION(GIO, gboolean, g_dbus_message_to_gerror,
    (GDBusMessage *message, GError **error),
    (message, error))
SWIFT_KEYRING_FUNCTION(GIO, GQuark, g_io_error_quark, (void), ())
SWIFT_KEYRING_FUNCTION(GIO, gint, g_unix_fd_list_append, (GUnixFDList *list, gint fd, GError **error), (list, fd, error))
SWIFT_KEYRING_FUNCTION(GIO, GUnixFDList *, g_unix_fd_list_new, (void), ())
SWIFT_KEYRING_FUNCTION(GOBJECT, gpointer, g_object_ref, (gpointer object), (object))
SWIFT_KEYRING_PROCEDURE(GOBJECT, g_object_unref, (gpointer object), (object))
SWIFT_KEYRING_PROCEDURE(GLIB, g_clear_error, (GError **err), (err))
SWIFT_KEYRING_PROCEDURE(GLIB, g_error_free, (GError *error), (error))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_error_matches,
    (const GError *error, GQuark domain, gint code),
    (error, domain, code))
SWIFT_KEYRING_PROCEDURE(GLIB, g_free, (gpointer mem), (mem))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_hash_table_insert,
    (GHashTable *hash_table, gpointer key, gpointer value),
    (hash_table, key, value))
SWIFT_KEYRING_PROCEDURE(GLIB, g_hash_table_iter_init,
    (GHashTableIter *iter, GHashTable *hash_table),
    (iter, hash_table))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_hash_table_iter_next,
    (GHashTableIter *iter, gpointer *key, gpointer *value),
    (iter, key, value))
SWIFT_KEYRING_FUNCTION(GLIB, gpointer, g_hash_table_lookup,
    (GHashTable *hash_table, gconstpointer key),
    (hash_table, key))
SWIFT_KEYRING_FUNCTION(GLIB, GHashTable *, g_hash_table_new_full,
    (GHashFunc hash_func, GEqualFunc key_equal_func, GDestroyNotify key_destroy_func,
     GDestroyNotify value_destroy_func),
    (hash_func, key_equal_func, key_destroy_func, value_destroy_func))
SWIFT_KEYRING_PROCEDURE(GLIB, g_hash_table_unref, (GHashTable *hash_table), (hash_table))
SWIFT_KEYRING_PROCEDURE(GLIB, g_list_free_full, (GList *list, GDestroyNotify free_func), (list, free_func))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_main_context_iteration,
    (GMainContext *context, gboolean may_block),
    (context, may_block))
SWIFT_KEYRING_FUNCTION(GLIB, GMainContext *, g_main_context_new, (void), ())
SWIFT_KEYRING_PROCEDURE(GLIB, g_main_context_pop_thread_default, (GMainContext *context), (context))
SWIFT_KEYRING_PROCEDURE(GLIB, g_main_context_push_thread_default, (GMainContext *context), (context))
SWIFT_KEYRING_PROCEDURE(GLIB, g_main_context_unref, (GMainContext *context), (context))
SWIFT_KEYRING_PROCEDURE(GLIB, g_main_context_wakeup, (GMainContext *context), (context))
SWIFT_KEYRING_FUNCTION(GLIB, gpointer, g_malloc0_n, (gsize n_blocks, gsize n_block_bytes), (n_blocks, n_block_bytes))
SWIFT_KEYRING_PROCEDURE(GLIB, g_propagate_error, (GError **dest, GError *src), (dest, src))
SWIFT_KEYRING_FUNCTION(GLIB, const gchar *, g_quark_to_string, (GQuark quark), (quark))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_unix_open_pipe, (gint *fds, gint flags, GError **error), (fds, flags, error))
SWIFT_KEYRING_PROCEDURE(GLIB, g_set_error_literal,
    (GError **err, GQuark domain, gint code, const gchar *message),
    (err, domain, code, message))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_str_equal, (gconstpointer v1, gconstpointer v2), (v1, v2))
SWIFT_KEYRING_FUNCTION(GLIB, guint, g_str_hash, (gconstpointer v), (v))
SWIFT_KEYRING_FUNCTION(GLIB, int, g_strcmp0, (const char *str1, const char *str2), (str1, str2))
SWIFT_KEYRING_FUNCTION(GLIB, gchar *, g_strdup, (const gchar *str), (str))
SWIFT_KEYRING_PROCEDURE(GLIB, g_strfreev, (gchar **str_array), (str_array))
SWIFT_KEYRING_PROCEDURE(GLIB, g_variant_builder_add_value,
    (GVariantBuilder *builder, GVariant *value),
    (builder, value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_builder_end, (GVariantBuilder *builder), (builder))
SWIFT_KEYRING_PROCEDURE(GLIB, g_variant_builder_init,
    (GVariantBuilder *builder, const GVariantType *type),
    (builder, type))
SWIFT_KEYRING_FUNCTION(GLIB, gchar **, g_variant_dup_objv, (GVariant *value, gsize *length), (value, length))
SWIFT_KEYRING_FUNCTION(GLIB, gchar **, g_variant_dup_strv, (GVariant *value, gsize *length), (value, length))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_variant_get_boolean, (GVariant *value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_get_child_value, (GVariant *value, gsize index_), (value, index_))
SWIFT_KEYRING_FUNCTION(GLIB, gconstpointer, g_variant_get_fixed_array,
    (GVariant *value, gsize *n_elements, gsize element_size),
    (value, n_elements, element_size))
SWIFT_KEYRING_FUNCTION(GLIB, const gchar *, g_variant_get_string, (GVariant *value, gsize *length), (value, length))
SWIFT_KEYRING_FUNCTION(GLIB, const gchar *, g_variant_get_type_string, (GVariant *value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, guint32, g_variant_get_uint32, (GVariant *value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_get_variant, (GVariant *value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_variant_is_object_path, (const gchar *string), (string))
SWIFT_KEYRING_FUNCTION(GLIB, gboolean, g_variant_is_of_type, (GVariant *value, const GVariantType *type), (value, type))
SWIFT_KEYRING_FUNCTION(GLIB, gsize, g_variant_iter_init, (GVariantIter *iter, GVariant *value), (iter, value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_iter_next_value, (GVariantIter *iter), (iter))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_lookup_value,
    (GVariant *dictionary, const gchar *key, const GVariantType *expected_type),
    (dictionary, key, expected_type))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_array,
    (const GVariantType *child_type, GVariant * const *children, gsize n_children),
    (child_type, children, n_children))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_boolean, (gboolean value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_dict_entry, (GVariant *key, GVariant *value), (key, value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_fixed_array,
    (const GVariantType *element_type, gconstpointer elements, gsize n_elements, gsize element_size),
    (element_type, elements, n_elements, element_size))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_object_path, (const gchar *object_path), (object_path))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_objv, (const gchar * const *strv, gssize length), (strv, length))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_handle, (gint32 value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_string, (const gchar *string), (string))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_uint32, (guint32 value), (value))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_tuple,
    (GVariant * const *children, gsize n_children),
    (children, n_children))
SWIFT_KEYRING_FUNCTION(GLIB, GVariant *, g_variant_new_variant, (GVariant *value), (value))
SWIFT_KEYRING_PROCEDURE(GLIB, g_variant_type_free, (GVariantType *type), (type))
SWIFT_KEYRING_FUNCTION(GLIB, GVariantType *, g_variant_type_new, (const gchar *type_string), (type_string))
SWIFT_KEYRING_PROCEDURE(GLIB, g_variant_unref, (GVariant *value), (value))
