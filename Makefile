# perfpred - build, test, report, install.
#
#   make            build/perfpred.so, build/libperfpred-rt.{a,so,so.1}, build/perfpred,
#                   build/perfpred-gcc (and perfpred-g++, a link to it)
#   make check      install what is missing, build, run every test
#   make report     install what is missing, build, run the samples, write reports/
#   make install PREFIX=/usr/local
#   make check SANITIZE=1   the same suite with ASan+UBSan on runtime and analyser
#                           (CI=true: make check runs both, the second in build/san)
#   make check-realworld    zlib, Lua and SQLite from Debian's sources built and
#                           tested with the plugin (docs/realworld.md; not in CI)
#
# Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.

CC       ?= gcc
CXX      ?= g++
ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif
B        := build
PREFIX   ?= /usr/local
# chromium: tests/e2e/96-report-html.t opens perfpred report's pages in it
# (headless); it brings its fonts through fontconfig's dependencies.
DEBIAN_PACKAGES := gcc-12-plugin-dev libgmp-dev libgraphviz-dev graphviz libgsl-dev \
                   gnuplot-nox libcmocka-dev libopenmpi-dev openmpi-bin mpich libmpich-dev \
                   pkg-config groff-base chromium
# For tests only: tests/e2e/91-equations.t evaluates `perfpred equations`'
# SymPy and Maxima output with them; installed without their recommended
# packages (Maxima's would bring a GUI toolkit).
DEBIAN_PACKAGES_NOREC := python3-sympy maxima

# For `make check-realworld` only (tests/realworld): dpkg-source unpacks
# Debian's source packages, tclsh generates SQLite's amalgamation, xz and
# bzip2 unpack the tarballs.
REALWORLD_PACKAGES := dpkg-dev tcl xz-utils bzip2

PLUGIN_DIR := $(shell $(CC) -print-file-name=plugin)
OPT      ?= -O2
SANFLAGS :=
ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
WARN     := -Wall -Wextra
CSTD     := -std=c11 -D_GNU_SOURCE
CFLAGS_RT := $(CSTD) $(WARN) $(OPT) -g -fPIC -pthread -fvisibility=hidden $(SANFLAGS)
CFLAGS_AN := $(CSTD) $(WARN) $(OPT) -g -pthread -fopenmp $(SANFLAGS) \
             $(shell pkg-config --cflags libcgraph libgvc gsl 2>/dev/null)
LIBS_AN  := -lgmp $(shell pkg-config --libs libcgraph libgvc gsl 2>/dev/null) -lm -pthread -fopenmp
CXXFLAGS_PL := -std=gnu++17 -fno-rtti -fno-exceptions -fPIC -O2 -g -Wall -Wextra \
               -Wno-unused-parameter -Wno-format-diag -I$(PLUGIN_DIR)/include

