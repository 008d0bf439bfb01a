# tests/realworld/pigz.sh - pigz (Debian source package pigz), parallel
# gzip: one thread reads, up to N threads compress blocks (zlib's deflate,
# or the bundled zopfli with -11), one writes and checks; threads,
# mutexes and condition variables through its own yarn.c over pthreads.
#
# pigz comes from trixie (2.8-1): bookworm's pigz 2.6-1 lists files that
# the Debian mirror this was written on answers 404 for.  Debian builds it
# with upstream's Makefile and its own flags (debian/rules: hardening=+all,
# LDFLAGS with -lz); so does this recipe, against the system's zlib (not
# instrumented; its libz.a in the static configurations).  The test suite:
# upstream's `make test`, then round trips with -p 1, 2, 4 and 8 threads
# through pigz and unpigz on a 5 MB file, in several formats (gzip, zlib,
# zip, -i independent blocks, --rsyncable, -b 64; -11 zopfli with -p 1
# and 2 on 180 kB), each compressed
# file's SHA-256 printed (so the plugin build's output must be byte for
# byte the reference's) and each decompressed by unpigz and by gzip and
# compared with the input.  The -p 4 run writes mt-p4.ppr (MTRECORD_pigz).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

SRC_PKG_pigz=pigz
SRC_SUITE_pigz=trixie
STATIC_pigz=1
MTRECORD_pigz=mt-p4.ppr

prepare_pigz() {
    rm -rf "$RW/prep/pigz"
    mkdir -p "$RW/prep"
    cp -a "$RW/src/pigz" "$RW/prep/pigz"
}

# Debian's flags (dpkg-buildflags with hardening=+all on bookworm, the
# optimisation and -g replaced by the configuration's), upstream's warnings.
build_pigz() {
    make -j1 CC="$1" \
        CFLAGS="$2 -Wall -Wextra -Wno-unknown-pragmas -Wcast-qual -fstack-protector-strong -fstack-clash-protection -fcf-protection -Wformat -Werror=format-security" \
        CPPFLAGS="-Wdate-time -D_FORTIFY_SOURCE=2" \
        LDFLAGS="-lz -Wl,-z,relro -Wl,-z,now ${3:-}"
}

test_pigz() {
    local st=0 n i f z
    make -j1 test || st=1
    # 5 MB of text: pigz's sources and a number table, repeated
    mkdir -p mt && cd mt || return 1
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
        cat ../pigz.c ../yarn.c ../pigz.1
        seq "$((i * 20000))" "$((i * 20000 + 15000))"
    done >data
    head -c 180000 data >small
    # the gzip and zip headers hold the file's time: the same in both trees
    touch -d @1700000000 data small
    echo "input: $(wc -c <data) bytes, $(sha256sum <data | cut -c1-64)"
    for n in 1 2 4 8; do
        for f in "" -z -K -i --rsyncable "-b 64 -9" -1; do
            z=out.p$n
            if [ "$n" = 4 ] && [ -z "$f" ]; then
                PERFPRED_RECORD=$PWD/../mt-p4.ppr ../pigz -p "$n" $f -c data >"$z" || { echo "pigz -p $n $f: status $?"; st=1; }
            else
                ../pigz -p "$n" $f -c data >"$z" || { echo "pigz -p $n $f: status $?"; st=1; }
            fi
            echo "pigz -p $n${f:+ $f}: $(sha256sum <"$z" | cut -c1-64)"
            ../unpigz -p "$n" -c "$z" | cmp - data || { echo "unpigz -p $n: not the input"; st=1; }
            case $f in
                -z|-K) ;;
                *) gzip -dc "$z" | cmp - data || { echo "gzip -d: not the input"; st=1; } ;;
            esac
        done
    done
    # zopfli (-11): pigz's own compression code (instrumented; 4 times
    # slower with the plugin), two blocks of 128 KiB
    for n in 1 2; do
        ../pigz -p "$n" -11 -c small >out.z$n || st=1
        echo "pigz -p $n -11: $(sha256sum <out.z$n | cut -c1-64)"
        gzip -dc out.z$n | cmp - small || { echo "gzip -d (-11): not the input"; st=1; }
    done
    ../pigz -t out.p4 out.z2 && echo "pigz -t: ok" || st=1
    rm -f data small out.*
    return $st
}
