/* A Secret Service that misbehaves on purpose, for the tests of what the store
 * does when a daemon answers something it should not (issue 26).
 *
 *   fake-secret-service MODE
 *
 * Owns org.freedesktop.secrets on the bus of DBUS_SESSION_BUS_ADDRESS, prints
 * "ready" on one line once it does, and runs until killed. It keeps its items
 * in memory, in one collection that the "default" alias names, never locked,
 * and opens only "plain" sessions (the key exchange is answered NotSupported,
 * so clients fall back to plain, as they do with some real daemons).
 *
 * MODE picks the one misbehaviour; the debug interface below changes it, so a
 * test can first write its records through the store in "normal" mode:
 *   normal                 behaves;
 *   foreign-hit            SearchItems also returns, first and with the
 *                          greatest path, an item of another service with a
 *                          different password, as a daemon whose search skips
 *                          some attributes (KeePassXC) does;
 *   wrong-attributes-type  an item's Attributes property is a string, not a{ss};
 *   wrong-secrets-type     GetSecrets answers "(s)";
 *   locked-as-string       the collection's Locked property is the string "false";
 *   huge-secret            GetSecrets gives 3 MiB for each credentials item;
 *   giant-secret           GetSecrets gives 60 MiB for each credentials item
 *                          (more than a client should read before refusing);
 *   stall-search           SearchItems is never answered (a daemon that hangs);
 *   stall-search-then-exit SearchItems is never answered, and the fake exits
 *                          2.5 s later (a daemon replaced mid-call);
 *   dismiss-create         CreateItem stores nothing and returns a prompt (as
 *                          KeePassXC does to confirm a new item), whose
 *                          Completed, once Prompt is called, says dismissed;
 *   slow                   behaves, but answers each call 20 ms late (so that
 *                          a forger's replies surely come first);
 *   forge                  another program of the bus playing the daemon (issue
 *                          34): it does not own org.freedesktop.secrets; for
 *                          200 ms after each new connection appears on the bus
 *                          it keeps sending that connection method returns to
 *                          serials 2 to 6 that name itself ("(s)", as the bus's
 *                          GetNameOwner would, and as read for a greeting's
 *                          sender), and it answers calls at its unique name as
 *                          a Secret Service whose every search finds one item
 *                          echoing the searched attributes, holding the
 *                          password "forged-password".
 *
 * Debug interface (org.swiftkeyring.FakeSecretService.Debug at
 * /org/freedesktop/secrets): SetMode(s), ItemCount() -> (u), counting every
 * item it holds, whatever the mode.
 *
 * Calls are answered from a GDBus message filter rather than registered
 * objects: GDBus checks the types of registered objects' replies and
 * properties against their introspection data, and would correct the very
 * answers this program exists to send.
 *
 * Built by Scripts/build-fake-secret-service.sh, not by SwiftPM. */
#include <gio/gio.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define FAKE_SERVICE_PATH "/org/freedesktop/secrets"
#define FAKE_COLLECTION_PATH "/org/freedesktop/secrets/collection/login"
#define FAKE_ITEM_PREFIX FAKE_COLLECTION_PATH "/"
#define FAKE_SESSION_PREFIX "/org/freedesktop/secrets/session/"
#define FAKE_DEBUG_INTERFACE "org.swiftkeyring.FakeSecretService.Debug"
/* Greater than any path this program numbers itself, so the store, which
 * prefers the greatest path among its hits, tries the foreign item first. */
#define FAKE_FOREIGN_PATH FAKE_COLLECTION_PATH "/999999"
#define FAKE_HUGE_BYTES (3u * 1024u * 1024u)
#define FAKE_GIANT_BYTES (60u * 1024u * 1024u)
#define FAKE_PROMPT_PATH "/org/freedesktop/secrets/prompt/create"
#define FAKE_PROMPT_INTERFACE "org.freedesktop.Secret.Prompt"

typedef struct {
    gchar *path;
    gchar *label;
    GHashTable *attributes;
    GBytes *secret;
    gchar *content_type;
} FakeItem;

