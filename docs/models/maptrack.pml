/*
 * Maptrack free lists (common/gnttab/maptrack.c): one LIFO list per vCPU,
 * each under its own lock; a vCPU pops from its own list, and when that is
 * empty steals one entry from each other vCPU in turn (peeking at nr_free
 * without the lock, then popping under the victim's lock); it frees onto
 * its own list. Checked: no handle is handed out twice (assert at pop), no
 * handle is freed by a vCPU that does not hold it, nr_free matches the
 * list, and at the end every handle is on exactly one list (none lost).
 * VERIFIES: REQ-GNT-019
 * cc: -DSAFETY -DCOLLAPSE
 * pan: -m100000
 */
#define NV   3      /* vCPUs of the partition */
#define NH   4      /* maptrack entries */
#define OPS  3      /* map or unmap steps per vCPU */
#define NONE 255

byte head[NV];
byte next[NH];
byte nfree[NV];
bit  lk[NV];
byte owner[NH];     /* 0: free; v+1: held by vCPU v */
byte done;

/*
 * Each list is only touched under its own lock, except the thief's peek at
 * nr_free, which only chooses whether to try: the locked sections are thus
 * modelled as atomic steps, which keeps every interleaving between lists.
 */
inline lock(v)   { lk[v] == 0 -> lk[v] = 1 }
inline unlock(v) { lk[v] = 0 }

/* Pop one entry of list v for vCPU me into h (NONE if empty). */
inline pop(v, h)
{
	atomic {
	lock(v);
	h = head[v];
	assert((h == NONE) == (nfree[v] == 0));
	if
	:: h != NONE ->
		head[v] = next[h];
		nfree[v]--;
		assert(owner[h] == 0);   /* never handed out twice */
		owner[h] = me + 1
	:: else -> skip
	fi;
	unlock(v)
	}
}

inline push(v, h)
{
	atomic {
	lock(v);
	assert(owner[h] == me + 1);      /* only the holder frees */
	owner[h] = 0;
	next[h] = head[v];
	head[v] = h;
	nfree[v]++;
	unlock(v)
	}
}

proctype vcpu(byte me)
{
	byte h = NONE, k, i, n;

	do
	:: n < OPS ->
		n++;
		if
		:: true ->            /* map: own list, then steal */
			pop(me, h);
			k = 1;
			do
			:: h == NONE && k < NV ->
				if
				:: nfree[(me + k) % NV] != 0 -> pop((me + k) % NV, h)
				:: else -> skip
				fi;
				k++
			:: else -> break
			od;
			atomic { h = NONE; k = 0 }   /* forget locals: fewer states */
		:: true ->            /* unmap one mapping this vCPU holds */
			d_step {
				i = 0;
				do
				:: i < NH && owner[i] == me + 1 -> break
				:: i < NH && owner[i] != me + 1 -> i++
				:: else -> break
				od;
				skip
			};
			if
			:: i < NH -> push(me, i)
			:: else -> skip
			fi;
			i = 0
		fi
	:: else -> break
	od;
	/* Unmap everything still held. */
	do
	:: i < NH -> if :: owner[i] == me + 1 -> push(me, i) :: else -> skip fi; i++
	:: else -> break
	od;
	atomic { done++ }
}

init
{
	byte v, h, seen[NH], cnt;

	/* The pool divided among the vCPUs, as gnttab_maptrack_init does. */
	atomic {
		v = 0;
		do :: v < NV -> head[v] = NONE; v++ :: else -> break od;
		h = 0;
		do
		:: h < NH -> v = (h * NV) / NH; next[h] = head[v]; head[v] = h; nfree[v]++; h++
		:: else -> break
		od;
		v = 0;
		do :: v < NV -> run vcpu(v); v++ :: else -> break od
	}
	done == NV;
	/* Every handle is on exactly one list and the counts agree: none lost. */
	v = 0;
	do
	:: v < NV ->
		h = head[v];
		cnt = 0;
		do
		:: h != NONE -> assert(seen[h] == 0); seen[h] = 1; cnt++; h = next[h]
		:: else -> break
		od;
		assert(cnt == nfree[v]);
		v++
	:: else -> break
	od;
	h = 0;
	do :: h < NH -> assert(seen[h] == 1 && owner[h] == 0); h++ :: else -> break od
}
