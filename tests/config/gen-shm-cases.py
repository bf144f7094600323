# Writes tests/config/dts/shm-*.dts (Xen 4.17's static shared memory cases):
#   python3 tests/config/gen-shm-cases.py
import os

HEAD = '''/dts-v1/;
{memreserve}// CONFIG:{config}
{hyp}// EXPECT: {expect}
/* {why} */
/ {{
	#address-cells = <2>;
	#size-cells = <2>;
	memory@40000000 {{
		device_type = "memory";
		reg = <0 0x40000000 0 0x40000000>;
	}};
{root}	chosen {{
		#address-cells = <2>;
		#size-cells = <2>;
{chosen}		a {{
			compatible = "xen,domain";
{acells}			memory = <0 16384>;
			cpus = <1>;
{aprops}			module@50000000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <{areg}>;
			}};
{ashm}		}};
		b {{
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 16384>;
			cpus = <1>;
{bprops}			module@50200000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0 0x50200000 0 0x1000>;
			}};
{bshm}		}};
	}};
}};
'''
CELLS2 = '\t\t\t#address-cells = <2>;\n\t\t\t#size-cells = <2>;\n'


def shm(node, sid, mem, role=None, extra='', raw_mem=False, ind='\t\t\t'):
    """A xen,domain-shared-memory-v1 node; mem = (host, guest, size) in 2+2+2 cells."""
    s = '%s%s {\n%s\tcompatible = "xen,domain-shared-memory-v1";\n' % (ind, node, ind)
    if sid is not None:
        s += '%s\txen,shm-id = "%s";\n' % (ind, sid)
    if mem is not None:
        if raw_mem:
            s += '%s\txen,shared-mem = <%s>;\n' % (ind, mem)
        else:
            s += '%s\txen,shared-mem = <%s>;\n' % (ind, ' '.join('%#x %#x' % (v >> 32, v & 0xffffffff)
                                                                 for v in mem))
    if role is not None:
        s += '%s\trole = "%s";\n' % (ind, role)
    for e in extra.split(';'):
        if e.strip():
            s += '%s\t%s;\n' % (ind, e.strip())
    return s + '%s};\n' % ind


R = (0x7fe00000, 0x50000000, 0x200000)          # the usual region: 2 MiB at the top of RAM
OWN = shm('shm-buf0', 'buf0', R, 'owner')
BOR = shm('shm-buf0', 'buf0', R, 'borrower')


def case(name, expect, why, ashm='', bshm='', config='', hyp=None, root='', chosen='',
         memreserve='', aprops='', acells=CELLS2, bprops='', areg='0 0x50000000 0 0x1000'):
    s = HEAD.format(expect=expect, why=why, ashm=ashm, bshm=bshm,
                    config=(' ' + config) if config else '',
                    hyp=('// HYP: %#x %#x\n' % hyp) if hyp else '', root=root, chosen=chosen,
                    memreserve=memreserve, aprops=aprops, acells=acells, bprops=bprops, areg=areg)
    open('tests/config/dts/%s.dts' % name, 'w').write(s)


case('shm-ok', 'OK', 'Xen 4.17\'s example: an owner and a borrower of buf0, both without role for buf1 '
     '(DOMID_IO owns it), each at its own guest address',
     ashm=OWN + shm('shm-buf1', 'buf1', (0x7fc00000, 0x60000000, 0x1000)),
     bshm=shm('shm-buf0', 'buf0', (0x7fe00000, 0x70000000, 0x200000), 'borrower') +
     shm('shm-buf1', 'buf1', (0x7fc00000, 0x50000000, 0x1000)))
case('shm-ok-borrowers', 'OK', 'two borrowers and no owner (Xen 4.17 maps it for both)',
     ashm=shm('shm', 'buf0', R, 'borrower'), bshm=shm('shm', 'buf0', R, 'borrower'))
