#!/usr/bin/env bash
# The release build of the executables, as the README gives it: `swift-keyring`,
# `git-credential-swift-keyring` and `docker-credential-swift-keyring` unless other `swift build` arguments are given (they are
# passed on: `--product NAME`, `--scratch-path DIR`, `--show-bin-path`). Every flag is
# about the start of a short process (Benchmarks/BENCHMARKS.md, "the tool's start"):
#   --static-swift-stdlib        the Swift runtime linked in, not loaded from shared objects;
#   --disable-local-rpath        no $ORIGIN run path: the loader would look for libc, libm,
#                                libstdc++ and every library opened later in the build folder first;
#   -disable-concrete-type-metadata-mangled-name-accessors
#                                generic types' metadata made by direct calls, not by the
#                                runtime demangling their names on first use;
#   -fuse-ld=lld, -z pack-relative-relocs
#                                the executable's tens of thousands of relative relocations
#                                kept in a few KB (DT_RELR, glibc 2.36) instead of 1 MB that
#                                the loader reads through at every start; lld ships with the
#                                toolchain, and the default gold cannot write them;
#   --no-export-dynamic          the library modules' public symbols kept out of the dynamic
#                                symbol table, which the runtime reads through at start;
#   -function-sections, --symbol-ordering-file
#                                the functions and data a start touches laid out together, in
#                                the order of Scripts/start-order.txt (Scripts/start-order.sh
#                                writes it), so that a `get` faults in a few pages of code
#                                rather than one per 64 KB of the program; -function-sections
#                                gives each of the package's functions a section the linker
#                                can move. Names the list has that the program lacks (after
#                                a rename) are skipped: only speed is lost;
#   -L.build-cxx, -static-libgcc
#                                the C++ runtime the Swift runtime calls (libstdc++, libgcc)
#                                linked in, not loaded: loading libstdc++.so and libgcc_s.so and
#                                binding their own symbols is most of what any such Swift
#                                program runs before main (1.6M of an empty program's 2.0M
#                                instructions). The toolchain names `-lstdc++` itself
#                                (static-stdlib-args.lnk), so the linker is shown a folder,
#                                searched before the compiler's, that holds only a link to the
#                                compiler's libstdc++.a (libstdc++-12-dev, which Swift needs
#                                anyway). No library the tools open (libgcrypt, libcurl and its
#                                own) uses libstdc++; one that did would load its own copy, as
#                                the archive's symbols are not exported.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(cc -print-file-name=libstdc++.a)
case "$archive" in
/*) ;;
*)
    echo "$0: the compiler has no libstdc++.a (Debian: libstdc++-12-dev)" >&2
    exit 1
    ;;
esac
mkdir -p .build-cxx
ln -sfn "$archive" .build-cxx/libstdc++.a
flags=(
    -c release --static-swift-stdlib --disable-local-rpath
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
    -Xswiftc "-L$PWD/.build-cxx" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
    -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic
    -Xlinker "--symbol-ordering-file=$PWD/Scripts/start-order.txt" -Xlinker --no-warn-symbol-ordering
)
if [ "$#" -gt 0 ]; then
    exec swift build "${flags[@]}" "$@"
fi
for product in swift-keyring git-credential-swift-keyring docker-credential-swift-keyring; do
    swift build "${flags[@]}" --product "$product"
done
