/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness of the xenstore partition's message parser and store
 * (guests/xenstore/xs_*.c, built with a small arena so limits are reached).
 * Every input starts from a fresh store with three client connections and
 * their homes. The input is a sequence of steps, each one byte of opcode
 * and then its bytes:
 *   op % 8 < 5  feed the next (op / 8 + 1) * 8 bytes to client op % 3
 *   5           drain client (next byte) % 3 (read its replies)
 *   6           reconnect client (next byte) % 3 (as the ring reset does)
 *   7           the store drops client (next byte) % 3's nodes and fires @releaseDomain
 * Fed bytes are the raw request stream: headers, lengths, types and
 * payloads all come from the input. After each step the store's books must
 * balance (xs_check) and queued output must be whole messages.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../guests/xenstore/xs.h"

#define NCLIENTS 3U

static struct xs_conn *conn[NCLIENTS];

static void setup(void)
{
	uint16_t d;

	xs_init(1U, NULL);
	for (d = 2U; d < 2U + NCLIENTS + 1U; d++) {
		struct xs_perm p = { .dom = d, .mode = XS_PERM_NONE };
		char path[32];
		(void)xs_dom_add(d);
		(void)snprintf(path, sizeof(path), "/local/domain/%u", d);
		(void)xs_store_mkdir(path, &p, 1U);
		(void)snprintf(path, sizeof(path), "/local/domain/%u/name", d);
		(void)xs_store_write(path, "x", 1U, NULL, 0U);
	}
	for (d = 0U; d < NCLIENTS; d++) {
		int i = xs_conn_open((uint16_t)(2U + d));
		if (i < 0) {
			abort();
		}
		conn[d] = &xs.conn[i];
	}
}

/* Take every queued message: each header's length must be within the queue. */
static void drain(struct xs_conn *c)
{
	uint32_t guard;

	for (guard = 0U; (xs_conn_out_len(c) != 0U) && (guard < 10000U); guard++) {
		struct xsd_sockmsg h;
		uint8_t *p = (uint8_t *)&h;
		uint32_t got = 0U;
		while (got < sizeof(h)) {
			uint32_t run;
			const uint8_t *q = xs_conn_out_peek(c, &run);
			uint32_t k = (run < sizeof(h) - got) ? run : (uint32_t)(sizeof(h) - got);
			if (k == 0U) {
				abort(); /* a torn header */
			}
			__builtin_memcpy(&p[got], q, k);
			xs_conn_out_consume(c, k);
			got += k;
		}
		if ((h.len > XENSTORE_PAYLOAD_MAX) || (xs_conn_out_len(c) < h.len)) {
			abort(); /* a torn or over-long message */
		}
		xs_conn_out_consume(c, h.len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 0U;
	uint32_t steps;

	setup();
	for (steps = 0U; (pos < size) && (steps < 4096U); steps++) {
		uint8_t op = data[pos];
		struct xs_conn *c;
		pos++;
		if ((op % 8U) < 5U) {
			size_t n = ((size_t)(op / 8U) + 1U) * 8U;
			size_t off = 0U;
			uint32_t guard;
			if (n > size - pos) {
				n = size - pos;
			}
			c = conn[op % NCLIENTS];
			/* Until it stops taking (blocked or stopped), serving each message. */
			for (guard = 0U; (off < n) && (guard < 8192U); guard++) {
				size_t k = xs_conn_input(c, &data[pos + off], n - off);
				if (k == 0U) {
					drain(c);
					k = xs_conn_input(c, &data[pos + off], n - off);
					if (k == 0U) {
						break;
					}
				}
				off += k;
			}
			pos += n;
		} else if (pos < size) {
			c = conn[data[pos] % NCLIENTS];
			pos++;
			if ((op % 8U) == 5U) {
				drain(c);
			} else if ((op % 8U) == 6U) {
				xs_conn_reset(c);
			} else {
				xs_store_rm_owned(c->domid);
				xs_fire_special("@releaseDomain");
			}
		} else {
			/* an opcode without its argument ends the input */
		}
		if (xs_check() != 0) {
			fprintf(stderr, "xs_check: rule %d broken\n", xs_check());
			abort();
		}
	}
	for (steps = 0U; steps < NCLIENTS; steps++) {
		drain(conn[steps]);
	}
	return 0;
}