/* The filter runs in GDBus's worker thread; the lock keeps the state whole
 * should GDBus ever run it elsewhere. */
static GMutex fake_lock;
static GPtrArray *fake_items;
static gchar *fake_mode;
static guint fake_next_item = 1;
static guint fake_next_session = 1;

static void fake_item_free(gpointer data) {
    FakeItem *item = data;
    g_free(item->path);
    g_free(item->label);
    g_hash_table_unref(item->attributes);
    g_bytes_unref(item->secret);
    g_free(item->content_type);
    g_free(item);
}

static gboolean fake_mode_is(const gchar *mode) {
    return g_strcmp0(fake_mode, mode) == 0;
}

static FakeItem *fake_item_at(const gchar *path) {
    for (guint i = 0; i < fake_items->len; i++) {
        FakeItem *item = g_ptr_array_index(fake_items, i);
        if (g_strcmp0(item->path, path) == 0)
            return item;
    }
    return NULL;
}

static GHashTable *fake_attributes_from_variant(GVariant *table) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GVariantIter iter;
    const gchar *name, *value;
    g_variant_iter_init(&iter, table);
    while (g_variant_iter_next(&iter, "{&s&s}", &name, &value))
        g_hash_table_replace(attributes, g_strdup(name), g_strdup(value));
    return attributes;
}

static GVariant *fake_attributes_variant(GHashTable *attributes) {
    GVariantBuilder builder;
    GHashTableIter iter;
    gpointer name, value;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{ss}"));
    g_hash_table_iter_init(&iter, attributes);
    while (g_hash_table_iter_next(&iter, &name, &value))
        g_variant_builder_add(&builder, "{ss}", name, value);
    return g_variant_builder_end(&builder);
}

/* The libsecret schema name is not part of what an item must match: the store
 * searches without it, and secret-tool items carry it. */
static gboolean fake_item_matches(FakeItem *item, GHashTable *query) {
    GHashTableIter iter;
    gpointer name, value;
    g_hash_table_iter_init(&iter, query);
    while (g_hash_table_iter_next(&iter, &name, &value)) {
        if (g_strcmp0(name, "xdg:schema") == 0)
            continue;
        if (g_strcmp0(g_hash_table_lookup(item->attributes, name), value) != 0)
            return FALSE;
    }
    return TRUE;
}

static FakeItem *fake_item_add(const gchar *path, const gchar *label, GHashTable *attributes, GBytes *secret,
                               const gchar *content_type) {
    FakeItem *item = g_new0(FakeItem, 1);
    item->path = path != NULL ? g_strdup(path) : g_strdup_printf(FAKE_ITEM_PREFIX "%u", fake_next_item++);
    item->label = g_strdup(label);
    item->attributes = attributes;
    item->secret = secret;
    item->content_type = g_strdup(content_type);
    g_ptr_array_add(fake_items, item);
    return item;
}

/* The foreign twin of `ours`: the same attributes but another service, and
 * another password, made once; it is what a careless read would return. */
static FakeItem *fake_foreign_twin(FakeItem *ours) {
    FakeItem *twin = fake_item_at(FAKE_FOREIGN_PATH);
    if (twin != NULL)
        return twin;
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    GHashTableIter iter;
    gpointer name, value;
    g_hash_table_iter_init(&iter, ours->attributes);
    while (g_hash_table_iter_next(&iter, &name, &value))
        g_hash_table_replace(attributes, g_strdup(name), g_strdup(value));
    g_hash_table_replace(attributes, g_strdup("service"), g_strdup("someone-else"));
    return fake_item_add(FAKE_FOREIGN_PATH, "foreign", attributes,
                         g_bytes_new_static("foreign-password", strlen("foreign-password")), "text/plain");
}

