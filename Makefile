# SPDX-License-Identifier: GPL-2.0
#
# rocect: RoCEv2 connection tracking for Linux netfilter.
#
#   make               the module for $(KVER) and the userspace programs
#   make KVER=<ver>    the same for a chosen installed kernel
#   make modules       the module for every installed Debian kernel
#   make check         lint, arm64 cross-build, unit tests, oracles, fuzz
#                      smoke, install, DKMS and Debian packages, guest
#                      kselftests, Soft-RoCE end to end
#   make demo          the main demonstration: real RDMA traffic through a
#                      router with the helper, in three QEMU guests
#   make bench         benchmarks: instructions per call (callgrind), wire
#                      library speed, forwarding with the helper
#   make debug-kernel  build and install the KASAN/lockdep guest kernel
#   make check-debug   the kselftests and the end to end on that kernel only
#   make check-debug-subset  only its tests of hostile input, churn, limits
#   make install | uninstall | dkms-install | dkms-uninstall  (as root)
#   make deb           Debian packages rocect and rocect-dkms in build/deb
#   make lint | cross | unit | oracles | fuzz | vmtest | e2e | deps | clean
#
# The kernel side is built by Kbuild (see ./Kbuild); this file drives it.

SHELL := /bin/bash
TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
BUILD ?= $(TOP)/build

# Installed kernels with both an image and headers, oldest first.
KVERS := $(shell $(TOP)/scripts/kernels.sh)
# The running kernel if it is one of them (make install's target), else
# the newest.
RUNNING_KVER := $(shell uname -r)
KVER ?= $(or $(filter $(RUNNING_KVER),$(KVERS)),$(lastword $(KVERS)))
KO = $(BUILD)/kmod/$(1)/nf_conntrack_roce.ko

CC ?= gcc
CLANG ?= clang
USER_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror \
	-I$(TOP)/kernel
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
WIRE_SRCS := $(addprefix $(TOP)/kernel/,wire.c icrc.c cnp_layout.c)
WIRE_HDRS := $(addprefix $(TOP)/kernel/,wire.h wire_platform.h roce_classes.h \
	roce_malformed.h roce_cm_attrs.h)
