/* A stand-in for the person at the screen, for the unlock prompt tests.
 *
 * Runs gcr's mock system prompter on the session bus of its environment and
 * prints the prompter's bus name on one line; gnome-keyring-daemon sends its
 * prompts there when started with GNOME_KEYRING_TEST_PROMPTER set to it.
 *
 *   mock-prompter DELAY_MS < answers
 *
 * DELAY_MS is how long "the person" takes to answer each prompt. Standard
 * input holds one answer a line, used in order: "password" followed by a
 * space and the password to type, or "cancel" to dismiss the prompt. Reading
 * the password from standard input keeps it out of the process list. With no
 * answers left, a prompt is left open: the person never answers. It runs
 * until killed.
 *
 * Built by Scripts/build-mock-prompter.sh, not by SwiftPM: users of the
 * library never need gcr. */
#define GCR_API_SUBJECT_TO_CHANGE 1
#include <gcr/gcr-base.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Longer than any test runs: a prompt with no answer left stays open. */
#define NEVER_MS (3600u * 1000u)

int main(int argc, char **argv) {
    char line[4096];
    const gchar *name;
    guint delay;
    guint answers = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: %s DELAY_MS < answers\n", argv[0]);
        return 64;
    }
    /* Ends with whatever started it (a test that crashed, the script's shell),
     * rather than outliving its bus. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    delay = (guint)strtoul(argv[1], NULL, 10);
    name = gcr_mock_prompter_start();
    if (name == NULL) {
        fprintf(stderr, "%s: could not register on the session bus\n", argv[0]);
        return 70;
    }
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "password ", 9) == 0)
            gcr_mock_prompter_expect_password_ok(line + 9, NULL);
        else if (strcmp(line, "cancel") == 0)
            gcr_mock_prompter_expect_password_cancel();
        else if (line[0] != '\0') {
            fprintf(stderr, "%s: unknown answer (expected \"password …\" or \"cancel\")\n", argv[0]);
            return 65;
        } else
            continue;
        answers++;
    }
    memset(line, 0, sizeof line);
    /* The mock's delay applies to every prompt; with no answer queued, a prompt
     * would be refused at once, so "never answers" is a delay nobody waits out. */
    gcr_mock_prompter_set_delay_msec(answers > 0 ? delay : NEVER_MS);
    printf("%s\n", name);
    fflush(stdout);
    for (;;)
        pause();
}
