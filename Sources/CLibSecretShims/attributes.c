#include "CLibSecretShims.h"

/* g_hash_table_new_full: a string-to-string table that owns copies of both. */
GHashTable *swift_keyring_attributes_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

/* g_hash_table_insert with copies, so Swift's temporary C strings may go away. */
void swift_keyring_attributes_set(GHashTable *attributes, const char *name, const char *value) {
    g_hash_table_insert(attributes, g_strdup(name), g_strdup(value));
}

/* g_hash_table_lookup typed for string tables; NULL when the name is absent. */
const char *swift_keyring_attributes_get(GHashTable *attributes, const char *name) {
    return (const char *)g_hash_table_lookup(attributes, name);
}

/* A string table as a floating "a{ss}" GVariant, one floating {ss} entry at a time. */
GVariant *swift_keyring_attributes_variant(GHashTable *attributes) {
    GVariantBuilder builder;
    GHashTableIter iter;
    gpointer name, value;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{ss}"));
    g_hash_table_iter_init(&iter, attributes);
    while (g_hash_table_iter_next(&iter, &name, &value))
        g_variant_builder_add_value(&builder, g_variant_new_dict_entry(g_variant_new_string((const char *)name),
                                                                       g_variant_new_string((const char *)value)));
    return g_variant_builder_end(&builder);
}
