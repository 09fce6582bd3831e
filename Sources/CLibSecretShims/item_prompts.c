#include "CLibSecretShims.h"

/* The "(a{sv}(oayays)b)" arguments of Collection.CreateItem: label and
 * attributes, the secret as SecretTransfer encoded it, and replace
 * off (KeePassXC answers replace with a confirmation nobody sees, and matches
 * it by a subset of the attributes; ItemReplacement replaces instead). */
GVariant *swift_keyring_create_item_argument(GVariant *secret, const char *label, GHashTable *attributes) {
    GVariantBuilder properties;
    GVariant *arguments;
    g_variant_builder_init(&properties, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&properties, "{sv}", "org.freedesktop.Secret.Item.Label", g_variant_new_string(label));
    g_variant_builder_add(&properties, "{sv}", "org.freedesktop.Secret.Item.Attributes",
                          swift_keyring_attributes_variant(attributes));
    arguments = g_variant_new("(a{sv}@(oayays)b)", &properties, secret, FALSE);
    return arguments;
}

/* The "(oo)" reply of CreateItem: the new item's path ("/" when a prompt must
 * create it) and, in `prompt`, the prompt's path ("/" for none). Both the caller frees. */
gchar *swift_keyring_create_item_reply(GVariant *reply, gchar **prompt) {
    gchar *item = NULL;
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(oo)"))) {
        *prompt = g_strdup("/");
        return g_strdup("/");
    }
    g_variant_get(reply, "(oo)", &item, prompt);
    return item;
}

/* The "(o)" reply of Item.Delete (the prompt's path, "/" for none) or of
 * Service.ReadAlias (the collection's, "/" for none), which the caller frees. */
gchar *swift_keyring_object_path_reply(GVariant *reply) {
    gchar *prompt = NULL;
    if (!g_variant_is_of_type(reply, G_VARIANT_TYPE("(o)")))
        return g_strdup("/");
    g_variant_get(reply, "(o)", &prompt);
    return prompt;
}
