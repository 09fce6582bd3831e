/* The floor for anything built on libsecret: the comparison workload called
 * straight from C, with the same schema and attributes swift-keyring writes.
 *
 *   libsecret-bench COUNT SERVICE [PHASE…]
 *
 * PHASE is store, lookup, lookup-again (an untimed pass, then a timed one),
 * remove (one clear per record) or removeall (one
 * clear on {tag, service}, reported per record); the default is all four, in
 * that order (removeall first stores the records, untimed, when an earlier
 * phase removed them or none stored them).
 * Each phase prints one line "PHASE<TAB>COUNT<TAB>MICROSECONDS_PER_OP".
 *
 * With SECRET_BACKEND=file, SECRET_FILE_TEST_PATH and SECRET_FILE_TEST_PASSWORD
 * the same calls go to libsecret's own encrypted file instead of the daemon.
 *
 * Built by Benchmarks/compare.sh:
 *   cc -O2 libsecret-bench.c $(pkg-config --cflags --libs libsecret-1)
 */
#include <libsecret/secret.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The attributes of the library's items, so both write identical items. DONT_MATCH_NAME:
 * searches do not add xdg:schema, as the library's searches do not. */
static const SecretSchema library_schema = {
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
static const SecretSchema *schema = &library_schema;

static const char *service;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what, int index, GError *error) {
    /* GError messages name items and paths, never secrets. */
    fprintf(stderr, "libsecret-bench: %s %d failed: %s\n", what, index, error ? error->message : "no result");
    exit(1);
}

static GHashTable *identity(int index) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(attributes, g_strdup("tag"), g_strdup("swift-keyring"));
    g_hash_table_insert(attributes, g_strdup("service"), g_strdup(service));
    g_hash_table_insert(attributes, g_strdup("key"), g_strdup_printf("account-%d", index));
    g_hash_table_insert(attributes, g_strdup("kind"), g_strdup("credentials"));
    return attributes;
}

static GHashTable *full_attributes(int index) {
    GHashTable *attributes = identity(index);
    g_hash_table_insert(attributes, g_strdup("username"), g_strdup_printf("user%d", index));
    g_hash_table_insert(attributes, g_strdup("url"), g_strdup_printf("https://accounts.example.com/user%d", index));
    g_hash_table_insert(attributes, g_strdup("sync"), g_strdup("false"));
    g_hash_table_insert(attributes, g_strdup("background-access"), g_strdup("false"));
    return attributes;
}

static char *password(int index) {
    return g_strdup_printf("benchmark-password-%d", index);
}

static void store_all(int count) {
    for (int i = 0; i < count; i++) {
        GError *error = NULL;
        GHashTable *attributes = full_attributes(i);
        char *label = g_strdup_printf("account-%d — user%d @ accounts.example.com", i, i);
        char *secret = password(i);
        if (!secret_password_storev_sync(schema, attributes, SECRET_COLLECTION_DEFAULT, label, secret, NULL, &error)) {
            die("store", i, error);
        }
        g_free(secret);
        g_free(label);
        g_hash_table_unref(attributes);
    }
}

static void lookup_all(int count) {
    for (int i = 0; i < count; i++) {
        GError *error = NULL;
        GHashTable *attributes = identity(i);
        char *found = secret_password_lookupv_sync(schema, attributes, NULL, &error);
        char *expected = password(i);
        if (found == NULL || strcmp(found, expected) != 0) {
            die("lookup (missing or wrong password)", i, error);
        }
        secret_password_free(found);
        g_free(expected);
        g_hash_table_unref(attributes);
    }
}

static void remove_each(int count) {
    for (int i = 0; i < count; i++) {
        GError *error = NULL;
        GHashTable *attributes = identity(i);
        if (!secret_password_clearv_sync(schema, attributes, NULL, &error)) {
            die("remove", i, error);
        }
        g_hash_table_unref(attributes);
    }
}

static void remove_all(int count) {
    GError *error = NULL;
    GHashTable *attributes = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(attributes, "tag", "swift-keyring");
    g_hash_table_insert(attributes, "service", (gpointer)service);
    if (!secret_password_clearv_sync(schema, attributes, NULL, &error) && count > 0) {
        die("removeall", count, error);
    }
    g_hash_table_unref(attributes);
}

static void report(const char *phase, int count, double started) {
    printf("%s\t%d\t%.3f\n", phase, count, (now_us() - started) / (count > 0 ? count : 1));
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s COUNT SERVICE [store|lookup|lookup-again|remove|removeall]…\n", argv[0]);
        return 64;
    }
    int count = atoi(argv[1]);
    service = argv[2];
    const char *all[] = { "store", "lookup", "remove", "removeall" };
    const char **phases = argc > 3 ? (const char **)argv + 3 : all;
    int phase_count = argc > 3 ? argc - 3 : 4;

    /* Opening the backend (D-Bus session or the file and its key) is not part of
     * any operation: a lookup of nothing opens it, untimed. */
    GError *error = NULL;
    GHashTable *nothing = identity(-1);
    g_free(secret_password_lookupv_sync(schema, nothing, NULL, &error));
    if (error != NULL) {
        die("open", -1, error);
    }
    g_hash_table_unref(nothing);

    int present = 0; /* whether records 0..<count are stored now */
    for (int p = 0; p < phase_count; p++) {
        const char *phase = phases[p];
        double started;
        if (strcmp(phase, "store") == 0) {
            started = now_us();
            store_all(count);
            present = 1;
        } else if (strcmp(phase, "lookup") == 0) {
            started = now_us();
            lookup_all(count);
        } else if (strcmp(phase, "lookup-again") == 0) {
            /* The same as lookup: libsecret remembers nothing between lookups. The
             * untimed first pass keeps the phase alike to keyring-compare's. */
            lookup_all(count);
            started = now_us();
            lookup_all(count);
        } else if (strcmp(phase, "remove") == 0) {
            started = now_us();
            remove_each(count);
            present = 0;
        } else if (strcmp(phase, "removeall") == 0) {
            if (!present) {
                store_all(count);
            }
            started = now_us();
            remove_all(count);
            present = 0;
        } else {
            fprintf(stderr, "libsecret-bench: unknown phase %s\n", phase);
            return 64;
        }
        report(phase, count, started);
    }
    return 0;
}
