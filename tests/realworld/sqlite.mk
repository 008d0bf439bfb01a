# tests/realworld/sqlite.mk - the sqlite3 shell and speedtest1 from the
# amalgamation, for tests/realworld/sqlite.sh; CC and MYCFLAGS (the -O
# level and -g) come from the command line.  DEFS are Debian's
# (debian/rules: CFLAGS and configure's --enable-fts4 --enable-fts5
# --enable-json --enable-threadsafe --enable-load-extension, math on).
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

CC       = gcc
MYCFLAGS = -O2
DEFS     = -fno-strict-aliasing -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_COLUMN_METADATA \
           -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_RTREE=1 \
           -DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_UNLOCK_NOTIFY -DSQLITE_OMIT_LOOKASIDE=1 \
           -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ALLOW_ROWID_IN_VIEW \
           -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1 -DSQLITE_ENABLE_LOAD_EXTENSION \
           -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS \
           -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 -DHAVE_READLINE=0
CFLAGS   = $(MYCFLAGS) -Wall $(DEFS)
LIBS     = -lm -ldl -lpthread

all: sqlite3 speedtest1

sqlite3: shell.o sqlite3.o
	$(CC) -o $@ shell.o sqlite3.o $(LIBS)

speedtest1: speedtest1.o sqlite3.o
	$(CC) -o $@ speedtest1.o sqlite3.o $(LIBS)

%.o: %.c sqlite3.h
	$(CC) $(CFLAGS) -c $< -o $@
