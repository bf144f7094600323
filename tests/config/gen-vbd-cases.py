# Writes tests/config/dts/vbd-*.dts (the bulkhead,vbd cases): python3 tests/config/gen-vbd-cases.py
import os
HEAD = '''/dts-v1/;
// CONFIG:
// EXPECT: {expect}
/* {why} */
/ {{
	#address-cells = <2>;
	#size-cells = <2>;
	memory@40000000 {{
		device_type = "memory";
		reg = <0 0x40000000 0 0x40000000>;
	}};
	chosen {{
		#address-cells = <2>;
		#size-cells = <2>;
		xs {{
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 16384>;
			cpus = <1>;
			xen,enhanced = "no-xenstore";
			capabilities = <4>;
			module@50000000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0 0x50000000 0 0x1000>;
			}};
		}};
		be: be {{
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 {bemem}>;
			cpus = <1>;
			xen,enhanced = "enabled";
			module@50100000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0 0x50100000 0 0x1000>;
			}};
			ev: evtchn@1 {{
				compatible = "xen,evtchn-v1";
				xen,evtchn = <10 &fev>;
			}};
		}};
		fe: fe {{
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 16384>;
			cpus = <1>;
			xen,enhanced{feenh};
			module@50200000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0 0x50200000 0 0x1000>;
			}};
			fev: evtchn@1 {{
				compatible = "xen,evtchn-v1";
				xen,evtchn = <10 &ev>;
			}};
{disks}
		}};
	}};
}};
'''
def disk(name='xvda', node=None, backend='<&be>', vdev=None, size='<0 0x1000000>', extra=''):
    node = node or name
    vdev = name if vdev is None else vdev
    s = '\t\t\t%s {\n\t\t\t\tcompatible = "bulkhead,vbd";\n' % node
    if backend: s += '\t\t\t\tbackend = %s;\n' % backend
    if vdev: s += '\t\t\t\tvirtual-device = "%s";\n' % vdev
    if size: s += '\t\t\t\tsize = %s;\n' % size
    for e in extra.split(';'):
        if e.strip(): s += '\t\t\t\t%s;\n' % e.strip()
    s += '\t\t\t};\n'
    return s
full = 'feature-persistent; feature-max-indirect-segments = <32>; max-ring-page-order = <2>; multi-queue-max-queues = <2>; max-persistent-grants = <256>'
cases = {
 'vbd-ok': ('OK', 'two disks, every feature', disk(extra=full) + disk('xvdb', size='<0 0x200000>', extra='read-only')),
 'vbd-no-backend': ('/chosen/fe/xvda: backend must be <&another xen,domain node>', 'no backend', disk(backend=None)),
 'vbd-backend-not-domain': ('/chosen/fe/xvda: backend must be <&another xen,domain node>', 'a backend that is an event channel node', disk(backend='<&ev>')),
 'vbd-backend-self': ('/chosen/fe/xvda: backend must be <&another xen,domain node>', 'served by itself', disk(backend='<&fe>')),
 'vbd-name': ('/chosen/fe/xvda: virtual-device must be "xvda" .. "xvdp"', 'a Linux disk name, not Xen\'s', disk(vdev='sda')),
 'vbd-name-range': ('/chosen/fe/xvda: virtual-device must be "xvda" .. "xvdp"', 'beyond the 16 non-extended disks', disk(vdev='xvdq')),
 'vbd-twice': ('/chosen/fe/disk2: virtual-device "xvda" given to fe twice', 'one name twice', disk() + disk(node='disk2')),
 'vbd-size-zero': ('/chosen/fe/xvda: size must be <hi lo> bytes, a multiple of 4 KiB', 'empty disk', disk(size='<0 0>')),
 'vbd-size-unaligned': ('/chosen/fe/xvda: size must be <hi lo> bytes, a multiple of 4 KiB', 'not whole pages', disk(size='<0 0x1000200>')),
 'vbd-size-too-big': ('/chosen/fe/xvda: size: be\'s RAM and disks exceed 3 GiB', 'RAM and disk beyond 3 GiB', disk(size='<0 0xbfe00000>')),
 'vbd-indirect-small': ('/chosen/fe/xvda: feature-max-indirect-segments must be one cell, 12..256', 'fewer indirect segments than a direct request has', disk(extra='feature-max-indirect-segments = <8>')),
 'vbd-indirect-big': ('/chosen/fe/xvda: feature-max-indirect-segments must be one cell, 0..256', 'more than the backend takes', disk(extra='feature-max-indirect-segments = <512>')),
 'vbd-ring-order': ('/chosen/fe/xvda: max-ring-page-order must be one cell, 0..3', '16-page rings', disk(extra='max-ring-page-order = <4>')),
 'vbd-queues': ('/chosen/fe/xvda: multi-queue-max-queues must be one cell, 1..4', 'five queues', disk(extra='multi-queue-max-queues = <5>')),
 'vbd-pers': ('/chosen/fe/xvda: max-persistent-grants must be one cell, 1..1024', 'no persistent grant at all', disk(extra='max-persistent-grants = <0>')),
 'vbd-too-many': ('/chosen/fe/xvde: be serves more than 4 virtual disks', 'five disks on one backend', ''.join(disk('xvd' + c, size='<0 0x100000>') for c in 'abcde')),
}
for name, (exp, why, disks) in cases.items():
    s = HEAD.format(expect=exp, why=why, disks=disks.rstrip('\n'), bemem='16384', feenh=' = "enabled"')
    open('tests/config/dts/%s.dts' % name, 'w').write(s)
s = HEAD.format(expect='/chosen/fe/xvda: needs xen,enhanced in fe and be, a backend not direct-map', why='a frontend without PV interfaces', disks=disk().rstrip('\n'), bemem='16384', feenh=' = "disabled"')
open('tests/config/dts/vbd-fe-plain.dts', 'w').write(s)
s = HEAD.format(expect='/chosen/fe/xvda: needs xen,enhanced in fe and be, a backend not direct-map', why='a frontend with grants and events but no xenstore', disks=disk().rstrip('\n'), bemem='16384', feenh=' = "no-xenstore"')
open('tests/config/dts/vbd-fe-no-xenstore.dts', 'w').write(s)
