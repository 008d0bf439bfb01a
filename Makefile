# perfpred - build, test, report, install.
#
#   make            build/perfpred.so, build/libperfpred-rt.{a,so,so.1}, build/perfpred,
#                   build/perfpred-gcc (and perfpred-g++, a link to it)
#   make check      install what is missing, build, run every test
#   make report     install what is missing, build, run the samples, write reports/
#   make install PREFIX=/usr/local
#   make check SANITIZE=1   the same suite with ASan+UBSan on runtime and analyser
#                           (CI=true: make check runs both, the second in build/san)
#   make fuzz       fuzz the record, machine-file and experiment readers
#                   (clang, libFuzzer; docs/fuzzing.md)
#   make check-realworld    zlib, Lua, SQLite, pigz and xz-utils from Debian's
#                           sources built and tested with the plugin
#                           (docs/realworld.md; not in CI)
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
# valgrind: tests/e2e/26-many-blocks.t counts the runtime's allocations and
# instructions per event with it.
# libhwloc-dev: calibrate reads the host's cache sizes and cores with hwloc
# (analysis/calibrate_compute.c).
DEBIAN_PACKAGES := gcc-12-plugin-dev libgmp-dev libgraphviz-dev graphviz libgsl-dev \
                   gnuplot-nox libcmocka-dev libopenmpi-dev openmpi-bin mpich libmpich-dev \
                   pkg-config groff-base chromium valgrind libhwloc-dev
# For tests only: tests/e2e/91-equations.t evaluates `perfpred equations`'
# SymPy and Maxima output with them; installed without their recommended
# packages (Maxima's would bring a GUI toolkit).
DEBIAN_PACKAGES_NOREC := python3-sympy maxima
# For `make fuzz` only: clang with libFuzzer (and its OpenMP runtime, as
# the analyser is built with -fopenmp).
FUZZ_PACKAGES := clang libclang-rt-14-dev libomp-14-dev

# For `make check-realworld` only (tests/realworld): dpkg-source unpacks
# Debian's source packages, tclsh generates SQLite's amalgamation, xz and
# bzip2 unpack the tarballs, pigz is built against the system's zlib
# (zlib.h, and libz.a when linked statically).
REALWORLD_PACKAGES := dpkg-dev tcl xz-utils bzip2 zlib1g-dev

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
             $(shell pkg-config --cflags libcgraph libgvc gsl hwloc 2>/dev/null)
LIBS_AN  := -lgmp $(shell pkg-config --libs libcgraph libgvc gsl hwloc 2>/dev/null) -lm -pthread -fopenmp
CXXFLAGS_PL := -std=gnu++17 -fno-rtti -fno-exceptions -fPIC -fvisibility=hidden -O2 -g -Wall -Wextra \
               -Wno-unused-parameter -Wno-format-diag -I$(PLUGIN_DIR)/include

