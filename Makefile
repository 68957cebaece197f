# kstats: this Makefile only delegates.
#   make [KERNELRELEASE=... | KDIR=...]	build module/kstats.ko (running kernel by default)
#   make check				every test: unit, style, CLI, packages, VM lanes (6.1, 6.12, 6.12-rt, 7.3, 7.3-rt, debug)
#   sudo make check-fresh		make check in a bare Debian 12 root (debootstrap, cached),
#					nothing reused from this machine (KSTATS_FRESH_CMD: run
#					something else there; KSTATS_FRESH_KEEP_CACHE=1: keep its kernels)
#   make demo				boot Debian's kernel in QEMU and show kstats at work
#   make bench [BENCH_LANE=L] [KSTATS_BENCH_PARTS=...]	record path, SNAPSHOT memory, tracing overhead (kernel and user-space functions), CLI
#   make fuzz [FUZZ_CALLS=N FUZZ_LANE=L]	long ioctl fuzzer run in the VM (debug lane)
#   sudo make install			install kstats.ko for KERNELRELEASE
#   sudo make dkms-source		the DKMS source tree in /usr/src/kstats-VERSION
#   make deb				kstats-dkms and kstatsctl .debs in build/deb/
#   make rpm [RPMBUILD_FLAGS=...]	kstats-dkms and kstatsctl RPMs in build/rpm/
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

check-fresh:
	tests/check-fresh.sh

demo:
	tests/demo.sh

bench:
	tests/bench.sh $(BENCH_LANE)

fuzz:
	tests/fuzz.sh

version:
	@echo $(VERSION)

# What DKMS builds from: the module's sources, the headers, the post-build
# step and dkms.conf, with the version from module/version.h written in.
DKMS_SRC := $(DESTDIR)/usr/src/kstats-$(VERSION)
dkms-source: build/dkms.conf
	install -d $(DKMS_SRC)/module $(DKMS_SRC)/include/linux $(DKMS_SRC)/include/uapi/linux \
		$(DKMS_SRC)/packaging
	install -m 644 module/*.c module/*.h module/Kbuild module/Makefile module/compat.mk $(DKMS_SRC)/module/
	install -m 644 include/kstats_hist.h $(DKMS_SRC)/include/
	install -m 644 include/linux/kstats.h $(DKMS_SRC)/include/linux/
	install -m 644 include/uapi/linux/kstats.h $(DKMS_SRC)/include/uapi/linux/
	install -m 755 packaging/dkms-post-build $(DKMS_SRC)/packaging/
	install -m 644 build/dkms.conf $(DKMS_SRC)/dkms.conf

build/dkms.conf: dkms.conf module/version.h
	mkdir -p build
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(VERSION)"/' dkms.conf >$@

# What a package is built from: the files git knows (tracked, or new and
# not ignored), never build products; outside a git checkout, every file
# but build/.
SOURCE_FILES = $(shell git ls-files -co --exclude-standard 2>/dev/null || \
	find . \( -path ./build -o -path ./.git \) -prune -o -type f -print)

source-list:
	@printf '%s\n' $(SOURCE_FILES)

# Debian packages, built by dpkg-buildpackage in a clean copy of the tree
# (dpkg writes next to the source dir): build/deb/*.deb.
deb:
	rm -rf build/deb && mkdir -p build/deb/src/kstats-$(VERSION)
	tar -cf - $(SOURCE_FILES) | tar -xf - -C build/deb/src/kstats-$(VERSION)
	cd build/deb/src/kstats-$(VERSION) && dpkg-buildpackage -us -uc -b
	mv build/deb/src/*.deb build/deb/src/*.changes build/deb/src/*.buildinfo build/deb/
	rm -rf build/deb/src
	@ls build/deb/*.deb

# RPMs: a source tarball and the spec (packaging/kstats.spec.in, version
# written in), then rpmbuild -ba. On a machine whose build dependencies are
# not RPMs (Debian), RPMBUILD_FLAGS=--nodeps.
RPM_TOP := $(CURDIR)/build/rpm
rpm:
	rm -rf $(RPM_TOP) && mkdir -p $(RPM_TOP)/SOURCES $(RPM_TOP)/SPECS
	tar -czf $(RPM_TOP)/SOURCES/kstats-$(VERSION).tar.gz --transform 's,^,kstats-$(VERSION)/,' \
		$(SOURCE_FILES)
	sed 's/@VERSION@/$(VERSION)/' packaging/kstats.spec.in >$(RPM_TOP)/SPECS/kstats.spec
	rpmbuild $(RPMBUILD_FLAGS) --define '_topdir $(RPM_TOP)' -ba $(RPM_TOP)/SPECS/kstats.spec

clean:
	-$(MAKE) -C module KERNELRELEASE=$(KERNELRELEASE) KDIR=$(KDIR) clean
	$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: all module install dkms-source source-list deb rpm check check-fresh demo bench fuzz version clean
