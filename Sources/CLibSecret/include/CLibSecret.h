#ifndef SWIFT_KEYRING_CLIBSECRET_H
#define SWIFT_KEYRING_CLIBSECRET_H

/* libsecret, GIO, GObject and GLib as this package uses them, loaded when the Secret
 * Service store first opens rather than linked: linked, GIO and GObject run their set-up
 * in every start of the tool, even one that only reads the encrypted file.
 *
 * The declarations below are the real headers' own, cut down to what the package uses:
 * the same type names, layouts, constant values and prototypes, so code written against
 * libsecret and GIO compiles unchanged, without the -dev packages' include paths.
 * Scripts/check-vendored-declarations.sh compiles them against the real headers; run it
 * after any change here (lint.sh does).
 *
 * Call swift_keyring_libsecret_load first, and no other function here unless it returned
 * NULL: every function of CLibSecretFunctions.h aborts, naming itself, until then. */

#include <stddef.h>

#ifndef SWIFT_KEYRING_DECLARATIONS_ONLY

/* glibconfig.h and gtypes.h: the LP64 Linux sizes. */
typedef char gchar;
typedef unsigned char guchar;
typedef int gint;
typedef unsigned int guint;
typedef long glong;
typedef unsigned long gulong;
typedef gint gboolean;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef unsigned int guint32;
typedef signed int gint32;
typedef unsigned long gsize;
typedef signed long gssize;
typedef guint32 GQuark;
typedef gsize GType;

#ifndef FALSE
#define FALSE (0)
#endif
#ifndef TRUE
#define TRUE (!FALSE)
#endif

typedef void (*GCallback)(void);
typedef void (*GDestroyNotify)(gpointer data);
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);

/* gerror.h */
typedef struct _GError GError;
struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
};

/* glist.h */
typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

/* ghash.h */
typedef struct _GHashTable GHashTable;
typedef struct _GHashTableIter GHashTableIter;
struct _GHashTableIter {
    gpointer dummy1;
    gpointer dummy2;
    gpointer dummy3;
    int dummy4;
    gboolean dummy5;
    gpointer dummy6;
};

/* gmain.h */
typedef struct _GMainContext GMainContext;

/* gvarianttype.h and gvariant.h. G_VARIANT_TYPE is the headers' G_DISABLE_CHECKS form:
 * every type string passed to it here is a constant written by us. */
typedef struct _GVariantType GVariantType;
#define G_VARIANT_TYPE(type_string) ((const GVariantType *)(type_string))
#define G_VARIANT_TYPE_BOOLEAN ((const GVariantType *)"b")
#define G_VARIANT_TYPE_STRING ((const GVariantType *)"s")
typedef struct _GVariant GVariant;
typedef struct _GVariantIter GVariantIter;
struct _GVariantIter {
    gsize x[16];
};
typedef struct _GVariantBuilder GVariantBuilder;
struct _GVariantBuilder {
    union {
        struct {
            gsize partial_magic;
            const GVariantType *type;
            gsize y[14];
        } s;
        gsize x[16];
    } u;
};

/* gtype.h and gobject.h */
typedef struct _GTypeClass GTypeClass;
struct _GTypeClass {
    GType g_type;
};
typedef struct _GTypeInstance GTypeInstance;
struct _GTypeInstance {
    GTypeClass *g_class;
};
typedef struct _GData GData;
typedef struct _GObject GObject;
struct _GObject {
    GTypeInstance g_type_instance;
    guint ref_count;
    GData *qdata;
};

/* gio: gcancellable.h, gasyncresult.h, gdbusproxy.h, gdbusconnection.h, gdbusmessage.h,
 * gioenums.h, gioerror.h and gdbuserror.h. */
typedef struct _GCancellablePrivate GCancellablePrivate;
typedef struct _GCancellable GCancellable;
struct _GCancellable {
    GObject parent_instance;
    GCancellablePrivate *priv;
};
typedef struct _GAsyncResult GAsyncResult;
typedef void (*GAsyncReadyCallback)(GObject *source_object, GAsyncResult *res, gpointer data);
typedef struct _GDBusProxyPrivate GDBusProxyPrivate;
typedef struct _GDBusProxy GDBusProxy;
struct _GDBusProxy {
    GObject parent_instance;
    GDBusProxyPrivate *priv;
};
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GDBusMessage GDBusMessage;
typedef struct _GDBusAuthObserver GDBusAuthObserver;
/* gunixfdlist.h: the descriptors a call passes (the Secret portal's pipe). */
typedef struct _GUnixFDListPrivate GUnixFDListPrivate;
typedef struct _GUnixFDList GUnixFDList;
struct _GUnixFDList {
    GObject parent_instance;
    GUnixFDListPrivate *priv;
};
typedef GDBusMessage *(*GDBusMessageFilterFunction)(GDBusConnection *connection, GDBusMessage *message,
                                                    gboolean incoming, gpointer user_data);
typedef void (*GDBusSignalCallback)(GDBusConnection *connection, const gchar *sender_name, const gchar *object_path,
                                    const gchar *interface_name, const gchar *signal_name, GVariant *parameters,
                                    gpointer user_data);

/* Each enum lists only the members used; the values are the headers'. */
typedef enum {
    G_DBUS_CONNECTION_FLAGS_NONE = 0,
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT = (1 << 0),
    G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION = (1 << 3)
} GDBusConnectionFlags;

