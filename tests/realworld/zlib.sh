# tests/realworld/zlib.sh - zlib (Debian source package zlib): its own
# ./configure, make, and its own test suite `make test` (example and
# minigzip against the static libz.a, examplesh and minigzipsh against
# libz.so, example64/minigzip64 with the 64-bit file offsets).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

SRC_PKG_zlib=zlib

prepare_zlib() {
    rm -rf "$RW/prep/zlib"
    mkdir -p "$RW/prep"
    cp -a "$RW/src/zlib" "$RW/prep/zlib"
}

# configure reads CC and CFLAGS from the environment; -j1: the two builds
# of a configuration already run side by side.
build_zlib() {
    CC=$1 CFLAGS=$2 ./configure && make -j1
}

# configure's findings (Checking for ...: Yes/No, and the flags it chose)
config_zlib() {
    grep -i '^Checking' configure.log
    sed -n 's/^CFLAGS=//p; s/^SFLAGS=//p; s/^LDSHARED=//p' Makefile
}

test_zlib() {
    make -j1 test
}
