/*
 * Event channels: send against close and re-bind (common/evtchn/ops.c).
 * VERIFIES: REQ-EVT-028
 * pan: -m100000
 *
 * d1's port L and d2's port R form one channel. A sender on d1 takes only
 * L's lock; closers/re-binders take both partition locks (address order:
 * d1 < d2) and then both channel locks (address order: L < R), as bind and
 * close do. Checked:
 *  - a send never marks pending a port that is not interdomain (no event
 *    into a closed or re-used port: the remote is stable under L's lock);
 *  - no lost event: a send on a live channel leaves R pending until the
 *    receiver consumes it or the channel is closed (monitor);
 *  - no deadlock (lock order) and every process terminates.
 */
#define FREE    0
#define UNBOUND 1
#define INTER   2

byte lstate = INTER;
byte rstate = INTER;
bit dlock1, dlock2, lockL, lockR;
bit pendingR;
bit outstanding;    /* a live send not yet consumed (ghost) */

inline lock(l)   { atomic { l == 0 -> l = 1 } }
inline unlock(l) { l = 0 }

proctype sender()
{
	byte n = 0;
	do
	:: n < 3 ->
		lock(lockL);
		if
		:: lstate == INTER ->
			assert(rstate == INTER);
			atomic { pendingR = 1; outstanding = 1 }
		:: else -> skip    /* unbound: dropped, as in Xen */
		fi;
		unlock(lockL);
		n++
	:: else -> break
	od
}

proctype receiver()
{
end:	do
	:: atomic { pendingR == 1 -> pendingR = 0; outstanding = 0 }
	od
}

/* d2 closes R (L reverts to unbound for d2), then binds R to L again. */
proctype close_r()
{
	lock(dlock1); lock(dlock2);
	lock(lockL); lock(lockR);
	if
	:: rstate == INTER ->
		/* close clears the closed port's pending state (ghost with it) */
		atomic { rstate = FREE; pendingR = 0; outstanding = 0 };
		lstate = UNBOUND
	:: else -> skip
	fi;
	unlock(lockR); unlock(lockL);
	unlock(dlock2); unlock(dlock1);

	lock(dlock1); lock(dlock2);
	lock(lockL); lock(lockR);
	if
	:: lstate == UNBOUND && rstate == FREE ->
		rstate = INTER; lstate = INTER;
		pendingR = 1    /* bind leaves the binder's port pending */
	:: else -> skip
	fi;
	unlock(lockR); unlock(lockL);
	unlock(dlock2); unlock(dlock1)
}

/* d1 closes L (R reverts to unbound for d1), then binds L to R again. */
proctype close_l()
{
	lock(dlock1); lock(dlock2);
	lock(lockL); lock(lockR);
	if
	:: lstate == INTER ->
		lstate = FREE; rstate = UNBOUND
	:: else -> skip
	fi;
	unlock(lockR); unlock(lockL);
	unlock(dlock2); unlock(dlock1);

	lock(dlock1); lock(dlock2);
	lock(lockL); lock(lockR);
	if
	:: rstate == UNBOUND && lstate == FREE ->
		lstate = INTER; rstate = INTER
	:: else -> skip
	fi;
	unlock(lockR); unlock(lockL);
	unlock(dlock2); unlock(dlock1)
}

/* No lost event: an outstanding live send is visible as pending. */
active proctype monitor()
{
end:	atomic { (outstanding && !pendingR) -> assert(false) }
}

init
{
	atomic {
		run sender(); run receiver(); run close_r(); run close_l()
	}
}
