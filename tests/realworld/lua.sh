# tests/realworld/lua.sh - Lua 5.4 (Debian source package lua5.4).
#
# Debian builds Lua with libtool and a C++ variant of the library
# (debian/patches/0001-build-system.patch); this recipe builds what
# upstream's `make linux-noreadline` builds (liblua.a, lua, luac; the same
# sources, with Debian's other patches applied) with tests/realworld/lua.mk.
# Neither the Debian package nor the upstream tarball it comes from holds
# Lua's test suite (lua-5.4.x-tests is a separate download), so the test
# suite is ours: tests/realworld/lua/*.lua, scripts over the language and
# its standard libraries with known output (tests/realworld/lua/expected),
# run by the interpreter both as source and precompiled by luac.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

SRC_PKG_lua=lua5.4
EXPECTED_lua=$HERE/lua/expected

prepare_lua() {
    rm -rf "$RW/prep/lua"
    mkdir -p "$RW/prep/lua"
    cp -a "$RW/src/lua/src" "$RW/prep/lua/src"
    cp "$HERE/lua.mk" "$RW/prep/lua/src/Makefile.realworld"
    # Debian's luaconf.h includes this header, which debian/rules writes
    local ma
    ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
        "$ma" >"$RW/prep/lua/src/lua5.4-deb-multiarch.h"
}

build_lua() {
    make -j1 -C src -f Makefile.realworld CC="$1" MYCFLAGS="$2"
}

# Every script of tests/realworld/lua, in name order, from source and
# through luac (which also exercises the dump and undump code).
test_lua() {
    local f st=0 t
    t=$(pwd)
    # run in a copy: the records are written in the working directory
    mkdir -p "$t/suite" && cp "$HERE"/lua/*.lua "$t/suite/" && cd "$t/suite" || return 1
    for f in *.lua; do
        echo "== $f"
        "$t/src/lua" "$f" || { echo "status $?"; st=1; }
        echo "== $f (luac)"
        "$t/src/luac" -o "$t/out.luac" "$f" && "$t/src/lua" "$t/out.luac" || { echo "status $?"; st=1; }
    done
    return $st
}