static GVariant *fake_search(GVariant *parameters) {
    GVariant *table = g_variant_get_child_value(parameters, 0);
    GHashTable *query = fake_attributes_from_variant(table);
    GPtrArray *found = g_ptr_array_new();
    if (fake_mode_is("forge"))
        fake_item_add(NULL, "forged", fake_attributes_from_variant(table),
                      g_bytes_new_static("forged-password", strlen("forged-password")), "text/plain");
    g_variant_unref(table);
    for (guint i = 0; i < fake_items->len; i++) {
        FakeItem *item = g_ptr_array_index(fake_items, i);
        if (g_strcmp0(item->path, FAKE_FOREIGN_PATH) != 0 && fake_item_matches(item, query))
            g_ptr_array_add(found, item);
    }
    if (fake_mode_is("foreign-hit") && found->len > 0)
        g_ptr_array_insert(found, 0, fake_foreign_twin(g_ptr_array_index(found, 0)));
    GVariantBuilder unlocked;
    g_variant_builder_init(&unlocked, G_VARIANT_TYPE("ao"));
    for (guint i = 0; i < found->len; i++)
        g_variant_builder_add(&unlocked, "o", ((FakeItem *)g_ptr_array_index(found, i))->path);
    g_ptr_array_unref(found);
    g_hash_table_unref(query);
    return g_variant_new("(ao@ao)", &unlocked, g_variant_new_array(G_VARIANT_TYPE_OBJECT_PATH, NULL, 0));
}

static GVariant *fake_secret_of(FakeItem *item, const gchar *session) {
    GBytes *secret = item->secret;
    GVariant *value;
    gboolean huge_mode = fake_mode_is("huge-secret") || fake_mode_is("giant-secret");
    if (huge_mode && g_strcmp0(g_hash_table_lookup(item->attributes, "kind"), "credentials") == 0) {
        gsize bytes = fake_mode_is("giant-secret") ? FAKE_GIANT_BYTES : FAKE_HUGE_BYTES;
        gchar *huge = g_malloc(bytes);
        memset(huge, 'a', bytes);
        value = g_variant_new_from_data(G_VARIANT_TYPE_BYTESTRING, huge, bytes, TRUE, g_free, huge);
    } else {
        value = g_variant_new_from_bytes(G_VARIANT_TYPE_BYTESTRING, secret, TRUE);
    }
    return g_variant_new("(o@ay@ays)", session, g_variant_new_array(G_VARIANT_TYPE_BYTE, NULL, 0), value,
                         item->content_type != NULL ? item->content_type : "text/plain");
}

static GVariant *fake_get_secrets(GVariant *parameters) {
    if (fake_mode_is("wrong-secrets-type"))
        return g_variant_new("(s)", "not the secrets");
    GVariantIter *paths;
    const gchar *session, *path;
    GVariantBuilder secrets;
    g_variant_get(parameters, "(ao&o)", &paths, &session);
    g_variant_builder_init(&secrets, G_VARIANT_TYPE("a{o(oayays)}"));
    while (g_variant_iter_next(paths, "&o", &path)) {
        FakeItem *item = fake_item_at(path);
        if (item != NULL)
            g_variant_builder_add(&secrets, "{o@(oayays)}", path, fake_secret_of(item, session));
    }
    g_variant_iter_free(paths);
    return g_variant_new("(a{o(oayays)})", &secrets);
}

static GBytes *fake_secret_from(GVariant *secret) {
    GVariant *value = g_variant_get_child_value(secret, 2);
    GBytes *bytes = g_variant_get_data_as_bytes(value);
    g_variant_unref(value);
    return bytes;
}

static GVariant *fake_create_item(GVariant *parameters) {
    if (fake_mode_is("dismiss-create"))
        return g_variant_new("(oo)", "/", FAKE_PROMPT_PATH);
    GVariant *properties = g_variant_get_child_value(parameters, 0);
    GVariant *secret = g_variant_get_child_value(parameters, 1);
    GVariant *table = g_variant_lookup_value(properties, "org.freedesktop.Secret.Item.Attributes", G_VARIANT_TYPE("a{ss}"));
    GVariant *label = g_variant_lookup_value(properties, "org.freedesktop.Secret.Item.Label", G_VARIANT_TYPE_STRING);
    GVariant *content_type = g_variant_get_child_value(secret, 3);
    FakeItem *item = fake_item_add(NULL, label != NULL ? g_variant_get_string(label, NULL) : "",
                                   table != NULL ? fake_attributes_from_variant(table)
                                                 : g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
                                   fake_secret_from(secret), g_variant_get_string(content_type, NULL));
    g_variant_unref(content_type);
    if (label != NULL)
        g_variant_unref(label);
    if (table != NULL)
        g_variant_unref(table);
    g_variant_unref(secret);
    g_variant_unref(properties);
    return g_variant_new("(oo)", item->path, "/");
}

