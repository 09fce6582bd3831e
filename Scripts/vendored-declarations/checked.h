/* What Sources/CLibSecret/include/CLibSecret.h mirrors of the real headers, checked by
 * ../check-vendored-declarations.sh: every enum constant's value, every struct's size,
 * and the offset of every field Swift or the shims read. Add a line here for each type,
 * member or constant added there. */

#define CHECKED_CONSTANTS(X)                                                                                      \
    X(G_DBUS_CONNECTION_FLAGS_NONE)                                                                             \
    X(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT)                                                            \
    X(G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION)                                                           \
    X(G_DBUS_CALL_FLAGS_NONE)                                                                                   \
    X(G_DBUS_CALL_FLAGS_NO_AUTO_START)                                                                          \
    X(G_DBUS_SIGNAL_FLAGS_NONE)                                                                                 \
    X(G_DBUS_SIGNAL_FLAGS_NO_MATCH_RULE)                                                                        \
    X(G_DBUS_SEND_MESSAGE_FLAGS_NONE)                                                                           \
    X(G_DBUS_MESSAGE_TYPE_METHOD_CALL)                                                                          \
    X(G_DBUS_MESSAGE_TYPE_METHOD_RETURN)                                                                        \
    X(G_DBUS_MESSAGE_TYPE_ERROR)                                                                                \
    X(G_DBUS_MESSAGE_TYPE_SIGNAL)                                                                               \
    X(G_DBUS_MESSAGE_FLAGS_NONE)                                                                                \
    X(G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED)                                                                   \
    X(G_IO_ERROR_FAILED)                                                                                        \
    X(G_IO_ERROR_CLOSED)                                                                                        \
    X(G_IO_ERROR_CANCELLED)                                                                                     \
    X(G_IO_ERROR_TIMED_OUT)                                                                                     \
    X(G_DBUS_ERROR_SERVICE_UNKNOWN)                                                                             \
    X(G_DBUS_ERROR_NAME_HAS_NO_OWNER)                                                                           \
    X(G_DBUS_ERROR_NO_REPLY)                                                                                    \
    X(G_DBUS_ERROR_NOT_SUPPORTED)                                                                               \
    X(G_DBUS_ERROR_DISCONNECTED)                                                                                \
    X(G_DBUS_ERROR_INVALID_SIGNATURE)                                                                           \
    X(SECRET_SERVICE_NONE)                                                                                      \
    X(SECRET_SERVICE_OPEN_SESSION)                                                                              \
    X(SECRET_SEARCH_NONE)                                                                                       \
    X(SECRET_SEARCH_ALL)                                                                                        \
    X(SECRET_SEARCH_LOAD_SECRETS)                                                                               \
    X(SECRET_ERROR_IS_LOCKED)                                                                                   \
    X(SECRET_SCHEMA_ATTRIBUTE_STRING)                                                                           \
    X(SECRET_SCHEMA_NONE)                                                                                       \
    X(SECRET_SCHEMA_DONT_MATCH_NAME)                                                                            \
    X(TRUE)                                                                                                     \
    X(FALSE)

#define CHECKED_TYPES(X)                                                                                          \
    X(gchar) X(guchar) X(gint) X(guint) X(glong) X(gulong) X(gboolean) X(gpointer) X(gconstpointer) X(guint32) X(gint32)      \
    X(gsize) X(gssize) X(GQuark) X(GType)                                                                         \
    X(GError) X(GList) X(GHashTableIter) X(GVariantIter) X(GVariantBuilder) X(GTypeClass) X(GTypeInstance)          \
    X(GObject) X(GCancellable) X(GDBusProxy) X(GUnixFDList) X(SecretService) X(SecretItem)                                       \
    X(GDBusConnectionFlags) X(GDBusCallFlags) X(GDBusSignalFlags) X(GDBusSendMessageFlags) X(GDBusMessageType) X(GDBusMessageFlags) \
    X(GIOErrorEnum) X(GDBusError) X(SecretServiceFlags) X(SecretSearchFlags) X(SecretError)      \
    X(SecretSchemaAttributeType) X(SecretSchemaAttribute) X(SecretSchemaFlags) X(SecretSchema)

#define CHECKED_FIELDS(X)                                                                                         \
    X(GError, domain) X(GError, code) X(GError, message)                                                          \
    X(GList, data) X(GList, next) X(GList, prev)                                                                  \
    X(GObject, g_type_instance) X(GObject, ref_count) X(GObject, qdata)                                          \
    X(GCancellable, parent_instance) X(GCancellable, priv) X(GDBusProxy, priv) X(GUnixFDList, priv)                                   \
    X(SecretService, pv) X(SecretItem, pv) X(GVariantBuilder, u.s.type)                                          \
    X(SecretSchemaAttribute, type) X(SecretSchema, flags) X(SecretSchema, attributes) X(SecretSchema, reserved)
