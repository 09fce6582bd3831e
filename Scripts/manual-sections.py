#!/usr/bin/env python3
"""Finishes the page swift-argument-parser's generate-manual wrote (Scripts/generate-manual.sh).

- A blank line of a help text becomes `.Pp`: mdoc warns of every empty input line.
- The indented example lines of a help text become one `.Bd -literal` block each, with their
  backslashes escaped, so `man` neither joins nor wraps them and a line ending in `\\` shows it.
- The generator's one-line EXIT STATUS (`.Ex -std`: ">0 if an error occurs") is replaced by
  ENVIRONMENT, FILES, EXIT STATUS and SEE ALSO below. Every SWIFT_KEYRING_* variable the
  sources read must be in ENVIRONMENT, and every status of ExitStatus.swift in EXIT STATUS,
  or this fails naming the ones missing.
"""
import pathlib
import re
import sys

ENVIRONMENT = [
    ("SWIFT_KEYRING_SERVICE", "The app's namespace, as --service; \\(lqdefault\\(rq when unset (git's helper: \\(lqgit-credential\\(rq)."),
    ("SWIFT_KEYRING_BACKEND", "The store, as --backend: auto (the default), secret-service, file, libsecret-file, kernel, memory or etcd."),
    ("SWIFT_KEYRING_FILE", "The encrypted keyring file, as --file; else $XDG_DATA_HOME/swift-keyring/keyring.skr (~/.local/share/swift-keyring/keyring.skr). Set it on servers, so the place does not depend on HOME."),
    ("SWIFT_KEYRING_PASSPHRASE", "The encrypted file's passphrase. Any process of the same user can read it in /proc/PID/environ: prefer a file."),
    ("SWIFT_KEYRING_PASSPHRASE_FILE", "A file holding the passphrase (one final newline is dropped)."),
    ("SWIFT_KEYRING_KEY_FILE", "A file of exactly 32 random bytes, used as the file's key without Argon2id. Key and passphrase files must be yours or root's and readable by their owner only (0600 or 0400); symbolic links are followed only through folders of root or yours that nobody else may write (a Kubernetes Secret volume)."),
    ("SWIFT_KEYRING_NEW_PASSPHRASE", "The new passphrase of passwd, instead of a prompt."),
    ("SWIFT_KEYRING_LIBSECRET_FILE", "libsecret's keyring file for --backend libsecret-file; else $XDG_DATA_HOME/keyrings/default.keyring."),
    ("SWIFT_KEYRING_LIBSECRET_KEY", "What keys libsecret's file: auto, portal or passphrase."),
    ("SWIFT_KEYRING_KERNEL_KEYRING", "The kernel keyring of --backend kernel: persistent (the default) or session."),
    ("SWIFT_KEYRING_COLLECTION", "The Secret Service collection, as --collection, by alias, label or path."),
    ("SWIFT_KEYRING_SESSION_FALLBACK", "true: with no default collection, use the session collection (gone at logout), as --session-fallback."),
    ("SWIFT_KEYRING_PROMPT_TIMEOUT", "Seconds to wait at an unlock prompt, as --prompt-timeout (120 by default)."),
    ("SWIFT_KEYRING_SYNC_STORE", "The shared store of the records with the sync flag, as --sync-store: etcd or none."),
    ("SWIFT_KEYRING_LOG_LEVEL", "How much the library logs to standard error: trace, debug, info, notice, warning (the default), error or critical."),
    ("SWIFT_KEYRING_ETCD_ENDPOINTS", "The etcd members' client URLs, comma-separated, as --etcd-endpoints."),
    ("SWIFT_KEYRING_ETCD_PREFIX", "The etcd key prefix the records live under."),
    ("SWIFT_KEYRING_ETCD_USER", "The etcd user to authenticate as."),
    ("SWIFT_KEYRING_ETCD_PASSWORD_FILE", "A file holding that user's password (the same rule as a key file)."),
    ("SWIFT_KEYRING_ETCD_CA_FILE", "The certificate authority etcd's TLS certificates are checked against."),
    ("SWIFT_KEYRING_ETCD_CERT_FILE", "The client certificate for etcd's TLS."),
    ("SWIFT_KEYRING_ETCD_KEY_FILE", "The client certificate's private key."),
    ("SWIFT_KEYRING_ETCD_ALLOW_INSECURE_AUTH", "true: send the etcd password over plain http (refused otherwise)."),
    ("SWIFT_KEYRING_ETCD_PROXY", "The proxy for etcd's connections (none by default)."),
    ("SWIFT_KEYRING_ETCD_STATE_DIR", "Where this host keeps what it has seen of the cluster."),
    ("CREDENTIALS_DIRECTORY", "Set by systemd (LoadCredential=): its swift-keyring.passphrase is the encrypted file's passphrase."),
    ("DBUS_SESSION_BUS_ADDRESS", "The session bus the Secret Service is reached on; without one, auto chooses the encrypted file."),
    ("DISPLAY, WAYLAND_DISPLAY", "Whether the Secret Service's unlock prompt can be shown; without either, a locked collection is unlocked with swift-keyring unlock."),
    ("XDG_DATA_HOME", "Where the default files live (~/.local/share when unset)."),
]