static GVariant *fake_item_property(FakeItem *item, const gchar *name) {
    if (g_strcmp0(name, "Attributes") == 0)
        return fake_mode_is("wrong-attributes-type") ? g_variant_new_string("tag=swift-keyring")
                                                     : fake_attributes_variant(item->attributes);
    if (g_strcmp0(name, "Label") == 0)
        return g_variant_new_string(item->label);
    if (g_strcmp0(name, "Locked") == 0)
        return g_variant_new_boolean(FALSE);
    if (g_strcmp0(name, "Created") == 0 || g_strcmp0(name, "Modified") == 0)
        return g_variant_new_uint64(0);
    return NULL;
}

static GVariant *fake_collection_property(const gchar *name) {
    if (g_strcmp0(name, "Locked") == 0)
        return fake_mode_is("locked-as-string") ? g_variant_new_string("false") : g_variant_new_boolean(FALSE);
    if (g_strcmp0(name, "Label") == 0)
        return g_variant_new_string("Login");
    if (g_strcmp0(name, "Items") == 0) {
        GVariantBuilder paths;
        g_variant_builder_init(&paths, G_VARIANT_TYPE("ao"));
        for (guint i = 0; i < fake_items->len; i++)
            g_variant_builder_add(&paths, "o", ((FakeItem *)g_ptr_array_index(fake_items, i))->path);
        return g_variant_builder_end(&paths);
    }
    if (g_strcmp0(name, "Created") == 0 || g_strcmp0(name, "Modified") == 0)
        return g_variant_new_uint64(0);
    return NULL;
}

static GVariant *fake_service_property(const gchar *name) {
    if (g_strcmp0(name, "Collections") == 0) {
        const gchar *paths[] = { FAKE_COLLECTION_PATH };
        return g_variant_new_objv(paths, 1);
    }
    return NULL;
}

/* One property of the object at `path`, NULL when it has none of that name. */
static GVariant *fake_property(const gchar *path, const gchar *name) {
    if (g_strcmp0(path, FAKE_SERVICE_PATH) == 0)
        return fake_service_property(name);
    if (g_strcmp0(path, FAKE_COLLECTION_PATH) == 0)
        return fake_collection_property(name);
    FakeItem *item = fake_item_at(path);
    return item != NULL ? fake_item_property(item, name) : NULL;
}

static const gchar *const fake_service_properties[] = { "Collections", NULL };
static const gchar *const fake_collection_properties[] = { "Items", "Label", "Locked", "Created", "Modified", NULL };
static const gchar *const fake_item_properties[] = { "Attributes", "Label", "Locked", "Created", "Modified", NULL };

static GVariant *fake_all_properties(const gchar *path) {
    const gchar *const *names = g_strcmp0(path, FAKE_SERVICE_PATH) == 0 ? fake_service_properties
        : g_strcmp0(path, FAKE_COLLECTION_PATH) == 0                    ? fake_collection_properties
                                                                        : fake_item_properties;
    GVariantBuilder all;
    g_variant_builder_init(&all, G_VARIANT_TYPE("a{sv}"));
    for (; *names != NULL; names++) {
        GVariant *value = fake_property(path, *names);
        if (value != NULL)
            g_variant_builder_add(&all, "{sv}", *names, value);
    }
    return g_variant_new("(a{sv})", &all);
}

static gboolean fake_path_exists(const gchar *path) {
    return g_strcmp0(path, FAKE_SERVICE_PATH) == 0 || g_strcmp0(path, FAKE_COLLECTION_PATH) == 0
        || g_strcmp0(path, "/org/freedesktop/secrets/aliases/default") == 0 || fake_item_at(path) != NULL
        || (fake_mode_is("dismiss-create") && g_strcmp0(path, FAKE_PROMPT_PATH) == 0);
}

