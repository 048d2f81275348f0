# SPDX-License-Identifier: GPL-2.0-only
#
# Spritz top-level build.
#
#   make              userspace (libspritz, spritzctl), BPF objects + skeletons,
#                     and spritz.ko for every installed Debian kernel with headers
#   make user | bpf | kmod [KVER=...]
#   make check        install what is needed, build, run host and guest tests (TAP);
#                     the host tests include the unit tests and spritzctl's host
#                     commands built with ASan+UBSan ($(OUT)/asan/) and a fixed
#                     number of runs of each libFuzzer target ($(OUT)/fuzz/)
#   make soak         the long loops on each kernel: 50 up/down cycles, 30
#                     module reloads under traffic, 50 load/unload cycles
#   make bench        benchmarks (print figures; never assertions)
#   make fuzz         10^6 random/mutated packets through the tc datapath on
#                     each kernel (FUZZ_N=, FUZZ_SEED=), then each libFuzzer
#                     target FUZZ_RUNS times (default 10^6) on a corpus kept
#                     in $(OUT)/fuzz/corpus/
#   make asan | fuzzers  only the sanitized builds (part of make tests)
#   make sim          the ns-3 simulator (sim/; built by make all when ns-3's
#                     headers are installed, Documentation/sim.rst)
#   make eval         the paper-scale evaluation on the simulator (50 min on
#                     2 cores; writes $(OUT)/eval/ and Documentation/evaluation.rst)
#   make demo         the main job (see README.md)
#   make install      PREFIX=/usr/local DESTDIR= (and uninstall; see below)
#   make install-dkms the module's sources for DKMS, dkms add + install
#
# Quiet unless V=1.  Everything built lands in $(OUT) (default: build/).

OUT ?= build
V ?= 0
ifeq ($(V),1)
Q :=
msg := @true
else
Q := @
msg = @printf '  %-8s %s\n'
MAKEFLAGS += --no-print-directory
endif

SRC := $(CURDIR)
CC ?= cc
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
PKG_CONFIG ?= pkg-config

WARN := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS ?= -O2 -g
USER_INC := -std=gnu11 -D_GNU_SOURCE -I$(SRC)/include -I$(SRC)/user/lib -I$(SRC)/selftests/lib \
	-I$(OUT)/bpf
USER_CFLAGS := $(CFLAGS) $(WARN) $(USER_INC)
USER_LDLIBS := $(shell $(PKG_CONFIG) --libs jansson libbpf libmnl 2>/dev/null || echo -ljansson -lbpf -lelf -lz -lmnl) -lm