case('shm-ok-cells', 'OK', 'the domain node\'s cells as in Xen\'s example (1 and 1)',
     areg='0x50000000 0x1000', acells='\t\t\t#address-cells = <1>;\n\t\t\t#size-cells = <1>;\n',
     ashm=shm('shm', 'buf0', '0x7fe00000 0x50000000 0x200000', 'owner', raw_mem=True),
     bshm=BOR)
case('shm-ok-hyp', 'OK', 'next to the hypervisor image, not on it', hyp=(0x7f000000, 0xe00000),
     ashm=OWN, bshm=BOR)
case('shm-dom0', '/chosen/dom0-shm: a dom0 shared memory node: Bulkhead has no dom0, use xen,domain nodes',
     'a region for dom0', chosen=shm('dom0-shm', 'buf0', R, 'owner', ind='\t\t'))
case('shm-id-missing', '/chosen/a/shm: xen,shm-id must be a string of 1 to 15 characters',
     'no xen,shm-id', ashm=shm('shm', None, R))
case('shm-id-long', '/chosen/a/shm: xen,shm-id must be a string of 1 to 15 characters',
     'an id of 16 characters (Xen\'s MAX_SHM_ID_LENGTH counts the NUL)',
     ashm=shm('shm', 'sixteen-chars-id', R))
case('shm-id-empty', '/chosen/a/shm: xen,shm-id must be a string of 1 to 15 characters',
     'an empty id', ashm=shm('shm', '', R))
case('shm-role', '/chosen/a/shm: role must be "owner" or "borrower"', 'another role',
     ashm=shm('shm', 'buf0', R, 'master'))
case('shm-no-host', '/chosen/a/shm: xen,shared-mem must be <host-address guest-address size> of '
     '2+2+2 cells (the domain\'s #address-cells, #size-cells)',
     'no host address (Xen 4.17: "host physical address must be chosen by users")',
     ashm=shm('shm', 'buf0', '0 0x50000000 0 0x200000', raw_mem=True))
case('shm-no-mem', '/chosen/a/shm: xen,shared-mem must be <host-address guest-address size> of '
     '2+2+2 cells (the domain\'s #address-cells, #size-cells)', 'no xen,shared-mem',
     ashm=shm('shm', 'buf0', None))
case('shm-unaligned', '/chosen/a/shm: xen,shared-mem <0x7fe00800 0x50000000 0x1000> is not page '
     'aligned (host address, guest address and size in 4 KiB pages)', 'host address inside a page',
     ashm=shm('shm', 'buf0', (0x7fe00800, 0x50000000, 0x1000)))
case('shm-unaligned-guest', '/chosen/a/shm: xen,shared-mem <0x7fe00000 0x50000010 0x1000> is not page '
     'aligned (host address, guest address and size in 4 KiB pages)', 'guest address inside a page',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x50000010, 0x1000)))
case('shm-unaligned-size', '/chosen/a/shm: xen,shared-mem <0x7fe00000 0x50000000 0x1800> is not page '
     'aligned (host address, guest address and size in 4 KiB pages)', 'a size of one and a half pages',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x50000000, 0x1800)))
case('shm-size-zero', '/chosen/a/shm: xen,shared-mem <0x7fe00000 0x50000000 0x0> is not page '
     'aligned (host address, guest address and size in 4 KiB pages)', 'an empty region',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x50000000, 0)))
case('shm-not-ram', '/chosen/a/shm: xen,shared-mem host range 0x90000000-0x901fffff is not RAM',
     'beyond the board\'s RAM', ashm=shm('shm', 'buf0', (0x90000000, 0x50000000, 0x200000)))
case('shm-hyp', '/chosen/b/shm: xen,shared-mem host range 0x7f000000-0x7f1fffff overlaps the hypervisor '
     '(0x7f000000-0x7fdfffff)', 'on the hypervisor image (check-dtb --hyp, the boot\'s own range)',
     hyp=(0x7f000000, 0xe00000), bshm=shm('shm', 'buf0', (0x7f000000, 0x50000000, 0x200000)))
