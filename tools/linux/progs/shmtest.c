/* SPDX-License-Identifier: MIT */
/*
 * Static shared memory from an unmodified Linux's user space: find the
 * region in /proc/device-tree/reserved-memory (a node with compatible
 * "xen,shared-memory-v1" and xen,id = ID, Xen 4.17's layout), map it
 * through /dev/mem, read what the bare-metal partition (guests/shm,
 * role=peer) wrote in its first half, write the second half and raise the
 * flag it waits for. One line per check, "shmtest: PASS <what>" or
 * "shmtest: FAIL <what> (<why>)", then "shmtest: done, N passed, M failed".
 *
 *   shmtest [id=buf0]
 *
 * Linux maps memory outside its RAM through /dev/mem as Device memory, so
 * every access is an aligned 32-bit load or store (no memcpy); the
 * bare-metal side cleans and invalidates its cache around each hand-over.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* guests/shm/shm.c's layout: flag words, then two halves of pattern words. */
#define FLAG_A  0U
#define FLAG_B  1U
#define DATA    16U
#define SEED_A  0xa11ce000U
#define SEED_B  0xb0b00000U
#define WAIT_MS 20000

static unsigned int passed, failed;

static void check(int ok, const char *what, const char *why)
{
	if (ok) {
		passed++;
		printf("shmtest: PASS %s\n", what);
	} else {
		failed++;
		printf("shmtest: FAIL %s (%s)\n", what, why);
	}
}

/* A /proc/device-tree property into buf; its length, or -1. */
static int read_prop(const char *dir, const char *name, void *buf, size_t len)
{
	char path[1024];
	int fd;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, len);
	close(fd);
	return n;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

/* The reserved-memory node of region id: its guest address and size. */
static int find_region(const char *id, uint64_t *base, uint64_t *size, char *node, size_t len)
{
	static const char top[] = "/proc/device-tree/reserved-memory";
	DIR *d = opendir(top);
	struct dirent *e;
	int found = 0;
	uint32_t cells[2] = { 0, 0 };

	if (d == NULL)
		return 0;
	/* Xen writes #address-cells = #size-cells = 2. */
	check(read_prop(top, "#address-cells", &cells[0], 4) == 4 &&
	      read_prop(top, "#size-cells", &cells[1], 4) == 4 &&
	      cells[0] == htobe32(2) && cells[1] == htobe32(2),
	      "reserved-memory has 2 address and 2 size cells", "other cells");
	while (!found && (e = readdir(d)) != NULL) {
		char dir[512];
		char compat[64] = "";
		char xid[32] = "";
		uint8_t reg[16];
		uint8_t off[8];

		if (strncmp(e->d_name, "xen-shmem@", 10) != 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", top, e->d_name);
		if (read_prop(dir, "compatible", compat, sizeof(compat) - 1) <= 0 ||
		    strcmp(compat, "xen,shared-memory-v1") != 0 ||
		    read_prop(dir, "xen,id", xid, sizeof(xid) - 1) <= 0 || strcmp(xid, id) != 0)
			continue;
		found = read_prop(dir, "reg", reg, sizeof(reg)) == 16 &&
			read_prop(dir, "xen,offset", off, sizeof(off)) == 8 && be64(off) == 0;
		*base = be64(reg);
		*size = be64(&reg[8]);
		snprintf(node, len, "%s", e->d_name);
	}
	closedir(d);
	return found;
}

static int wait_flag(volatile uint32_t *w, uint32_t v)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < WAIT_MS; i++) {
		if (*w == v)
			return 1;
		nanosleep(&ms, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *id = "buf0";
	char node[256] = "";
	char what[320];
	uint64_t base = 0, size = 0, words, i, bad = 0;
	volatile uint32_t *buf;
	int fd;

	for (int a = 1; a < argc; a++)
		if (strncmp(argv[a], "id=", 3) == 0)
			id = argv[a] + 3;
	snprintf(what, sizeof(what), "/proc/device-tree/reserved-memory has region \"%s\"", id);
	check(find_region(id, &base, &size, node, sizeof(node)), what, "no xen,shared-memory-v1 node");
	if (failed != 0)
		goto out;
	snprintf(what, sizeof(what), "%s: reg 0x%llx+0x%llx, xen,offset 0", node,
		 (unsigned long long)base, (unsigned long long)size);
	check(size > DATA * 4U && (base & 0xfff) == 0 && (size & 0xfff) == 0, what, "bad reg");
	fd = open("/dev/mem", O_RDWR | O_SYNC);
	buf = (fd < 0) ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	check(buf != MAP_FAILED, "mapped through /dev/mem", strerror(errno));
	if (buf == MAP_FAILED)
		goto out;
	words = (size / 4U - DATA) / 2U;
	check(wait_flag(&buf[FLAG_A], 1U), "the bare-metal side raised its flag", "timeout");
	for (i = 0; i < words; i++)
		bad += buf[DATA + i] != (SEED_A ^ (uint32_t)(i * 0x9e3779b1U));
	snprintf(what, sizeof(what), "reads the bare-metal side's %llu words: %llu wrong",
		 (unsigned long long)words, (unsigned long long)bad);
	check(bad == 0, what, "its pattern is not there");
	for (i = 0; i < words; i++)
		buf[DATA + words + i] = SEED_B ^ (uint32_t)(i * 0x9e3779b1U);
	__sync_synchronize();
	buf[FLAG_B] = 1U;
	__sync_synchronize();
	snprintf(what, sizeof(what), "wrote %llu words for the bare-metal side",
		 (unsigned long long)words);
	check(1, what, "");
	munmap((void *)buf, size);
	close(fd);
out:
	printf("shmtest: done, %u passed, %u failed\n", passed, failed);
	return failed != 0;
}
