# Shared by tests/linux/scenarios/*.scn: what no Linux boot may print.
# A kernel warning or oops, a hung task, an RCU stall, a module that failed
# to load, a test program's FAIL line, the hypervisor seeing a crash.
LINUX_FORBID=('WARNING:|BUG:|Oops|Unable to handle kernel|Call trace:|cut here'
	'self-detected stall|rcu_.*stall|blocked for more than'
	'init: FAIL|xentest: FAIL|: FAIL '
	'bulkhead: .*(crashed|fault)')
