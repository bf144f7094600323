/* SPDX-License-Identifier: MIT */
/*
 * A hostile partition. Phase 1 (exclusive ownership): every hypercall sub-op
 * that takes a guest pointer gets, in turn, addresses this partition does not
 * own (past its RAM, beyond its stage 1, the unpopulated grant window, the
 * GIC distributor and redistributor, and the machine address of the victim's
 * RAM used as an IPA); each must return -EFAULT. Then the same addresses go
 * inside arguments that are its own: as frame numbers (vcpu_info, FIFO pages,
 * GNTTABOP_copy, cache_flush) and as nested handles (setup_table's frame
 * list, SCHEDOP_poll's ports), each answered as Xen answers a page that is
 * not the caller's. Phase 2: for a bounded
 * number of calls and time, random and malformed hypercalls from a seeded
 * PRNG (every hypercall number up to 64 and every sub-op number plus a few
 * beyond, other partitions' ids, invalid ports and refs, huge counts), and a
 * flood of sends on its event channel. Every return must be >= 0 or a Xen
 * errno. Last, it touches the victim's machine address, which must stop it.
 *
 * bootargs: tag= seed= iters= duration_ms= victim_pa= flood_port= touch=0|1
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <public/event_channel.h>
#include <public/grant_table.h>
#include <public/vcpu.h>
#include <public/hvm/params.h>
#include <public/sched.h>

#define XEN_ERRNO_MAX 134	/* largest errno value in Xen's public errno.h list */
#define SCRATCH_SIZE 0x10000ULL	/* last 64 KiB of RAM: huge counts run off the end */

static uint64_t prng_state;

