# ioramp: VDbench-compatible block I/O load generator.
# Targets: all check deps install clean fuzz valgrind soak bench demo (see README.md).

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
DATADIR := $(PREFIX)/share/ioramp

CC ?= cc
CLANG ?= clang
PKG_CONFIG ?= pkg-config

# Libraries found with pkg-config; libaio ships no .pc file, so it is probed by header.
PKGS := liburing jansson blkid zlib
TEST_PKGS := cmocka
DEB_PKGS := build-essential pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev \
	zlib1g-dev libcmocka-dev bats clang libclang-rt-14-dev fio jq bc time python3-jsonschema \
	e2fsprogs util-linux fdisk valgrind openmpi-bin libopenmpi-dev

# Many hosts: make MPI=1 builds ./ioramp on Open MPI (pkg-config ompi-c); the default build
# never needs it. check also builds build/mpi/ioramp whenever Open MPI is installed and runs
# tests/cli/mpi.bats against it.
MPI ?= 0
HAVE_MPI := $(shell $(PKG_CONFIG) --exists ompi-c 2>/dev/null && command -v mpirun >/dev/null && \
	echo yes)

HAVE_DEPS := $(shell $(PKG_CONFIG) --exists $(PKGS) $(TEST_PKGS) 2>/dev/null && \
	test -f /usr/include/libaio.h && command -v bats >/dev/null && command -v jq >/dev/null && \
	echo yes)

WARN := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wvla
CFLAGS ?= -O2 -g
BASE_CFLAGS := -std=gnu11 $(WARN) -Iinclude -D_GNU_SOURCE -DIORAMP_VERSION='"$(VERSION)"' \
	-DIORAMP_DATADIR='"$(DATADIR)"' -pthread -MMD -MP
ifeq ($(HAVE_DEPS),yes)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -laio -lm
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS))
TEST_LIBS := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS))
endif
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Every module folder's sources (src/results/, the results document, among them) by wildcard.
# src/mpi/ is the MPI transport; src/cluster/comm_solo.c stands in for it in the default build.
ALL_SRC := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_SRC := $(filter-out src/mpi/%,$(ALL_SRC))
MPI_LIB_SRC := $(filter-out src/cluster/comm_solo.c,$(ALL_SRC))
CLI_MAIN := src/cli/main.c
UNIT_SRC := $(wildcard tests/unit/test_*.c)
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)

# Quiet by default; make V=1 shows the commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n'
endif

# Builds: plain (build/), sanitized (build/san/) and, with Open MPI, build/mpi/; check runs all.
# build_tree(dir, flags, objects, libs, main object)
define build_tree
$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(say) CC $$@
	$$(Q)$$(CC) $$(BASE_CFLAGS) $$(PKG_CFLAGS) $$(CFLAGS) $(2) -c $$< -o $$@

$(1)/libioramp.a: $(3)
	@rm -f $$@
	$$(say) AR $$@
	$$(Q)$$(AR) rcs $$@ $$^

$(1)/ioramp: $(5) $(1)/libioramp.a
	$$(say) LINK $$@
	$$(Q)$$(CC) $$(CFLAGS) $(2) -pthread $$^ $$(PKG_LIBS) $(4) -o $$@

$(1)/tests/unit/%: $(1)/tests/unit/%.o $(1)/libioramp.a
	$$(say) LINK $$@
	$$(Q)$$(CC) $$(CFLAGS) $(2) -pthread $$^ $$(TEST_LIBS) $$(PKG_LIBS) -o $$@

$(1)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $$(@D)
	$$(say) CC $$@
	$$(Q)$$(CC) $$(BASE_CFLAGS) $$(PKG_CFLAGS) $$(TEST_CFLAGS) $$(CFLAGS) $(2) -c $$< -o $$@
endef

.PHONY: all check deps install uninstall clean fuzz bench demo format need-deps FORCE valgrind soak
.SECONDARY:

ifeq ($(HAVE_DEPS),yes)
all: ioramp

ifeq ($(MPI),1)
ifneq ($(HAVE_MPI),yes)
$(error make MPI=1 needs Open MPI: apt-get install openmpi-bin libopenmpi-dev (or make deps))
endif
IORAMP_BIN := build/mpi/ioramp
else
IORAMP_BIN := build/ioramp
endif

# Copied every time, so that switching between make and make MPI=1 takes effect.
ioramp: $(IORAMP_BIN) FORCE
	cp $< $@

FORCE:

MPI_CFLAGS := $(if $(filter yes,$(HAVE_MPI)),$(shell $(PKG_CONFIG) --cflags ompi-c))
MPI_LIBS := $(if $(filter yes,$(HAVE_MPI)),$(shell $(PKG_CONFIG) --libs ompi-c))