# ---------------------------------------------------------------- userspace
LIB_SRCS := $(sort $(wildcard user/lib/*.c))
LIB_OBJS := $(patsubst %.c,$(OUT)/%.o,$(LIB_SRCS))
LIBSPRITZ := $(OUT)/user/libspritz.a
CTL_SRCS := $(sort $(wildcard user/spritzctl/*.c))
CTL_OBJS := $(patsubst %.c,$(OUT)/%.o,$(CTL_SRCS))
SPRITZCTL := $(OUT)/spritzctl
SPRITZCTL_FAULT := $(OUT)/selftests/spritzctl-fault
# Helpers of the guest suites (selftests/tools/*.c, one program each).
TOOL_SRCS := $(sort $(wildcard selftests/tools/*.c))
TOOLS := $(patsubst selftests/tools/%.c,$(OUT)/selftests/%,$(TOOL_SRCS))
# Lab tools (lab/*.c, one program each): the switch pipeline's loader.
LAB_SRCS := $(sort $(wildcard lab/*.c))
LABS := $(patsubst lab/%.c,$(OUT)/lab/%,$(LAB_SRCS))

# -------------------------------------------------------------------- BPF
# Every bpf/*.bpf.c and selftests/bpf/progs/*.bpf.c becomes an object and a
# libbpf skeleton.  vmlinux.h comes from the BTF of the kernel we target
# (CO-RE relocates field accesses for the kernel it finally runs on).
VMLINUX_BTF ?= $(firstword $(wildcard /sys/kernel/btf/vmlinux))
BPF_SRCS := $(sort $(wildcard bpf/*.bpf.c selftests/bpf/progs/*.bpf.c))
BPF_OBJS := $(patsubst %.bpf.c,$(OUT)/bpf/%.bpf.o,$(notdir $(BPF_SRCS)))
BPF_SKELS := $(patsubst %.bpf.o,%.skel.h,$(BPF_OBJS))
BPF_ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) $(WARN) \
	-I$(OUT)/bpf -I$(SRC)/include -I$(SRC)/bpf

# ------------------------------------------------------------------ tests
UTEST_SRCS := $(sort $(wildcard selftests/user/test_*.c))
UTESTS := $(patsubst selftests/user/%.c,$(OUT)/selftests/user/%,$(UTEST_SRCS))
PTEST_SRCS := $(sort $(wildcard selftests/bpf/prog_tests/*.c))
PTESTS := $(patsubst selftests/bpf/prog_tests/%.c,$(OUT)/selftests/bpf/%,$(PTEST_SRCS))
BENCH_SRCS := $(sort $(wildcard selftests/bench/*.c))
BENCHES := $(patsubst selftests/bench/%.c,$(OUT)/selftests/bench/%,$(BENCH_SRCS))

# The plain-C cores the simulator includes must compile as C++ too (checked
# when a C++ compiler is installed).
CXX_HDRS := include/spritz/switch_core.h include/spritz/lb.h include/spritz/feedback.h
CXX_CHECK := $(if $(shell command -v $(CXX) 2>/dev/null),$(OUT)/selftests/cxx-headers.ok)

# ------------------------------------------------------------------ sim
# The ns-3 simulator: C++ only for ns-3's API, every decision from the
# shared headers, the fabric from libspritz.  Debian's pkg-config files for
# ns-3 name libraries that are not installed, so the libraries are named
# here (Documentation/sim.rst).
CXX ?= g++
NS3_INC ?= /usr/include/ns3
HAVE_NS3 := $(wildcard $(NS3_INC)/core-module.h)
SIM_SRCS := $(sort $(wildcard sim/*.cc))
SIM_OBJS := $(patsubst %.cc,$(OUT)/%.o,$(SIM_SRCS))
SIM := $(OUT)/sim/spritz-sim
# The tables' unit test needs a C++ compiler and libspritz, not ns-3.
SIM_UTESTS := $(if $(shell command -v $(CXX) 2>/dev/null),$(OUT)/selftests/sim/test_tables)
# The feedback ring of a simulated host holds a window of packets (maps.h):
# 256 records, about 2.9 BDP at Table II's 400 Gb/s (88 packets).
SIM_RING ?= 256
SIM_CXXFLAGS := -std=c++17 -O2 -g $(WARN) -I$(SRC)/include -I$(SRC)/user/lib \
	-DSPRITZ_RING_SIZE=$(SIM_RING)
# tcmalloc (libtcmalloc-minimal4) takes malloc over from glibc: ns-3
# allocates and frees a few objects per packet and event, and the
# simulator spends a tenth of its time there (Documentation/sim.rst,
# "Speed"); linked by its soname, which needs no -dev package.
comma := ,
SIM_MALLOC := $(if $(wildcard /usr/lib/$(shell $(CC) -print-multiarch)/libtcmalloc_minimal.so.4),\
	-Wl$(comma)--no-as-needed -l:libtcmalloc_minimal.so.4 -Wl$(comma)--as-needed)
SIM_LDLIBS := $(SIM_MALLOC) -lns3-traffic-control -lns3-point-to-point -lns3-internet \
	-lns3-network -lns3-core $(USER_LDLIBS)

# ------------------------------------------------------------------ kmod
# Default: every installed Debian kernel that has headers and an image.
KVERS ?= $(shell scripts/kernels 2>/dev/null)
KVER ?=

# The targets that build before they run (check, demo, ...) build in
# parallel on every CPU unless make was given its own -j.
# (make 4.3 shows -j in MAKEFLAGS only to recipes.)
BUILD = $(MAKE) $$(case " $$MAKEFLAGS" in *" -j"*) ;; *) echo -j$$(nproc) ;; esac)

.PHONY: all user bpf kmod sim sim-maybe eval check check-all check-host check-guest soak bench demo deps install clean \
	format tests fuzz asan fuzzers
.DEFAULT_GOAL := all

all: user bpf kmod sim-maybe

user: $(SPRITZCTL) $(LABS)
bpf: $(BPF_OBJS) $(BPF_SKELS)
tests: $(UTESTS) $(PTESTS) $(BENCHES) $(CXX_CHECK) $(SIM_UTESTS) $(SPRITZCTL_FAULT) $(TOOLS) \
	asan fuzzers

$(OUT)/user/%.o: user/%.c $(wildcard include/spritz/*.h user/lib/*.h)
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

# the headers each userspace object includes (spritzctl's own among them)
-include $(wildcard $(OUT)/user/*/*.d)

$(LIBSPRITZ): $(LIB_OBJS)
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# libspritz's host units embed the datapath object (its libbpf skeleton)
$(CTL_OBJS) $(LIB_OBJS): | $(BPF_SKELS)

$(SPRITZCTL): $(CTL_OBJS) $(LIBSPRITZ)
	$(msg) LD $@
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $(CTL_OBJS) $(LIBSPRITZ) $(USER_LDLIBS)

# spritzctl for the tests of up, down and reload: spritz_fault() with
# $$SPRITZ_FAULT (user/lib/spritz_fault.c) linked before libspritz's own.
$(OUT)/selftests/spritz_fault.o: user/lib/spritz_fault.c user/lib/spritz_err.h
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -DSPRITZ_FAULT_INJECT -c $< -o $@

$(SPRITZCTL_FAULT): $(CTL_OBJS) $(OUT)/selftests/spritz_fault.o $(LIBSPRITZ)
	$(msg) LD $@
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $(CTL_OBJS) $(OUT)/selftests/spritz_fault.o $(LIBSPRITZ) \
		$(USER_LDLIBS)

$(TOOLS): $(OUT)/selftests/%: selftests/tools/%.c $(LIBSPRITZ)
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LIBSPRITZ) $(USER_LDLIBS)

