# tests/realworld/lua.mk - Lua 5.4 as upstream's `make linux-noreadline`
# builds it (src/Makefile of lua-5.4.x: the same objects, flags and
# libraries), for tests/realworld/lua.sh; CC and MYCFLAGS (the -O level
# and -g) come from the command line.
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

CC       = gcc
MYCFLAGS = -O2
CFLAGS   = -std=gnu99 $(MYCFLAGS) -Wall -Wextra -DLUA_COMPAT_5_3 -DLUA_USE_LINUX
LIBS     = -lm -Wl,-E -ldl

CORE_O = lapi.o lcode.o lctype.o ldebug.o ldo.o ldump.o lfunc.o lgc.o llex.o lmem.o \
         lobject.o lopcodes.o lparser.o lstate.o lstring.o ltable.o ltm.o lundump.o \
         lvm.o lzio.o
LIB_O  = lauxlib.o lbaselib.o lcorolib.o ldblib.o liolib.o lmathlib.o loadlib.o \
         loslib.o lstrlib.o ltablib.o lutf8lib.o linit.o

all: lua luac

liblua.a: $(CORE_O) $(LIB_O)
	ar rc $@ $^
	ranlib $@

lua: lua.o liblua.a
	$(CC) -o $@ lua.o liblua.a $(LIBS)

luac: luac.o liblua.a
	$(CC) -o $@ luac.o liblua.a $(LIBS)

%.o: %.c
	$(CC) $(CFLAGS) -c $< -o $@
