# tests/realworld/sqlite.sh - SQLite (Debian source package sqlite3).
#
# The amalgamation (sqlite3.c, shell.c) is generated once from the Debian
# tree by its own configure and make (plain gcc and tclsh: these are build
# tools, not the code under test) and kept in $RW/amalg.  Each
# configuration then compiles sqlite3.c with the flags Debian's
# debian/rules gives it (plus -Wall) into the sqlite3 shell and
# speedtest1, SQLite's own test program (test/speedtest1.c), with
# tests/realworld/sqlite.mk.  The test suite: tests/realworld/sqlite/queries.sql
# run by the shell (tables, thousands of rows in transactions, indexes,
# joins, aggregates, window functions, recursive CTEs, triggers, views,
# JSON, FTS5, R*Tree; output in tests/realworld/sqlite/expected after the
# speedtest1 part), then speedtest1 --verify, which runs its test sets and
# prints a hash of every result row.  SQLite's own Tcl test suite needs a
# testfixture binary and hours: it is not run.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

SRC_PKG_sqlite=sqlite3
EXPECTED_sqlite=$HERE/sqlite/expected

prepare_sqlite() {
    if [ ! -f "$RW/amalg/sqlite3.c" ]; then
        command -v tclsh >/dev/null || { echo "tclsh missing (Debian package tcl)"; return 1; }
        rm -rf "$RW/amalg" "$RW/amalg.tmp"
        cp -a "$RW/src/sqlite" "$RW/amalg.tmp"
        (cd "$RW/amalg.tmp" && CC=gcc ./configure && make -j2 sqlite3.c shell.c) || return 1
        mkdir -p "$RW/amalg"
        cp "$RW/amalg.tmp/sqlite3.c" "$RW/amalg.tmp/sqlite3.h" "$RW/amalg.tmp/shell.c" \
           "$RW/amalg.tmp/test/speedtest1.c" "$RW/amalg/"
        rm -rf "$RW/amalg.tmp"
    fi
    rm -rf "$RW/prep/sqlite"
    mkdir -p "$RW/prep/sqlite"
    cp "$RW/amalg/"* "$RW/prep/sqlite/"
    cp "$HERE/sqlite.mk" "$RW/prep/sqlite/Makefile"
}

build_sqlite() {
    make -j1 CC="$1" MYCFLAGS="$2"
}

test_sqlite() {
    local st=0 t
    rm -f test.db
    ./sqlite3 -batch -bail test.db <"$HERE/sqlite/queries.sql" || st=1
    # --size: small (the instrumented speedtest1 runs 10 to 100 times slower:
    # every pthread_mutex_lock is an event; docs/realworld.md)
    for t in main:1 cte:5 rtree:1 orm:1 fp:2; do
        echo "== speedtest1 --testset ${t%:*} --size ${t#*:}"
        ./speedtest1 --verify --size "${t#*:}" --testset "${t%:*}" --nomemstat "test-${t%:*}.db" || st=1
    done
    return $st
}

# speedtest1 prints each test's time ("....   0.123s") and the total; the
# times differ from run to run, nothing else does.
normalise_sqlite() {
    sed -E 's/ *[0-9]+\.[0-9]+s$/ TIME/'
}
