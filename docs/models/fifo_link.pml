/*
 * FIFO event channels: linking against a consuming, masking guest
 * (common/evtchn/abi_fifo.c; the guest side as Linux's events_fifo.c).
 * VERIFIES: REQ-EVT-028
 * pan: -m200000
 *
 * One queue, ports 1..3. Event word: PENDING 64, MASKED 32, LINKED 16,
 * BUSY 8, LINK = low 3 bits. The hypervisor links under the queue lock;
 * the guest consumes (clear_linked by cmpxchg), acks, and masks/unmasks
 * port 1 (clearing MASKED only while BUSY is clear, then EVTCHNOP_unmask
 * if it is pending). Checked:
 *  - no lost event: when all is done every pending unmasked event has been
 *    delivered;
 *  - the hypervisor's retries are bounded (BUSY never left set) and the
 *    guest's walk is bounded (no cycle in the links);
 *  - no deadlock.
 */
#define PENDING 64
#define MASKED  32
#define LINKED  16
#define BUSY    8
#define LINK    7
#define TRIES   4

byte w[4];          /* event words, port 0 unused */
byte head;          /* control block head[q] (guest memory) */
bit ready;          /* control block ready bit q */
byte tail;          /* hypervisor private, under qlock */
bit qlock;
byte done;          /* senders finished */

inline lock(l)   { atomic { l == 0 -> l = 1 } }
inline unlock(l) { l = 0 }

/* try_set_link: r = 1 linked, 0 tail not linked, 2 word changed. */
inline try_set_link(t, old, port, r)
{
	atomic {
		if
		:: (old & LINKED) == 0 -> r = 0
		:: else ->
			if
			:: w[t] == old -> w[t] = (old & ~(BUSY | LINK)) | port; r = 1
			:: else -> old = w[t]; r = 2
			fi
		fi
	}
}

inline set_pending(port)
{

	lock(qlock);
	atomic { sp_wp = ((w[port] & PENDING) != 0); w[port] = w[port] | PENDING };
	sp_linked = 1;
	atomic {
		if
		:: (w[port] & MASKED) == 0 ->
			sp_wl = ((w[port] & LINKED) != 0);
			w[port] = w[port] | LINKED
		:: else -> sp_wl = 1
		fi
	};
	if
	:: !sp_wl ->
		/* It was the tail and was consumed: the queue is empty. */
		if
		:: tail == port -> tail = 0
		:: else -> skip
		fi;
		sp_linked = 0;
		if
		:: tail != 0 ->
			sp_old = w[tail];
			try_set_link(tail, sp_old, port, sp_r);
			if
			:: sp_r == 2 ->
				atomic { w[tail] = w[tail] | BUSY };
				sp_old = w[tail];
				sp_n = 0;
				do
				:: sp_n < TRIES ->
					try_set_link(tail, sp_old, port, sp_r);
					if
					:: sp_r != 2 -> break
					:: else -> sp_n++
					fi
				:: else -> break
				od;
				if
				:: sp_r == 2 -> sp_r = 1    /* gave up: drop the link, as Xen */
				:: else -> skip
				fi;
				if
				:: sp_r == 0 || sp_n == TRIES -> atomic { w[tail] = w[tail] & ~BUSY }
				:: else -> skip
				fi
			:: else -> skip
			fi;
			sp_linked = (sp_r == 1)
		:: else -> skip
		fi;
		if
		:: !sp_linked -> head = port
		:: else -> skip
		fi;
		tail = port
	:: else -> skip
	fi;
	unlock(qlock);
	if
	:: !sp_linked -> ready = 1
	:: else -> skip
	fi
}

proctype sender(byte port; byte times)
{
	byte k = 0;
	byte sp_old, sp_r, sp_n;
	bit sp_linked, sp_wp, sp_wl;
	do
	:: k < times -> set_pending(port); k++
	:: else -> break
	od;
	done++
}

proctype guest()
{
	byte lhead = 0, port, old, steps = 0;
	byte sp_old, sp_r, sp_n;
	bit sp_linked, sp_wp, sp_wl;
	bit masked_once = 0, unmasked = 0, busy_seen;

	do
	:: (ready == 1 || lhead != 0) ->
		ready = 0;
		if
		:: lhead == 0 -> lhead = head
		:: else -> skip
		fi;
		/* walk the queue */
		do
		:: lhead != 0 ->
			port = lhead;
			/* clear_linked: cmpxchg LINKED|LINK off, take the next port */
			do
			:: atomic {
				old = w[port];
				w[port] = old & ~(LINKED | LINK);
				lhead = old & LINK
			   };
			   break
			od;
			if
			:: (old & PENDING) && !(old & MASKED) ->
				atomic { w[port] = w[port] & ~PENDING }   /* deliver + ack */
			:: else -> skip
			fi;
			steps++;
			assert(steps < 40)    /* no cycles */
		:: else -> break
		od
	:: masked_once == 0 ->
		atomic { w[1] = w[1] | MASKED };
		masked_once = 1
	:: masked_once == 1 && unmasked == 0 ->
		/* guest unmask: only while BUSY is clear */
		atomic {
			busy_seen = ((w[1] & BUSY) != 0);
			if
			:: !busy_seen -> w[1] = w[1] & ~MASKED; unmasked = 1
			:: else -> skip
			fi
		};
		if
		:: unmasked && (w[1] & PENDING) -> set_pending(1)   /* EVTCHNOP_unmask */
		:: else -> skip
		fi
	:: done == 2 && ready == 0 && lhead == 0 && (masked_once == 0 || unmasked == 1) -> break
	od;
	/* Everything pending and unmasked was delivered; no BUSY left behind. */
	assert(((w[1] & (PENDING | MASKED)) != PENDING) &&
	       ((w[2] & (PENDING | MASKED)) != PENDING) &&
	       ((w[3] & (PENDING | MASKED)) != PENDING));
	assert(((w[1] | w[2] | w[3]) & BUSY) == 0)
}

init
{
	atomic {
		run sender(1, 2); run sender(2, 1); run guest()
	}
}