/* The reply body to a call, or NULL with `error_name` and `error_text` set.
 * Argument types are checked here, as GDBus would for a registered object. */
static GVariant *fake_answer(const gchar *path, const gchar *interface, const gchar *member, GVariant *parameters,
                             const gchar **error_name, gchar **error_text) {
    const gchar *signature = parameters != NULL ? g_variant_get_type_string(parameters) : "()";
    if (g_strcmp0(path, "/org/freedesktop/secrets/aliases/default") == 0)
        path = FAKE_COLLECTION_PATH;
    if (!fake_path_exists(path)) {
        *error_name = "org.freedesktop.Secret.Error.NoSuchObject";
        *error_text = g_strdup_printf("no object at %s", path);
        return NULL;
    }
    if (g_strcmp0(interface, "org.freedesktop.DBus.Properties") == 0) {
        if (g_strcmp0(member, "Get") == 0 && g_strcmp0(signature, "(ss)") == 0) {
            const gchar *name;
            g_variant_get(parameters, "(&s&s)", NULL, &name);
            GVariant *value = fake_property(path, name);
            if (value != NULL)
                return g_variant_new("(v)", value);
            *error_name = "org.freedesktop.DBus.Error.InvalidArgs";
            *error_text = g_strdup_printf("no property %s", name);
            return NULL;
        }
        if (g_strcmp0(member, "GetAll") == 0 && g_strcmp0(signature, "(s)") == 0)
            return fake_all_properties(path);
    } else if (g_strcmp0(interface, "org.freedesktop.Secret.Service") == 0 && g_strcmp0(path, FAKE_SERVICE_PATH) == 0) {
        if (g_strcmp0(member, "OpenSession") == 0 && g_strcmp0(signature, "(sv)") == 0) {
            const gchar *algorithm;
            g_variant_get(parameters, "(&sv)", &algorithm, NULL);
            if (g_strcmp0(algorithm, "plain") == 0) {
                gchar *session = g_strdup_printf(FAKE_SESSION_PREFIX "%u", fake_next_session++);
                GVariant *reply = g_variant_new("(vo)", g_variant_new_string(""), session);
                g_free(session);
                return reply;
            }
            *error_name = "org.freedesktop.DBus.Error.NotSupported";
            *error_text = g_strdup("only plain sessions");
            return NULL;
        }
        if (g_strcmp0(member, "ReadAlias") == 0 && g_strcmp0(signature, "(s)") == 0) {
            const gchar *alias;
            g_variant_get(parameters, "(&s)", &alias);
            return g_variant_new("(o)", g_strcmp0(alias, "default") == 0 ? FAKE_COLLECTION_PATH : "/");
        }
        if (g_strcmp0(member, "SearchItems") == 0 && g_strcmp0(signature, "(a{ss})") == 0)
            return fake_search(parameters);
        if (g_strcmp0(member, "GetSecrets") == 0 && g_strcmp0(signature, "(aoo)") == 0)
            return fake_get_secrets(parameters);
        /* Nothing is ever locked: unlocking or locking changes nothing. */
        if ((g_strcmp0(member, "Unlock") == 0 || g_strcmp0(member, "Lock") == 0) && g_strcmp0(signature, "(ao)") == 0) {
            GVariant *paths = g_variant_get_child_value(parameters, 0);
            return g_variant_new("(@ao@o)", paths, g_variant_new_object_path("/"));
        }
    } else if (g_strcmp0(interface, "org.freedesktop.Secret.Collection") == 0 && g_strcmp0(path, FAKE_COLLECTION_PATH) == 0) {
        if (g_strcmp0(member, "CreateItem") == 0 && g_strcmp0(signature, "(a{sv}(oayays)b)") == 0)
            return fake_create_item(parameters);
    } else if (g_strcmp0(interface, "org.freedesktop.Secret.Item") == 0 && fake_item_at(path) != NULL) {
        if (g_strcmp0(member, "Delete") == 0 && g_strcmp0(signature, "()") == 0) {
            g_ptr_array_remove(fake_items, fake_item_at(path));
            return g_variant_new("(o)", "/");
        }
        if (g_strcmp0(member, "SetSecret") == 0 && g_strcmp0(signature, "((oayays))") == 0) {
            FakeItem *item = fake_item_at(path);
            GVariant *secret = g_variant_get_child_value(parameters, 0);
            GVariant *content_type = g_variant_get_child_value(secret, 3);
            g_bytes_unref(item->secret);
            item->secret = fake_secret_from(secret);
            g_free(item->content_type);
            item->content_type = g_variant_dup_string(content_type, NULL);
            g_variant_unref(content_type);
            g_variant_unref(secret);
            return g_variant_new("()");
        }
    } else if (g_strcmp0(interface, FAKE_PROMPT_INTERFACE) == 0 && g_strcmp0(path, FAKE_PROMPT_PATH) == 0) {
        /* The Completed signal follows the reply, from fake_filter. */
        if (g_strcmp0(member, "Prompt") == 0 && g_strcmp0(signature, "(s)") == 0)
            return g_variant_new("()");
    } else if (g_strcmp0(interface, FAKE_DEBUG_INTERFACE) == 0 && g_strcmp0(path, FAKE_SERVICE_PATH) == 0) {
        if (g_strcmp0(member, "SetMode") == 0 && g_strcmp0(signature, "(s)") == 0) {
            g_free(fake_mode);
            g_variant_get(parameters, "(s)", &fake_mode);
            return g_variant_new("()");
        }
        if (g_strcmp0(member, "ItemCount") == 0)
            return g_variant_new("(u)", fake_items->len);
    }
    *error_name = "org.freedesktop.DBus.Error.UnknownMethod";
    *error_text = g_strdup_printf("%s.%s%s is not something this fake answers", interface, member, signature);
    return NULL;
}

