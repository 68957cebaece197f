# kstats: this Makefile only delegates.
#   make [KERNELRELEASE=... | KDIR=...]	build module/kstats.ko (running kernel by default)
#   make check				every test: unit, style, VM lanes 6.1, 6.12, debug
#   make demo				boot Debian's kernel in QEMU and show kstats at work
#   make bench				record-path benchmark in the VM
#   sudo make install			install kstats.ko for KERNELRELEASE
KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
VERSION := $(shell sed -n 's/^\#define KSTATS_VERSION "\(.*\)"/\1/p' module/version.h)

all: module

module:
	$(MAKE) -C module KERNELRELEASE=$(KERNELRELEASE) KDIR=$(KDIR)

install:
	$(MAKE) -C module KERNELRELEASE=$(KERNELRELEASE) KDIR=$(KDIR) install

check:
	tests/check.sh

demo:
	tests/demo.sh

bench:
	tests/bench.sh

version:
	@echo $(VERSION)

clean:
	-$(MAKE) -C module KERNELRELEASE=$(KERNELRELEASE) KDIR=$(KDIR) clean
	$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: all module install check demo bench version clean