PLUGIN_SRC := $(wildcard plugin/*.cc)
RT_SRC     := $(wildcard runtime/*.c)
AN_SRC     := $(wildcard analysis/*.c)
AN_LIBSRC  := $(filter-out analysis/main.c,$(AN_SRC))
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
WRAP_SRC   := $(wildcard wrapper/*.c)

PLUGIN_OBJ := $(PLUGIN_SRC:%.cc=$(B)/obj/%.o)
RT_OBJ     := $(RT_SRC:%.c=$(B)/obj/%.o)
# The MPI wrappers go into the static runtime only (they need libmpi, which
# only MPI programs link; docs/runtime.md, "MPI"): compiled once against
# Open MPI's mpi.h (mpicc) and once against MPICH's (mpicc.mpich: other
# handles, another MPI_Status), each when that MPI is installed.  The two
# objects export different names (__pp_w_MPI_*, __pp_w_mpich_MPI_*) and the
# plugin calls the ones of the program's mpi.h (docs/runtime-abi.md).
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPICH_CC   := $(shell command -v mpicc.mpich 2>/dev/null)
MPICH_CFLAGS := $(if $(MPICH_CC),$(filter -I% -D%,$(shell mpicc.mpich -compile_info 2>/dev/null)))
RT_MPI_OBJ := $(if $(MPI_CFLAGS),$(B)/obj/runtime/mpi/rt-wrap-mpi.o) \
              $(if $(MPICH_CC),$(B)/obj/runtime/mpi/rt-wrap-mpich.o)
# perfpred-mpibench: the MPI benchmark `perfpred calibrate --mpi` runs under
# mpirun (the analyser itself is not linked with MPI); built only with mpicc.
MPIBENCH   := $(if $(MPI_CFLAGS),$(B)/perfpred-mpibench)
AN_OBJ     := $(AN_LIBSRC:%.c=$(B)/obj/%.o)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

PLUGIN_INST := $(PREFIX)/lib/perfpred

.PHONY: all build deps check check-realworld bench report install install-gcc-plugin clean man

all: deps
	@$(MAKE) --no-print-directory $(JOBS) build

build: $(B)/perfpred.so $(B)/libperfpred-rt.a $(B)/libperfpred-rt.so $(B)/libperfpred-rt.so.1 $(B)/perfpred $(MPIBENCH) \
       $(B)/perfpred-gcc $(B)/perfpred-g++ $(B)/libperfpred-rt.dynlist

# ---------------------------------------------------------------- packages
# Installs the Debian packages the project names when they are absent: with
# apt-get when root, otherwise prints the exact command and stops.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	norec=""; for p in $(DEBIAN_PACKAGES_NOREC); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || norec="$$norec $$p"; \
	done; \
	if [ -n "$$missing$$norec" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "perfpred: installing:$$missing$$norec"; \
	    apt-get update -qq || exit 1; \
	    if [ -n "$$missing" ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; fi; \
	    if [ -n "$$norec" ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$norec >/dev/null || exit 1; fi; \
	  else \
	    echo "perfpred: missing Debian packages; run:"; \
	    [ -z "$$missing" ] || echo "  sudo apt-get install -y$$missing"; \
	    [ -z "$$norec" ] || echo "  sudo apt-get install -y --no-install-recommends$$norec"; exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------- plugin
$(B)/obj/plugin/%.o: plugin/%.cc $(wildcard plugin/*.h) | $(B)/obj/plugin
	$(CXX) $(CXXFLAGS_PL) -c $< -o $@

$(B)/perfpred.so: $(PLUGIN_OBJ)
	$(CXX) -shared -o $@ $^

# ---------------------------------------------------------------- runtime
$(B)/obj/runtime/%.o: runtime/%.c $(wildcard runtime/*.h) | $(B)/obj/runtime
	$(CC) $(CFLAGS_RT) -c $< -o $@

$(B)/obj/runtime/mpi/rt-wrap-mpi.o: runtime/mpi/rt-wrap-mpi.c $(wildcard runtime/*.h) | $(B)/obj/runtime/mpi
	$(CC) $(CFLAGS_RT) $(MPI_CFLAGS) -c $< -o $@

$(B)/obj/runtime/mpi/rt-wrap-mpich.o: runtime/mpi/rt-wrap-mpi.c $(wildcard runtime/*.h) | $(B)/obj/runtime/mpi
	$(CC) $(CFLAGS_RT) $(MPICH_CFLAGS) -c $< -o $@

$(B)/libperfpred-rt.a: $(RT_OBJ) $(RT_MPI_OBJ)
	rm -f $@; ar rcs $@ $^

# The shared runtime is libperfpred-rt.so.1.  libperfpred-rt.so is a GNU ld
# script (as Debian's libc.so is) that links the static archive, so that
# `-Lbuild -lperfpred-rt` gives a program that runs without
# LD_LIBRARY_PATH; `-l:libperfpred-rt.so.1` links the shared one.
#
# rt-instance.c is compiled twice: in the shared runtime it makes that copy
# stand aside when the executable has its own (docs/wrapper.md).
RT_SO_OBJ := $(filter-out %/rt-instance.o,$(RT_OBJ)) $(B)/obj/runtime/rt-instance-so.o

$(B)/obj/runtime/rt-instance-so.o: runtime/rt-instance.c $(wildcard runtime/*.h) | $(B)/obj/runtime
	$(CC) $(CFLAGS_RT) -DPP_RT_SHARED_OBJECT -c $< -o $@

$(B)/libperfpred-rt.so.1: $(RT_SO_OBJ)
	$(CC) -shared -pthread -Wl,-soname,libperfpred-rt.so.1 $(SANFLAGS) -o $@ $^

$(B)/libperfpred-rt.so: $(B)/libperfpred-rt.a $(B)/libperfpred-rt.so.1
	printf '/* GNU ld script: -lperfpred-rt links the static runtime (the shared one is libperfpred-rt.so.1) */\nINPUT ( libperfpred-rt.a )\n' > $@

# ---------------------------------------------------------------- wrapper
# perfpred-gcc: gcc with the plugin and the runtime (docs/wrapper.md); as
# perfpred-g++ it runs g++.  It finds them next to itself (here) or in
# PREFIX/lib (installed).
$(B)/obj/wrapper/%.o: wrapper/%.c wrapper/pw.h | $(B)/obj/wrapper
	$(CC) $(CSTD) $(WARN) $(OPT) -g $(SANFLAGS) -c $< -o $@

$(B)/perfpred-gcc: $(WRAP_SRC:%.c=$(B)/obj/%.o)
	$(CC) $(SANFLAGS) -o $@ $^

$(B)/perfpred-g++: $(B)/perfpred-gcc
	ln -sf perfpred-gcc $@

# The runtime's entry points, for the dynamic symbol table of an executable
# that links the static runtime (perfpred-gcc passes -Wl,--dynamic-list=):
# a pattern that GNU ld, gold and lld all take in a dynamic list (gold takes
# none in --export-dynamic-symbol).
$(B)/libperfpred-rt.dynlist:
	printf '/* the runtime entry points an executable exports (docs/wrapper.md) */\n{ __pp_*; };\n' > $@

# ---------------------------------------------------------------- analyser
$(B)/obj/analysis/%.o: analysis/%.c $(wildcard analysis/*.h) | $(B)/obj/analysis
	$(CC) $(CFLAGS_AN) -c $< -o $@

$(B)/libperfpred-an.a: $(AN_OBJ)
	rm -f $@; ar rcs $@ $^

$(B)/perfpred: $(B)/obj/analysis/main.o $(B)/libperfpred-an.a
	$(CC) $(CFLAGS_AN) -o $@ $^ $(LIBS_AN)

# Not sanitized: it runs inside mpirun, and libmpi's own leaks are not ours.
$(B)/perfpred-mpibench: analysis/mpibench/pp-mpibench.c | $(B)/obj/analysis
	mpicc $(CSTD) $(WARN) $(OPT) -o $@ $<

# ---------------------------------------------------------------- tests
# perfpred-gcc's command-line reader, alone
$(B)/tests/test_wrapper_args: tests/unit/test_wrapper_args.c $(B)/obj/wrapper/pw-args.o | $(B)/tests
	$(CC) $(CSTD) $(WARN) $(OPT) -g $(SANFLAGS) -Iwrapper -o $@ $^ -lcmocka

$(B)/tests/%: tests/unit/%.c $(B)/libperfpred-an.a | $(B)/tests
	$(CC) $(CFLAGS_AN) -Ianalysis -o $@ $< $(B)/libperfpred-an.a $(LIBS_AN) -lcmocka

# In CI (CI=true, as .ci/run is run) `make check` runs the suite twice: as
# built for users, then with ASan+UBSan (SANITIZE=1) in $(B)/san.
# CHECK_SANITIZE=1 does the same outside CI, CHECK_SANITIZE=0 skips it.
CHECK_SANITIZE ?= $(if $(filter true,$(CI)),1,0)

# the builds under check and all use every processor unless make was given -j
# (a recursive variable: MAKEFLAGS has -j only when the recipes run)
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

check: deps
	@$(MAKE) --no-print-directory $(JOBS) build $(UNIT_BIN)
	@PERFPRED_BUILD=$(abspath $(B)) SANITIZE=$(SANITIZE) tests/run-tests $(UNIT_BIN)
ifeq ($(CHECK_SANITIZE)$(SANITIZE),1)
	@echo "perfpred: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer ($(B)/san)"
	@$(MAKE) --no-print-directory check SANITIZE=1 B=$(B)/san CHECK_SANITIZE=0
endif

# Real code bases (zlib, Lua 5.4, SQLite) fetched with apt-get source and
# built at -O0/-O2/-O3, with and without -g, with and without the plugin;
# their test suites must give the same output (docs/realworld.md).  A
# subset: REALWORLD_PROJECTS="zlib lua" REALWORLD_OPTS=-O2.  Its packages
# are installed by the same rule as `make deps`.
check-realworld: deps
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES= DEBIAN_PACKAGES_NOREC="$(REALWORLD_PACKAGES)"
	@$(MAKE) --no-print-directory $(JOBS) build
	@PERFPRED_BUILD=$(abspath $(B)) tests/realworld/run

# Accuracy of the predictions and overhead of the instrumentation, measured
# side by side in one run (tools/bench; details in build/bench/).
bench: deps
	@$(MAKE) --no-print-directory build
	@PERFPRED_BUILD=$(abspath $(B)) tools/bench

report: deps
	@$(MAKE) --no-print-directory build
	@tools/make-report

# The plugin goes to PREFIX/lib/perfpred: gcc finds it by short name with
# -iplugindir=PREFIX/lib/perfpred -fplugin=perfpred.  (Installing into gcc's
# own plugin directory, $(PLUGIN_DIR), would make -fplugin=perfpred work
# alone but writes outside PREFIX: `make install-gcc-plugin` does that.)
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PLUGIN_INST)
	install -m 755 $(B)/perfpred $(DESTDIR)$(PREFIX)/bin/perfpred
	install -m 755 $(B)/perfpred-gcc $(DESTDIR)$(PREFIX)/bin/perfpred-gcc
	ln -sf perfpred-gcc $(DESTDIR)$(PREFIX)/bin/perfpred-g++
	$(if $(MPIBENCH),install -m 755 $(MPIBENCH) $(DESTDIR)$(PREFIX)/bin/perfpred-mpibench)
	install -m 644 $(B)/libperfpred-rt.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libperfpred-rt.so.1 $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(B)/libperfpred-rt.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(B)/libperfpred-rt.dynlist $(DESTDIR)$(PREFIX)/lib/
	install -m 644 runtime/perfpred-rt.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(B)/perfpred.so $(DESTDIR)$(PLUGIN_INST)/perfpred.so

	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# The man pages are made from docs/commands.md (tests/e2e/87-man.t checks
# they are up to date): edit that, then `make man`.
man:
	tools/md2man docs/commands.md analysis/main.c docs/man

install-gcc-plugin: build
	install -d $(DESTDIR)$(PLUGIN_DIR)
	install -m 755 $(B)/perfpred.so $(DESTDIR)$(PLUGIN_DIR)/perfpred.so

$(B)/obj/plugin $(B)/obj/runtime $(B)/obj/runtime/mpi $(B)/obj/analysis $(B)/obj/wrapper $(B)/tests:
	mkdir -p $@

clean:
	rm -rf $(B) reports