# Only src/mpi/ sees the MPI headers (the binary asks clu_comm_has_mpi() at run time), so the
# MPI build links the plain objects with its own transport: the sources compile once, not
# twice (issue 13: the MPI tree was a sixth of make check's build).
PLAIN_OBJS := $(LIB_SRC:%.c=build/%.o)
SAN_OBJS := $(LIB_SRC:%.c=build/san/%.o)
MPI_OBJS := $(filter-out build/src/cluster/comm_solo.o,$(PLAIN_OBJS)) \
	$(patsubst %.c,build/mpi/%.o,$(filter src/mpi/%,$(MPI_LIB_SRC)))

$(eval $(call build_tree,build,,$(PLAIN_OBJS),,build/$(CLI_MAIN:.c=.o)))
$(eval $(call build_tree,build/san,$(SAN_FLAGS),$(SAN_OBJS),,build/san/$(CLI_MAIN:.c=.o)))
$(eval $(call build_tree,build/mpi,$(MPI_CFLAGS),$(MPI_OBJS),$(MPI_LIBS),build/$(CLI_MAIN:.c=.o)))

UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=build/tests/unit/%)
SAN_UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=build/san/tests/unit/%)

CHECK_MPI := $(if $(filter yes,$(HAVE_MPI)),build/mpi/ioramp)

check: ioramp build/san/ioramp $(UNIT_BINS) $(SAN_UNIT_BINS) $(CHECK_MPI)
	@IORAMP_MPI=$(if $(CHECK_MPI),$(CURDIR)/$(CHECK_MPI)) \
		tests/run-suites build $(UNIT_BINS) -- $(SAN_UNIT_BINS)

bench: ioramp
	bench/run

# The unit tests under valgrind (memcheck, leaks); quick, so CI runs it after check.
valgrind: $(UNIT_BINS)
	@tests/run-valgrind $(UNIT_BINS)

# bench/soak: SOAK_SECS at a fixed rate on eight files; RSS and open fds must not grow.
SOAK_SECS ?= 3600
soak: ioramp
	bench/soak $(SOAK_SECS)

demo: ioramp
	./ioramp demo

FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
build/fuzz/%: fuzz/%.c $(filter-out src/cli/%,$(LIB_SRC))
	@mkdir -p $(@D)
	$(CLANG) -std=gnu11 -Iinclude -D_GNU_SOURCE -DIORAMP_VERSION='"$(VERSION)"' \
		-DIORAMP_DATADIR='"$(DATADIR)"' $(PKG_CFLAGS) $(FUZZ_FLAGS) $^ $(PKG_LIBS) -o $@

FUZZ_SECS ?= 60
fuzz: $(FUZZ_SRC:fuzz/%.c=build/fuzz/%)
	@for f in $^; do \
		name=$${f##*/}; mkdir -p fuzz/corpus-$$name; \
		echo "fuzz: $$name for $(FUZZ_SECS)s"; \
		$$f -max_total_time=$(FUZZ_SECS) -timeout=10 -rss_limit_mb=2048 \
			fuzz/corpus-$$name fuzz/seeds/$${name#fuzz_} || exit 1; \
	done

-include $(shell find build -name '*.d' 2>/dev/null)
else
# A fresh machine: install the packages first, then build what was asked.
all check bench demo fuzz valgrind soak: need-deps
	@$(MAKE) --no-print-directory $@

need-deps:
	@echo "ioramp: build dependencies missing; running make deps"
	@$(MAKE) --no-print-directory deps
endif

deps:
	@if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else \
		echo "make deps: need root; run as root:"; \
		echo "  apt-get update && apt-get install -y $(DEB_PKGS)"; \
		exit 1; \
	fi; \
	echo "apt-get install -y $(DEB_PKGS)"; \
	$$SUDO apt-get update -q && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $(DEB_PKGS)

install: ioramp
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 ioramp $(DESTDIR)$(BINDIR)/ioramp
	install -m 644 man/ioramp.1 $(DESTDIR)$(MANDIR)/man1/ioramp.1
	install -m 644 man/ioramp-parm.5 $(DESTDIR)$(MANDIR)/man5/ioramp-parm.5
	if ls workloads/*.vdb >/dev/null 2>&1; then \
		install -d $(DESTDIR)$(DATADIR)/workloads; \
		install -m 644 workloads/*.vdb workloads/README.md $(DESTDIR)$(DATADIR)/workloads/; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ioramp $(DESTDIR)$(MANDIR)/man1/ioramp.1 \
		$(DESTDIR)$(MANDIR)/man5/ioramp-parm.5
	rm -rf $(DESTDIR)$(DATADIR)

format:
	clang-format -i $$(find src include tests/unit fuzz -name '*.[ch]')

clean:
	rm -rf build ioramp
