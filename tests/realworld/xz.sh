# tests/realworld/xz.sh - XZ Utils (Debian source package xz-utils):
# liblzma and the xz command, whose multithreaded encoder (xz -T N: the
# input cut into blocks, one worker thread per block, mutexes and
# condition variables over pthreads) and decoder (5.4: xz -d -T N) are the
# code under test.
#
# Built by its own configure (CC, CFLAGS, CPPFLAGS, LDFLAGS with Debian's
# hardening flags, debian/rules' normal build: --enable-threads
# --disable-static --disable-xzdec --disable-lzmadec; and --disable-nls
# --disable-doc: no translations, no installed docs) and libtool, liblzma
# as a shared library that xz and the tests use.  Linked statically
# (LDFLAGS -static), liblzma is built static only (--disable-shared, as
# Debian's static build) and the programs are linked with libtool's
# -all-static, so that gcc gets -static: xz and the test programs are
# static executables.  The test suite: its `make check` (liblzma's unit tests,
# test_files.sh over the tests/files corpus, test_compress.sh, the
# xzgrep/xzdiff scripts), then compress/decompress round trips with -T 1,
# 2, 4 and 8 at several presets and block sizes on a 1.9 MB file, each
# output's SHA-256 printed (the plugin build's must be byte for byte the
# reference's) and decompressed again with the same thread count.  The
# run `xz -T4 -1 --block-size=262144` writes mt-T4.ppr (MTRECORD_xz).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

SRC_PKG_xz=xz-utils
STATIC_xz=1
MTRECORD_xz=mt-T4.ppr

prepare_xz() {
    rm -rf "$RW/prep/xz"
    mkdir -p "$RW/prep"
    cp -a "$RW/src/xz" "$RW/prep/xz"
}

build_xz() {
    local link="--disable-static" mkld=""
    if [ "${3:-}" = -static ]; then
        link="--disable-shared"
        mkld="LDFLAGS=-Wl,-z,relro -Wl,-z,now -all-static"
    fi
    # make check links the tests: the same LDFLAGS (test_xz reads them)
    printf '%s\n' "$mkld" >rw-make-ldflags
    CC=$1 CFLAGS="$2 -fstack-protector-strong -fstack-clash-protection -fcf-protection -Wformat -Werror=format-security" \
        CPPFLAGS="-Wdate-time -D_FORTIFY_SOURCE=2" LDFLAGS="-Wl,-z,relro -Wl,-z,now ${3:-}" \
        ./configure --enable-threads $link --disable-xzdec --disable-lzmadec --disable-nls --disable-doc &&
        make -j1 ${mkld:+"$mkld"}
}

# what configure decided: config.h, and the libtool variables that say
# what is built and how it is linked
config_xz() {
    grep '^#define' config.h
    grep -E '^(build_libtool_libs|build_old_libs|link_all_deplibs|hardcode_libdir_flag_spec)=' libtool
}

test_xz() {
    local st=0 n i f z xz=../src/xz/xz mkld
    mkld=$(cat rw-make-ldflags)
    make -j1 ${mkld:+"$mkld"} check || st=1
    mkdir -p mt && cd mt || return 1
    for i in 1 2 3 4 5 6 7 8; do
        cat ../src/liblzma/lzma/lzma_encoder.c ../src/xz/file_io.c ../src/xz/xz.1
        seq "$((i * 20000))" "$((i * 20000 + 15000))"
    done >data
    echo "input: $(wc -c <data) bytes, $(sha256sum <data | cut -c1-64)"
    for n in 1 2 4 8; do
        for f in "-1 --block-size=262144" "-0" "-2 --check=sha256 --block-size=1000000" \
                 "-3e --block-size=524288" "--format=xz --check=none -1 --block-size=65536"; do
            z=out.T$n
            # recorded: 8 blocks, so 4 worker threads (xz starts them as
            # the blocks come)
            if [ "$n" = 4 ] && [ "$f" = "-1 --block-size=262144" ]; then
                PERFPRED_RECORD=$PWD/../mt-T4.ppr $xz -T$n $f -c data >"$z" || { echo "xz -T$n $f: status $?"; st=1; }
            else
                $xz -T$n $f -c data >"$z" || { echo "xz -T$n $f: status $?"; st=1; }
            fi
            echo "xz -T$n $f: $(sha256sum <"$z" | cut -c1-64)"
            $xz -d -T$n -c "$z" | cmp - data || { echo "xz -d -T$n: not the input"; st=1; }
        done
        $xz -l out.T$n | sed 's/  */ /g'
    done
    rm -f data out.*
    return $st
}