KERNEL_SRCS := $(wildcard $(TOP)/kernel/*.[ch] $(TOP)/kernel/compat/*) \
	$(wildcard $(TOP)/uapi/linux/*.h) $(TOP)/Kbuild

FUZZ_SECONDS ?= 60
VERSION := $(shell $(TOP)/scripts/version.sh)
# What the module's Kbuild is given by developer builds.
KBUILD_VARS := ROCECT_WERROR=y ROCECT_VERSION=$(VERSION)

.PHONY: all module modules tools deps check lint cross unit oracles fuzz vmtest \
	e2e demo bench clean debug-kernel check-debug check-debug-subset \
	install install-tools install-dkms-src uninstall \
	dkms-install dkms-uninstall deb FORCE

all: module tools

module: $(call KO,$(KVER))

modules: $(foreach v,$(KVERS),$(call KO,$(v)))

# One object tree per kernel, made of symlinks to the sources, so several
# kernels can be built side by side.
# Rewritten only when the version changes, so that a new commit rebuilds
# what carries the version (the module's main.o, rocect) and nothing more.
$(BUILD)/version: FORCE
	@mkdir -p $(@D)
	@echo "$(VERSION)" | cmp -s - $@ || echo "$(VERSION)" >$@

$(BUILD)/kmod/%/nf_conntrack_roce.ko: $(KERNEL_SRCS) $(BUILD)/version
	@test -d /lib/modules/$*/build || \
		{ echo "no headers for kernel $* (make deps)"; exit 1; }
	@mkdir -p $(@D)
	@cp -rsf $(TOP)/Kbuild $(TOP)/VERSION $(TOP)/kernel $(TOP)/uapi $(@D)/
	$(MAKE) -C /lib/modules/$*/build M=$(@D) $(KBUILD_VARS) modules

tools: $(BUILD)/bin/rocect $(BUILD)/bin/wire_test $(BUILD)/bin/roce-wiredump \
	$(BUILD)/bin/roce_send $(BUILD)/bin/netlink_malformed $(BUILD)/bin/dump_pause \
	$(BUILD)/bin/wire_bench $(BUILD)/bin/roce_blast $(BUILD)/bin/cm_blast \
	$(BUILD)/bin/wire_instr

# Counted by callgrind on the kernel's own CRC code, not zlib's, with the
# code generation the kernel allows itself: no SSE, MMX or AVX registers.
KERNEL_CODEGEN := -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx \
	-mno-red-zone -fno-strict-aliasing
$(BUILD)/bin/wire_instr: $(TOP)/tools/bench/wire_instr.c \
		$(TOP)/tools/bench/crc32_slice8.c $(WIRE_SRCS) $(WIRE_HDRS) \
		$(TOP)/kernel/cm_fsm.c $(TOP)/kernel/cm_fsm.h \
		$(TOP)/kernel/pair_infer.c $(TOP)/kernel/pair_infer.h \
		$(TOP)/kernel/psn_window.h
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(KERNEL_CODEGEN) -DROCECT_SLICE8_CRC32 \
		$(filter %.c,$^) -lz -o $@

$(BUILD)/bin/wire_bench $(BUILD)/bin/roce_blast $(BUILD)/bin/cm_blast: $(BUILD)/bin/%: \
		$(TOP)/tools/bench/%.c $(TOP)/tools/bench/blast.h $(WIRE_SRCS) $(WIRE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(filter %.c,$^) -lz -o $@

$(BUILD)/bin/netlink_malformed $(BUILD)/bin/dump_pause: $(BUILD)/bin/%: \
		$(TOP)/selftests/%.c $(TOP)/uapi/linux/rocect.h
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) -I$(TOP)/uapi $< \
		$(shell pkg-config --cflags --libs libmnl) -o $@

ROCECT_SRCS := $(wildcard $(TOP)/tools/rocect/*.c)
$(BUILD)/bin/rocect: $(ROCECT_SRCS) $(wildcard $(TOP)/tools/rocect/*.h) $(BUILD)/version \
		$(TOP)/kernel/wire.c $(WIRE_HDRS) $(TOP)/uapi/linux/rocect.h
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(CPPFLAGS) $(CFLAGS) -I$(TOP)/uapi \
		-DROCECT_VERSION='"$(VERSION)"' $(ROCECT_SRCS) $(TOP)/kernel/wire.c \
		$(shell pkg-config --cflags --libs libmnl json-c) $(LDFLAGS) -o $@

$(BUILD)/bin/roce_send: $(TOP)/selftests/roce_send.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $< -o $@

$(BUILD)/bin/wire_test: $(WIRE_SRCS) $(WIRE_HDRS) $(TOP)/kernel/cm_fsm.c \
		$(TOP)/kernel/cm_fsm.h $(TOP)/selftests/wire/tap.h \
		$(TOP)/kernel/pair_infer.c $(TOP)/kernel/pair_infer.h \
		$(TOP)/selftests/wire/cm_fsm_test.c \
		$(TOP)/selftests/wire/pair_infer_test.c \
		$(TOP)/kernel/psn_window.h $(TOP)/selftests/wire/psn_window_test.c \
		$(TOP)/kernel/service_rules.c $(TOP)/kernel/service_rules.h \
		$(TOP)/selftests/wire/service_rules_test.c \
		$(TOP)/kernel/cm_reply.c $(TOP)/kernel/cm_reply.h \
		$(TOP)/selftests/wire/cm_reply_test.c \
		$(TOP)/selftests/wire/wire_test.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(SAN_CFLAGS) $(filter %.c,$^) -lz -o $@

$(BUILD)/bin/roce-wiredump: $(WIRE_SRCS) $(WIRE_HDRS) \
		$(TOP)/selftests/wire/wiredump.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(filter %.c,$^) -lz -o $@

$(BUILD)/bin/make_seeds: $(WIRE_SRCS) $(WIRE_HDRS) \
		$(TOP)/selftests/wire/make_seeds.c
	@mkdir -p $(@D)
	$(CC) $(USER_CFLAGS) $(filter %.c,$^) -lz -o $@

$(BUILD)/bin/fuzz_parse: $(WIRE_SRCS) $(WIRE_HDRS) \
		$(TOP)/selftests/wire/fuzz_parse.c
	@mkdir -p $(@D)
	$(CLANG) -g -O1 -Wall -Werror -I$(TOP)/kernel \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(filter %.c,$^) -lz -o $@

deps:
	$(TOP)/scripts/deps.sh

# Installation (run as root; DESTDIR for staging, PREFIX for the tool).
# install-tools and install-dkms-src are what the Debian packages take.
PREFIX ?= /usr/local
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/updates
DOCDIR = $(DESTDIR)$(PREFIX)/share/doc/rocect
COMPLETION = $(DESTDIR)$(PREFIX)/share/bash-completion/completions/rocect
# Where the kernel's ynl tool looks for specs (with PREFIX=/usr).
YNL_SPEC = $(DESTDIR)$(PREFIX)/share/ynl/specs/rocect.yaml
# systemd reads units from /usr/local/lib/systemd/system too.
UNITDIR = $(DESTDIR)$(PREFIX)/lib/systemd/system
UNITS = rocect.service rocect@.service
INSTALLED = $(MODDIR)/nf_conntrack_roce.ko $(DESTDIR)$(PREFIX)/sbin/rocect \
	$(DESTDIR)$(PREFIX)/share/man/man8/rocect.8 $(COMPLETION) $(YNL_SPEC) \
	$(addprefix $(UNITDIR)/,$(UNITS))

install: $(call KO,$(KVER)) install-tools
	install -D -m 644 $(call KO,$(KVER)) $(MODDIR)/nf_conntrack_roce.ko
	$(if $(DESTDIR),,depmod -a $(KVER))

# The examples name the paths of PREFIX=/usr/local: installed, they name
# the install's own (a package's /usr/sbin/rocect and /usr/share/doc).
FOR_PREFIX = sed -e 's|/usr/local/sbin/|$(PREFIX)/sbin/|g' \
	-e 's|/usr/local/share/doc/|$(PREFIX)/share/doc/|g'

# The CLI, its man page, completion and spec, the systemd units (calling
# rocect where PREFIX puts it), documentation and examples.
install-tools: $(BUILD)/bin/rocect
	install -D -m 755 $(BUILD)/bin/rocect $(DESTDIR)$(PREFIX)/sbin/rocect
	install -D -m 644 $(TOP)/tools/rocect/rocect.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/rocect.8
	install -D -m 644 $(TOP)/tools/rocect/rocect.bash-completion $(COMPLETION)
	install -D -m 644 $(TOP)/Documentation/netlink/specs/rocect.yaml $(YNL_SPEC)
	install -d $(UNITDIR)
	for u in $(UNITS); do \
		$(FOR_PREFIX) $(TOP)/examples/$$u \
			>$(UNITDIR)/$$u && chmod 644 $(UNITDIR)/$$u || exit 1; \
	done
	install -d $(DOCDIR)/examples
	for f in $(TOP)/examples/*; do \
		$(FOR_PREFIX) $$f >$(DOCDIR)/examples/$${f##*/} && \
			chmod 644 $(DOCDIR)/examples/$${f##*/} || exit 1; \
	done
	install -m 644 $(TOP)/README.md $(TOP)/LICENSE $(TOP)/Documentation/*.rst \
		$(DOCDIR)/

uninstall:
	rm -f $(INSTALLED)
	rm -rf $(DOCDIR)
	$(if $(DESTDIR),,depmod -a $(KVER))

# DKMS: the module's sources under $(DKMS_SRCTREE)/rocect-$(VERSION), built
# and installed for every kernel in $(KVERS). DKMS_FLAGS reaches dkms (the
# tests point its trees elsewhere).
DKMS_SRCTREE ?= /usr/src
DKMS_FLAGS ?=
DKMS_SRC = $(DESTDIR)$(DKMS_SRCTREE)/rocect-$(VERSION)

install-dkms-src:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cp -r $(TOP)/Kbuild $(TOP)/kernel $(TOP)/uapi $(TOP)/LICENSE $(DKMS_SRC)/
	echo "$(VERSION)" >$(DKMS_SRC)/VERSION
	sed 's/@VERSION@/$(VERSION)/' $(TOP)/dkms.conf >$(DKMS_SRC)/dkms.conf

dkms-install: install-dkms-src
	dkms $(DKMS_FLAGS) add rocect/$(VERSION)
	$(foreach v,$(KVERS),dkms $(DKMS_FLAGS) install rocect/$(VERSION) -k $(v) &&) true

dkms-uninstall:
	dkms $(DKMS_FLAGS) remove rocect/$(VERSION) --all
	rm -rf $(DKMS_SRC)

# Debian packages rocect and rocect-dkms (debian/), built from a copy of
# the tree into $(BUILD)/deb; the Debian version is $(VERSION) with "+"
# for "-".
deb:
	BUILD=$(BUILD) $(TOP)/scripts/deb.sh

unit: $(BUILD)/bin/wire_test
	$(BUILD)/bin/wire_test

oracles: $(BUILD)/bin/roce-wiredump
	BUILD=$(BUILD) $(TOP)/selftests/wire/run_oracles.sh

fuzz: $(BUILD)/bin/fuzz_parse $(BUILD)/bin/make_seeds
	BUILD=$(BUILD) $(TOP)/selftests/wire/run_fuzz.sh $(FUZZ_SECONDS)

lint: modules
	BUILD=$(BUILD) $(TOP)/scripts/lint.sh $(KVERS)

cross:
	BUILD=$(BUILD) $(TOP)/scripts/cross-arm64.sh

vmtest: modules tools
	BUILD=$(BUILD) $(TOP)/tools/vm/run_vm_tests.sh $(if $(T),-t "$(T)") $(KVERS)

e2e: modules tools
	BUILD=$(BUILD) $(TOP)/tools/vm/run_rxe_e2e.sh $(KVERS)

check:
	@$(TOP)/scripts/deps.sh
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) $(TOP)/scripts/check.sh

debug-kernel:
	@$(TOP)/scripts/deps.sh
	$(TOP)/scripts/debug-kernel.sh

check-debug:
	@$(TOP)/scripts/deps.sh
	@$(MAKE) -s tools
	@BUILD=$(BUILD) $(TOP)/scripts/check.sh debug

check-debug-subset:
	@$(TOP)/scripts/deps.sh
	@$(MAKE) -s tools
	@BUILD=$(BUILD) DEBUG_SUBSET=1 $(TOP)/scripts/check.sh debug

demo:
	@$(TOP)/scripts/deps.sh
	@$(MAKE) -s modules tools
	@BUILD=$(BUILD) $(TOP)/scripts/demo.sh $(KVER)

bench:
	@$(TOP)/scripts/deps.sh
	@$(MAKE) -s modules tools
	@BUILD=$(BUILD) $(TOP)/scripts/bench.sh $(KVERS)

clean:
	rm -rf $(BUILD)
