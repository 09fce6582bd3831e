#include "CLibSecretShims.h"

#include <errno.h>
#include <sys/inotify.h>
#include <unistd.h>

/* The changes to the files in a folder, seen through inotify and counted once
 * per process, however many stores watch that folder: an inotify instance per
 * store would run into the user's limit on them (128 by default, shared with
 * every other program of the user) in a process that opens many stores. */
struct SwiftKeyringFolderWatch {
    gchar *path;
    int descriptor;
    guint events;     /* reads that returned events; under folders_lock */
    gboolean lost;    /* the folder itself went away: nothing seen here is trusted */
    guint users;      /* change watches holding this one; under folders_lock */
};

/* Every folder watched in this process. One lock for the list and for every
 * count, so that a reader who finds the queue empty waits until another reader
 * has counted the events it took, and never reads a count that misses them. */
static GMutex folders_lock;
static GSList *folders;

SwiftKeyringFolderWatch *swift_keyring_folder_watch_open(const gchar *path) {
    g_mutex_lock(&folders_lock);
    for (GSList *link = folders; link != NULL; link = link->next) {
        SwiftKeyringFolderWatch *folder = link->data;
        if (!folder->lost && g_str_equal(folder->path, path)) {
            folder->users++;
            g_mutex_unlock(&folders_lock);
            return folder;
        }
    }
    SwiftKeyringFolderWatch *folder = NULL;
    int descriptor = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    /* Every way a file there can change: written in place (as gnome-keyring
     * writes), created, removed or renamed; and the folder itself going. */
    const uint32_t events = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;
    if (descriptor >= 0 && inotify_add_watch(descriptor, path, events) >= 0) {
        folder = g_new0(SwiftKeyringFolderWatch, 1);
        folder->path = g_strdup(path);
        folder->descriptor = descriptor;
        folder->users = 1;
        folders = g_slist_prepend(folders, folder);
    } else if (descriptor >= 0) {
        close(descriptor);
    }
    g_mutex_unlock(&folders_lock);
    return folder;
}

void swift_keyring_folder_watch_close(SwiftKeyringFolderWatch *folder) {
    g_mutex_lock(&folders_lock);
    if (--folder->users == 0) {
        folders = g_slist_remove(folders, folder);
        close(folder->descriptor);
        g_free(folder->path);
        g_free(folder);
    }
    g_mutex_unlock(&folders_lock);
}

gboolean swift_keyring_folder_watch_count(SwiftKeyringFolderWatch *folder, guint *events) {
    union {
        struct inotify_event event;
        char bytes[4096];
    } buffer;
    g_mutex_lock(&folders_lock);
    gboolean changed = FALSE;
    for (;;) {
        ssize_t length = read(folder->descriptor, buffer.bytes, sizeof buffer.bytes);
        if (length < 0 && errno == EINTR)
            continue;
        if (length <= 0)
            break;
        changed = TRUE;
        for (ssize_t offset = 0; offset < length;) {
            const struct inotify_event *event = (const struct inotify_event *)(buffer.bytes + offset);
            if (event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
                folder->lost = TRUE;
            offset += (ssize_t)(sizeof(struct inotify_event) + event->len);
        }
    }
    if (changed)
        folder->events++;
    *events = folder->events;
    gboolean trusted = !folder->lost;
    g_mutex_unlock(&folders_lock);
    return trusted;
}
