#include "CLibSecretShims.h"

/* The schema of every item the library writes. DONT_MATCH_NAME: searches do not
 * add xdg:schema, so items written by secret-tool with our attributes are found. */
const SecretSchema *swift_keyring_schema(void) {
    static const SecretSchema schema = {
        "org.swift-keyring.Record",
        SECRET_SCHEMA_DONT_MATCH_NAME,
        {
            { "tag", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "key", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "username", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "sync", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "background-access", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        },
    };
    return &schema;
}