$(OUT)/bpf/vmlinux.h:
	$(msg) GEN $@
	@mkdir -p $(@D)
	$(Q)test -n "$(VMLINUX_BTF)" || { echo "no kernel BTF: set VMLINUX_BTF=" >&2; exit 1; }
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

vpath %.bpf.c bpf selftests/bpf/progs

$(OUT)/bpf/%.bpf.o: %.bpf.c $(OUT)/bpf/vmlinux.h $(wildcard include/spritz/*.h bpf/*.h)
	$(msg) CLANG $<
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -MT $@ -MF $@.d -c $< -o $@.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

$(OUT)/bpf/%.skel.h: $(OUT)/bpf/%.bpf.o
	$(msg) GEN-SKEL $@
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@.tmp && mv $@.tmp $@

$(OUT)/lab/%: lab/%.c $(LIBSPRITZ) $(BPF_SKELS)
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LIBSPRITZ) $(USER_LDLIBS)

$(OUT)/selftests/cxx-headers.ok: $(CXX_HDRS) $(wildcard include/spritz/*.h)
	$(msg) CXX "$(CXX_HDRS)"
	@mkdir -p $(@D)
	$(Q)for h in $(CXX_HDRS); do \
		$(CXX) -std=c++17 $(WARN) -I$(SRC)/include -fsyntax-only -x c++ $$h || exit 1; \
	done
	$(Q)touch $@

$(OUT)/selftests/user/%: selftests/user/%.c $(LIBSPRITZ) selftests/lib/test.h $(wildcard selftests/user/*.h)
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LIBSPRITZ) $(USER_LDLIBS)

# clang's dependency lists: a program that #includes another's source
# (the bench build of the datapath) rebuilds when that source changes.
-include $(wildcard $(OUT)/bpf/*.d)

$(OUT)/selftests/bench/%: selftests/bench/%.c $(LIBSPRITZ) $(BPF_SKELS) $(wildcard selftests/bpf/*.h)
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -I$(SRC)/selftests/bpf -o $@ $< $(LIBSPRITZ) $(USER_LDLIBS)

$(OUT)/selftests/bpf/%: selftests/bpf/prog_tests/%.c $(LIBSPRITZ) $(BPF_SKELS) \
		$(wildcard selftests/bpf/*.h) selftests/lib/test.h
	$(msg) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -I$(SRC)/selftests/bpf -o $@ $< $(LIBSPRITZ) $(USER_LDLIBS)

# ------------------------------------------------------------ sanitizers
# The host unit tests and spritzctl again, built by clang with ASan and
# UBSan (clang's "undefined" includes float-cast-overflow, gcc's does not)
# into $(ASAN_OUT); any report ends the program with an error.  The
# libFuzzer targets selftests/fuzz/fuzz_*.c link against a third build of
# libspritz with coverage instrumentation.  Documentation/vm.rst,
# "Sanitizers and fuzzers".
SAN_CC ?= $(CLANG)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_OUT := $(OUT)/asan
ASAN_CFLAGS := $(CFLAGS) $(WARN) $(SAN_FLAGS) $(USER_INC)
ASAN_LIB_OBJS := $(patsubst %.c,$(ASAN_OUT)/%.o,$(LIB_SRCS))
ASAN_LIB := $(ASAN_OUT)/user/libspritz.a
ASAN_CTL_OBJS := $(patsubst %.c,$(ASAN_OUT)/%.o,$(CTL_SRCS))
ASAN_SPRITZCTL := $(ASAN_OUT)/spritzctl
ASAN_UTESTS := $(patsubst selftests/user/%.c,$(ASAN_OUT)/selftests/user/%,$(UTEST_SRCS))
# the simulator's tables test too, by clang++ (its C++ needs no ns-3)
SAN_CXX ?= $(CLANG)++
ASAN_SIM_UTESTS := $(if $(SIM_UTESTS),$(ASAN_OUT)/selftests/sim/test_tables)

FUZZ_OUT := $(OUT)/fuzz
FUZZ_CFLAGS := $(CFLAGS) $(WARN) -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer $(USER_INC)
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_OUT)/%.o,$(LIB_SRCS))
FUZZ_LIB := $(FUZZ_OUT)/user/libspritz.a
FUZZ_SRCS := $(sort $(wildcard selftests/fuzz/fuzz_*.c))
FUZZERS := $(patsubst selftests/fuzz/%.c,$(FUZZ_OUT)/%,$(FUZZ_SRCS))

asan: $(ASAN_UTESTS) $(ASAN_SPRITZCTL) $(ASAN_SIM_UTESTS)
fuzzers: $(FUZZERS)

$(ASAN_OUT)/user/%.o: user/%.c $(wildcard include/spritz/*.h user/lib/*.h)
	$(msg) CC-ASAN $<
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(ASAN_CFLAGS) -MMD -MP -c $< -o $@

-include $(wildcard $(ASAN_OUT)/user/*/*.d)