PLUGIN_SRC := $(wildcard plugin/*.cc)
RT_SRC     := $(wildcard runtime/*.c)
AN_SRC     := $(wildcard analysis/*.c)
AN_LIBSRC  := $(filter-out analysis/main.c,$(AN_SRC))
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
WRAP_SRC   := $(wildcard wrapper/*.c)

PLUGIN_OBJ := $(PLUGIN_SRC:%.cc=$(B)/obj/%.o)
RT_OBJ     := $(RT_SRC:%.c=$(B)/obj/%.o) $(patsubst %.S,$(B)/obj/%.o,$(wildcard runtime/*.S))
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

.PHONY: all build deps fuzz-deps fuzz fuzz-build check check-realworld bench report install install-gcc-plugin clean man

all: deps
	@$(MAKE) --no-print-directory $(JOBS) build

build: $(B)/perfpred.so $(B)/libperfpred-rt.a $(B)/libperfpred-rt.so $(B)/libperfpred-rt.so.1 $(B)/perfpred $(MPIBENCH) \
       $(B)/perfpred-gcc $(B)/perfpred-g++ $(B)/libperfpred-rt.dynlist

# ---------------------------------------------------------------- packages
# Installs the Debian packages the project names when they are absent: with
# apt-get when root, otherwise prints the exact command and stops.
# $(call install_pkgs,PACKAGES,NOREC-PACKAGES)
define install_pkgs
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	norec=""; for p in $(2); do \
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
endef

deps:
	$(call install_pkgs,$(DEBIAN_PACKAGES),$(DEBIAN_PACKAGES_NOREC))

fuzz-deps:
	$(call install_pkgs,$(FUZZ_PACKAGES),)

# ---------------------------------------------------------------- plugin
$(B)/obj/plugin/%.o: plugin/%.cc $(wildcard plugin/*.h) runtime/perfpred-link.h | $(B)/obj/plugin
	$(CXX) $(CXXFLAGS_PL) -c $< -o $@

# libstdc++ linked in and every symbol but plugin_init and
# plugin_is_GPL_compatible local (plugin/perfpred.map): cc1 does not load
# libstdc++.so, and loading it with the plugin, then resolving the
# plugin's symbols through cc1's table, cost 4 million instructions per
# compile (a quarter of compiling an empty file; docs/plugin.md).
$(B)/perfpred.so: $(PLUGIN_OBJ) plugin/perfpred.map
	$(CXX) -shared -static-libstdc++ -static-libgcc \
	  -Wl,--version-script=plugin/perfpred.map -o $@ $(PLUGIN_OBJ)

# ---------------------------------------------------------------- runtime
$(B)/obj/runtime/%.o: runtime/%.c $(wildcard runtime/*.h) | $(B)/obj/runtime
	$(CC) $(CFLAGS_RT) -c $< -o $@

# the x86-64 entry points of loop timing (empty elsewhere)
$(B)/obj/runtime/%.o: runtime/%.S | $(B)/obj/runtime
	$(CC) $(SANFLAGS) -c $< -o $@

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
# The link markers (runtime/perfpred-link.h) are exported too: an
# instrumented shared library references one.
$(B)/libperfpred-rt.dynlist: runtime/perfpred-link.h
	{ printf '/* the runtime entry points an executable exports (docs/wrapper.md) */\n{ __pp_*;\n'; \
	  printf '#include "perfpred-link.h"\nPP_LINK_MARKER_RUNTIME;\nPP_LINK_MARKER_OMPI;\nPP_LINK_MARKER_MPICH;\n' | \
	    $(CC) -E -P -Iruntime - | sed 's/" *"//g' | sed -n 's/^\(".*"\);$$/  \1;/p'; \
	  printf '};\n'; } > $@

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
	@$(MAKE) --no-print-directory $(JOBS) build $(UNIT_BIN) $(FUZZ_REPLAY)
	@PERFPRED_BUILD=$(abspath $(B)) SANITIZE=$(SANITIZE) tests/run-tests $(UNIT_BIN)
ifeq ($(CHECK_SANITIZE)$(SANITIZE),1)
	@echo "perfpred: the same suite under AddressSanitizer and UndefinedBehaviorSanitizer ($(B)/san)"
	@$(MAKE) --no-print-directory check SANITIZE=1 B=$(B)/san CHECK_SANITIZE=0
endif

# ---------------------------------------------------------------- fuzzing
# The harnesses (tests/fuzz/fuzz-*.c) built twice: with gcc and a main()
# that replays files (tests/fuzz/replay.c; `make check` replays the
# committed corpus and crashes with them, tests/e2e/68-fuzz-corpus.t), and
# with clang and libFuzzer (`make fuzz`: docs/fuzzing.md).
FUZZ_TARGETS := record machine experiment
FUZZ_REPLAY  := $(FUZZ_TARGETS:%=$(B)/tests/replay-%)
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := $(CSTD) $(WARN) -O1 -g -pthread -fopenmp $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
                $(shell pkg-config --cflags libcgraph libgvc gsl hwloc 2>/dev/null)
FUZZ_OBJ     := $(AN_LIBSRC:%.c=$(B)/fuzz/obj/%.o)
FUZZ_BIN     := $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz-%)
# Seconds per harness; the record reader (and the model behind it) is
# where most of the code is.
FUZZ_SECONDS ?= 1200
FUZZ_SECONDS_record ?= $(FUZZ_SECONDS)
# Leaks are not looked for: on bad input the analyser exits at once, and
# its error paths do not all free what they built.  Fork mode: a crash,
# timeout or out-of-memory is saved and the fuzzing goes on.
FUZZ_FLAGS   ?= -rss_limit_mb=2048 -timeout=10 -max_len=65536 -detect_leaks=0
FUZZ_MODE    ?= -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1

$(B)/tests/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay.c tests/fuzz/fuzz-common.h $(B)/libperfpred-an.a | $(B)/tests
	$(CC) $(CFLAGS_AN) -Ianalysis -o $@ tests/fuzz/replay.c $< $(B)/libperfpred-an.a $(LIBS_AN)

