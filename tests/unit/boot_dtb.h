/* SPDX-License-Identifier: MIT */
/*
 * Test device trees for the boot tests: tests/unit/dts/ and tests/config/dts/
 * are compiled by mk/boot.mk into <build>/host/dts/, beside the test
 * programs' own directory (<build>/host/tests/).
 */
#ifndef TESTS_BOOT_DTB_H
#define TESTS_BOOT_DTB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

static inline const char *boot_dts_dir(void)
{
	static char dir[4096];
	ssize_t n;
	char *slash;

	if (dir[0] != '\0') {
		return dir;
	}
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 16);
	assert_true(n > 0);
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	assert_non_null(slash);
	*slash = '\0';
	slash = strrchr(dir, '/');
	assert_non_null(slash);
	strcpy(slash, "/dts");
	return dir;
}

/* Read <build>/host/dts/<name><ext> into a fresh buffer of exactly its size. */
static inline void *boot_read_file(const char *name, const char *ext, size_t *len)
{
	char path[4200];
	FILE *fp;
	long sz;
	void *buf;

	snprintf(path, sizeof(path), "%s/%s%s", boot_dts_dir(), name, ext);
	fp = fopen(path, "rb");
	if (fp == NULL) {
		fail_msg("cannot open %s (built by mk/boot.mk)", path);
	}
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)sz + 1U);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)sz, fp), (size_t)sz);
	((char *)buf)[sz] = '\0';
	fclose(fp);
	*len = (size_t)sz;
	return buf;
}

static inline void *boot_load_dtb(const char *name, size_t *len)
{
	return boot_read_file(name, ".dtb", len);
}

#endif