$(ASAN_CTL_OBJS) $(ASAN_LIB_OBJS): | $(BPF_SKELS)

$(ASAN_LIB): $(ASAN_LIB_OBJS)
	$(msg) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(ASAN_SPRITZCTL): $(ASAN_CTL_OBJS) $(ASAN_LIB)
	$(msg) LD $@
	$(Q)$(SAN_CC) $(ASAN_CFLAGS) -o $@ $(ASAN_CTL_OBJS) $(ASAN_LIB) $(USER_LDLIBS)

$(ASAN_OUT)/selftests/sim/test_tables: selftests/sim/test_tables.cc sim/tables.cc sim/model.h \
		$(ASAN_LIB) selftests/lib/test.h $(wildcard include/spritz/*.h)
	$(msg) CXX-ASAN $<
	@mkdir -p $(@D)
	$(Q)$(SAN_CXX) $(filter-out -O2,$(SIM_CXXFLAGS)) -O1 $(SAN_FLAGS) -I$(SRC)/selftests/lib \
		-I$(SRC)/sim -o $@ $< sim/tables.cc $(ASAN_LIB) $(USER_LDLIBS)

$(ASAN_OUT)/selftests/user/%: selftests/user/%.c $(ASAN_LIB) selftests/lib/test.h \
		$(wildcard selftests/user/*.h)
	$(msg) CC-ASAN $<
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(ASAN_CFLAGS) -o $@ $< $(ASAN_LIB) $(USER_LDLIBS)

$(FUZZ_OUT)/user/%.o: user/%.c $(wildcard include/spritz/*.h user/lib/*.h)
	$(msg) CC-FUZZ $<
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

-include $(wildcard $(FUZZ_OUT)/user/*/*.d)