case('shm-memreserve', '/chosen/a/shm-buf0: xen,shared-mem host range 0x7fe00000-0x7fffffff overlaps '
     '/memreserve/ (0x7ff00000-0x7ff0ffff)', 'over a /memreserve/ entry',
     memreserve='/memreserve/ 0x7ff00000 0x10000;\n', ashm=OWN)
case('shm-reserved', '/chosen/a/shm-buf0: xen,shared-mem host range 0x7fe00000-0x7fffffff overlaps '
     '/reserved-memory (0x7fff0000-0x7fffffff)', 'over a /reserved-memory region (firmware\'s)',
     root='\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n\t\tranges;\n'
     '\t\ttee@7fff0000 {\n\t\t\treg = <0 0x7fff0000 0 0x10000>;\n\t\t\tno-map;\n\t\t};\n\t};\n',
     ashm=OWN)
case('shm-ram', '/chosen/a/shm-buf0: xen,shared-mem host range 0x7fe00000-0x7fffffff overlaps the RAM of b',
     'over another partition\'s fixed RAM', ashm=OWN,
     bprops='\t\t\tbulkhead,memory-base = <0 0x7f000000>;\n')
case('shm-own-ram', '/chosen/a/shm-buf0: xen,shared-mem host range 0x7fe00000-0x7fffffff overlaps the RAM of a',
     'over its own static memory', ashm=OWN,
     aprops='\t\t\txen,static-mem = <0 0x7f000000 0 0x1000000>;\n')
case('shm-module', '/chosen/a/shm: xen,shared-mem host range 0x50000000-0x501fffff overlaps a module of a '
     'at 0x50000000', 'over a kernel module', ashm=shm('shm', 'buf0', (0x50000000, 0x60000000, 0x200000)))
case('shm-overlap', '/chosen/b/shm-buf1: xen,shared-mem host range 0x7fc00000-0x7fe00fff overlaps shared '
     'memory "buf0"', 'two ids over one range', ashm=OWN,
     bshm=shm('shm-buf1', 'buf1', (0x7fc00000, 0x50000000, 0x201000)))
case('shm-same-range', '/chosen/b/shm-buf1: xen,shared-mem host range 0x7fe00000-0x7fffffff overlaps '
     'shared memory "buf0"', 'one range under two ids (Xen 4.17: "xen,shm-id does not match")',
     ashm=OWN, bshm=shm('shm-buf1', 'buf1', R))
case('shm-id-other-range', '/chosen/b/shm-buf0: xen,shm-id "buf0" is 0x7fe00000-0x7fffffff elsewhere, '
     'here 0x7fc00000-0x7fdfffff', 'one id, two ranges', ashm=OWN,
     bshm=shm('shm-buf0', 'buf0', (0x7fc00000, 0x50000000, 0x200000)))
case('shm-id-other-size', '/chosen/b/shm-buf0: xen,shm-id "buf0" is 0x7fe00000-0x7fffffff elsewhere, '
     'here 0x7fe00000-0x7fefffff', 'one id, two sizes', ashm=OWN,
     bshm=shm('shm-buf0', 'buf0', (0x7fe00000, 0x50000000, 0x100000), 'borrower'))
case('shm-two-owners', '/chosen/b/shm-buf0: role "owner": a owns "buf0" already',
     'two owners (Xen 4.17 cannot give the pages to the second)', ashm=OWN,
     bshm=shm('shm-buf0', 'buf0', R, 'owner'))
case('shm-owner-roleless', '/chosen/b/shm-buf0: "buf0" has an owner (a) and a node without role (its '
     'owner is then DOMID_IO, as on Xen)', 'an owner, and a node without role after it', ashm=OWN,
     bshm=shm('shm-buf0', 'buf0', R))
case('shm-roleless-owner', '/chosen/b/shm-buf0: "buf0" has an owner (b) and a node without role (its '
     'owner is then DOMID_IO, as on Xen)', 'a node without role, and an owner after it',
     ashm=shm('shm-buf0', 'buf0', R), bshm=shm('shm-buf0', 'buf0', R, 'owner'))
