// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf, libelf and zlib through dlopen(), each once, on first use (see
 * libs_dl.h for why). The sonames are the libraries' ABIs: within one, a
 * function keeps its signature, which the library's own header gives.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <bpf/libbpf_version.h>

#include "kstatsctl.h"
#include "libs_dl.h"

#define KS_STR_(x) #x
#define KS_STR(x) KS_STR_(x)

static const struct {
	const char *soname;
	const char *hint;
} libs[] = {
	/* libbpf's soname follows its major version (libbpf.so.0 before 1.0). */
	[KS_LIB_BPF] = { "libbpf.so." KS_STR(LIBBPF_MAJOR_VERSION),
			 "install libbpf1 (Debian, Ubuntu) or libbpf (RPM)" },
	[KS_LIB_ELF] = { "libelf.so.1",
			 "install libelf1 (Debian, Ubuntu) or elfutils-libelf (RPM)" },
	[KS_LIB_Z] = { "libz.so.1", "install zlib1g (Debian, Ubuntu) or zlib (RPM)" },
};

void *ks_lib_sym(enum ks_lib lib, const char *name)
{
	static void *handle[ARRAY_SIZE(libs)];
	void *sym = NULL;

	if (!handle[lib])
		handle[lib] = dlopen(libs[lib].soname, RTLD_NOW | RTLD_LOCAL);
	if (handle[lib])
		sym = dlsym(handle[lib], name);
	if (!sym)
		exit(ks_fail(EXIT_RUNTIME, libs[lib].hint, "cannot load %s: %s", libs[lib].soname,
			    dlerror()));
	return sym;
}
