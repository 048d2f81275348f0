# SPDX-License-Identifier: GPL-2.0-only
#
# Build spritz.ko for one kernel:  make -f kmod/kmod.mk KVER=<uname -r> [OUT=build]
# (the top-level "make kmod" calls this once per installed kernel).
#
# Each kernel gets its own Kbuild directory $(OUT)/kmod/$(KVER) whose
# sources are links to the checkout, so several kernels build side by side
# without their objects meeting, against $(OUT)/kdir/$(KVER) from
# scripts/kbuild-prep.  The result must carry a .BTF section: a module
# without one loads, but its kfuncs never register.

OUT ?= build
V ?= 0
ifeq ($(KVER),)
$(error KVER is not set)
endif

KDIR := $(abspath $(OUT)/kdir/$(KVER))
MDIR := $(abspath $(OUT)/kmod/$(KVER))
SRCS := Kbuild $(wildcard kmod/*.c kmod/*.h)
KO := $(MDIR)/spritz.ko

.PHONY: all
all:
	@V=$(V) scripts/kbuild-prep $(KVER) $(KDIR)
	@mkdir -p $(MDIR)/kmod
	@ln -sfn $(CURDIR)/include $(MDIR)/include
	@for f in $(SRCS); do ln -sf $(CURDIR)/$$f $(MDIR)/$$f; done
	@$(MAKE) -C $(KDIR) M=$(MDIR) V=$(V) modules
	@readelf -S $(KO) | grep -q '\.BTF' || \
		{ echo "kmod: $(KO) has no module BTF: its kfuncs would not register" >&2; exit 1; }
	@printf '  %-8s %s\n' KO $(KO)