typedef enum {
    G_DBUS_CALL_FLAGS_NONE = 0,
    G_DBUS_CALL_FLAGS_NO_AUTO_START = (1 << 0)
} GDBusCallFlags;

typedef enum {
    G_DBUS_SIGNAL_FLAGS_NONE = 0,
    G_DBUS_SIGNAL_FLAGS_NO_MATCH_RULE = (1 << 0)
} GDBusSignalFlags;

typedef enum {
    G_DBUS_SEND_MESSAGE_FLAGS_NONE = 0
} GDBusSendMessageFlags;

typedef enum {
    G_DBUS_MESSAGE_TYPE_METHOD_CALL = 1,
    G_DBUS_MESSAGE_TYPE_METHOD_RETURN = 2,
    G_DBUS_MESSAGE_TYPE_ERROR = 3,
    G_DBUS_MESSAGE_TYPE_SIGNAL = 4
} GDBusMessageType;

typedef enum {
    G_DBUS_MESSAGE_FLAGS_NONE = 0,
    G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED = (1 << 0)
} GDBusMessageFlags;

typedef enum {
    G_IO_ERROR_FAILED = 0,
    G_IO_ERROR_CLOSED = 18,
    G_IO_ERROR_CANCELLED = 19,
    G_IO_ERROR_TIMED_OUT = 24
} GIOErrorEnum;

typedef enum {
    G_DBUS_ERROR_SERVICE_UNKNOWN = 2,
    G_DBUS_ERROR_NAME_HAS_NO_OWNER = 3,
    G_DBUS_ERROR_NO_REPLY = 4,
    G_DBUS_ERROR_NOT_SUPPORTED = 7,
    G_DBUS_ERROR_DISCONNECTED = 15,
    G_DBUS_ERROR_INVALID_SIGNATURE = 36
} GDBusError;

#define G_IO_ERROR (g_io_error_quark())
#define G_DBUS_ERROR (g_dbus_error_quark())

/* libsecret: secret-schema.h, secret-service.h, secret-item.h, secret-value.h, secret-types.h. */
typedef enum {
    SECRET_SCHEMA_ATTRIBUTE_STRING = 0
} SecretSchemaAttributeType;

typedef struct {
    const gchar *name;
    SecretSchemaAttributeType type;
} SecretSchemaAttribute;

typedef enum {
    SECRET_SCHEMA_NONE = 0,
    SECRET_SCHEMA_DONT_MATCH_NAME = (1 << 1)
} SecretSchemaFlags;

typedef struct {
    const gchar *name;
    SecretSchemaFlags flags;
    SecretSchemaAttribute attributes[32];
    gint reserved;
    gpointer reserved1;
    gpointer reserved2;
    gpointer reserved3;
    gpointer reserved4;
    gpointer reserved5;
    gpointer reserved6;
    gpointer reserved7;
} SecretSchema;
typedef struct _SecretValue SecretValue;
typedef struct _SecretServicePrivate SecretServicePrivate;
typedef struct _SecretService SecretService;
struct _SecretService {
    GDBusProxy parent;
    SecretServicePrivate *pv;
};
typedef struct _SecretItemPrivate SecretItemPrivate;
typedef struct _SecretItem SecretItem;
struct _SecretItem {
    GDBusProxy parent_instance;
    SecretItemPrivate *pv;
};

typedef enum {
    SECRET_SERVICE_NONE = 0,
    SECRET_SERVICE_OPEN_SESSION = (1 << 1)
} SecretServiceFlags;

typedef enum {
    SECRET_SEARCH_NONE = 0,
    SECRET_SEARCH_ALL = (1 << 1),
    SECRET_SEARCH_LOAD_SECRETS = (1 << 3)
} SecretSearchFlags;

typedef enum {
    SECRET_ERROR_IS_LOCKED = 2
} SecretError;

/* The libsecret release these declarations were last checked against, which
 * SecretServiceStore.libsecretVersion reports (libsecret has no run-time version call). */
#define SECRET_MAJOR_VERSION (0)
#define SECRET_MINOR_VERSION (20)
#define SECRET_MICRO_VERSION (5)

#endif /* SWIFT_KEYRING_DECLARATIONS_ONLY */

/* Hidden: the stubs never leave the program or library they are linked into, so libsecret
 * and GLib, resolving their own calls to g_free and the rest, never find ours. */
#ifdef SWIFT_KEYRING_DECLARATIONS_ONLY
#define SWIFT_KEYRING_STUB
#else
#define SWIFT_KEYRING_STUB __attribute__((visibility("hidden")))
#endif

/* The name in parentheses: the real headers define g_object_ref and g_str_equal as macros too. */
#define SWIFT_KEYRING_FUNCTION(library, result, name, parameters, arguments) SWIFT_KEYRING_STUB result(name) parameters;
#define SWIFT_KEYRING_PROCEDURE(library, name, parameters, arguments) SWIFT_KEYRING_STUB void(name) parameters;
#include "CLibSecretFunctions.h"
#undef SWIFT_KEYRING_FUNCTION
#undef SWIFT_KEYRING_PROCEDURE

/* Loads libsecret-1.so.0 (which brings GIO, GObject and GLib) and finds every function of
 * CLibSecretFunctions.h, once a process; later calls return the first answer. Returns NULL
 * when all are ready, or a sentence naming the library and the loader's reason (static
 * storage, no secret in it). Safe to call from any thread. */
const char *swift_keyring_libsecret_load(void);

#endif