/* xorshift64*: deterministic for a given seed, printed so a run can be replayed. */
static uint64_t prng(void)
{
	prng_state ^= prng_state >> 12;
	prng_state ^= prng_state << 25;
	prng_state ^= prng_state >> 27;
	return prng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t bad_ptrs[7];
static unsigned int nr_bad;
static uint64_t scratch;

/* Values chosen to hit edge cases: ids of other partitions, limits, signs. */
static uint64_t nasty(void)
{
	static const uint64_t pick[] = {
		0, 1, 2, 3, 4, 0x7ff0, 0x7ff1, 0x7ff2, 0x7fff, 0xffff, 0x10000, 4095, 4096,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL, ~0ULL, ~0ULL - 4095,
		1023, 1024, 4096 * 8, 1U << 17,
	};
	uint64_t r = prng();

	switch (r & 3U) {
	case 0:
		return pick[(r >> 8) % ARRAY_SIZE(pick)];
	case 1:
		return (r >> 8) & 0xffU;
	case 2:
		return bad_ptrs[(r >> 8) % nr_bad];
	default:
		return prng();
	}
}

/* A pointer argument: scratch full of nasty words, misaligned, or not ours. */
static uint64_t nasty_ptr(bool scratch_ok)
{
	uint64_t r = prng();
	uint64_t *w = (uint64_t *)(uintptr_t)scratch;
	unsigned int i;

	if (scratch_ok && ((r & 1U) != 0U)) {
		for (i = 0; i < 64U; i++) {
			w[i] = nasty();
		}
		/* Near the end of RAM, so a huge count walks off it quickly. */
		return scratch + SCRATCH_SIZE - 4096U + (((r >> 1) & 1U) ? ((r >> 8) & 0xfffU) : 0U);
	}
	return ((r >> 1) & 1U) ? bad_ptrs[(r >> 8) % nr_bad] : nasty();
}

static bool valid_ret(long r)
{
	return (r >= 0) || ((r >= -XEN_ERRNO_MAX) && (r <= -1));
}

struct ptr_call {
	unsigned int nr;
	unsigned int cmd;
	uint64_t count;	/* second argument for grant_table_op, console_io length */
	const char *name;
};

/*
 * Every sub-op that reads or writes guest memory through its argument.
 * CONSOLEIO_read is left out: with no input pending it touches no memory and
 * returns 0, as Xen does.
 */
static const struct ptr_call ptr_calls[] = {
	{ __HYPERVISOR_console_io, CONSOLEIO_write, 16, "console_io write" },
	{ __HYPERVISOR_xen_version, XENVER_extraversion, 0, "xen_version extraversion" },
	{ __HYPERVISOR_xen_version, XENVER_get_features, 0, "xen_version get_features" },
	{ __HYPERVISOR_memory_op, XENMEM_add_to_physmap, 0, "memory_op add_to_physmap" },
	{ __HYPERVISOR_sched_op, SCHEDOP_shutdown, 0, "sched_op shutdown" },
	{ __HYPERVISOR_sched_op, SCHEDOP_poll, 0, "sched_op poll" },
	{ __HYPERVISOR_vcpu_op, VCPUOP_register_vcpu_info, 0, "vcpu_op register_vcpu_info" },
	{ __HYPERVISOR_vcpu_op, VCPUOP_register_runstate_memory_area, 0,
	  "vcpu_op register_runstate" },
	{ __HYPERVISOR_hvm_op, HVMOP_set_param, 0, "hvm_op set_param" },
	{ __HYPERVISOR_hvm_op, HVMOP_get_param, 0, "hvm_op get_param" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_map_grant_ref, 1, "gnttab map_grant_ref" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_unmap_grant_ref, 1, "gnttab unmap_grant_ref" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_setup_table, 1, "gnttab setup_table" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_copy, 1, "gnttab copy" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_query_size, 1, "gnttab query_size" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_unmap_and_replace, 1, "gnttab unmap_and_replace" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_set_version, 1, "gnttab set_version" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_get_status_frames, 1, "gnttab get_status_frames" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_get_version, 1, "gnttab get_version" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_swap_grant_ref, 1, "gnttab swap_grant_ref" },
	{ __HYPERVISOR_grant_table_op, GNTTABOP_cache_flush, 1, "gnttab cache_flush" },
};

static long call_ptr(const struct ptr_call *c, uint64_t p)
{
	switch (c->nr) {
	case __HYPERVISOR_console_io:
	case __HYPERVISOR_grant_table_op:
		return xen_hypercall(c->nr, c->cmd, c->nr == __HYPERVISOR_console_io ? c->count : p,
				     c->nr == __HYPERVISOR_console_io ? p : c->count, 0, 0);
	case __HYPERVISOR_vcpu_op:
		return xen_hypercall(c->nr, c->cmd, 0, p, 0, 0);
	default:
		return xen_hypercall(c->nr, c->cmd, p, 0, 0, 0);
	}
}

/* Phase 1: each pointer-taking sub-op with each address we do not own. */
static unsigned int foreign_pointers(void)
{
	unsigned int i, j, n = 0, bad = 0;
	unsigned int ev;
	long r;

	for (i = 0; i < ARRAY_SIZE(ptr_calls); i++) {
		for (j = 0; j < nr_bad; j++) {
			r = call_ptr(&ptr_calls[i], bad_ptrs[j]);
			n++;
			if (r != -XEN_EFAULT) {
				printf("%s: FAIL %s(0x%lx) returned %ld, not -EFAULT\n", rt_tag(),
				       ptr_calls[i].name, bad_ptrs[j], r);
				bad++;
			}
		}
	}
	/* Every event_channel_op sub-op copies its argument in (reset_cont too). */
	for (ev = EVTCHNOP_bind_interdomain; ev <= EVTCHNOP_reset_cont; ev++) {
		for (j = 0; j < nr_bad; j++) {
			r = HYPERVISOR_event_channel_op(ev, (void *)bad_ptrs[j]);
			n++;
			if (r != -XEN_EFAULT) {
				printf("%s: FAIL event_channel_op %u(0x%lx) returned %ld, not -EFAULT\n",
				       rt_tag(), ev, bad_ptrs[j], r);
				bad++;
			}
		}
	}
	printf("%s: foreign pointers: %u calls, %u not -EFAULT\n", rt_tag(), n, bad);
	return bad;
}

static uint8_t own_page[4096] __attribute__((aligned(4096)));
static uint8_t cb_page[4096] __attribute__((aligned(4096)));

struct nested_tally {
	unsigned int calls;
	unsigned int bad;
};

static void nested_expect(struct nested_tally *t, const char *what, uint64_t addr, long got,
			  long want)
{
	t->calls++;
	if (got != want) {
		printf("%s: FAIL %s with 0x%lx inside returned %ld, not %ld\n", rt_tag(), what,
		       addr, got, want);
		t->bad++;
	}
}

/*
 * Phase 1b: the argument is ours but what it points to is not: a frame
 * number (vcpu_info, FIFO control block and event array, GNTTABOP_copy and
 * cache_flush) or a guest handle (setup_table's frame list, SCHEDOP_poll's
 * port list) naming every address we do not own. Each gets Xen's answer
 * for a page that is not the caller's, and none is registered or mapped.
 */
static unsigned int foreign_frames(uint64_t victim)
{
	struct nested_tally t = { 0, 0 };
	struct evtchn_init_control own_ic = {
		.control_gfn = (uint64_t)(uintptr_t)cb_page >> 12, .offset = 0, .vcpu = 0 };
	unsigned int j;
	long r;

	for (j = 0; j < nr_bad; j++) {
		uint64_t a = bad_ptrs[j];
		struct vcpu_register_vcpu_info vi = { .mfn = a >> 12, .offset = 0, .rsvd = 0 };
		struct evtchn_init_control ic = { .control_gfn = a >> 12, .offset = 0, .vcpu = 0 };
		struct gnttab_setup_table st = {
			.dom = DOMID_SELF, .nr_frames = 1, .status = 0, .frame_list = a };
		struct sched_poll sp = { .ports = a, .nr_ports = 1, .timeout = 0 };
		struct gnttab_copy cp;
		struct gnttab_cache_flush cf = {
			.a.dev_bus_addr = a, .offset = 0, .length = 64, .op = GNTTAB_CACHE_CLEAN };

		nested_expect(&t, "register_vcpu_info", a,
			      HYPERVISOR_vcpu_op(VCPUOP_register_vcpu_info, 0, &vi), -XEN_EINVAL);
		nested_expect(&t, "init_control", a,
			      HYPERVISOR_event_channel_op(EVTCHNOP_init_control, &ic), -XEN_EINVAL);
		r = HYPERVISOR_grant_table_op(GNTTABOP_setup_table, &st, 1);
		nested_expect(&t, "setup_table frame_list", a, (r == 0) ? st.status : r,
			      GNTST_bad_virt_addr);
		nested_expect(&t, "sched_op poll ports", a, HYPERVISOR_sched_op(SCHEDOP_poll, &sp),
			      -XEN_EFAULT);
		/*
		 * cache_flush takes a machine address: only the victim's is known to
		 * be another partition's (ram_end may well be our own machine RAM).
		 */
		if (a == victim) {
			nested_expect(&t, "cache_flush", a,
				      HYPERVISOR_grant_table_op(GNTTABOP_cache_flush, &cf, 1),
				      -XEN_EINVAL);
		}
		/* Copy from, then to, the foreign frame as if it were one of ours. */
		for (unsigned int dir = 0; dir < 2U; dir++) {
			struct gnttab_copy_ptr *theirs = dir ? &cp.dest : &cp.source;
			struct gnttab_copy_ptr *ours = dir ? &cp.source : &cp.dest;
			memset(&cp, 0, sizeof(cp));
			theirs->u.gmfn = a >> 12;
			theirs->domid = DOMID_SELF;
			ours->u.gmfn = (uint64_t)(uintptr_t)own_page >> 12;
			ours->domid = DOMID_SELF;
			cp.len = 8;
			r = HYPERVISOR_grant_table_op(GNTTABOP_copy, &cp, 1);
			nested_expect(&t, dir ? "copy to" : "copy from", a, (r == 0) ? cp.status : r,
				      GNTST_bad_page);
		}
	}
	/* The event array needs the FIFO ABI: switch with a page of our own first. */
	r = HYPERVISOR_event_channel_op(EVTCHNOP_init_control, &own_ic);
	nested_expect(&t, "init_control (own page)", (uint64_t)(uintptr_t)cb_page, r, 0);
	for (j = 0; (r == 0) && (j < nr_bad); j++) {
		struct evtchn_expand_array ea = { .array_gfn = bad_ptrs[j] >> 12 };
		nested_expect(&t, "expand_array", bad_ptrs[j],
			      HYPERVISOR_event_channel_op(EVTCHNOP_expand_array, &ea), -XEN_EINVAL);
	}
	printf("%s: foreign frames and handles: %u calls, %u not as Xen answers\n", rt_tag(),
	       t.calls, t.bad);
	return t.bad;
}

/* Sub-op ranges per hypercall; a few numbers past the last are tried too. */
static unsigned int max_cmd(unsigned int nr)
{
	switch (nr) {
	case __HYPERVISOR_grant_table_op:
		return GNTTABOP_cache_flush;
	case __HYPERVISOR_event_channel_op:
		return EVTCHNOP_reset_cont;
	case __HYPERVISOR_memory_op:
		return 30;
	case __HYPERVISOR_xen_version:
		return 10;
	default:
		return 12;
	}
}

static bool random_call(uint64_t *errs)
{
	static const unsigned int impl[] = {
		__HYPERVISOR_memory_op, __HYPERVISOR_xen_version, __HYPERVISOR_console_io,
		__HYPERVISOR_grant_table_op, __HYPERVISOR_vm_assist, __HYPERVISOR_vcpu_op,
		__HYPERVISOR_sched_op, __HYPERVISOR_event_channel_op, __HYPERVISOR_hvm_op,
	};
	uint64_t r = prng();
	unsigned int nr, cmd;
	uint64_t a1, a2;
	long ret;

	nr = ((r & 7U) == 0U) ? (unsigned int)((r >> 3) % 66U) : impl[(r >> 3) % ARRAY_SIZE(impl)];
	cmd = ((r >> 20) & 15U) ? (unsigned int)((r >> 24) % (max_cmd(nr) + 4U))
				 : (unsigned int)nasty();
	a1 = nasty_ptr(true);
	a2 = nasty();
	/* Calls that would end or park this partition only get bad pointers. */
	if ((nr == __HYPERVISOR_sched_op) &&
	    ((cmd == SCHEDOP_block) || (cmd == SCHEDOP_shutdown) || (cmd == SCHEDOP_poll))) {
		a1 = bad_ptrs[(r >> 40) % nr_bad];
		if (cmd == SCHEDOP_block) {
			return true;
		}
	}
	/* Writing scratch garbage to the console would only add noise. */
	if ((nr == __HYPERVISOR_console_io) && (cmd == CONSOLEIO_write)) {
		a2 = nasty_ptr(false);
	}
	if (nr == __HYPERVISOR_grant_table_op || nr == __HYPERVISOR_console_io) {
		ret = xen_hypercall(nr, cmd, nr == __HYPERVISOR_console_io ? nasty() : a1,
				    nr == __HYPERVISOR_console_io ? a2 : nasty(), nasty(), nasty());
	} else if (nr == __HYPERVISOR_vcpu_op) {
		ret = xen_hypercall(nr, cmd, nasty(), a1, nasty(), nasty());
	} else {
		ret = xen_hypercall(nr, cmd, a1, a2, nasty(), nasty());
	}
	if (!valid_ret(ret)) {
		printf("%s: INVALID return %ld from hypercall %u cmd %u\n", rt_tag(), ret, nr, cmd);
		return false;
	}
	if (ret < 0) {
		(*errs)++;
	}
	return true;
}

int test_main(void)
{
	uint64_t seed = rt_arg_u64("seed", 1);
	uint64_t iters = rt_arg_u64("iters", 20000);
	uint64_t limit = timer_us_to_ticks(rt_arg_u64("duration_ms", 3000) * 1000U);
	uint64_t victim = rt_arg_u64("victim_pa", 0);
	evtchn_port_t fport = (evtchn_port_t)rt_arg_u64("flood_port", 0);
	uint64_t ram_end = rt.ram_base + rt.ram_size;
	uint64_t i, errs = 0, sends = 0, t0;
	unsigned int invalid = 0, fails;

	scratch = ram_end - SCRATCH_SIZE;
	bad_ptrs[nr_bad++] = ram_end;
	bad_ptrs[nr_bad++] = 0x100000000ULL;
	bad_ptrs[nr_bad++] = 0x38800000ULL;	/* grant window, nothing placed there */
	bad_ptrs[nr_bad++] = 0x08000000ULL;	/* GIC distributor */
	bad_ptrs[nr_bad++] = 0x080a0000ULL;	/* GICv3 redistributor / GICv2 GICV */
	if ((victim != 0U) && ((victim < rt.ram_base) || (victim >= ram_end))) {
		bad_ptrs[nr_bad++] = victim;
	}
	prng_state = seed ? seed : 1U;
	printf("%s: hostile start, seed %lu, %lu calls, victim RAM at machine 0x%lx\n", rt_tag(),
	       (unsigned long)seed, (unsigned long)iters, victim);
	if (fport != 0U && evt_setup(false) != 0) {
		printf("%s: evtchn setup failed (ignored)\n", rt_tag());
	}
	fails = foreign_pointers();
	fails += foreign_frames(victim);
	t0 = cntvct();
	for (i = 0; i < iters && (cntvct() - t0) < limit; i++) {
		if (!random_call(&errs)) {
			invalid++;
		}
		if (fport != 0U) {
			(void)evt_send(fport);
			sends++;
		}
	}
	printf("%s: hostile done: %lu random calls (%lu refused, %u invalid returns), "
	       "%lu sends, %lu us\n", rt_tag(), (unsigned long)i, (unsigned long)errs, invalid,
	       (unsigned long)sends, (unsigned long)timer_ticks_to_us(cntvct() - t0));
	if (fails != 0U || invalid != 0U) {
		printf("%s: FAIL hostile saw wrong return codes\n", rt_tag());
	}
	if (rt_arg_u64("touch", 1) != 0U && victim != 0U) {
		printf("%s: touching 0x%lx\n", rt_tag(), victim);
		(void)*(volatile uint32_t *)(uintptr_t)victim;
		printf("%s: FAIL read of 0x%lx returned\n", rt_tag(), victim);
	}
	return 1;
}
