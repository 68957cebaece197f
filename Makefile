# kstats: this Makefile only delegates.
#   make [KERNELRELEASE=... | KDIR=...]	build module/kstats.ko (running kernel by default)
#   make check				every test: unit, style, VM lanes 6.1, 6.12, debug
#   make demo				boot Debian's kernel in QEMU and show kstats at work
#   make bench				record-path benchmark in the VM
#   make fuzz [FUZZ_CALLS=N FUZZ_LANE=L]	long ioctl fuzzer run in the VM (debug lane)
#   sudo make install			install kstats.ko for KERNELRELEASE
#   sudo make dkms-source		the DKMS source tree in /usr/src/kstats-VERSION
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

fuzz:
	tests/fuzz.sh

version:
	@echo $(VERSION)

# What DKMS builds from: the module's sources, the headers and dkms.conf,
# whose version is filled in here from module/version.h.
DKMS_SRC := $(DESTDIR)/usr/src/kstats-$(VERSION)
dkms-source:
	install -d $(DKMS_SRC)/module $(DKMS_SRC)/include/linux $(DKMS_SRC)/include/uapi/linux
	install -m 644 module/*.c module/*.h module/Kbuild module/Makefile module/compat.mk $(DKMS_SRC)/module/
	install -m 644 include/kstats_hist.h $(DKMS_SRC)/include/
	install -m 644 include/linux/kstats.h $(DKMS_SRC)/include/linux/
	install -m 644 include/uapi/linux/kstats.h $(DKMS_SRC)/include/uapi/linux/
	sed 's/@VERSION@/$(VERSION)/' packaging/dkms.conf.in >$(DKMS_SRC)/dkms.conf

clean:
	-$(MAKE) -C module KERNELRELEASE=$(KERNELRELEASE) KDIR=$(KDIR) clean
	$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: all module install dkms-source check demo bench fuzz version clean