FILES = [
    ("$XDG_DATA_HOME/swift-keyring/keyring.skr", "The encrypted keyring file (mode 0600, in a 0700 folder), with keyring.skr.lock beside it."),
    ("$XDG_DATA_HOME/keyrings/default.keyring", "libsecret's keyring file, for --backend libsecret-file."),
    ("$CREDENTIALS_DIRECTORY/swift-keyring.passphrase", "The passphrase systemd hands a service."),
    ("/proc/keys", "The session keyring's keys, where unlock keeps a derived key (never the passphrase) until lock or its time."),
]

STATUSES = [
    ("0", "Success."),
    ("1", "No such record."),
    ("64", "Usage error: a bad option or argument (an unexpected one is not repeated), or a bad SWIFT_KEYRING_* setting."),
    ("65", "Invalid input: a URL that is not http or https, an empty username, a password that is empty (unless --allow-empty-password), longer than 1 MiB or not UTF-8."),
    ("69", "The store is unavailable or locked, a prompt was dismissed or unanswered, a timeout, no such collection, or a daemon that cannot unlock with a password."),
    ("74", "Damaged stored data (the message names which file or record): put back a backup, or move the file aside (its records are then lost)."),
    ("75", "Partial: list could not reach the shared store and shows this machine's records only."),
    ("77", "A wrong or missing passphrase or key (or a password unlock was refused), or a file or folder others could read or change."),
]

SEE_ALSO = [("git-credential", "1"), ("gitcredentials", "7"), ("secret-tool", "1"), ("gnome-keyring-daemon", "1"),
            ("systemd.exec", "5"), ("keyrings", "7")]


def finish(lines):
    out = []
    example = []

    def flush():
        if example:
            out.append(".Bd -literal -offset indent")
            for line in example:
                line = line.replace("\\", "\\e")
                out.append("\\&" + line if line.startswith((".", "'")) else line)
            out.append(".Ed")
            example.clear()

    for line in lines:
        if line.startswith("\\& \\& "):
            example.append(line[len("\\& \\& "):])
            continue
        if line.startswith("  ") and not line.startswith("."):
            example.append(line[2:])
            continue
        flush()
        if line == "":
            if out and out[-1] not in (".Pp",) and not out[-1].startswith((".Bl", ".Sh")):
                out.append(".Pp")
            continue
        out.append(line)
    flush()
    # A paragraph mark right before an example block or the end of a list says nothing.
    cleaned = []
    for index, line in enumerate(out):
        following = out[index + 1] if index + 1 < len(out) else ""
        if line == ".Pp" and following.startswith((".Bd", ".El", ".It", ".Sh", ".Pp")):
            continue
        cleaned.append(line)
    return cleaned


def tagged(items, literal=False):
    lines = [".Bl -tag -width Ds"]
    for name, text in items:
        lines += [(".It Pa " if literal else ".It Ev ") + name if not name.isdigit() else ".It " + name, text]
    return lines + [".El"]


def main():
    page = pathlib.Path(sys.argv[1])
    root = page.resolve().parents[2]
    lines = page.read_text().split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    if lines and lines[-1] == ".Ex -std":
        lines.pop()
    if lines and lines[-1] == '.Sh "EXIT STATUS"':
        lines.pop()
    lines = finish(lines)

    read = set()
    for source in (root / "Sources").rglob("*.swift"):
        read.update(re.findall(r"SWIFT_KEYRING_[A-Z_]*[A-Z]", source.read_text()))
    # The C shim's constants share the prefix, and etcd's names are also built from "SWIFT_KEYRING_ETCD_".
    read = {name for name in read if not name.startswith(("SWIFT_KEYRING_KEYCTL_", "SWIFT_KEYRING_KEY_SPEC_"))}
    read.discard("SWIFT_KEYRING_ETCD")
    named = {name for entry, _ in ENVIRONMENT for name in entry.split(", ")}
    missing = sorted(name for name in read if name not in named)
    statuses = set(re.findall(r"ExitCode\((\d+)\)", (root / "Sources/KeyringCommandLine/ExitStatus.swift").read_text()))
    statuses.update({"0"})
    missing += sorted(f"status {status}" for status in statuses - {number for number, _ in STATUSES})
    if missing:
        sys.exit("manual-sections.py: the page does not describe " + ", ".join(missing))

    lines += [".Sh ENVIRONMENT"] + tagged(ENVIRONMENT)
    lines += [".Sh FILES"] + tagged(FILES, literal=True)
    lines += ['.Sh "EXIT STATUS"', "Statuses follow sysexits.h, so scripts can tell failures apart:"] + tagged(STATUSES)
    lines += [".Sh SEE ALSO"]
    for index, (name, section) in enumerate(SEE_ALSO):
        lines.append(f".Xr {name} {section}" + (" ," if index < len(SEE_ALSO) - 1 else ""))
    lines.append("README.md and docs/CLI.md in the source package.")
    page.write_text("\n".join(lines) + "\n")


main()