$(FUZZ_LIB_OBJS): | $(BPF_SKELS)

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	$(msg) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: selftests/fuzz/fuzz_%.c $(FUZZ_LIB) $(wildcard selftests/fuzz/*.h)
	$(msg) CC-FUZZ $<
	@mkdir -p $(@D)
	$(Q)$(SAN_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(USER_LDLIBS)

sim: $(SIM)

ifneq ($(HAVE_NS3),)
sim-maybe: $(SIM)
else
sim-maybe:
	@echo "sim: skipped: no ns-3 headers in $(NS3_INC) (apt-get install libns3-dev)"
endif

$(OUT)/sim/%.o: sim/%.cc $(wildcard sim/*.h include/spritz/*.h user/lib/*.h)
	$(msg) CXX $<
	@mkdir -p $(@D)
	$(Q)$(CXX) $(SIM_CXXFLAGS) -c $< -o $@

$(SIM): $(SIM_OBJS) $(LIBSPRITZ)
	$(msg) LD $@
	$(Q)$(CXX) -o $@ $(SIM_OBJS) $(LIBSPRITZ) $(SIM_LDLIBS)

$(OUT)/selftests/sim/test_tables: selftests/sim/test_tables.cc $(OUT)/sim/tables.o $(LIBSPRITZ) \
		selftests/lib/test.h
	$(msg) CXX $<
	@mkdir -p $(@D)
	$(Q)$(CXX) $(SIM_CXXFLAGS) -I$(SRC)/selftests/lib -I$(SRC)/sim -o $@ $< \
		$(OUT)/sim/tables.o $(LIBSPRITZ) $(USER_LDLIBS)

eval: all
	$(Q)OUT=$(abspath $(OUT)) sim/eval

# Module: one build per kernel, each against a prepared copy of that kernel's
# headers that can produce module BTF (scripts/kbuild-prep, see
# Documentation/building.rst).
kmod:
	$(Q)set -e; kv="$(if $(KVER),$(KVER),$(KVERS))"; \
	if [ -z "$$kv" ]; then echo "kmod: no Debian kernel with headers installed (make deps)" >&2; exit 1; fi; \
	for k in $$kv; do $(MAKE) -f kmod/kmod.mk OUT=$(OUT) V=$(V) KVER=$$k; done

check: deps
	$(Q)$(BUILD) all tests
	$(Q)selftests/run --kernels "$(KVERS)"

# Every guest suite on every kernel (make check runs some on one kernel).
check-all: deps
	$(Q)$(BUILD) all tests
	$(Q)selftests/run --all-kernels --kernels "$(KVERS)"

check-host: user bpf tests
	$(Q)selftests/run --host-only

check-guest: all tests
	$(Q)selftests/run --guest-only --kernels "$(KVERS)"

# The suites whose loops make check runs short, at full length.
soak: deps
	$(Q)$(BUILD) all tests
	$(Q)SPRITZ_UPDOWN_CYCLES=50 SPRITZ_RELOAD_CYCLES=30 SPRITZ_CYCLES=50 \
		selftests/run --guest-only --memdebug --timeout 3600 --kernels "$(KVERS)" \
		spritzctl/updown kmod/reload_traffic kmod/cycles

bench: deps
	$(Q)$(BUILD) all tests
	$(Q)scripts/bench --kernels "$(KVERS)"

FUZZ_N ?= 1000000
FUZZ_RUNS ?= 1000000
fuzz: all tests
	$(Q)set -e; for k in $(KVERS); do \
		echo "fuzz: $$k, $(FUZZ_N) packets"; \
		SPRITZ_FUZZ_N=$(FUZZ_N) $(if $(FUZZ_SEED),SPRITZ_FUZZ_SEED=$(FUZZ_SEED)) \
		selftests/vm/run --kernel $$k -- selftests/kmod/with-module.sh \
			$(OUT)/selftests/bpf/datapath_fuzz; \
	done
	$(Q)set -e; for f in $(FUZZERS); do \
		echo "fuzz: $${f##*/}, $(FUZZ_RUNS) runs"; \
		selftests/fuzz/run --runs $(FUZZ_RUNS) --corpus $(FUZZ_OUT)/corpus \
			$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) $${f##*/fuzz_}; \
	done

demo: deps
	$(Q)$(BUILD) all
	$(Q)scripts/demo

deps:
	$(Q)scripts/deps install

# ---------------------------------------------------------------- install
# make install [PREFIX=/usr/local] [DESTDIR=]: spritzctl (which carries its
# BPF object, the libbpf skeleton), the man page, the systemd unit and the
# docs.  make install-dkms: the module's source tree for DKMS
# ($(DKMS_SRCDIR)), then, without DESTDIR, "dkms add" and "dkms install"
# for each of $(DKMS_KVERS).  uninstall and uninstall-dkms undo them.
# Documentation/deployment.rst, "Installing".
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/spritz
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
INSTALL ?= install
DKMS ?= dkms
VERSION := $(shell sed -n 's/^.define SPRITZ_VERSION "\(.*\)"$$/\1/p' include/spritz/abi.h)
DKMS_SRCDIR ?= /usr/src/spritz-$(VERSION)
DKMS_KVERS ?= $(KVERS)