static gboolean fake_is_ours(GDBusMessage *message) {
    const gchar *path = g_dbus_message_get_path(message);
    const gchar *interface = g_dbus_message_get_interface(message);
    return g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL && path != NULL
        && interface != NULL && g_str_has_prefix(path, FAKE_SERVICE_PATH)
        && (g_str_has_prefix(interface, "org.freedesktop.Secret.") || g_strcmp0(interface, "org.freedesktop.DBus.Properties") == 0
            || g_strcmp0(interface, FAKE_DEBUG_INTERFACE) == 0);
}

/* Forge mode: the replies a new connection gets, unasked, for 200 ms. */
typedef struct {
    GDBusConnection *connection;
    gchar *target;
} FakeForgery;

static void *fake_forge_replies(void *data) {
    FakeForgery *forgery = data;
    const gchar *self = g_dbus_connection_get_unique_name(forgery->connection);
    for (int round = 0; round < 100; round++) {
        for (guint32 serial = 2; serial <= 6; serial++) {
            GDBusMessage *reply = g_dbus_message_new();
            g_dbus_message_set_message_type(reply, G_DBUS_MESSAGE_TYPE_METHOD_RETURN);
            g_dbus_message_set_flags(reply, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED);
            g_dbus_message_set_reply_serial(reply, serial);
            g_dbus_message_set_destination(reply, forgery->target);
            g_dbus_message_set_body(reply, g_variant_new("(s)", self));
            g_dbus_connection_send_message(forgery->connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
            g_object_unref(reply);
        }
        g_usleep(2000);
    }
    g_free(forgery->target);
    g_free(forgery);
    return NULL;
}

/* A connection that just appeared on the bus: forge replies for it, on a thread of its own. */
static void fake_forge_for(GDBusConnection *connection, GDBusMessage *message) {
    const gchar *name, *old_owner, *new_owner;
    GVariant *body = g_dbus_message_get_body(message);
    if (body == NULL || g_strcmp0(g_variant_get_type_string(body), "(sss)") != 0)
        return;
    g_variant_get(body, "(&s&s&s)", &name, &old_owner, &new_owner);
    if (name[0] != ':' || old_owner[0] != '\0' || g_strcmp0(name, g_dbus_connection_get_unique_name(connection)) == 0)
        return;
    FakeForgery *forgery = g_new0(FakeForgery, 1);
    forgery->connection = connection;
    forgery->target = g_strdup(name);
    pthread_t thread;
    if (pthread_create(&thread, NULL, fake_forge_replies, forgery) == 0)
        pthread_detach(thread);
}

static gboolean fake_exit(gpointer data) {
    (void)data;
    _exit(0);
}

/* Mode answer-search-late, for a replacement: SearchItems is answered, as in
 * normal mode, once the monotonic clock (CLOCK_MONOTONIC, which every process
 * of the machine shares) reaches the microseconds written in the file
 * FAKE_ANSWER_AT_FILE names when the search arrives, or at once when that time
 * has passed or the file holds none. The test sets that time between the end of its
 * caller's one bound and the end of a bound renewed at the reopen, so only a
 * caller that renewed its bound could take the answer; a sleep can only make
 * the answer later, never earlier. The fake prints "search held" when one
 * arrives and "search answered" when it answers. (Kept apart from
 * fake_filter's modes, so edits there merge.) */
static guint fake_answer_delay_ms(void) {
    const char *path = g_getenv("FAKE_ANSWER_AT_FILE");
    gchar *text = NULL;
    gint64 target = 0;
    if (path != NULL && g_file_get_contents(path, &text, NULL, NULL))
        target = g_ascii_strtoll(text, NULL, 10);
    g_free(text);
    gint64 left = target - g_get_monotonic_time();
    return left > 0 ? (guint)(left / 1000 + 1) : 0;
}

typedef struct {
    GDBusConnection *connection;
    GDBusMessage *message;
} FakeHeldSearch;

static gboolean fake_answer_held_search(gpointer data) {
    FakeHeldSearch *held = data;
    g_mutex_lock(&fake_lock);
    GVariant *body = fake_search(g_dbus_message_get_body(held->message));
    g_mutex_unlock(&fake_lock);
    GDBusMessage *reply = g_dbus_message_new_method_reply(held->message);
    g_dbus_message_set_body(reply, body);
    g_dbus_connection_send_message(held->connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
    printf("search answered\n");
    fflush(stdout);
    g_object_unref(reply);
    g_object_unref(held->message);
    g_object_unref(held->connection);
    g_free(held);
    return G_SOURCE_REMOVE;
}

/* Takes `message` (a SearchItems call) and answers it later, on the main loop. */
static GDBusMessage *fake_hold_search(GDBusConnection *connection, GDBusMessage *message) {
    FakeHeldSearch *held = g_new0(FakeHeldSearch, 1);
    held->connection = g_object_ref(connection);
    held->message = message;
    printf("search held\n");
    fflush(stdout);
    g_timeout_add(fake_answer_delay_ms(), fake_answer_held_search, held);
    return NULL;
}

static GDBusMessage *fake_filter(GDBusConnection *connection, GDBusMessage *message, gboolean incoming, gpointer data) {
    (void)data;
    if (incoming && fake_mode_is("forge") && g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_SIGNAL
        && g_strcmp0(g_dbus_message_get_member(message), "NameOwnerChanged") == 0
        && g_strcmp0(g_dbus_message_get_sender(message), "org.freedesktop.DBus") == 0)
        fake_forge_for(connection, message);
    if (!incoming || !fake_is_ours(message))
        return message;
    if (g_strcmp0(g_dbus_message_get_member(message), "SearchItems") == 0 && fake_mode_is("answer-search-late"))
        return fake_hold_search(connection, message);
    if (g_strcmp0(g_dbus_message_get_member(message), "SearchItems") == 0
        && (fake_mode_is("stall-search") || fake_mode_is("stall-search-then-exit"))) {
        /* No reply at all: the caller waits until its own bound, or until this
         * process leaves the bus. */
        if (fake_mode_is("stall-search-then-exit"))
            g_timeout_add(2500, fake_exit, NULL);
        g_object_unref(message);
        return NULL;
    }
    if (fake_mode_is("slow"))
        g_usleep(20000);
    const gchar *error_name = NULL;
    gchar *error_text = NULL;
    g_mutex_lock(&fake_lock);
    GVariant *body = fake_answer(g_dbus_message_get_path(message), g_dbus_message_get_interface(message),
                                 g_dbus_message_get_member(message), g_dbus_message_get_body(message), &error_name,
                                 &error_text);
    g_mutex_unlock(&fake_lock);
    GDBusMessage *reply;
    if (body != NULL) {
        reply = g_dbus_message_new_method_reply(message);
        g_dbus_message_set_body(reply, body);
    } else {
        reply = g_dbus_message_new_method_error_literal(message, error_name, error_text);
        g_free(error_text);
    }
    g_dbus_connection_send_message(connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
    if (body != NULL && g_strcmp0(g_dbus_message_get_path(message), FAKE_PROMPT_PATH) == 0) {
        /* The person said no: dismissed, with an empty result. */
        g_dbus_connection_emit_signal(connection, g_dbus_message_get_sender(message), FAKE_PROMPT_PATH,
                                      FAKE_PROMPT_INTERFACE, "Completed",
                                      g_variant_new("(bv)", TRUE, g_variant_new_string("")), NULL);
    }
    g_object_unref(reply);
    g_object_unref(message);
    return NULL;
}

int main(int argc, char **argv) {
    GError *error = NULL;
    if (argc < 2 || argc > 3 || (argc == 3 && g_strcmp0(argv[2], "--replace") != 0)) {
        fprintf(stderr, "usage: %s MODE [--replace]\n", argv[0]);
        return 64;
    }
    /* --replace takes the name over from a fake already on the bus, which keeps
     * running and answering calls sent to its unique name: a takeover, as when a
     * second daemon starts with gnome-keyring-daemon --replace. */
    gboolean replace = argc == 3;
    /* Ends with the test that started it, rather than outliving its bus; the
     * signal is unblocked first, as a child inherits its starter's blocked
     * signals and the test runner's threads block SIGTERM, which would leave
     * the fake running until killed outright. */
    sigset_t terminate;
    sigemptyset(&terminate);
    sigaddset(&terminate, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &terminate, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    fake_mode = g_strdup(argv[1]);
    fake_items = g_ptr_array_new_with_free_func(fake_item_free);
    const gchar *address = g_getenv("DBUS_SESSION_BUS_ADDRESS");
    if (address == NULL) {
        fprintf(stderr, "%s: DBUS_SESSION_BUS_ADDRESS is not set\n", argv[0]);
        return 70;
    }
    GDBusConnection *connection = g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL,
        NULL, &error);
    if (connection == NULL) {
        fprintf(stderr, "%s: %s\n", argv[0], error->message);
        return 70;
    }
    /* The filter first, so no call sent right after the name is taken is missed. */
    g_dbus_connection_add_filter(connection, fake_filter, NULL, NULL);
    if (fake_mode_is("forge")) {
        /* Not the owner of the name: told of every new connection instead. */
        GVariant *matched = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
            g_variant_new("(s)", "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'"), NULL,
            G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
        if (matched == NULL) {
            fprintf(stderr, "%s: AddMatch failed: %s\n", argv[0], error->message);
            return 70;
        }
        g_variant_unref(matched);
        printf("ready\n");
        fflush(stdout);
        g_main_loop_run(g_main_loop_new(NULL, FALSE));
        return 0;
    }
    GVariant *owned = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "RequestName",
                                                  g_variant_new("(su)", "org.freedesktop.secrets",
                                                                /* ALLOW_REPLACEMENT | DO_NOT_QUEUE, and REPLACE_EXISTING */
                                                                1u | 4u | (replace ? 2u : 0u)),
                                                  G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    guint32 result = 0;
    if (owned != NULL) {
        g_variant_get(owned, "(u)", &result);
        g_variant_unref(owned);
    }
    if (result != 1 /* PRIMARY_OWNER */) {
        fprintf(stderr, "%s: could not own org.freedesktop.secrets%s%s\n", argv[0], error != NULL ? ": " : "",
                error != NULL ? error->message : "");
        return 70;
    }
    printf("ready\n");
    fflush(stdout);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
