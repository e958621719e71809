# SPDX-License-Identifier: GPL-2.0
#
# kbench selftests: the generic netlink family, the sampling method, the
# netlink fuzzer.  The attribute tables are generated from the family's
# spec with tools/net/ynl's ynl-gen-c at build time.

top_srcdir := ../../../..
YNL := $(top_srcdir)/tools/net/ynl
SPEC := $(top_srcdir)/Documentation/netlink/specs/kbench.yaml
PYTHON ?= python3

CFLAGS += -std=gnu11 -O2 -g -Wall $(KHDR_INCLUDES)
# include/kbench/ (the engine) after the system and uapi headers: the
# kernel's own include/linux/ must not shadow them
CFLAGS += -I$(OUTPUT) -I. -I.. -I$(YNL)/lib -idirafter $(top_srcdir)/include
LDLIBS += -pthread

@TESTLISTS@

include ../lib.mk

TABLES := $(OUTPUT)/kbench_nl_tables.c

$(TABLES): $(SPEC) ynl-tables.py
	$(PYTHON) ynl-tables.py $(YNL) $(SPEC) $@ $(@:.c=.h)

$(OUTPUT)/kbench_load.sh: kbench_load.sh
	install -m 755 $< $@

$(OUTPUT)/kbench-fuzz: kbench-fuzz.c kbench_nl.c $(TABLES)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(filter-out %.sh,$(TEST_GEN_PROGS)): kbench_nl.c $(TABLES) kbench_fixture.h kbench_nl.h

EXTRA_CLEAN := $(TABLES) $(TABLES:.c=.h)