INST_DOCS := README.md $(wildcard Documentation/*.rst) packaging/spritz.conf.example
INST_FILES := $(SBINDIR)/spritzctl $(MANDIR)/man8/spritzctl.8 $(UNITDIR)/spritz@.service \
	$(addprefix $(DOCDIR)/,$(notdir $(INST_DOCS)))
DKMS_FILES := Kbuild $(wildcard kmod/*.c kmod/*.h include/spritz/*.h)
DKMS_TOOLS := scripts/kbuild-prep packaging/dkms-build

# $(call dkms_run,ARGS,WHAT): dkms ARGS, its output shown only on failure
# (always with V=1)
ifeq ($(V),1)
dkms_run = $(DKMS) $(1) || { echo "$@: failed to $(2)" >&2; exit 1; }
else
dkms_run = log=$$(mktemp) && { $(DKMS) $(1) >$$log 2>&1 || \
	{ cat $$log >&2; rm -f $$log; echo "$@: failed to $(2)" >&2; exit 1; }; } && rm -f $$log
endif

.PHONY: uninstall install-dkms uninstall-dkms

install: $(SPRITZCTL)
	$(msg) INSTALL $(DESTDIR)$(PREFIX)
	$(Q)$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/spritz
	$(Q)$(INSTALL) -m 0755 $(SPRITZCTL) $(DESTDIR)$(SBINDIR)/spritzctl
	$(Q)$(INSTALL) -m 0644 Documentation/spritzctl.8 $(DESTDIR)$(MANDIR)/man8/spritzctl.8
	$(Q)sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		-e 's|@DOCDIR@|$(DOCDIR)|g' packaging/spritz@.service \
		> $(DESTDIR)$(UNITDIR)/spritz@.service
	$(Q)chmod 0644 $(DESTDIR)$(UNITDIR)/spritz@.service
	$(Q)$(INSTALL) -m 0644 $(INST_DOCS) $(DESTDIR)$(DOCDIR)/

uninstall:
	$(msg) UNINSTALL $(DESTDIR)$(PREFIX)
	$(Q)rm -f $(addprefix $(DESTDIR),$(INST_FILES))
	$(Q)for d in $(DOCDIR) $(SYSCONFDIR)/spritz; do \
		[ ! -d $(DESTDIR)$$d ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$$d || exit 1; \
	done

install-dkms:
	$(msg) INSTALL $(DESTDIR)$(DKMS_SRCDIR)
	$(Q)if [ -z "$(DESTDIR)" ]; then \
		command -v $(firstword $(DKMS)) >/dev/null || \
			{ echo "$@: failed to find dkms: install the dkms package" >&2; exit 1; }; \
		if [ -n "$$($(DKMS) status spritz/$(VERSION) 2>/dev/null)" ]; then \
			$(call dkms_run,remove spritz/$(VERSION) --all,remove the old spritz/$(VERSION)); \
		fi; \
	fi
	$(Q)rm -rf $(DESTDIR)$(DKMS_SRCDIR)
	$(Q)for f in $(DKMS_FILES); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; done
	$(Q)for f in $(DKMS_TOOLS); do \
		$(INSTALL) -D -m 0755 $$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; done
	$(Q)sed 's/^PACKAGE_VERSION="@VERSION@"$$/PACKAGE_VERSION="$(VERSION)"/' \
		packaging/dkms.conf > $(DESTDIR)$(DKMS_SRCDIR)/dkms.conf
	$(Q)if [ -z "$(DESTDIR)" ]; then \
		$(call dkms_run,add spritz/$(VERSION),add spritz/$(VERSION) to DKMS); \
		for k in $(DKMS_KVERS); do \
			printf '  %-8s %s\n' DKMS "spritz/$(VERSION) $$k"; \
			$(call dkms_run,install spritz/$(VERSION) -k $$k,build and install spritz.ko for $$k); \
		done; \
	fi

uninstall-dkms:
	$(msg) UNINSTALL $(DESTDIR)$(DKMS_SRCDIR)
	$(Q)if [ -z "$(DESTDIR)" ] && command -v $(firstword $(DKMS)) >/dev/null && \
	    [ -n "$$($(DKMS) status spritz/$(VERSION) 2>/dev/null)" ]; then \
		$(call dkms_run,remove spritz/$(VERSION) --all,remove spritz/$(VERSION) from DKMS); \
	fi
	$(Q)rm -rf $(DESTDIR)$(DKMS_SRCDIR)

format:
	$(Q)clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	$(Q)rm -rf $(OUT)