$(B)/fuzz/obj/analysis/%.o: analysis/%.c $(wildcard analysis/*.h) | $(B)/fuzz/obj/analysis
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(B)/fuzz/libperfpred-an.a: $(FUZZ_OBJ)
	rm -f $@; ar rcs $@ $^

$(B)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-common.h $(B)/fuzz/libperfpred-an.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Ianalysis -o $@ $< $(B)/fuzz/libperfpred-an.a $(LIBS_AN)

fuzz-build: $(FUZZ_BIN)

# Each harness for its FUZZ_SECONDS from the seeds (tests/fuzz/seeds: valid
# files and edge cases), the committed corpus and what earlier runs found
# (kept in $(B)/fuzz/corpus-*); then the last two are minimised into
# tests/fuzz/corpus (-merge=1 -use_counters=0: the fewest inputs that reach
# every edge the seeds do not, a few hundred files rather than thousands) and
# every crash, timeout or out-of-memory input is copied to
# tests/fuzz/crashes/, to be fixed and kept as a regression test.  Exits
# with status 1 when something was found.
fuzz: fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	@found=0; for t in $(FUZZ_TARGETS); do \
	  secs=$(FUZZ_SECONDS); [ $$t != record ] || secs=$(FUZZ_SECONDS_record); \
	  work=$(B)/fuzz/corpus-$$t; art=$(B)/fuzz/artifacts-$$t/; \
	  mkdir -p $$work $$art tests/fuzz/corpus/$$t tests/fuzz/crashes; \
	  echo "perfpred fuzz: $$t for $$secs s"; \
	  OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=0 $(B)/fuzz/fuzz-$$t $(FUZZ_FLAGS) $(FUZZ_MODE) -max_total_time=$$secs \
	    -print_final_stats=1 -artifact_prefix=$$art \
	    -dict=tests/fuzz/$$t.dict $$work tests/fuzz/corpus/$$t tests/fuzz/seeds/$$t 2>&1 | tee $(B)/fuzz/log-$$t.txt | \
	    grep -E '^#[0-9]+: .*time: [0-9]*[05]00s|^INFO: exiting|^stat::|ERROR|SUMMARY|Test unit written|^CRASH' ; \
	  for a in $$art*; do [ -e "$$a" ] || continue; found=1; \
	    cp "$$a" tests/fuzz/crashes/$$t-$$(basename "$$a"); echo "perfpred fuzz: FOUND tests/fuzz/crashes/$$t-$$(basename "$$a")"; done; \
	  min=$(B)/fuzz/min-$$t; rm -rf $$min; mkdir -p $$min; cp tests/fuzz/seeds/$$t/* $$min/; \
	  if OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=0 $(B)/fuzz/fuzz-$$t -merge=1 -use_counters=0 $(FUZZ_FLAGS) \
	       $$min tests/fuzz/corpus/$$t $$work >$(B)/fuzz/merge-$$t.txt 2>&1; then \
	    for s in tests/fuzz/seeds/$$t/*; do rm -f $$min/$$(basename $$s); done; \
	    rm -f tests/fuzz/corpus/$$t/*; cp $$min/* tests/fuzz/corpus/$$t/ 2>/dev/null; \
	  else echo "perfpred fuzz: merge of $$t failed ($(B)/fuzz/merge-$$t.txt)"; found=1; fi; \
	  echo "perfpred fuzz: $$t corpus: $$(ls tests/fuzz/corpus/$$t | wc -l) files, $$(du -sk tests/fuzz/corpus/$$t | cut -f1) KiB"; \
	done; exit $$found
# Real code bases (zlib, Lua 5.4, SQLite, pigz, xz-utils) fetched with
# apt-get source and built at -O0/-O2/-O3, with and without -g (pigz and xz
# also -static at -O2), with and without the plugin;
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
	@PERFPRED_BUILD=$(abspath $(B)) tools/make-report

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
	install -m 644 runtime/perfpred-rt.h runtime/perfpred-link.h $(DESTDIR)$(PREFIX)/include/
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

$(B)/obj/plugin $(B)/obj/runtime $(B)/obj/runtime/mpi $(B)/obj/analysis $(B)/obj/wrapper $(B)/tests \
$(B)/fuzz/obj/analysis:
	mkdir -p $@

clean:
	rm -rf $(B) reports