case('shm-twice', '/chosen/a/second: xen,shm-id "buf0" named twice in a', 'one region twice in a partition',
     ashm=OWN + shm('second', 'buf0', (0x7fe00000, 0x60000000, 0x200000)))
case('shm-guest-ram', '/chosen/a/shm: xen,shared-mem guest range 0x40800000-0x409fffff overlaps the '
     'partition\'s RAM', 'at a guest address of its own RAM (16 MiB from 0x40000000)',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x40800000, 0x200000)))
case('shm-guest-gnttab', '/chosen/a/shm: xen,shared-mem guest range 0x38000000-0x381fffff overlaps the '
     'grant-table window', 'over the grant-table window',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x38000000, 0x200000)))
case('shm-guest-gic', '/chosen/a/shm: xen,shared-mem guest range 0x3000000-0x31fffff overlaps the '
     'virtual GIC', 'over the vGIC', ashm=shm('shm', 'buf0', (0x7fe00000, 0x3000000, 0x200000)))
case('shm-guest-vpl011', '/chosen/a/shm: xen,shared-mem guest range 0x22000000-0x221fffff overlaps the '
     'vpl011', 'over its vpl011', aprops='\t\t\tvpl011;\n',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x22000000, 0x200000)))
case('shm-guest-ipa', '/chosen/a/shm: xen,shared-mem guest range 0x7ffffff000-0x80001fefff overlaps the '
     'end of the 39-bit guest address space', 'beyond the guest address space',
     ashm=shm('shm', 'buf0', (0x7fe00000, 0x7ffffff000, 0x200000)))
case('shm-guest-two', '/chosen/a/shm-buf1: xen,shared-mem guest range 0x501ff000-0x501fffff overlaps '
     'another of its shared memory regions', 'two regions at one guest address', ashm=OWN +
     shm('shm-buf1', 'buf1', (0x7fc00000, 0x501ff000, 0x1000)))
case('shm-too-many', '/chosen/b/shm-buf1: more than 1 static shared memory regions, '
     'CONFIG_STATIC_SHM_REGIONS=1', 'two regions, Kconfig holds one',
     config='CONFIG_STATIC_SHM_REGIONS=1', ashm=OWN,
     bshm=BOR + shm('shm-buf1', 'buf1', (0x7fc00000, 0x60000000, 0x1000)))

# On QEMU virt's devices (virt.dtsi): the hypervisor's UART, a device given to a partition.
VIRT = '''/dts-v1/;
// CONFIG:
{module}// EXPECT: {expect}
/* {why} */
/include/ "virt.dtsi"
/ {{
	chosen {{
		domU1 {{
{one}		}};
		domU2 {{
{two}		}};
	}};
}};
'''
RTC = '''			module@50100000 {
				compatible = "multiboot,device-tree", "multiboot,module";
				reg = <0 0x50100000 0 0x1000>;
			};
'''


def vcase(name, expect, why, one='', two='', module=False):
    s = VIRT.format(expect=expect, why=why, one=one, two=two,
                    module='// MODULE: 0x50100000 rtc\n' if module else '')
    open('tests/config/dts/%s.dts' % name, 'w').write(s)


vcase('shm-uart', '/chosen/domU1/shm: xen,shared-mem host range 0x9000000-0x9000fff overlaps the '
      'hypervisor\'s UART', 'on the hypervisor\'s UART',
      one=shm('shm', 'uart', (0x9000000, 0x50000000, 0x1000)))
vcase('shm-device', '/chosen/domU2/shm: xen,shared-mem host range 0x9010000-0x9010fff overlaps device '
      'memory assigned to domU1', 'on the PL031 domU1 owns (xen,reg)', module=True, one=RTC,
      two=shm('shm', 'rtc', (0x9010000, 0x50000000, 0x1000)))
vcase('shm-guest-device', '/chosen/domU1/shm: xen,shared-mem guest range 0x9010000-0x9010fff overlaps '
      'its device memory (xen,reg)', 'at the guest address of its PL031', module=True,
      one=RTC + shm('shm', 'buf0', (0x7fe00000, 0x9010000, 0x1000)))
